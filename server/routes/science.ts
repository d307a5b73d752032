// The research dashboard's calls (shared/science.ts, docs/science.md), administrators only:
// GET /api/admin/science, the summary; GET /api/admin/courses/{course_id}/export?format=…&table=…,
// the course's catalogue (or its raw answers, or its volunteers' reliability) as a download
// streamed a block at a time (never whole in memory).
import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  SCIENCE_EXPORT_FORMATS,
  SCIENCE_EXPORT_TABLES,
  type ScienceExportFormat,
  type ScienceExportTable,
} from '../../shared/science';
import { requireAdmin } from '../auth/session-user';
import type { Database } from '../db/schema';
import { HttpError } from '../http-error';
import { courseExists } from '../science/catalogue-rows';
import { sumNewAnswers } from '../science/consensus';
import { scienceSummary } from '../science/dashboard';
import { exportContentType, exportFileName, exportTable } from '../science/export';
import { courseIdSchema, pathParameters, throwValidationError } from './schemas';

const asAdmin = { onRequest: async (request: FastifyRequest) => void requireAdmin(request) };

const exportSchema = {
  // A course id of no course's form (NUL, a lone surrogate, too long) is 404 "Unknown course",
  // as on every route with a course id (throwValidationError), before the database is asked.
  params: pathParameters({ course_id: courseIdSchema }),
  querystring: {
    type: 'object',
    required: ['format'],
    additionalProperties: false,
    properties: {
      format: { type: 'string', enum: [...SCIENCE_EXPORT_FORMATS] },
      table: { type: 'string', enum: [...SCIENCE_EXPORT_TABLES], default: 'catalogue' },
    },
  },
} as const;

/** `secret`: the server's secret, for the volunteers' pseudonyms (../science/pseudonyms.ts). */
export const scienceRoutes: FastifyPluginAsync<{ db: Kysely<Database>; secret: () => Buffer }> = async (
  app,
  { db, secret },
) => {
  app.get('/api/admin/science', asAdmin, async () => {
    // Answers of the last second are summed before the summary reads them.
    await sumNewAnswers(db);
    return scienceSummary(db);
  });

  app.get<{ Params: { course_id: string }; Querystring: { format: ScienceExportFormat; table: ScienceExportTable } }>(
    '/api/admin/courses/:course_id/export',
    { ...asAdmin, attachValidation: true, schema: exportSchema },
    async (request, reply) => {
      throwValidationError(request);
      const { course_id: courseId } = request.params;
      const { format, table } = request.query;
      if (!(await courseExists(db, courseId))) throw new HttpError(404, `No course '${courseId}'.`);
      await sumNewAnswers(db);
      return reply
        .type(exportContentType(format))
        .header('content-disposition', `attachment; filename="${exportFileName(format, courseId, table)}"`)
        .send(Readable.from(exportTable(db, courseId, table, format, secret)));
    },
  );
};
