// GET /api/courses (src/shared/courses.ts): the courses in sailing order with what the client
// needs to show an imported one (its names, whether it is open, its imagery). Beside
// application-spec's calls: they keep their shapes, and this one adds what the spec's five
// courses never needed.
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { CourseEntry, CoursesResponse } from '../../src/shared/courses';
import { COURSE_IDS } from '../../src/shared/enums';
import { requireUser } from '../auth/session-user';
import type { Database } from '../db/schema';

export const courseRoutes: FastifyPluginAsync<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get('/api/courses', async (request): Promise<CoursesResponse> => {
    requireUser(request);
    const imported = await db
      .selectFrom('courses')
      .select(['id', 'name', 'open', 'hips_url'])
      .where('imported', '=', true)
      .orderBy('position')
      .orderBy('id')
      .execute();
    // The five exist whether or not a catalogue was seeded, as their routes do.
    return [
      ...COURSE_IDS.map((id): CourseEntry => ({ id, imported: false, open: true })),
      ...imported.map((course): CourseEntry => ({
        id: course.id,
        ...(course.name ? { name: { en: course.name.en, ja: course.name.ja } } : {}),
        imported: true,
        open: course.open,
        ...(course.hips_url ? { hips_url: course.hips_url } : {}),
      })),
    ];
  });
};
