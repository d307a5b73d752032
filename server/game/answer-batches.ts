// POST /api/quests/{quest_id}/answers, the game's hottest write, in batches: the answers that
// arrive while one batch is being written go out together as the next one, one statement and one
// commit for all of them (group commit, as a database does with its WAL). Under load this divides
// the per-statement cost (a round trip, the executor's start-up, the commit and its WAL flush; on
// PGlite a whole turn of its one connection) among the batch; an answer alone goes out at once,
// so a quiet server adds no wait. Each volunteer is answered only after the batch holding the
// answer committed, so an acknowledged answer is durable. The quests that the batch may have
// completed are finished by one more statement for the whole batch (./quest-turnovers.ts).
// Writing to answers does more than this file shows: statement triggers on the table keep the
// course counts (migration 0006), the ranking counts (0007) and the science's log of changed
// answers (0009, science_log, read by the estimate in ../science/).
import { sql, type Kysely } from 'kysely';
import type { Answer } from '../../shared/api';
import type { CourseId } from '../../shared/enums';
import type { Database } from '../db/schema';
import type { MedalCount } from './campaigns';
import { catalogueVersion, settledAreasJson, type Db } from './model-reads';
import { finishQuests, planTurnover, type TurnoverBasis } from './quest-turnovers';

export interface PostedAnswer extends TurnoverBasis {
  /** The quest exists and is the user's. */
  quest_found: boolean;
  /** The object is a current question of the quest's area. */
  is_question: boolean;
  /** true: a first answer to the object; false: a re-post that replaced it; null: nothing written. */
  inserted: boolean | null;
  /** The user's answers in the quest's course before this one (the statement's snapshot). */
  answers_before: number;
  /** The quest may now be complete: finishQuests decided under the quest's lock, after the commit. */
  maybe_complete: boolean | null;
  /** Per open campaign window, the ordinal this (first) answer drew in it. */
  ordinals: { id: number; ordinal: number; medals: MedalCount[] }[];
  /**
   * The quest's targets its course's rule retired since the quest was created (docs/science.md,
   * "Retirement"): they have left the quest, and the volunteer's screen drops them.
   */
  retired_since: number[];
}

export interface AnswerPost {
  userId: number;
  questId: number;
  answer: Answer;
}

/** Enough to spread the statement's fixed cost thin, small enough to keep one batch short. */
const MAX_BATCH = 256;

/**
 * Batches written at once: a second one goes out while the first waits on its commit. PGlite has
 * one connection, so there the second simply queues behind the first.
 */
const MAX_IN_FLIGHT = 2;

/**
 * A second batch goes out only once the one in flight has been out this long; until then the posts
 * that arrive wait to go out together when it returns. A batch of a few posts is written in about
 * this time, so at a steady pace the posts that arrive meanwhile make one batch instead of two or
 * three (fewer statements, less of the database's CPU), and a batch held up (a slow flush, a large
 * batch) still has another beside it soon.
 */
const SECOND_BATCH_AFTER_MS = 2;

/** What the statement returns: one row, each part a JSON list built from one CTE alone. */
interface BatchResult {
  catalogue_version: string;
  /** One entry per post. */
  snap: {
    position: number;
    quest_found: boolean;
    is_question: boolean;
    answers_before: number;
    course_id: CourseId | null;
    level_id: number | null;
    area_id: number | null;
  }[];
  /** One entry per answer row written (a post whose quest row was locked). */
  written: { user_id: number; inserted: boolean }[] | null;
  completion:
    | {
        position: number;
        maybe_complete: boolean;
        done_before: number[] | null;
        settled: number[] | null;
        retired_since: number[];
      }[]
    | null;
  ordinals: { user_id: number; id: number; ordinal: number; medals: MedalCount[] }[] | null;
}

