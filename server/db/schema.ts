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

/** Locale → text ({"en": ..., "ja": ...}); written as a JSON string, read back as an object. */
export type LocaleTextColumn = ColumnType<Record<string, string>, string, string>;

export interface NotificationsTable {
  id: Generated<number>;
  /** NULL: for everyone; set: personal to that user (level_unlocked). */
  user_id: number | null;
  type: 'campaign_start' | 'captain_message' | 'level_unlocked' | 'no_group';
  title: LocaleTextColumn;
  message: LocaleTextColumn;
  html: Generated<boolean>;
  locale_fallback: Generated<boolean>;
  custom_component: string | null;
  valid_after: Date | null;
  valid_before: Date | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

export interface NotificationReadsTable {
  notification_id: number;
  user_id: number;
  read_at: ColumnType<Date, never, never>;
}

export interface PresentApplicationsTable {
  user_id: number;
  name: string;
  country_code: number;
  zip_code: string;
  address1: string;
  address2: string;
  address3: string;
  message: string;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  notifications: NotificationsTable;
  notification_reads: NotificationReadsTable;
  present_applications: PresentApplicationsTable;
}
