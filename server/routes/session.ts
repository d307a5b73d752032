// GET /api/session (application-spec §7): the current user of the session cookie, or
// {"current_user": null, "recommended_course": null} for a visitor without one.
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { CurrentUser, Locale, SessionResponse } from '../../shared/api';
import { gravatarUrl } from '../auth/gravatar';
import type { UserRow } from '../auth/session-user';
import type { Database } from '../db/schema';
import { recommendedCourse } from './recommend';

export function toCurrentUser(user: UserRow, extras: { private_information_present?: boolean } = {}): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    nickname: user.nickname,
    locale: user.locale as Locale,
    password_is_set: user.password_hash !== null,
    private_information_present: extras.private_information_present ?? false,
    gravatar_private: user.gravatar_private,
    gravatar_public: user.gravatar_public,
    avatar_url: user.gravatar_private ? gravatarUrl(user.email) : null,
    admin: user.admin,
  };
}

/** The body of GET /api/session for a user or a visitor; a login answers the same. */
export async function sessionResponse(db: Kysely<Database>, user: UserRow | null): Promise<SessionResponse> {
  if (!user) return { current_user: null, recommended_course: null };
  const answered = await db
    .selectFrom('private_informations')
    .select('user_id')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  return {
    current_user: toCurrentUser(user, { private_information_present: answered !== undefined }),
    recommended_course: await recommendedCourse(db, user.id),
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
  app.get('/api/session', { schema: { response: { 200: sessionResponseSchema } } }, async (request) =>
    sessionResponse(db, request.user),
  );
};
