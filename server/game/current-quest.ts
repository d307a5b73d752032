// The current quest of a course (application-spec §7, GET /api/courses/{course_id}/quests/current;
// ARCHITECTURE.md, the game model): read in one statement, created when none exists, repaired
// when no answer can finish it.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Answer, CurrentQuestResponse, Question } from '../../shared/api';
import type { CaptainNote } from '../../shared/catalogue';
import type { CourseId } from '../../shared/enums';
import type { Database } from '../db/schema';
import {
  cachedLevels,
  catalogueVersion,
  levelIndex,
  passedAreaIds,
  settledAreasJson,
  toIso,
  type Db,
} from './model-reads';
import { finishQuests, planTurnover } from './quest-turnovers';
import { nextQuestArea } from './quests';
import type { SkyPoint } from '../../core/sky-points';

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
  /** The course's areas whose every target is retired (settledAreasJson). */
  settled: number[];
  /** The unfinished quest, with `open`: it still has a question without an answer that is not retired. */
  quest: (Omit<QuestRow, 'created_at' | 'finished_at'> & { created_at: string; open: boolean }) | null;
  ship: SkyPoint | null;
  questions: (Question & { captain_note: CaptainNote | null })[];
  answers: Answer[];
}

/**
 * The quest's questions in order, as JSON (a scalar subquery): its area's targets less those its
 * course's rule has retired (docs/science.md, "Retirement"). A target retired after the quest was
 * created stays only if this quest answered it (the volunteer's answer is kept and can be changed);
 * one retired before was never a question of it (target_open_for_quest, migration 0012).
 *
 * In a course with a rule the order starts at a different target for each volunteer (the area's
 * order rotated by the user's id): volunteers sailing an area together then spread over its
 * targets instead of all classifying the same one at once, so a target is settled before most of
 * them reach it. A course without a rule keeps the area's order.
 */
const questionsJson = (
  courseId: string,
  userId: number,
  areaId: RawBuilder<unknown>,
  createdAt: RawBuilder<unknown>,
  questId: RawBuilder<unknown>,
) => sql`(
  select coalesce(json_agg(json_build_object('object_id', q.object_id, 'ra', q.ra, 'dec', q.dec, 'captain_note', q.captain_note)
    order by mod(q.position + r.rotation, q.count), q.position), '[]'::json)
  from (
    select targets.*, count(*) over () as count from targets
    where area_id = ${areaId} and not retired and target_open_for_quest(object_id, ${createdAt})
      and (not target_retired(object_id)
        or exists (select 1 from answers where answers.quest_id = ${questId} and answers.object_id = targets.object_id))
  ) q
  cross join (
    select coalesce((select ${userId}::bigint from courses
      where id = ${courseId}::text and (retire_min_volunteers is not null or retire_max_volunteers is not null)), 0)
      as rotation
  ) r)`;

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
          select 1 from targets where targets.area_id = current.area_id and not targets.retired
            and not target_retired(targets.object_id) and not exists (
            select 1 from answers where answers.quest_id = current.id and answers.object_id = targets.object_id)
        ) as open from current) q) as quest,
      ${settledAreasJson(sql`${courseId}::text`)} as settled,
      (select json_build_array(areas.center_ra, areas.center_dec) from quests join areas on areas.id = quests.area_id
        where quests.user_id = ${userId}::bigint and quests.course_id = ${courseId}::text
        order by quests.created_at desc, quests.id desc limit 1) as ship,
      ${questionsJson(courseId, userId, sql`(select area_id from current)`, sql`(select created_at from current)`, sql`(select id from current)`)} as questions,
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

/** The playable areas of the course. */
function areaCount(levels: readonly { areaIds: readonly number[] }[]): number {
  return levels.reduce((sum, level) => sum + level.areaIds.length, 0);
}

/**
 * The unfinished quest of the course, created when none exists: one statement for a quest in
 * progress, two for a new one. A new quest goes to the nearest area the volunteer has not passed
 * (done, or settled: every target retired by the course's rule). An unfinished quest that no
 * answer can finish is repaired first:
 * - its area retired by a re-seed, or every target it had not answered retired by the rule
 *   before it had any answer: the quest goes (its answers, if any, stay);
 * - every question answered or retired since: its remaining questions retired, or its answers
 *   committed without the finish that follows them (the server stopped in between, or the finish
 *   failed; ./answer-batches.ts). It is finished as an answer would have finished it
 *   (./quest-turnovers.ts): the level_unlocked notification and the next quest come with it.
 * Each repair moves on by an area at least, so the reads are bounded by the course's areas.
 */
export async function currentQuest(
  db: Kysely<Database>,
  userId: number,
  courseId: CourseId,
): Promise<CurrentQuestResponse> {
  for (let attempt = 0; ; attempt++) {
    const state = await questState(db, userId, courseId);
    const levels = await cachedLevels(db, state.catalogue_version, courseId);
    // Every read below either returns or moves the volunteer on by an area (or loses a race to a
    // concurrent request of theirs, which did): more reads than areas is a fault.
    if (attempt > 3 && attempt > areaCount(levels) + 3)
      throw new Error(`the current quest of ${courseId} did not settle`);
    const done = new Set(state.done);
    const passed = passedAreaIds(done, state.settled);
    let quest: QuestRow | undefined;
    let questions = toQuestions(state.questions);
    let answers = state.answers;
    if (state.quest) {
      const current = { ...state.quest, created_at: new Date(state.quest.created_at), finished_at: null };
      if (!levelIndex(levels).byArea.has(current.area_id) || (!current.open && state.answers.length === 0)) {
        await db.deleteFrom('quests').where('id', '=', current.id).where('finished_at', 'is', null).execute();
        continue;
      } else if (!current.open) {
        const turnover = await planTurnover(db, userId, current.id, {
          course_id: courseId,
          level_id: current.level_id,
          area_id: current.area_id,
          done_before: state.done,
          settled: state.settled,
          catalogue_version: state.catalogue_version,
        });
        await finishQuests(db, [turnover]);
        // Read again: the quest the finish created, or the one a concurrent request did.
        continue;
      } else quest = current;
    }
    if (!quest) {
      const next = nextQuestArea(levels, passed, state.ship ?? undefined);
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
        select (select row_to_json(created) from created) as quest,
          ${questionsJson(courseId, userId, sql`${area.id}::integer`, sql`now()`, sql`null::bigint`)} as questions
      `.execute(db);
      // A concurrent request created one first: read it.
      const created = rows[0].quest;
      if (!created) continue;
      quest = { ...created, created_at: new Date(created.created_at), finished_at: null };
      questions = toQuestions(rows[0].questions);
      answers = [];
      // The area's last targets were retired since the state was read: the next read removes
      // this quest and moves on.
      if (questions.length === 0) continue;
    }
    const level = levelIndex(levels).byId.get(quest.level_id);
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
