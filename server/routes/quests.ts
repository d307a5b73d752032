// Quests and answers (application-spec §7; ARCHITECTURE.md, the game model):
//   GET    /api/courses/{course_id}/quests/current  the unfinished quest, created when none exists
//   DELETE /api/courses/{course_id}/quests          new game (training and illustris_review)
//   POST   /api/quests/{quest_id}/answers           one answer per user and object, re-posting replaces it
//   GET    /api/my_record/{course_id}, /api/my_records
import type { FastifyPluginAsync } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type {
  Answer,
  AnswerBody,
  CurrentQuestResponse,
  MyRecordResponse,
  MyRecordsResponse,
  NewRecordResponse,
  Question,
  QuestRecord,
} from '../../src/shared/api';
import type { CaptainNote } from '../../src/shared/catalogue';
import { COURSE_IDS, DEFAULT_COURSE, GALAXY_TYPES, INTERACTIONS, type CourseId } from '../../src/shared/enums';
import { requireUser } from '../auth/session-user';
import type { Database } from '../db/schema';
import { crossesMedal } from '../game/campaigns';
import { activeLevel, completesLevel } from '../game/levels';
import { NEW_GAME_COURSES, isQuestComplete, nearestNotDoneArea } from '../game/quests';
import type { SkyPoint } from '../game/sky';
import { HttpError } from '../http-error';
import { createLevelUnlockedNotification } from '../notifications/personal';
import { doneAreaIds, loadLevels, toIso, type CampaignBoardCache, type Db, type StoredLevel } from './game-store';
import { courseIdSchema, int8IdSchema, throwValidationError } from './game-schemas';

const courseParams = {
  type: 'object',
  required: ['course_id'],
  additionalProperties: false,
  properties: { course_id: courseIdSchema },
} as const;

const answerBodySchema = {
  type: 'object',
  required: ['object_id'],
  additionalProperties: false,
  properties: {
    object_id: int8IdSchema,
    galaxy_type: { type: 'string', enum: [...GALAXY_TYPES], default: 'not_sure' },
    interaction: { type: 'string', enum: [...INTERACTIONS], default: 'not_sure' },
    ring: { type: 'boolean', default: false },
    fan: { type: 'boolean', default: false },
    tail: { type: 'boolean', default: false },
    distorted: { type: 'boolean', default: false },
  },
} as const;

const ANSWER_COLUMNS = ['object_id', 'galaxy_type', 'interaction', 'ring', 'fan', 'tail', 'distorted'] as const;

interface QuestRow {
  id: number;
  user_id: number | null;
  course_id: string;
  level_id: number;
  area_id: number;
  type: 'regular' | 'greed' | 'tunnel_effect';
  created_at: Date;
  finished_at: Date | null;
}

async function unfinishedQuest(db: Db, userId: number, courseId: CourseId): Promise<QuestRow | undefined> {
  return db
    .selectFrom('quests')
    .selectAll()
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('finished_at', 'is', null)
    .executeTakeFirst();
}

