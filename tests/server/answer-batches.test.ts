// Answers written in batches (server/game/answer-batches.ts), against PGlite and PostgreSQL:
// posts that arrive together share one statement, yet each gets its own result, a user's second
// post waits for the next batch, a post that breaks a whole batch fails alone, the statement keeps
// one plan, the posts that arrive during a batch's head start go out together, and the answers are
// counted per volunteer and course. On PostgreSQL alone: a post is not held back by the finish of
// another post's quest or by a batch held up, and a quest finished by a fetch and by its last
// answer at once is finished once.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer } from '../../shared/api';
import * as courseAnswerCounts from '../../server/db/migrations/0006_course_answer_counts';
import { AnswerBatches, writeAnswers, type PostedAnswer } from '../../server/game/answer-batches';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { notificationTypes, openGame, type GameFixture } from '../helpers/sky';

const spiral = (objectId: number): Answer => ({
  object_id: objectId,
  galaxy_type: 'spiral',
  interaction: 'no',
  ring: true,
  fan: false,
  tail: false,
  distorted: true,
});

/** A volunteer with a season2 quest: the quest id and its questions' object ids. */
async function volunteerWithQuest(
  game: GameFixture,
): Promise<{ user: TestUser; questId: number; objectIds: number[] }> {
  const user = await createTestUser(game.db);
  const response = await game.app.inject({
    method: 'GET',
    url: '/api/courses/season2/quests/current',
    cookies: user.cookies,
  });
  expect(response.statusCode).toBe(200);
  const quest = response.json() as { id: number; questions: { object_id: number }[] };
  return { user, questId: quest.id, objectIds: quest.questions.map((question) => question.object_id) };
}

