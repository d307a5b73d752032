// GET /api/user_stats (application-spec §3, User stats: answers_count_per_course): the user's
// classified galaxies per course, for the mypage. The counts are the ones the answer path keeps
// per user and course (course_answer_counts), so the read is one small indexed select; a course
// not yet answered counts 0.
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { UserStatsResponse } from '../../src/shared/api';
import { COURSE_IDS, type CourseId } from '../../src/shared/enums';
import { requireUser } from '../auth/session-user';
import type { Database } from '../db/schema';

export const userStatsRoutes: FastifyPluginAsync<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get('/api/user_stats', async (request): Promise<UserStatsResponse> => {
    const user = requireUser(request);
    const rows = await db
      .selectFrom('course_answer_counts')
      .select(['course_id', 'answers_count'])
      .where('user_id', '=', user.id)
      .execute();
    const counts = Object.fromEntries(COURSE_IDS.map((id) => [id, 0])) as Record<CourseId, number>;
    for (const row of rows) if (row.course_id in counts) counts[row.course_id as CourseId] = Number(row.answers_count);
    return { answers_count_per_course: counts };
  });
};
