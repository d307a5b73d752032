// Finishing quests (ARCHITECTURE.md, the game model): the rare step after an answer batch, for the
// answers whose quest may now be complete. What a finish brings (a level_unlocked notification,
// the next quest) is decided here in JavaScript by the pure rules of server/game/; the finishes
// of one answer batch are then written by one statement.
import { sql, type Insertable, type Kysely } from 'kysely';
import type { CourseId } from '../../shared/enums';
import type { Database, NotificationsTable } from '../db/schema';
import { completesLevel } from './levels';
import { nextQuestArea } from './quests';
import { levelUnlockedNotification } from '../notifications/personal';
import { cachedLevels, levelIndex, passedAreaIds, type Db } from './model-reads';

/** What finishing one quest writes, if it turns out complete under its row lock. */
export interface QuestTurnover {
  userId: number;
  questId: number;
  notification: Insertable<NotificationsTable> | null;
  next: { levelId: number; areaId: number; type: 'regular' | 'greed' | 'tunnel_effect' } | null;
}

/** What a turnover is decided from: an answer's statement (a PostedAnswer) or a quest's read state. */
export interface TurnoverBasis {
  /** The quest's course, level and area (null when the quest is not the user's). */
  course_id: CourseId | null;
  level_id: number | null;
  area_id: number | null;
  /** Only when the quest may be complete: the areas of the course the user had finished before it. */
  done_before: number[] | null;
  /** With done_before: the course's areas whose every target is retired (model-reads.ts settledAreasJson). */
  settled: number[] | null;
  catalogue_version: string;
}

/**
 * The turnover of a quest that `basis` says may be complete, decided from the done areas that
 * its answer's statement (or the quest fetch, ../routes/quests.ts) read. They can change before the
 * finish only by this quest finishing (one unfinished quest per user and course) or by a new
 * game, which deletes this quest too, so that nothing is then finished, announced or created.
 * - The level_unlocked notification when the quest's area completes its level, naming the level
 *   the volunteer may now sail.
 * - The next quest, exactly where GET …/quests/current would create it (nextQuestArea, the ship
 *   staying at the finished area), so that the volunteer's next call for the quest is one read,
 *   not a read and a write: a quest turnover is the busiest moment of the load bench.
 */
export async function planTurnover(
  db: Kysely<Database>,
  userId: number,
  questId: number,
  basis: TurnoverBasis,
): Promise<QuestTurnover> {
  const turnover: QuestTurnover = { userId, questId, notification: null, next: null };
  if (basis.course_id === null || basis.area_id === null || basis.done_before === null) return turnover;
  const levels = await cachedLevels(db, basis.catalogue_version, basis.course_id);
  const { byId, byArea } = levelIndex(levels);
  const level = basis.level_id === null ? undefined : byId.get(basis.level_id);
  // Areas settled by retirement are passed over as if done (docs/science.md, "Retirement").
  const doneBefore = passedAreaIds(basis.done_before, basis.settled ?? undefined);
  const finishedArea = byArea.get(basis.area_id)?.area;
  const next = nextQuestArea(levels, new Set(doneBefore).add(basis.area_id), finishedArea?.centre);
  if (!next) return turnover;
  turnover.next = { levelId: next.level.id, areaId: next.area.id, type: next.level.type };
  if (level && completesLevel(level, doneBefore, basis.area_id))
    turnover.notification = levelUnlockedNotification(userId, { key: next.level.key, name: next.level.name });
  return turnover;
}

/**
 * Finishes each quest that is unfinished and has an answer to every current question (a target
 * its course's rule has retired is no longer one, docs/science.md), in one
 * statement for all; exactly one of concurrent callers wins a quest (the row lock, and
 * finished_at re-checked on the row it waited for). The check is exact because it runs after the
 * answers committed: the last answer to commit sees all the others, and it always gets here (its
 * statement either saw the quest complete or saw another answer commit after its snapshot).
 * Only for a quest the update finished does the same statement insert its notification and its
 * next quest; the partial unique index (one unfinished quest per user and course) makes the
 * latter a no-op if a quest exists by then.
 *
 * The answers are probed by (user_id, object_id), the unique key, with the quest id: by object
 * alone PostgreSQL would walk answers_user_object over every user's answer to the object, and
 * correlated to the updated row it may plan a hash of every answer while the statistics are those
 * of a young table. The updated rows carry their input row along (returning input.*), so no step
 * joins another.
 */
export async function finishQuests(db: Db, turnovers: readonly QuestTurnover[]): Promise<void> {
  const column = <T>(pick: (turnover: QuestTurnover) => T) => turnovers.map(pick);
  await sql`
    with input as (
      select * from unnest(
        ${column((turnover) => turnover.userId)}::bigint[], ${column((turnover) => turnover.questId)}::bigint[],
        ${column((turnover) => turnover.notification?.type ?? null)}::text[],
        ${column((turnover) => turnover.notification?.title ?? null)}::text[],
        ${column((turnover) => turnover.notification?.message ?? null)}::text[],
        ${column((turnover) => turnover.notification?.html ?? null)}::boolean[],
        ${column((turnover) => turnover.notification?.locale_fallback ?? null)}::boolean[],
        ${column((turnover) => turnover.notification?.custom_component ?? null)}::text[],
        ${column((turnover) => turnover.next?.levelId ?? null)}::integer[],
        ${column((turnover) => turnover.next?.areaId ?? null)}::integer[],
        ${column((turnover) => turnover.next?.type ?? null)}::text[]
      ) as input (user_id, quest_id, notification_type, title, message, html, locale_fallback, custom_component,
        next_level_id, next_area_id, next_type)
    ),
    finished as (
      update quests set finished_at = now()
      from input
      where quests.id = input.quest_id and quests.user_id = input.user_id and quests.finished_at is null
        and not exists (
          select 1 from targets where targets.area_id = quests.area_id and not targets.retired
            and not target_retired(targets.object_id) and not exists (
            select 1 from answers where answers.user_id = input.user_id and answers.object_id = targets.object_id
              and answers.quest_id = input.quest_id))
      returning input.*, quests.course_id
    ),
    announced as (
      insert into notifications (user_id, type, title, message, html, locale_fallback, custom_component)
      select user_id, notification_type, title::jsonb, message::jsonb, html, locale_fallback, custom_component
      from finished where notification_type is not null
    )
    insert into quests (user_id, course_id, level_id, area_id, type)
    select user_id, course_id, next_level_id, next_area_id, next_type from finished where next_level_id is not null
    on conflict (user_id, course_id) where finished_at is null do nothing
  `.execute(db);
}
