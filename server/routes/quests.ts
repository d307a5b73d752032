// Quests and answers (application-spec §7; ARCHITECTURE.md, the game model):
//   GET    /api/courses/{course_id}/quests/current  the unfinished quest, created when none exists
//   DELETE /api/courses/{course_id}/quests          new game (training and illustris_review)
//   POST   /api/quests/{quest_id}/answers           one answer per user and object, re-posting replaces it
//   GET    /api/my_record/{course_id}, /api/my_records
// The reads and writes behind them live in ../game/ (current-quest.ts, answer-batches.ts,
// records.ts); this file validates, authorises and shapes the replies. An answer written also
// reaches the science through a trigger on answers (science_log, migration 0009): see
// ../game/answer-batches.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type {
  Answer,
  AnswerBody,
  CurrentQuestResponse,
  MyRecordResponse,
  MyRecordsResponse,
  NewRecordResponse,
  QuestRecord,
} from '../../shared/api';
import { COURSE_IDS, DEFAULT_COURSE, type CourseId } from '../../shared/enums';
import { requireUser } from '../auth/session-user';
import type { Database } from '../db/schema';
import { AnswerBatches } from '../game/answer-batches';
import { crossesMedal } from '../game/campaigns';
import { currentQuest } from '../game/current-quest';
import type { CampaignBoardCache } from '../game/model-reads';
import { NEW_GAME_COURSES } from '../game/quests';
import { courseAnswerCounts, questRecords } from '../game/records';
import { HttpError } from '../http-error';
import {
  answerBodySchema,
  courseIdSchema,
  int8IdSchema,
  pathParameters,
  requireCourse,
  throwValidationError,
} from './schemas';

const courseParams = pathParameters({ course_id: courseIdSchema });

export interface QuestRouteOptions {
  db: Kysely<Database>;
  campaigns: CampaignBoardCache;
}

export const questRoutes: FastifyPluginAsync<QuestRouteOptions> = async (app, { db, campaigns }) => {
  const answers = new AnswerBatches(db);
  // After the server stopped taking requests: every answer taken is written before the database closes.
  app.addHook('onClose', () => answers.close());
  const record = (userId: number, courseId?: CourseId) => questRecords(db, userId, courseId);
  const answerCounts = (userId: number) => courseAnswerCounts(db, userId);
  app.addHook('onRequest', async (request) => {
    requireUser(request);
  });

  app.get(
    '/api/courses/:course_id/quests/current',
    { attachValidation: true, config: { recentSession: true }, schema: { params: courseParams } },
    async (request): Promise<CurrentQuestResponse> => {
      const user = requireUser(request);
      throwValidationError(request);
      const { course_id: courseId } = request.params as { course_id: CourseId };
      await requireCourse(db, courseId, { sailing: true });
      return currentQuest(db, user.id, courseId);
    },
  );

  app.delete(
    '/api/courses/:course_id/quests',
    { attachValidation: true, schema: { params: courseParams } },
    async (request, reply) => {
      const user = requireUser(request);
      throwValidationError(request);
      const { course_id: courseId } = request.params as { course_id: CourseId };
      await requireCourse(db, courseId);
      if (!(NEW_GAME_COURSES as readonly string[]).includes(courseId))
        throw new HttpError(
          422,
          `A new game can only be started in the ${NEW_GAME_COURSES.join(' and ')} courses, not in ${courseId}.`,
        );
      // The answers stay (their quest_id becomes NULL): a new game replays the course, it does
      // not erase classifications. Replaying an object replaces the kept answer.
      await db.deleteFrom('quests').where('user_id', '=', user.id).where('course_id', '=', courseId).execute();
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/quests/:quest_id/answers',
    {
      config: { recentSession: true },
      schema: {
        params: pathParameters({ quest_id: int8IdSchema }),
        body: answerBodySchema,
      },
    },
    async (request): Promise<NewRecordResponse> => {
      const user = requireUser(request);
      const { quest_id: questId } = request.params as { quest_id: number };
      const answer = request.body as Answer & AnswerBody;

      const posted = await answers.post(user.id, questId, answer);
      if (!posted.quest_found) throw new HttpError(404, `Quest ${questId} not found.`);
      if (!posted.is_question)
        throw new HttpError(422, `Object ${answer.object_id} is not a question of quest ${questId}.`);
      // The quest vanished (a new game deleted it) between the statement's snapshot and its write.
      if (posted.inserted === null) throw new HttpError(404, `Quest ${questId} not found.`);

      const counts = new Map<number, number>();
      for (const drawn of posted.ordinals) counts.set(drawn.id, drawn.ordinal);
      const newRecord = posted.ordinals.some((drawn) => crossesMedal(drawn.medals, drawn.ordinal - 1, drawn.ordinal));
      // The board comes from the one-second cache, with this answer's ordinals merged in.
      campaigns.apply(counts);
      return {
        campaigns: await campaigns.get(),
        new_record: newRecord,
        answers_count: posted.answers_before + (posted.inserted ? 1 : 0),
        ...(posted.retired_since.length > 0 ? { retired_object_ids: posted.retired_since } : {}),
      };
    },
  );

  // The course defaults to season2 (application-spec §7), also when the path names none.
  app.get('/api/my_record', async (request): Promise<MyRecordResponse> => {
    const user = requireUser(request);
    const [quests, counts] = await Promise.all([record(user.id, DEFAULT_COURSE), answerCounts(user.id)]);
    return { course_id: DEFAULT_COURSE, quests, answers_count: counts.get(DEFAULT_COURSE) ?? 0 };
  });

  app.get(
    '/api/my_record/:course_id',
    { attachValidation: true, schema: { params: courseParams } },
    async (request): Promise<MyRecordResponse> => {
      const user = requireUser(request);
      throwValidationError(request);
      const { course_id: courseId } = request.params as { course_id: CourseId };
      await requireCourse(db, courseId);
      const [quests, counts] = await Promise.all([record(user.id, courseId), answerCounts(user.id)]);
      return { course_id: courseId, quests, answers_count: counts.get(courseId) ?? 0 };
    },
  );

  app.get('/api/my_records', async (request): Promise<MyRecordsResponse> => {
    const user = requireUser(request);
    const [quests, counts, imported] = await Promise.all([
      record(user.id),
      answerCounts(user.id),
      db.selectFrom('courses').select('id').where('imported', '=', true).orderBy('position').execute(),
    ]);
    // "Records for all courses": the five, then the imported ones (galaxy-cruise import).
    const ids = [...COURSE_IDS, ...imported.map((course) => course.id as CourseId)];
    const records = Object.fromEntries(
      ids.map((id) => [id, { course_id: id, quests: [] as QuestRecord[], answers_count: counts.get(id) ?? 0 }]),
    ) as MyRecordsResponse;
    for (const quest of quests) records[quest.course_id].quests.push(quest);
    return records;
  });
};
