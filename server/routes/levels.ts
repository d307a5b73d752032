// GET /api/server_info, GET /api/levels, GET /api/levels/{level_id} (application-spec §3, §7):
// the courses' levels with each volunteer's status, and a level's areas with their outlines.
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { LevelDetail, LevelStatusEntry, LevelSummary, ServerInfoResponse } from '../../shared/api';
import type { Outline } from '../../shared/catalogue';
import type { CourseId } from '../../shared/enums';
import { requireUser } from '../auth/session-user';
import type { Database } from '../db/schema';
import { HttpError } from '../http-error';
import {
  doneAreaIds,
  doneAreaIdsByCourse,
  loadLevels,
  settledAreaIds,
  statusesOf,
  type StoredLevel,
} from '../game/model-reads';
import { courseIdSchema, int4IdSchema, pathParameters, requireCourse, throwValidationError } from './schemas';

function summary(level: StoredLevel, status: LevelSummary['status']): LevelSummary {
  return {
    id: level.id,
    course_id: level.course_id,
    key: level.key,
    name_key: level.name_key,
    name: level.name,
    type: level.type,
    depth: level.depth,
    survey: level.survey,
    labels: level.labels,
    status,
    number_of_areas: level.areas.length,
  };
}

export const levelRoutes: FastifyPluginAsync<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.addHook('onRequest', async (request) => {
    requireUser(request);
  });

  // "Keyed by course then by group": a group is a level, named by its key (stable across builds),
  // so the app can show progress per course and per stage; a course's total is the sum.
  app.get('/api/server_info', async (): Promise<ServerInfoResponse> => {
    const levels = await loadLevels(db);
    const numberOfAreas: ServerInfoResponse['number_of_areas'] = {};
    for (const level of levels) (numberOfAreas[level.course_id] ??= {})[level.key] = level.areas.length;
    return { number_of_areas: numberOfAreas };
  });

  app.get(
    '/api/levels',
    {
      attachValidation: true,
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { course_id: courseIdSchema, only_status: { type: 'boolean', default: false } },
        },
      },
    },
    async (request): Promise<LevelSummary[] | LevelStatusEntry[]> => {
      const user = requireUser(request);
      throwValidationError(request);
      const { course_id: courseId, only_status: onlyStatus } = request.query as {
        course_id?: CourseId;
        only_status: boolean;
      };
      if (courseId) await requireCourse(db, courseId);
      const levels = await loadLevels(db, courseId);
      const done = courseId
        ? new Map([[courseId as string, await doneAreaIds(db, user.id, courseId)]])
        : await doneAreaIdsByCourse(db, user.id);
      const statuses = statusesOf(levels, done, await settledAreaIds(db, courseId));
      if (onlyStatus)
        return levels.map((level) => ({
          id: level.id,
          course_id: level.course_id,
          key: level.key,
          status: statuses.get(level.id)!,
        }));
      return levels.map((level) => summary(level, statuses.get(level.id)!));
    },
  );

  app.get(
    '/api/levels/:level_id',
    {
      schema: {
        params: pathParameters({ level_id: int4IdSchema }),
      },
    },
    async (request): Promise<LevelDetail> => {
      const user = requireUser(request);
      const { level_id: levelId } = request.params as { level_id: number };
      const row = await db
        .selectFrom('levels')
        .select('course_id')
        .where('id', '=', levelId)
        .where('retired', '=', false)
        .executeTakeFirst();
      if (!row) throw new HttpError(404, `Level ${levelId} not found.`);
      const courseId = row.course_id as CourseId;
      const levels = await loadLevels(db, courseId);
      const level = levels.find((candidate) => candidate.id === levelId)!;
      const statuses = statusesOf(
        levels,
        new Map([[courseId as string, await doneAreaIds(db, user.id, courseId)]]),
        await settledAreaIds(db, courseId),
      );
      const outlines = level.areaIds.length
        ? await db.selectFrom('areas').select(['id', 'outlines']).where('id', 'in', level.areaIds).execute()
        : [];
      const byId = new Map(outlines.map((area) => [area.id, area.outlines as Outline[]]));
      return {
        ...summary(level, statuses.get(level.id)!),
        areas: level.areaIds.map((id) => ({ id, outlines: byId.get(id)! })),
      };
    },
  );
};
