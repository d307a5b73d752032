// GET /api/session (application-spec §7): the current user of the session cookie, or
// {"current_user": null, "recommended_course": null} for a visitor without one.
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { CurrentUser, Locale, SessionResponse } from '../../src/shared/api';
import type { UserRow } from '../auth/session-user';
import type { Database } from '../db/schema';

export function toCurrentUser(user: UserRow): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    nickname: user.nickname,
    locale: user.locale as Locale,
    password_is_set: user.password_hash !== null,
    private_information_present: false,
    gravatar_private: user.gravatar_private,
    gravatar_public: user.gravatar_public,
    avatar_url: null,
    admin: user.admin,
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

export const sessionRoutes: FastifyPluginAsync<{ db: Kysely<Database> }> = async (app) => {
  app.get('/api/session', { schema: { response: { 200: sessionResponseSchema } } }, async (request) => {
    const body: SessionResponse = {
      current_user: request.user ? toCurrentUser(request.user) : null,
      recommended_course: null,
    };
    return body;
  });
};
