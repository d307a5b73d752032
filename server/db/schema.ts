// Kysely table types. Columns mirror the migrations in ./migrations; int8 columns are numbers
// here because ./database.ts parses them once for both drivers.
import type { ColumnType, Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  email: string;
  nickname: string;
  locale: string;
  password_hash: string | null;
  admin: Generated<boolean>;
  gravatar_private: Generated<boolean>;
  gravatar_public: Generated<boolean>;
  created_at: ColumnType<Date, never, never>;
}

export interface SessionsTable {
  /** SHA-256 of the cookie token: a database leak does not leak live sessions. */
  token_hash: string;
  user_id: number;
  created_at: ColumnType<Date, never, never>;
  expires_at: Date;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
}