/** Where the ship is: the centre of the area of the user's latest quest in the course. */
async function shipPosition(db: Db, userId: number, courseId: CourseId): Promise<SkyPoint | undefined> {
  const row = await db
    .selectFrom('quests')
    .innerJoin('areas', 'areas.id', 'quests.area_id')
    .select(['areas.center_ra', 'areas.center_dec'])
    .where('quests.user_id', '=', userId)
    .where('quests.course_id', '=', courseId)
    .orderBy('quests.created_at', 'desc')
    .orderBy('quests.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? [row.center_ra, row.center_dec] : undefined;
}

async function questions(db: Db, areaId: number): Promise<Question[]> {
  const rows = await db
    .selectFrom('targets')
    .select(['object_id', 'ra', 'dec', 'captain_note'])
    .where('area_id', '=', areaId)
    .where('retired', '=', false)
    .orderBy('position')
    .execute();
  return rows.map(({ object_id, ra, dec, captain_note }) =>
    captain_note ? { object_id, ra, dec, captain_note: captain_note as CaptainNote } : { object_id, ra, dec },
  );
}

async function questAnswers(db: Db, questId: number): Promise<Answer[]> {
  return db.selectFrom('answers').select(ANSWER_COLUMNS).where('quest_id', '=', questId).orderBy('id').execute();
}

/**
 * An unfinished quest that a re-seed left unplayable: its area retired (the quest goes; its
 * answers stay) or its remaining questions retired with every other one answered (it finishes).
 * Otherwise the volunteer would wait on a quest that no answer can finish.
 */
async function repairAfterReseed(quest: QuestRow, levels: StoredLevel[], db: Db): Promise<QuestRow | undefined> {
  const playable = levels.some((level) => level.areaIds.includes(quest.area_id));
  if (!playable) {
    await db.deleteFrom('quests').where('id', '=', quest.id).where('finished_at', 'is', null).execute();
    return undefined;
  }
  const open = await db
    .selectFrom('targets')
    .select('object_id')
    .where('area_id', '=', quest.area_id)
    .where('retired', '=', false)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('answers')
            .select('answers.id')
            .where('answers.quest_id', '=', quest.id)
            .whereRef('answers.object_id', '=', 'targets.object_id'),
        ),
      ),
    )
    .limit(1)
    .executeTakeFirst();
  if (open) return quest;
  await db
    .updateTable('quests')
    .set({ finished_at: sql`now()` })
    .where('id', '=', quest.id)
    .execute();
  return undefined;
}

export interface QuestRouteOptions {
  db: Kysely<Database>;
  campaigns: CampaignBoardCache;
}

