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
import { activeLevelIndex, levelStatusAt, levelWindow } from '../game/levels';
import {
  currentLevels,
  doneAreaIds,
  doneAreaIdsByCourse,
  currentLevelsByCourse,
  levelIndex,
  passedAreaIds,
  settledAreaIds,
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
  // so the app can show progress per course and per stage; a course's total is the sum. The same
  // for every volunteer until the catalogue changes: made once per levels read, sent as text.
  let serverInfo: { levels: StoredLevel[]; body: string } | undefined;
  app.get('/api/server_info', async (_request, reply) => {
    const levels = await currentLevels(db);
    if (serverInfo?.levels !== levels) {
      const numberOfAreas: ServerInfoResponse['number_of_areas'] = {};
      for (const level of levels) (numberOfAreas[level.course_id] ??= {})[level.key] = level.areas.length;
      serverInfo = { levels, body: JSON.stringify({ number_of_areas: numberOfAreas } satisfies ServerInfoResponse) };
    }
    return reply.type('application/json; charset=utf-8').send(serverInfo.body);
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
      const done = courseId
        ? new Map([[courseId as string, await doneAreaIds(db, user.id, courseId)]])
        : await doneAreaIdsByCourse(db, user.id);
      const settled = await settledAreaIds(db, courseId);
      const byCourse = courseId
        ? new Map([[courseId as string, await currentLevels(db, courseId)]])
        : await currentLevelsByCourse(db);
      // Each course's window (levelWindow): the five whole, a course of thousands around the active level.
      const levels: StoredLevel[] = [];
      const statuses = new Map<number, LevelSummary['status']>();
      for (const [course, inCourse] of byCourse) {
        const passed = passedAreaIds(done.get(course) ?? [], settled.get(course));
        const window = levelWindow(inCourse, passed);
        levels.push(...window.levels);
        for (const [id, status] of window.statuses) statuses.set(id, status);
      }
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
      const done = await doneAreaIds(db, user.id, courseId);
      const settled = await settledAreaIds(db, courseId);
      const levels = await currentLevels(db, courseId);
      const level = levelIndex(levels).byId.get(levelId)!;
      const passed = passedAreaIds(done, settled.get(courseId));
      const status = levelStatusAt(levels, levels.indexOf(level), activeLevelIndex(levels, passed), passed);
      const outlines = level.areaIds.length
        ? await db.selectFrom('areas').select(['id', 'outlines']).where('id', 'in', level.areaIds).execute()
        : [];
      const byId = new Map(outlines.map((area) => [area.id, area.outlines as Outline[]]));
      return {
        ...summary(level, status),
        areas: level.areaIds.map((id) => ({ id, outlines: byId.get(id)! })),
      };
    },
  );
};
