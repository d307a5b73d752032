// GET /api/campaigns (polled every second by every client, so served from a one-second board
// cache) and GET /api/courses/{course_id}/rankings/{period} (application-spec §7).
import type { FastifyPluginAsync } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { RANKING_PERIODS, type CampaignEntry, type RankingEntry, type RankingPeriod } from '../../src/shared/api';
import type { CourseId } from '../../src/shared/enums';
import { gravatarUrl } from '../auth/gravatar';
import { requireUser } from '../auth/session-user';
import type { Database } from '../db/schema';
import { RANKING_SIZE, periodStart } from '../game/rankings';
import type { CampaignBoardCache } from '../game/model-reads';
import { courseIdSchema, throwValidationError } from './schemas';

export interface CampaignRouteOptions {
  db: Kysely<Database>;
  campaigns: CampaignBoardCache;
  timeZone: string;
}

export const campaignRoutes: FastifyPluginAsync<CampaignRouteOptions> = async (app, { db, campaigns, timeZone }) => {
  app.addHook('onRequest', async (request) => {
    requireUser(request);
  });

  app.get('/api/campaigns', { config: { recentSession: true } }, async (): Promise<CampaignEntry[]> => campaigns.get());

  app.get(
    '/api/courses/:course_id/rankings/:period',
    {
      attachValidation: true,
      schema: {
        params: {
          type: 'object',
          required: ['course_id', 'period'],
          additionalProperties: false,
          properties: { course_id: courseIdSchema, period: { type: 'string', enum: [...RANKING_PERIODS] } },
        },
      },
    },
    async (request): Promise<RankingEntry[]> => {
      requireUser(request);
      throwValidationError(request);
      const { course_id: courseId, period } = request.params as { course_id: CourseId; period: RankingPeriod };
      const since = periodStart(period, new Date(), timeZone);
      // "Who got there first": among equal counts, the one whose last counted answer is older
      // reached that count earlier.
      const rows = await db
        .selectFrom('answers')
        .innerJoin('users', 'users.id', 'answers.user_id')
        .select([
          'users.id',
          'users.nickname',
          'users.email',
          'users.gravatar_public',
          (eb) => eb.fn.countAll<number>().as('count'),
          (eb) => eb.fn.max('answers.created_at').as('reached_at'),
        ])
        .where('answers.course_id', '=', courseId)
        .where('answers.created_at', '>=', since)
        .groupBy(['users.id', 'users.nickname', 'users.email', 'users.gravatar_public'])
        .orderBy(sql`count(*)`, 'desc')
        .orderBy(sql`max(answers.created_at)`, 'asc')
        .orderBy('users.id', 'asc')
        .limit(RANKING_SIZE)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        nickname: row.nickname,
        count: Number(row.count),
        public_avater: row.gravatar_public ? gravatarUrl(row.email) : null,
      }));
    },
  );
};
