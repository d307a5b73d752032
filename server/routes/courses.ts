// GET /api/courses (shared/courses.ts): the courses in sailing order with what the client
// needs to show an imported one (its names, whether it is open, its imagery). Beside
// application-spec's calls: they keep their shapes, and this one adds what the spec's five
// courses never needed. For administrators (issue 30's course page): GET /api/admin/courses, each
// course with its source, targets, volunteers and progress, and PUT /api/admin/courses/{course_id}
// {open}, which opens an imported course to volunteers or closes it.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type {
  AdminCourseEntry,
  AdminCourseUpdate,
  CourseEntry,
  CoursesResponse,
  HipsColour,
} from '../../shared/courses';
import { COURSE_IDS } from '../../shared/enums';
import { requireAdmin, requireUser } from '../auth/session-user';
import type { Database } from '../db/schema';
import { HttpError } from '../http-error';
import { adminCourses, setCourseOpen } from '../db/admin-courses';
import { courseIdSchema, pathParameters, requireCourse, throwValidationError } from './schemas';

const asAdmin = { onRequest: async (request: FastifyRequest) => void requireAdmin(request) };

export const courseRoutes: FastifyPluginAsync<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get('/api/courses', async (request): Promise<CoursesResponse> => {
    requireUser(request);
    const imported = await db
      .selectFrom('courses')
      .select(['id', 'name', 'open', 'hips_url', 'hips_colour'])
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
        ...(course.hips_colour ? { hips_colour: course.hips_colour as unknown as HipsColour } : {}),
      })),
    ];
  });

  app.get('/api/admin/courses', asAdmin, async (): Promise<AdminCourseEntry[]> => adminCourses(db));

  app.put(
    '/api/admin/courses/:course_id',
    {
      ...asAdmin,
      attachValidation: true,
      schema: {
        params: pathParameters({ course_id: courseIdSchema }),
        body: {
          type: 'object',
          required: ['open'],
          additionalProperties: false,
          properties: { open: { type: 'boolean' } },
        },
      },
    },
    async (request, reply) => {
      throwValidationError(request);
      const { course_id: courseId } = request.params as { course_id: string };
      await requireCourse(db, courseId);
      const { open } = request.body as AdminCourseUpdate;
      if (!(await setCourseOpen(db, courseId, open)))
        throw new HttpError(422, `Course '${courseId}' is a course of the application spec: it stays open.`);
      return reply.code(204).send();
    },
  );
};