export const questRoutes: FastifyPluginAsync<QuestRouteOptions> = async (app, { db, campaigns }) => {
  app.addHook('onRequest', async (request) => {
    requireUser(request);
  });

  app.get(
    '/api/courses/:course_id/quests/current',
    { attachValidation: true, schema: { params: courseParams } },
    async (request): Promise<CurrentQuestResponse> => {
      const user = requireUser(request);
      throwValidationError(request);
      const { course_id: courseId } = request.params as { course_id: CourseId };

      let quest = await unfinishedQuest(db, user.id, courseId);
      const levels = await loadLevels(db, courseId);
      if (quest) quest = await repairAfterReseed(quest, levels, db);
      let done = await doneAreaIds(db, user.id, courseId);
      if (!quest) {
        const level = activeLevel(levels, done);
        if (!level) {
          return {
            id: null,
            course_id: courseId,
            type: null,
            level_id: null,
            level_name_key: null,
            area_id: null,
            level_key: null,
            created_at: null,
            finished_at: null,
            questions: [],
            answers: [],
            depth: null,
            done_area_ids: [...done].sort((a, b) => a - b),
            no_more_available_objects: true,
          };
        }
        const area = nearestNotDoneArea(level.areas, done, await shipPosition(db, user.id, courseId))!;
        // The partial unique index (one unfinished quest per user and course) makes a concurrent
        // request's insert a no-op; both then read the one quest.
        await db
          .insertInto('quests')
          .values({ user_id: user.id, course_id: courseId, level_id: level.id, area_id: area.id, type: level.type })
          .onConflict((oc) => oc.columns(['user_id', 'course_id']).where('finished_at', 'is', null).doNothing())
          .execute();
        quest = await unfinishedQuest(db, user.id, courseId);
        if (!quest) throw new Error('the quest just created is missing');
        done = await doneAreaIds(db, user.id, courseId);
      }
      const level = levels.find((candidate) => candidate.id === quest.level_id);
      const levelRow =
        level ??
        (await db
          .selectFrom('levels')
          .select(['key', 'name_key', 'depth'])
          .where('id', '=', quest.level_id)
          .executeTakeFirstOrThrow());
      return {
        id: quest.id,
        course_id: courseId,
        type: quest.type,
        level_id: quest.level_id,
        level_name_key: levelRow.name_key,
        area_id: quest.area_id,
        level_key: levelRow.key,
        created_at: quest.created_at.toISOString(),
        finished_at: toIso(quest.finished_at),
        questions: await questions(db, quest.area_id),
        answers: await questAnswers(db, quest.id),
        depth: levelRow.depth,
        done_area_ids: [...done].sort((a, b) => a - b),
        no_more_available_objects: false,
      };
    },
  );

  app.delete(
    '/api/courses/:course_id/quests',
    { attachValidation: true, schema: { params: courseParams } },
    async (request, reply) => {
      const user = requireUser(request);
      throwValidationError(request);
      const { course_id: courseId } = request.params as { course_id: CourseId };
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
      schema: {
        params: {
          type: 'object',
          required: ['quest_id'],
          additionalProperties: false,
          properties: { quest_id: int8IdSchema },
        },
        body: answerBodySchema,
      },
    },
    async (request): Promise<NewRecordResponse> => {
      const user = requireUser(request);
      const { quest_id: questId } = request.params as { quest_id: number };
      const answer = request.body as Answer & AnswerBody;

      const result = await db.transaction().execute(async (trx) => {
        // The quest row is locked first: answers to one quest are serialised, so exactly one of
        // two concurrent last answers sees the quest complete.
        const quest = await trx
          .selectFrom('quests')
          .selectAll()
          .where('id', '=', questId)
          .forUpdate()
          .executeTakeFirst();
        if (!quest || quest.user_id !== user.id) throw new HttpError(404, `Quest ${questId} not found.`);
        const target = await trx
          .selectFrom('targets')
          .select('object_id')
          .where('object_id', '=', answer.object_id)
          .where('area_id', '=', quest.area_id)
          .where('retired', '=', false)
          .executeTakeFirst();
        if (!target) throw new HttpError(422, `Object ${answer.object_id} is not a question of quest ${questId}.`);

        const values = {
          galaxy_type: answer.galaxy_type,
          interaction: answer.interaction,
          ring: answer.ring,
          fan: answer.fan,
          tail: answer.tail,
          distorted: answer.distorted,
        };
        const written = await trx
          .insertInto('answers')
          .values({
            user_id: user.id,
            quest_id: quest.id,
            object_id: answer.object_id,
            course_id: quest.course_id,
            ...values,
          })
          .onConflict((oc) =>
            oc.columns(['user_id', 'object_id']).doUpdateSet({ ...values, quest_id: quest.id, updated_at: sql`now()` }),
          )
          // xmax is 0 for a row this statement inserted and set for one it updated.
          .returning(sql<boolean>`xmax = 0`.as('inserted'))
          .executeTakeFirstOrThrow();

        if (!quest.finished_at) {
          // The quest's questions with whether this quest has an answer to each, in one read.
          const questionRows = await trx
            .selectFrom('targets')
            .leftJoin('answers', (join) =>
              join.onRef('answers.object_id', '=', 'targets.object_id').on('answers.quest_id', '=', quest.id),
            )
            .select(['targets.object_id', 'answers.id as answer_id'])
            .where('targets.area_id', '=', quest.area_id)
            .where('targets.retired', '=', false)
            .execute();
          const questionIds = questionRows.map((row) => row.object_id);
          const answered = new Set(questionRows.filter((row) => row.answer_id !== null).map((row) => row.object_id));
          if (isQuestComplete(questionIds, answered)) {
            const courseId = quest.course_id as CourseId;
            const doneBefore = await doneAreaIds(trx, user.id, courseId);
            await trx
              .updateTable('quests')
              .set({ finished_at: sql`now()` })
              .where('id', '=', quest.id)
              .execute();
            const levels = await loadLevels(trx, courseId);
            const level = levels.find((candidate) => candidate.id === quest.level_id);
            if (level && completesLevel(level, doneBefore, quest.area_id)) {
              // The level is now unlocked and the next one active (statuses derive from the
              // finished quests); the notification names the level the volunteer may now sail.
              const doneAfter = new Set(doneBefore).add(quest.area_id);
              const next = activeLevel(levels, doneAfter);
              if (next) await createLevelUnlockedNotification(trx, user.id, { key: next.key, name: next.name });
            }
          }
        }

        const counted = await trx
          .selectFrom('answers')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', user.id)
          .where('course_id', '=', quest.course_id)
          .executeTakeFirstOrThrow();
        // Last, so that the campaign rows (one per open window, shared by every volunteer) stay
        // locked only from here to the commit.
        let newRecord = false;
        const counts = new Map<number, number>();
        if (written.inserted) {
          const windows = await trx
            .updateTable('campaigns')
            .set({ answers_count: sql`answers_count + 1` })
            // Locked in id order: two answers updating the same open windows never deadlock.
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('campaigns')
                .select('id')
                .where('retired', '=', false)
                .where('period_begin', '<=', sql<Date>`now()`)
                .where('period_end', '>=', sql<Date>`now()`)
                .orderBy('id')
                .forUpdate(),
            )
            .returning(['id', 'answers_count', 'medals'])
            .execute();
          for (const window of windows) counts.set(window.id, window.answers_count);
          newRecord = windows.some((campaign) =>
            crossesMedal(campaign.medals as { count: number }[], campaign.answers_count - 1, campaign.answers_count),
          );
        }
        return { new_record: newRecord, answers_count: Number(counted.count), counts };
      });
      // The board comes from the one-second cache, with this answer's counts merged in: nothing
      // more is read while the campaign rows are locked.
      campaigns.apply(result.counts);
      return { campaigns: await campaigns.get(), new_record: result.new_record, answers_count: result.answers_count };
    },
  );

  async function record(userId: number, courseId?: CourseId): Promise<QuestRecord[]> {
    let query = db
      .selectFrom('quests')
      .innerJoin('levels', 'levels.id', 'quests.level_id')
      .select([
        'quests.id',
        'quests.area_id',
        'quests.course_id',
        'levels.key as level_key',
        'quests.created_at',
        'quests.finished_at',
      ])
      .where('quests.user_id', '=', userId)
      .orderBy('quests.created_at')
      .orderBy('quests.id');
    if (courseId) query = query.where('quests.course_id', '=', courseId);
    const rows = await query.execute();
    return rows.map((row) => ({
      id: row.id,
      area_id: row.area_id,
      course_id: row.course_id as CourseId,
      level_key: row.level_key,
      created_at: row.created_at.toISOString(),
      finished_at: toIso(row.finished_at),
    }));
  }

  // The course defaults to season2 (application-spec §7), also when the path names none.
  app.get('/api/my_record', async (request): Promise<MyRecordResponse> => {
    const user = requireUser(request);
    return { course_id: DEFAULT_COURSE, quests: await record(user.id, DEFAULT_COURSE) };
  });

  app.get(
    '/api/my_record/:course_id',
    { attachValidation: true, schema: { params: courseParams } },
    async (request): Promise<MyRecordResponse> => {
      const user = requireUser(request);
      throwValidationError(request);
      const { course_id: courseId } = request.params as { course_id: CourseId };
      return { course_id: courseId, quests: await record(user.id, courseId) };
    },
  );

  app.get('/api/my_records', async (request): Promise<MyRecordsResponse> => {
    const user = requireUser(request);
    const quests = await record(user.id);
    const records = Object.fromEntries(
      COURSE_IDS.map((id) => [id, { course_id: id, quests: [] as QuestRecord[] }]),
    ) as MyRecordsResponse;
    for (const quest of quests) records[quest.course_id].quests.push(quest);
    return records;
  });
};