describe.each(DATABASE_KINDS)('answer batches on %s', (kind) => {
  let game: GameFixture;

  beforeAll(async () => {
    game = await openGame(kind);
  });
  afterAll(async () => {
    await game?.close();
  });

  const storedAnswers = (userId: number) =>
    game.db
      .selectFrom('answers')
      .select(['object_id', 'quest_id', 'galaxy_type', 'ring', 'distorted'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();

  it('answers every post of a burst over HTTP with its own status and record', async () => {
    const volunteers = await Promise.all(Array.from({ length: 12 }, () => volunteerWithQuest(game)));
    const [stranger] = volunteers;
    const responses = await Promise.all([
      ...volunteers.map(({ user, questId, objectIds }) =>
        game.app.inject({
          method: 'POST',
          url: `/api/quests/${questId}/answers`,
          cookies: user.cookies,
          payload: spiral(objectIds[0]),
        }),
      ),
      // In the same burst: someone else's quest (404) and an object that is not a question (422).
      game.app.inject({
        method: 'POST',
        url: `/api/quests/${stranger.questId}/answers`,
        cookies: volunteers[1].user.cookies,
        payload: spiral(stranger.objectIds[1]),
      }),
      game.app.inject({
        method: 'POST',
        url: `/api/quests/${volunteers[2].questId}/answers`,
        cookies: volunteers[2].user.cookies,
        payload: spiral(1),
      }),
    ]);
    expect(responses.map((response) => response.statusCode)).toEqual([...volunteers.map(() => 200), 404, 422]);
    for (const [index, { user, questId, objectIds }] of volunteers.entries()) {
      expect(responses[index].json().answers_count).toBe(1);
      expect(await storedAnswers(user.id)).toEqual([
        { object_id: objectIds[0], quest_id: questId, galaxy_type: 'spiral', ring: true, distorted: true },
      ]);
    }
  });

  it('writes the posts that arrive while a batch is written as one next batch, each with its own result', async () => {
    const batches = new AnswerBatches(game.db);
    const volunteers = await Promise.all(Array.from({ length: 6 }, () => volunteerWithQuest(game)));
    // The first post goes out alone; the others queue behind it and go out together.
    const results = await Promise.all(
      volunteers.map(({ user, questId, objectIds }) => batches.post(user.id, questId, spiral(objectIds[0]))),
    );
    for (const result of results)
      expect(result).toMatchObject({
        quest_found: true,
        is_question: true,
        inserted: true,
        answers_before: 0,
        course_id: 'season2',
        area_id: expect.any(Number),
      });
    // Re-posting replaces, in a batch as well.
    const again = await Promise.all(
      volunteers.map(({ user, questId, objectIds }) =>
        batches.post(user.id, questId, { ...spiral(objectIds[0]), galaxy_type: 'elliptical' }),
      ),
    );
    for (const [index, result] of again.entries()) {
      expect(result).toMatchObject({ inserted: false, answers_before: 1 });
      const rows = await storedAnswers(volunteers[index].user.id);
      expect(rows.map((row) => row.galaxy_type)).toEqual(['elliptical']);
    }
  });

  it('gives a batch in flight a head start: the posts that arrive meanwhile go out together after it', async () => {
    let statements = 0;
    const counting = game.db.withPlugin({
      transformQuery: ({ node }) => {
        statements++;
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    // A head start far longer than the test, so that the four later posts arrive within it however
    // slow the machine is (with the server's few milliseconds, a pause between two posts could end
    // it, and the second post would go out alone).
    const batches = new AnswerBatches(counting, 2, 60_000);
    const volunteers = await Promise.all(Array.from({ length: 5 }, () => volunteerWithQuest(game)));
    const results = await Promise.all(
      volunteers.map(({ user, questId, objectIds }) => batches.post(user.id, questId, spiral(objectIds[0]))),
    );
    expect(results.map((result) => result.inserted)).toEqual([true, true, true, true, true]);
    // The first post alone, then the four that came during its head start, once the first batch
    // returned. Without a head start the second post goes out at once beside the first, alone,
    // and the other three after it: three statements.
    expect(statements).toBe(2);
  });

  it('finishes the quests a batch completes, each with its notification and next quest', async () => {
    const batches = new AnswerBatches(game.db);
    const volunteers = await Promise.all(Array.from({ length: 5 }, () => volunteerWithQuest(game)));
    for (const { user, questId, objectIds } of volunteers)
      for (const objectId of objectIds.slice(0, -1)) await batches.post(user.id, questId, spiral(objectId));
    // The last answers at once: the first goes out alone, the other four together, and so do
    // their finishes.
    const results = await Promise.all(
      volunteers.map(({ user, questId, objectIds }) => batches.post(user.id, questId, spiral(objectIds.at(-1)!))),
    );
    for (const [index, { user, questId, objectIds }] of volunteers.entries()) {
      expect(results[index]).toMatchObject({ inserted: true, answers_before: objectIds.length - 1 });
      const quests = await game.db
        .selectFrom('quests')
        .select(['id', 'area_id', 'finished_at'])
        .where('user_id', '=', user.id)
        .orderBy('id')
        .execute();
      expect(quests).toHaveLength(2);
      expect(quests[0]).toMatchObject({ id: questId, finished_at: expect.any(Date) });
      expect(quests[1].finished_at).toBeNull();
      expect(quests[1].area_id).not.toBe(quests[0].area_id);
      // The small sky's first season2 level has one area: finishing it unlocks the next.
      expect(await notificationTypes(game.db, user.id)).toEqual(['level_unlocked']);
    }
  });

  it("puts a user's second post into the next batch, after the first", async () => {
    const batches = new AnswerBatches(game.db);
    const { user, questId, objectIds } = await volunteerWithQuest(game);
    const other = await volunteerWithQuest(game);
    const results = await Promise.all([
      batches.post(other.user.id, other.questId, spiral(other.objectIds[0])),
      batches.post(user.id, questId, spiral(objectIds[0])),
      batches.post(user.id, questId, spiral(objectIds[1])),
    ]);
    expect(results.map((result) => [result.inserted, result.answers_before])).toEqual([
      [true, 0],
      [true, 0],
      [true, 1],
    ]);
    expect((await storedAnswers(user.id)).map((row) => row.object_id)).toEqual([objectIds[0], objectIds[1]]);
  });

  it('fails only the post that breaks its batch; the others are written', async () => {
    const batches = new AnswerBatches(game.db);
    const volunteers = await Promise.all(Array.from({ length: 4 }, () => volunteerWithQuest(game)));
    const [first, ...rest] = volunteers;
    const posts = [
      batches.post(first.user.id, first.questId, spiral(first.objectIds[0])),
      ...rest.map(({ user, questId, objectIds }, index) =>
        // Past int8: the whole batch's statement fails, so its posts are written again one by one.
        batches.post(user.id, questId, spiral(index === 1 ? 2 ** 70 : objectIds[0])),
      ),
    ];
    const settled = await Promise.allSettled(posts);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    for (const [index, { user, objectIds }] of volunteers.entries())
      expect((await storedAnswers(user.id)).map((row) => row.object_id)).toEqual(index === 2 ? [] : [objectIds[0]]);
  });

  it('keeps one plan for the batch statement, whatever the batch length', async () => {
    const { user, questId, objectIds } = await volunteerWithQuest(game);
    // One connection, so that its prepared statements are the ones read (pg_prepared_statements
    // is per session; PGlite has one).
    const counts = await game.db.connection().execute(async (connection) => {
      const plans = async () => {
        // The pattern goes as a parameter, so that this query's own text does not match it.
        const { rows } = await sql<{ generic_plans: number; custom_plans: number }>`
          select generic_plans::int, custom_plans::int from pg_prepared_statements
          where statement like ${'%with input as (%insert into answers%'}
        `.execute(connection);
        return rows[0] ?? { generic_plans: 0, custom_plans: 0 };
      };
      const before = await plans();
      // Batches of one post, the length that a custom plan had counted as cheaper than the
      // generic plan's guess, so that PostgreSQL planned it anew at every execution.
      for (let post = 0; post < 8; post++)
        await writeAnswers(connection, [{ userId: user.id, questId, answer: spiral(objectIds[0]) }]);
      const after = await plans();
      return { generic: after.generic_plans - before.generic_plans, custom: after.custom_plans - before.custom_plans };
    });
    // PostgreSQL makes custom plans for the first five executions (PREPARE, "plan_cache_mode").
    expect(counts.generic + counts.custom).toBe(8);
    expect(counts.custom).toBeLessThanOrEqual(5);
  });

  /** course_answer_counts against the answers counted, for every linked volunteer and course. */
  async function countsAgainstAnswers() {
    const kept = await game.db
      .selectFrom('course_answer_counts')
      .select(['user_id', 'course_id', 'answers_count'])
      .orderBy('user_id')
      .orderBy('course_id')
      .execute();
    const counted = await game.db
      .selectFrom('answers')
      .select(['user_id', 'course_id', (eb) => eb.fn.countAll<number>().as('answers_count')])
      .where('user_id', 'is not', null)
      .groupBy(['user_id', 'course_id'])
      .orderBy('user_id')
      .orderBy('course_id')
      .execute();
    return { kept, counted };
  }

  it("counts a volunteer's answers in the course: first answers and other writers' rows, not re-posts", async () => {
    const { user, questId, objectIds } = await volunteerWithQuest(game);
    expect(objectIds.length).toBeGreaterThanOrEqual(4);
    const post = async (objectId: number) => {
      const response = await game.app.inject({
        method: 'POST',
        url: `/api/quests/${questId}/answers`,
        cookies: user.cookies,
        payload: spiral(objectId),
      });
      expect(response.statusCode).toBe(200);
      return response.json().answers_count as number;
    };
    expect(await post(objectIds[0])).toBe(1);
    expect(await post(objectIds[0])).toBe(1);
    expect(await post(objectIds[1])).toBe(2);
    // Another writer (a restore, the load bench's history): its rows are counted too.
    await game.db
      .insertInto('answers')
      .values({ ...spiral(objectIds[2]), user_id: user.id, quest_id: null, course_id: 'season2' })
      .execute();
    expect(await post(objectIds[3])).toBe(4);
    // Every volunteer of this file's tests, batches that failed included.
    const { kept, counted } = await countsAgainstAnswers();
    expect(kept.length).toBeGreaterThan(20);
    expect(kept).toEqual(counted);
  });

  it('fills the counts from the answers written before the migration', async () => {
    const { user, objectIds } = await volunteerWithQuest(game);
    // Migrations are written against no schema.
    const schemaless = game.db as unknown as Kysely<unknown>;
    await courseAnswerCounts.down(schemaless);
    await game.db
      .insertInto('answers')
      .values(
        objectIds.slice(0, 3).map((objectId) => ({ ...spiral(objectId), user_id: user.id, course_id: 'season2' })),
      )
      .execute();
    await courseAnswerCounts.up(schemaless);
    const { kept, counted } = await countsAgainstAnswers();
    expect(kept).toContainEqual({ user_id: user.id, course_id: 'season2', answers_count: 3 });
    expect(kept).toEqual(counted);
  });
});

// PostgreSQL alone: PGlite's one connection cannot hold a lock while the batches write.
describe('answer batches and quest finishes on postgres', () => {
  let game: GameFixture;

  beforeAll(async () => {
    game = await openGame('postgres');
  });
  afterAll(async () => {
    await game?.close();
  });

  it("answers a post that completed nothing without waiting for the finish of another's quest", async () => {
    // One batch at a time: the first post goes out alone, the next two together.
    const batches = new AnswerBatches(game.db, 1);
    const [first, completing, other] = await Promise.all(Array.from({ length: 3 }, () => volunteerWithQuest(game)));
    for (const objectId of completing.objectIds.slice(0, -1))
      await batches.post(completing.user.id, completing.questId, spiral(objectId));
    let completed: Promise<PostedAnswer> | undefined;
    let finished = false;
    // Another session holds off writes to notifications, which the finish writes and the
    // answer statement does not: the finish waits for it, the answers need not.
    await game.db.transaction().execute(async (blocker) => {
      await sql`lock table notifications in share mode`.execute(blocker);
      const alone = batches.post(first.user.id, first.questId, spiral(first.objectIds[0]));
      completed = batches.post(completing.user.id, completing.questId, spiral(completing.objectIds.at(-1)!));
      void completed.finally(() => (finished = true)).catch(() => {});
      const beside = batches.post(other.user.id, other.questId, spiral(other.objectIds[0]));
      const within = (posted: Promise<PostedAnswer>) =>
        Promise.race([posted, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 3000))]);
      expect(await within(alone)).toMatchObject({ inserted: true, maybe_complete: false });
      expect(await within(beside)).toMatchObject({ inserted: true, maybe_complete: false });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(finished).toBe(false);
    });
    // The lock went with its transaction: the quest is finished, and then its post answered.
    expect(await completed).toMatchObject({ inserted: true, maybe_complete: true });
    const quests = await game.db
      .selectFrom('quests')
      .select(['id', 'finished_at'])
      .where('user_id', '=', completing.user.id)
      .orderBy('id')
      .execute();
    expect(quests).toEqual([
      { id: completing.questId, finished_at: expect.any(Date) },
      { id: expect.any(Number), finished_at: null },
    ]);
  });

  it('writes a second batch beside one held up, once its head start is over', async () => {
    const batches = new AnswerBatches(game.db);
    const [held, other] = await Promise.all([volunteerWithQuest(game), volunteerWithQuest(game)]);
    let first: Promise<PostedAnswer> | undefined;
    let firstAnswered = false;
    await game.db.transaction().execute(async (blocker) => {
      // Another session holds the first post's quest row: its batch waits in the quest-row update.
      await sql`select id from quests where id = ${held.questId} for update`.execute(blocker);
      first = batches.post(held.user.id, held.questId, spiral(held.objectIds[0]));
      void first.finally(() => (firstAnswered = true)).catch(() => {});
      const second = batches.post(other.user.id, other.questId, spiral(other.objectIds[0]));
      const within = Promise.race([second, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 3000))]);
      expect(await within).toMatchObject({ inserted: true });
      expect(firstAnswered).toBe(false);
    });
    expect(await first).toMatchObject({ inserted: true });
  });

  it('finishes a quest once when a quest fetch finds it complete before the answer finished it', async () => {
    const { user, questId, objectIds } = await volunteerWithQuest(game);
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      game.app.inject({ method, url, cookies: user.cookies, payload });
    for (const objectId of objectIds.slice(0, -1))
      expect((await call('POST', `/api/quests/${questId}/answers`, spiral(objectId))).statusCode).toBe(200);
    let fetchedAt = 0;
    let posted: ReturnType<typeof call> | undefined;
    let fetched: ReturnType<typeof call> | undefined;
    // Both finishes write notifications: while another session holds them off, the last answer is
    // committed and its finish waits, and the fetch that now finds every question answered
    // finishes the quest too, and waits as well.
    await game.db.transaction().execute(async (blocker) => {
      await sql`lock table notifications in share mode`.execute(blocker);
      posted = call('POST', `/api/quests/${questId}/answers`, spiral(objectIds.at(-1)!));
      for (let waited = 0; ; waited += 20) {
        const committed = await game.db
          .selectFrom('answers')
          .select('id')
          .where('user_id', '=', user.id)
          .where('object_id', '=', objectIds.at(-1)!)
          .executeTakeFirst();
        if (committed) break;
        if (waited > 3000) throw new Error('the last answer was not committed');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      fetched = call('GET', '/api/courses/season2/quests/current');
      void fetched.then(() => (fetchedAt = Date.now()));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The fetch is finishing the quest, not returning it unfinished.
      expect(fetchedAt).toBe(0);
    });
    expect((await posted!).statusCode).toBe(200);
    const next = (await fetched!).json() as { id: number };
    const quests = await game.db
      .selectFrom('quests')
      .select(['id', 'finished_at'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(quests).toEqual([
      { id: questId, finished_at: expect.any(Date) },
      { id: next.id, finished_at: null },
    ]);
    expect(await notificationTypes(game.db, user.id)).toEqual(['level_unlocked']);
  });
});
