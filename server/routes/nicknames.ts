// GET /api/nicknames/{nickname} (application-spec §7): {count} of other users with that
// nickname, compared as PUT /api/current_user compares it (users.nickname_key: NFKC, without
// zero-width joiners, case-insensitive; users.nickname_skeleton: look-alike letters;
// server/auth/nickname-key.ts); 0 means free. The nickname dialog asks as the volunteer types, hence a per-user rate limit.
import type { FastifyPluginAsync } from 'fastify';
import type { NicknameCountResponse } from '../../shared/api';
import { normalizeNickname } from '../../shared/validation';
import { holdsNickname } from '../auth/nickname-key';
import { requireUser } from '../auth/session-user';
import { LIMITS, rateLimited } from '../plugins/rate-limits';
import type { AccountRouteOptions } from './account-options';
import { nicknameParameterSchema, pathParameters } from './schemas';

const nicknameSchema = { params: pathParameters({ nickname: nicknameParameterSchema }) } as const;

export const nicknameRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { db, config }) => {
  app.get<{ Params: { nickname: string } }>(
    '/api/nicknames/:nickname',
    { schema: nicknameSchema, preHandler: rateLimited(app, LIMITS.nickname, config.rateLimits) },
    async (request) => {
      const user = requireUser(request);
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where(holdsNickname(normalizeNickname(request.params.nickname)))
        .where('id', '<>', user.id)
        .executeTakeFirstOrThrow();
      const response: NicknameCountResponse = { count: Number(row.count) };
      return response;
    },
  );
};
