// Finding accounts by address. Addresses are kept and compared trimmed and lower-cased
// (a unique index on lower(email) backs this up).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { UserRow } from './session-user';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', normalizeEmail(email)))
    .executeTakeFirst();
}