/**
 * Writes a batch of answers in one statement, committed on its own, and returns one result per
 * post, in order. Every check gates the write inside the statement, so a 404 or 422 writes
 * nothing, for that post only.
 *
 * - A quest row is bumped (answer_posts + 1) only when it is the user's and the object one of its
 *   questions; that row lock serialises the answers to one quest. If the value returned is not the
 *   one the snapshot read plus one, another answer to this quest committed after this
 *   statement's snapshot, so the completion reading below may have missed it: maybe_complete is
 *   then true and the locked check decides. Otherwise the snapshot holds every earlier answer of
 *   the quest, and "complete" is exact: no question left besides this object.
 * - A batch holds at most one post per user (AnswerBatches), hence at most one per quest and per
 *   (user, object): the upsert never meets its own row twice, and the rows written are matched
 *   back to their post by user_id.
 * - The upsert keeps one answer per user and object (xmax = 0 only for a row it inserted).
 * - The campaign ordinals are drawn last, one per first answer and open window; nothing can fail
 *   between nextval and the commit but the commit itself (see 0005_answer_path.ts for the gap it
 *   leaves then).
 * - The snapshot does not see this statement's own inserts, hence answers_before + inserted.
 *
 * Each CTE reads only the one before it and indexed tables, and carries forward what later ones
 * need; the results leave as one JSON list per CTE, matched up here. Joining CTEs with each other
 * instead (by position) would not scale: a prepared statement's generic plan guesses 10 rows for
 * unnest and 1 for each CTE, so every such join is a nested loop over both, quadratic in the
 * batch. Batches grow exactly when the server falls behind, so the statement would cost most per
 * answer when the server could least afford it.
 *
 * The arrays are unnested from the columns of a one-row subquery that `offset 0` keeps apart, not
 * from the parameters themselves, so that no plan knows the batch's length: a custom plan (made
 * with the parameters' values) would count a batch's rows exactly, and for the small batches of a
 * quiet moment that looks cheaper than the generic plan's guess of 10 rows, so PostgreSQL's plan
 * cache would keep planning the statement anew (see "plan_cache_mode" in the manual, PREPARE).
 * Forcing generic plans for every statement (plan_cache_mode) would do the same here, but the
 * rankings want plans made for their time window's value.
 */
export async function writeAnswers(db: Db, posts: readonly AnswerPost[]): Promise<PostedAnswer[]> {
  const positionOfUser = new Map<number, number>();
  for (const [index, post] of posts.entries()) {
    if (positionOfUser.has(post.userId)) throw new Error(`a batch holds one post per user (user ${post.userId})`);
    positionOfUser.set(post.userId, index);
  }
  const column = <T>(pick: (post: AnswerPost) => T) => posts.map(pick);
  const { rows } = await sql<BatchResult>`
    with input as (
      select input.* from (
        select
          ${column((post) => post.userId)}::bigint[] as user_id,
          ${column((post) => post.questId)}::bigint[] as quest_id,
          ${column((post) => post.answer.object_id)}::bigint[] as object_id,
          ${column((post) => post.answer.galaxy_type)}::text[] as galaxy_type,
          ${column((post) => post.answer.interaction)}::text[] as interaction,
          ${column((post) => post.answer.ring)}::boolean[] as ring,
          ${column((post) => post.answer.fan)}::boolean[] as fan,
          ${column((post) => post.answer.tail)}::boolean[] as tail,
          ${column((post) => post.answer.distorted)}::boolean[] as distorted
        offset 0
      ) as batch, unnest(
        batch.user_id, batch.quest_id, batch.object_id, batch.galaxy_type, batch.interaction, batch.ring, batch.fan,
        batch.tail, batch.distorted
      ) with ordinality as input (user_id, quest_id, object_id, galaxy_type, interaction, ring, fan, tail, distorted, position)
    ),
    snap as (
      select input.*, quests.id is not null as quest_found, quests.course_id, quests.level_id, quests.area_id,
        quests.answer_posts,
        exists (
          select 1 from targets
          where targets.area_id = quests.area_id and targets.object_id = input.object_id and not targets.retired
            and target_open_for_quest(targets.object_id, quests.created_at)
        ) as is_question,
        coalesce((select answers_count from course_answer_counts
          where course_answer_counts.user_id = input.user_id and course_answer_counts.course_id = quests.course_id), 0)
          as answers_before
      from input left join quests on quests.id = input.quest_id and quests.user_id = input.user_id
    ),
    locked as (
      update quests set answer_posts = quests.answer_posts + 1
      from snap
      where quests.id = snap.quest_id and quests.user_id = snap.user_id and snap.is_question
      returning snap.position, snap.user_id, snap.object_id, snap.course_id, snap.area_id, snap.galaxy_type,
        snap.interaction, snap.ring, snap.fan, snap.tail, snap.distorted, snap.answer_posts as answer_posts_seen,
        quests.id, quests.answer_posts, quests.finished_at, quests.created_at
    ),
    written as (
      insert into answers (user_id, quest_id, object_id, course_id, galaxy_type, interaction, ring, fan, tail, distorted)
      select user_id, id, object_id, course_id, galaxy_type, interaction, ring, fan, tail, distorted from locked
      on conflict (user_id, object_id) do update set
        galaxy_type = excluded.galaxy_type, interaction = excluded.interaction, ring = excluded.ring,
        fan = excluded.fan, tail = excluded.tail, distorted = excluded.distorted,
        quest_id = excluded.quest_id, updated_at = now()
      returning user_id, xmax = 0 as inserted
    ),
    ordinals as (
      select written.user_id, campaigns.id, campaigns.medals,
        nextval(('campaign_answers_' || campaigns.id)::regclass) as ordinal
      from written cross join campaigns
      where written.inserted
        and not campaigns.retired and campaigns.period_begin <= now() and campaigns.period_end >= now()
    ),
    completion as (
      select position, user_id, course_id, finished_at is null and (
          answer_posts <> answer_posts_seen + 1
          or not exists (
            select 1 from targets
            where targets.area_id = locked.area_id and not targets.retired and targets.object_id <> locked.object_id
              and not target_retired(targets.object_id)
              and not exists (
                select 1 from answers where answers.user_id = locked.user_id
                  and answers.object_id = targets.object_id and answers.quest_id = locked.id)))
        as maybe_complete,
        (select coalesce(json_agg(targets.object_id), '[]'::json) from targets
          join retired_targets on retired_targets.object_id = targets.object_id
          where targets.area_id = locked.area_id and not targets.retired
            and retired_targets.retired_at >= locked.created_at) as retired_since
      from locked
    )
    select
      ${catalogueVersion} as catalogue_version,
      (select json_agg(json_build_object('position', position, 'quest_found', quest_found, 'is_question', is_question,
          'answers_before', answers_before, 'course_id', course_id, 'level_id', level_id, 'area_id', area_id))
        from snap) as snap,
      (select json_agg(json_build_object('user_id', user_id, 'inserted', inserted)) from written) as written,
      (select json_agg(json_build_object('position', position, 'maybe_complete', maybe_complete,
          'done_before', case when maybe_complete then (
            select coalesce(json_agg(distinct done.area_id), '[]'::json) from quests done
            where done.user_id = completion.user_id and done.course_id = completion.course_id
              and done.finished_at is not null) end,
          'settled', case when maybe_complete then ${settledAreasJson(sql`completion.course_id`)} end,
          'retired_since', retired_since))
        from completion) as completion,
      (select json_agg(json_build_object('user_id', user_id, 'id', id, 'ordinal', ordinal, 'medals', medals))
        from ordinals) as ordinals
  `.execute(db);
  const [result] = rows;
  // Positions count from 1 (with ordinality).
  const posted = result.snap
    .sort((a, b) => a.position - b.position)
    .map((row): PostedAnswer => ({
      quest_found: row.quest_found,
      is_question: row.is_question,
      inserted: null,
      answers_before: row.answers_before,
      maybe_complete: null,
      course_id: row.course_id,
      level_id: row.level_id,
      area_id: row.area_id,
      done_before: null,
      settled: null,
      catalogue_version: result.catalogue_version,
      ordinals: [],
      retired_since: [],
    }));
  if (posted.length !== posts.length) throw new Error(`${posted.length} results for ${posts.length} answers`);
  for (const row of result.written ?? []) posted[positionOfUser.get(row.user_id)!].inserted = row.inserted;
  for (const row of result.completion ?? []) {
    posted[row.position - 1].maybe_complete = row.maybe_complete;
    posted[row.position - 1].done_before = row.done_before;
    posted[row.position - 1].settled = row.settled;
    posted[row.position - 1].retired_since = row.retired_since.map(Number);
  }
  for (const { user_id, ...drawn } of result.ordinals ?? []) posted[positionOfUser.get(user_id)!].ordinals.push(drawn);
  return posted;
}

