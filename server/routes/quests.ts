// Quests and answers (application-spec §7; ARCHITECTURE.md, the game model):
//   GET    /api/courses/{course_id}/quests/current  the unfinished quest, created when none exists
//   DELETE /api/courses/{course_id}/quests          new game (training and illustris_review)
//   POST   /api/quests/{quest_id}/answers           one answer per user and object, re-posting replaces it
//   GET    /api/my_record/{course_id}, /api/my_records
import type { FastifyPluginAsync } from 'fastify';
import { sql, type Kysely, type RawBuilder } from 'kysely';
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
import { COURSE_IDS, DEFAULT_COURSE, type CourseId } from '../../src/shared/enums';
import { requireUser } from '../auth/session-user';
import type { Database } from '../db/schema';
import { crossesMedal } from '../game/campaigns';
import { NEW_GAME_COURSES, nextQuestArea } from '../game/quests';
import type { SkyPoint } from '../game/sky';
import { HttpError } from '../http-error';
import { AnswerBatches } from '../game/answer-batches';
import { cachedLevels, catalogueVersion, toIso, type CampaignBoardCache, type Db } from '../game/model-reads';
import { answerBodySchema, courseIdSchema, int8IdSchema, throwValidationError } from './schemas';
import { finishQuests, planTurnover } from '../game/quest-turnovers';

const courseParams = {
  type: 'object',
  required: ['course_id'],
  additionalProperties: false,
  properties: { course_id: courseIdSchema },
} as const;

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

interface QuestState {
  catalogue_version: string;
  done: number[];
  /** The unfinished quest, with `open`: it still has a current question without an answer. */
  quest: (Omit<QuestRow, 'created_at' | 'finished_at'> & { created_at: string; open: boolean }) | null;
  ship: SkyPoint | null;
  questions: (Question & { captain_note: CaptainNote | null })[];
  answers: Answer[];
}

/** The quest's questions in order, as JSON (a scalar subquery). */
const questionsJson = (areaId: RawBuilder<unknown>) => sql`(
  select coalesce(json_agg(json_build_object('object_id', object_id, 'ra', ra, 'dec', dec, 'captain_note', captain_note)
    order by position), '[]'::json)
  from targets where area_id = ${areaId} and not retired)`;

/**
 * Everything GET …/quests/current needs, in one statement: the catalogue version (for the level
 * cache), the done areas, the unfinished quest with its questions and answers, and where the ship
 * is. A user polling an unfinished quest costs this one statement.
 */
async function questState(db: Db, userId: number, courseId: CourseId): Promise<QuestState> {
  const { rows } = await sql<QuestState>`
    with current as (
      select id, user_id, course_id, level_id, area_id, type, created_at, finished_at from quests
      where user_id = ${userId}::bigint and course_id = ${courseId}::text and finished_at is null
    )
    select
      ${catalogueVersion} as catalogue_version,
      (select coalesce(json_agg(distinct area_id), '[]'::json) from quests
        where user_id = ${userId}::bigint and course_id = ${courseId}::text and finished_at is not null) as done,
      (select row_to_json(q) from (
        select current.*, exists (
          select 1 from targets where targets.area_id = current.area_id and not targets.retired and not exists (
            select 1 from answers where answers.quest_id = current.id and answers.object_id = targets.object_id)
        ) as open from current) q) as quest,
      (select json_build_array(areas.center_ra, areas.center_dec) from quests join areas on areas.id = quests.area_id
        where quests.user_id = ${userId}::bigint and quests.course_id = ${courseId}::text
        order by quests.created_at desc, quests.id desc limit 1) as ship,
      ${questionsJson(sql`(select area_id from current)`)} as questions,
      (select coalesce(json_agg(json_build_object('object_id', object_id, 'galaxy_type', galaxy_type,
          'interaction', interaction, 'ring', ring, 'fan', fan, 'tail', tail, 'distorted', distorted) order by id), '[]'::json)
        from answers where quest_id = (select id from current)) as answers
  `.execute(db);
  return rows[0];
}

function toQuestions(rows: QuestState['questions']): Question[] {
  return rows.map(({ object_id, ra, dec, captain_note }) =>
    captain_note ? { object_id, ra, dec, captain_note } : { object_id, ra, dec },
  );
}

