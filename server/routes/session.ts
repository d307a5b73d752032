// GET /api/session (application-spec §7): the current user from the session cookie, or
// {"current_user": null, "recommended_course": null} for a visitor without one.
import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { CurrentUser, Locale, SessionResponse } from '../../src/shared/api';
import type { Database } from '../db/schema';

export const SESSION_COOKIE = 'galaxy_cruise_session';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

async function currentUser(db: Kysely<Database>, token: string | undefined): Promise<CurrentUser | null> {
  if (!token) return null;
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.email', 'users.nickname', 'users.locale', 'users.password_hash', 'users.admin'])
    .select(['users.gravatar_private', 'users.gravatar_public'])
    .where('sessions.token_hash', '=', hashToken(token))
    .where('sessions.expires_at', '>', new Date())
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    nickname: row.nickname,
    locale: row.locale as Locale,
    password_is_set: row.password_hash !== null,
    private_information_present: false,
    gravatar_private: row.gravatar_private,
    gravatar_public: row.gravatar_public,
    avatar_url: null,
    admin: row.admin,
  };
}

const sessionResponseSchema = {
  type: 'object',
  required: ['current_user', 'recommended_course'],
  properties: {
    current_user: { type: ['object', 'null'], additionalProperties: true },
    recommended_course: { type: ['string', 'null'] },
  },
} as const;

export const sessionRoutes: FastifyPluginAsync<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get('/api/session', { schema: { response: { 200: sessionResponseSchema } } }, async (request) => {
    const body: SessionResponse = {
      current_user: await currentUser(db, request.cookies[SESSION_COOKIE]),
      recommended_course: null,
    };
    return body;
  });
};