interface Waiting extends AnswerPost {
  resolve(posted: PostedAnswer): void;
  reject(error: unknown): void;
}

/** A written post whose quest may be complete, waiting for the finish of that quest. */
interface Finishing {
  post: Waiting;
  posted: PostedAnswer;
}

/**
 * The queue of answer posts of one server process. Up to MAX_IN_FLIGHT batches are written at
 * once, a second one only after the first's head start (SECOND_BATCH_AFTER_MS); the posts that
 * arrive meanwhile form the next. If a batch fails as a whole (a deadlock with another process's
 * batch, a connection lost), its posts are written again one by one, so that one post's failure is
 * that post's alone.
 */
export class AnswerBatches {
  private waiting: Waiting[] = [];
  /**
   * Users with a post being written or its quest being finished: their next post waits, so it
   * cannot overtake the finish of their quest.
   */
  private readonly writingUsers = new Set<number>();
  private batchesInFlight = 0;
  /** When the last batch went out (performance.now()), and the timer that waits out its head start. */
  private lastBatchAt = 0;
  private secondBatchTimer: NodeJS.Timeout | undefined;
  /** Set by close(): no post is taken any more, and these are called once the last is answered. */
  private closed = false;
  private readonly onDrained: (() => void)[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxInFlight = MAX_IN_FLIGHT,
    private readonly secondBatchAfterMs = SECOND_BATCH_AFTER_MS,
  ) {}

  post(userId: number, questId: number, answer: Answer): Promise<PostedAnswer> {
    // The server stops taking requests before it closes the batches (server/plugins/closing.ts).
    if (this.closed) return Promise.reject(new Error('answer batches are closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ userId, questId, answer, resolve, reject });
      this.startBatches();
    });
  }

