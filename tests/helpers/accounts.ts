// Test users with live sessions, written straight into the database (the account routes have
// their own tests): returns the cookie to send with app.inject. And a welcome questionnaire's
// valid answers (application-spec §5).
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { SESSION_COOKIE, hashToken } from '../../server/auth/session-user';
import type { Database } from '../../server/db/schema';

export interface TestUser {
  id: number;
  email: string;
  cookies: Record<string, string>;
}

let counter = 0;

export async function createTestUser(
  db: Kysely<Database>,
  options: { email?: string; nickname?: string; admin?: boolean; locale?: 'en' | 'ja' } = {},
): Promise<TestUser> {
  counter += 1;
  const email = options.email ?? `volunteer${counter}-${crypto.randomBytes(4).toString('hex')}@example.org`;
  const user = await db
    .insertInto('users')
    .values({
      email,
      nickname: options.nickname ?? `volunteer${counter}`,
      locale: options.locale ?? 'en',
      password_hash: null,
      admin: options.admin ?? false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const token = crypto.randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({ token_hash: hashToken(token), user_id: user.id, expires_at: new Date(Date.now() + 3600_000) })
    .execute();
  return { id: user.id, email, cookies: { [SESSION_COOKIE]: token } };
}

/** Valid answers to the welcome questionnaire (POST /api/current_user/private_information). */
export const QUESTIONNAIRE = {
  birth_year: 1990,
  country_code: 392,
  gender: 'woman',
  reasons_for_participation: ['astronomy', 'contribute_to_science'],
  relation_to_astronomy: 2,
  time_spent_in_astronomy: 3,
  way_to_know_this_site: 'sns',
};
