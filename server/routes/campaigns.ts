// GET /api/campaigns (polled every second by every client, so served from a one-second board
// cache) and GET /api/courses/{course_id}/rankings/{period} (application-spec §7), from the kept
// counts through a one-second cache shared by all callers (server/game/ranking-counts.ts).
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { CampaignEntry, RankingEntry, RankingPeriod } from '../../shared/api';
import type { CourseId } from '../../shared/enums';
import { requireUser } from '../auth/session-user';
import type { Database } from '../db/schema';
import { RankingBoardCache } from '../game/ranking-counts';
import type { CampaignBoardCache } from '../game/model-reads';
import { courseIdSchema, pathParameters, rankingPeriodSchema, requireCourse, throwValidationError } from './schemas';

export interface CampaignRouteOptions {
  db: Kysely<Database>;
  campaigns: CampaignBoardCache;
  timeZone: string;
}

export const campaignRoutes: FastifyPluginAsync<CampaignRouteOptions> = async (app, { db, campaigns, timeZone }) => {
  const rankings = new RankingBoardCache(db, timeZone);

  app.addHook('onRequest', async (request) => {
    requireUser(request);
  });

  app.get('/api/campaigns', { config: { recentSession: true } }, async (): Promise<CampaignEntry[]> => campaigns.get());

  app.get(
    '/api/courses/:course_id/rankings/:period',
    {
      attachValidation: true,
      // A ranking is served from a cache shared by all callers; reusing the session lookup too
      // leaves the database nothing to do for a reload of the ranking modal.
      config: { recentSession: true },
      schema: {
        params: pathParameters({ course_id: courseIdSchema, period: rankingPeriodSchema }),
      },
    },
    async (request): Promise<RankingEntry[]> => {
      requireUser(request);
      throwValidationError(request);
      const { course_id: courseId, period } = request.params as { course_id: CourseId; period: RankingPeriod };
      await requireCourse(db, courseId);
      return rankings.get(courseId, period);
    },
  );
};