  /**
   * A batch holds its place in flight until its answers are written and the quests they may have
   * completed are finished, so at most two statements of the answer path run at once: finishing
   * beside the next batch instead would make a third, and the database busier.
   */
  private startBatches(): void {
    while (this.batchesInFlight < this.maxInFlight && this.waiting.length > 0) {
      const headStartLeft = this.lastBatchAt + this.secondBatchAfterMs - performance.now();
      if (this.batchesInFlight > 0 && headStartLeft > 0) {
        this.secondBatchTimer ??= setTimeout(() => {
          this.secondBatchTimer = undefined;
          this.startBatches();
        }, headStartLeft);
        return;
      }
      const batch = this.takeBatch();
      if (batch.length === 0) return;
      // A batch going out ends any head start being waited out: its timer would only wake to no purpose.
      clearTimeout(this.secondBatchTimer);
      this.secondBatchTimer = undefined;
      this.lastBatchAt = performance.now();
      this.batchesInFlight++;
      for (const post of batch) this.writingUsers.add(post.userId);
      void this.writeBatch(batch)
        .then((finishing) => (finishing.length > 0 ? this.finish(finishing) : undefined))
        .finally(() => {
          this.batchesInFlight--;
          this.startBatches();
          if (this.closed && this.batchesInFlight === 0 && this.waiting.length === 0)
            for (const drained of this.onDrained.splice(0)) drained();
        });
    }
  }

  /**
   * Takes no more posts and resolves once every post taken is written, its quest finished and
   * its volunteer answered: the database may be closed then (the app's onClose, server/main.ts).
   * A volunteer who went away still has the answer written that the batch holds.
   */
  close(): Promise<void> {
    this.closed = true;
    if (this.batchesInFlight === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.onDrained.push(resolve));
  }

  /**
   * The oldest posts, at most one per user and none of a user whose post is being written or
   * finished: two statements in flight never lock the same quest row, so they cannot deadlock
   * each other.
   */
  private takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const users = new Set<number>();
    const left: Waiting[] = [];
    for (const post of this.waiting) {
      if (batch.length < MAX_BATCH && !users.has(post.userId) && !this.writingUsers.has(post.userId)) {
        users.add(post.userId);
        batch.push(post);
      } else left.push(post);
    }
    this.waiting = left;
    return batch;
  }

  /** The post is answered, and its user's next post may join a batch. */
  private settle(post: Waiting, outcome: { posted: PostedAnswer } | { error: unknown }): void {
    this.writingUsers.delete(post.userId);
    if ('posted' in outcome) post.resolve(outcome.posted);
    else post.reject(outcome.error);
  }

  /**
   * Writes the batch's answers and answers at once the posts that completed no quest; returns the
   * others, whose quests ./quest-turnovers.ts finishes next (a post that may have completed its
   * quest is answered after the finish, so that the quest it fetches next is the new one). The
   * other posts of a batch do not wait for that finish, which takes about as long as the batch's
   * write.
   */
  private async writeBatch(batch: Waiting[]): Promise<Finishing[]> {
    let results: PostedAnswer[];
    try {
      results = await writeAnswers(this.db, batch);
    } catch (error) {
      if (batch.length === 1) {
        this.settle(batch[0], { error });
        return [];
      }
      const finishing: Finishing[] = [];
      for (const post of batch) finishing.push(...(await this.writeBatch([post])));
      return finishing;
    }
    const finishing: Finishing[] = [];
    batch.forEach((post, index) => {
      if (results[index].maybe_complete) finishing.push({ post, posted: results[index] });
      else this.settle(post, { posted: results[index] });
    });
    return finishing;
  }

  /**
   * Finishes the quests of these posts in one statement; if it fails as a whole (a deadlock with
   * another process), one by one, so that a failure is its post's alone. The answers are
   * committed either way: a failed post's answer is kept, and posting it again finishes the quest,
   * as does the volunteer's next GET …/quests/current (../routes/quests.ts).
   */
  private async finish(finishing: Finishing[]): Promise<void> {
    const plan = ({ post, posted }: Finishing) => planTurnover(this.db, post.userId, post.questId, posted);
    try {
      await finishQuests(this.db, await Promise.all(finishing.map(plan)));
    } catch (error) {
      if (finishing.length === 1) {
        this.settle(finishing[0].post, { error });
        return;
      }
      for (const one of finishing)
        try {
          await finishQuests(this.db, [await plan(one)]);
          this.settle(one.post, { posted: one.posted });
        } catch (oneError) {
          this.settle(one.post, { error: oneError });
        }
      return;
    }
    for (const { post, posted } of finishing) this.settle(post, { posted });
  }
}