/**
 * The unfinished quest of the course, created when none exists: one statement for a quest in
 * progress, two for a new one. An unfinished quest that no answer can finish is repaired first:
 * - its area retired by a re-seed: the quest goes; its answers stay;
 * - every current question answered: its remaining questions retired by a re-seed, or its answers
 *   committed without the finish that follows them (the server stopped in between, or the finish
 *   failed; ./answer-batches.ts). It is finished as an answer would have finished it
 *   (../game/quest-turnovers.ts): the level_unlocked notification and the next quest come with it.
 */
async function currentQuest(db: Kysely<Database>, userId: number, courseId: CourseId): Promise<CurrentQuestResponse> {
  for (let attempt = 0; ; attempt++) {
    const state = await questState(db, userId, courseId);
    const levels = await cachedLevels(db, state.catalogue_version, courseId);
    const done = new Set(state.done);
    let quest: QuestRow | undefined;
    let questions = toQuestions(state.questions);
    let answers = state.answers;
    if (state.quest) {
      const current = { ...state.quest, created_at: new Date(state.quest.created_at), finished_at: null };
      if (!levels.some((level) => level.areaIds.includes(current.area_id))) {
        await db.deleteFrom('quests').where('id', '=', current.id).where('finished_at', 'is', null).execute();
      } else if (!current.open) {
        const turnover = await planTurnover(db, userId, current.id, {
          course_id: courseId,
          level_id: current.level_id,
          area_id: current.area_id,
          done_before: state.done,
          catalogue_version: state.catalogue_version,
        });
        await finishQuests(db, [turnover]);
        // Read again: the quest the finish created, or the one a concurrent request did.
        if (attempt < 3) continue;
        throw new Error(`quest ${current.id} has every answer but did not finish`);
      } else quest = current;
    }
    if (!quest) {
      const next = nextQuestArea(levels, done, state.ship ?? undefined);
      if (!next) {
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
      const { level, area } = next;
      // The partial unique index (one unfinished quest per user and course) makes a concurrent
      // request's insert a no-op: this one then reads the quest that request created.
      const { rows } = await sql<{
        quest: (QuestRow & { created_at: string }) | null;
        questions: QuestState['questions'];
      }>`
        with created as (
          insert into quests (user_id, course_id, level_id, area_id, type)
          values (${userId}::bigint, ${courseId}::text, ${level.id}::integer, ${area.id}::integer, ${level.type}::text)
          on conflict (user_id, course_id) where finished_at is null do nothing
          returning id, user_id, course_id, level_id, area_id, type, created_at, finished_at
        )
        select (select row_to_json(created) from created) as quest, ${questionsJson(sql`${area.id}::integer`)} as questions
      `.execute(db);
      const created = rows[0].quest;
      if (!created) {
        if (attempt < 3) continue;
        throw new Error('the quest just created is missing');
      }
      quest = { ...created, created_at: new Date(created.created_at), finished_at: null };
      questions = toQuestions(rows[0].questions);
      answers = [];
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
      questions,
      answers,
      depth: levelRow.depth,
      done_area_ids: [...done].sort((a, b) => a - b),
      no_more_available_objects: false,
    };
  }
}

export interface QuestRouteOptions {
  db: Kysely<Database>;
  campaigns: CampaignBoardCache;
}

export const questRoutes: FastifyPluginAsync<QuestRouteOptions> = async (app, { db, campaigns }) => {
  const answers = new AnswerBatches(db);
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
      };
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

  /** The volunteer's answers per course (application-spec §3 User stats), kept by a trigger. */
  async function answerCounts(userId: number): Promise<Map<string, number>> {
    const rows = await db
      .selectFrom('course_answer_counts')
      .select(['course_id', 'answers_count'])
      .where('user_id', '=', userId)
      .execute();
    return new Map(rows.map((row) => [row.course_id, Number(row.answers_count)]));
  }

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
      const [quests, counts] = await Promise.all([record(user.id, courseId), answerCounts(user.id)]);
      return { course_id: courseId, quests, answers_count: counts.get(courseId) ?? 0 };
    },
  );

  app.get('/api/my_records', async (request): Promise<MyRecordsResponse> => {
    const user = requireUser(request);
    const [quests, counts] = await Promise.all([record(user.id), answerCounts(user.id)]);
    const records = Object.fromEntries(
      COURSE_IDS.map((id) => [id, { course_id: id, quests: [] as QuestRecord[], answers_count: counts.get(id) ?? 0 }]),
    ) as MyRecordsResponse;
    for (const quest of quests) records[quest.course_id].quests.push(quest);
    return records;
  });
};
