// Retirement in the game (docs/science.md), on PGlite and PostgreSQL: with a course rule on, a
// target retired by it is no longer put into new quests and leaves the quests that hold it at
// once (an answer to it is still taken from the screen that shows it), an area whose every target
// is retired is passed over without a quest, a volunteer who finds every area retired is told
// that no galaxy is left (never a 500), and an estimate opens again a retired target whose
// confidence fell below the rule.
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { addVotes, seedCrowd } from '../../bench/science-crowd';
import * as retiredTargets from '../../server/db/migrations/0012_retired_targets';
import type { Answer } from '../../shared/api';
import { sumNewAnswers } from '../../server/science/consensus';
import { scienceSummary } from '../../server/science/dashboard';
import { estimateReliability } from '../../server/science/reliability';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS, openTestDatabase } from '../helpers/databases';
import { openGame, type GameFixture } from '../helpers/sky';

interface Quest {
  id: number | null;
  area_id: number | null;
  questions: { object_id: number }[];
  answers: { object_id: number }[];
  done_area_ids: number[];
  no_more_available_objects: boolean;
}

const answer = (objectId: number): Answer => ({
  object_id: objectId,
  galaxy_type: 'spiral',
  interaction: 'no',
  ring: false,
  fan: false,
  tail: false,
  distorted: false,
});

describe.each(DATABASE_KINDS)('retirement in quests on %s', (kind) => {
  let game: GameFixture | undefined;
  afterEach(async () => {
    await game?.close();
    game = undefined;
  });

  const current = async (user: TestUser) => {
    const response = await game!.app.inject({
      method: 'GET',
      url: '/api/courses/season2/quests/current',
      cookies: user.cookies,
    });
    expect(response.statusCode).toBe(200);
    return response.json() as Quest;
  };
  const postFor = async (user: TestUser, questId: number | null, objectId: number) =>
    game!.app.inject({
      method: 'POST',
      url: `/api/quests/${questId}/answers`,
      cookies: user.cookies,
      payload: answer(objectId),
    });
  const post = async (user: TestUser, questId: number | null, objectId: number) =>
    (await postFor(user, questId, objectId)).statusCode;
  /** Retires every current target of season2's areas but `keep` (as the science would). */
  const retireAreas = async (keep: readonly number[] = []) =>
    sql`insert into retired_targets (object_id, course_id)
      select t.object_id, 'season2' from targets t join areas a on a.id = t.area_id join levels l on l.id = a.level_id
      where l.course_id = 'season2' and not t.retired and not (a.id = any(${keep}::int[]))
      on conflict do nothing`.execute(game!.db);

  it('keeps retired targets out of new quests only', async () => {
    game = await openGame(kind);
    // One volunteer's answer settles a target.
    await game.db.updateTable('courses').set({ retire_max_volunteers: 1 }).where('id', '=', 'season2').execute();
    const first = await createTestUser(game.db);
    const before = await current(first);
    const [settled, ...rest] = before.questions.map((question) => question.object_id);
    expect(rest.length).toBeGreaterThan(0);
    expect(await post(first, before.id, settled!)).toBe(200);
    await sumNewAnswers(game.db);
    const retired = await game.db
      .selectFrom('retired_targets')
      .select('retired_at')
      .where('object_id', '=', settled!)
      .executeTakeFirstOrThrow();
    expect(retired.retired_at).not.toBeNull();

    // The quest that showed it keeps it.
    expect((await current(first)).questions.map((question) => question.object_id)).toContain(settled);
    // A new quest of the same area leaves it out, refuses an answer to it and finishes without it.
    const second = await createTestUser(game.db);
    const fresh = await current(second);
    expect(fresh.area_id).toBe(before.area_id);
    // (In a course with a rule each volunteer's quest starts at a different target of the area.)
    expect(fresh.questions.map((question) => question.object_id).sort()).toEqual([...rest].sort());
    expect(await post(second, fresh.id, settled!)).toBe(422);
    for (const objectId of rest) expect(await post(second, fresh.id, objectId)).toBe(200);
    const next = await current(second);
    expect(next.id).not.toBe(fresh.id);
    expect(next.done_area_ids).toContain(before.area_id);
  });

  it('passes over an area whose every target is retired, without a quest there', async () => {
    game = await openGame(kind);
    await game.db.updateTable('courses').set({ retire_max_volunteers: 1 }).where('id', '=', 'season2').execute();
    const first = await createTestUser(game.db);
    const quest = await current(first);
    for (const question of quest.questions) expect(await post(first, quest.id, question.object_id)).toBe(200);
    await sumNewAnswers(game.db);
    const later = await createTestUser(game.db);
    const skipped = await current(later);
    expect(skipped.area_id).not.toBe(quest.area_id);
    expect(skipped.questions.length).toBeGreaterThan(0);
    // Passed over, not done by the later volunteer: no quest of theirs was there.
    expect(skipped.done_area_ids).toEqual([]);
    const quests = await game.db.selectFrom('quests').select('area_id').where('user_id', '=', later.id).execute();
    expect(quests.map((row) => row.area_id)).toEqual([skipped.area_id]);
  });

  it('drops a target retired while a quest holds it, but takes the answer of the screen that shows it', async () => {
    game = await openGame(kind);
    await game.db.updateTable('courses').set({ retire_max_volunteers: 1 }).where('id', '=', 'season2').execute();
    // Two volunteers sailing together: both quests are made before anything is retired.
    const [first, second] = [await createTestUser(game.db), await createTestUser(game.db)];
    const mine = await current(first);
    const theirs = await current(second);
    expect(theirs.area_id).toBe(mine.area_id);
    const [settled, next, ...rest] = mine.questions.map((question) => question.object_id);
    expect(await post(first, mine.id, settled!)).toBe(200);
    await sumNewAnswers(game.db);
    // The second volunteer's quest no longer offers it...
    expect((await current(second)).questions.map((question) => question.object_id)).not.toContain(settled);
    // ...and the answer that next settles another target tells the first volunteer's screen.
    const told = await postFor(first, mine.id, next!);
    expect(told.statusCode).toBe(200);
    expect((told.json() as { retired_object_ids?: number[] }).retired_object_ids).toEqual([settled]);
    // The second volunteer had it on screen: the answer is taken.
    expect(await post(second, theirs.id, settled!)).toBe(200);
    await sumNewAnswers(game.db);
    // Everything else the second volunteer is shown is open; answering it finishes the quest.
    const left = (await current(second)).questions.map((question) => question.object_id);
    expect(left.sort()).toEqual([settled!, ...rest].sort());
    for (const objectId of rest) expect(await post(second, theirs.id, objectId)).toBe(200);
    const after = await current(second);
    expect(after.id).not.toBe(theirs.id);
    expect(after.done_area_ids).toEqual([mine.area_id]);
  });

  it('tells a late volunteer that no galaxy is left when every area is retired, never a 500', async () => {
    game = await openGame(kind);
    await game.db.updateTable('courses').set({ retire_max_volunteers: 1 }).where('id', '=', 'season2').execute();
    const early = await createTestUser(game.db);
    const quest = await current(early);
    // Every other area of the course is settled, several levels of them in a row.
    await retireAreas([quest.area_id!]);
    const late = await createTestUser(game.db);
    const lateQuest = await current(late);
    expect(lateQuest.area_id).toBe(quest.area_id);
    // The last area is settled while both sail it: the early volunteer has answered one target.
    expect(await post(early, quest.id, quest.questions[0]!.object_id)).toBe(200);
    await retireAreas();
    for (const user of [late, early]) {
      const exhausted = await current(user);
      expect(exhausted.no_more_available_objects).toBe(true);
      expect(exhausted.questions).toEqual([]);
    }
    // The late volunteer did nothing there (their empty quest is gone); the early one did.
    expect((await current(late)).done_area_ids).toEqual([]);
    expect((await current(early)).done_area_ids).toEqual([quest.area_id]);
    const levels = await game.app.inject({
      method: 'GET',
      url: '/api/levels?course_id=season2',
      cookies: late.cookies,
    });
    expect(new Set((levels.json() as { status: string }[]).map((level) => level.status))).toEqual(
      new Set(['unlocked']),
    );
  });

  it('opens a retired target again when an estimate lowers its confidence below the rule, and lists it', async () => {
    game = await openGame(kind);
    await game.db
      .updateTable('courses')
      .set({ retire_min_volunteers: 2, retire_min_confidence: 0.9 })
      .where('id', '=', 'season2')
      .execute();
    const [first, second] = [await createTestUser(game.db), await createTestUser(game.db)];
    const quest = await current(first);
    const objectId = quest.questions[0]!.object_id;
    // Two answers that disagree: the consensus is far from 0.9 sure. A retirement made under
    // other weights (recorded here as the science would have) no longer holds.
    expect(await post(first, quest.id, objectId)).toBe(200);
    const other = await current(second);
    expect(
      await game.app
        .inject({
          method: 'POST',
          url: `/api/quests/${other.id}/answers`,
          cookies: second.cookies,
          payload: { ...answer(objectId), galaxy_type: 'elliptical', interaction: 'yes' },
        })
        .then((response) => response.statusCode),
    ).toBe(200);
    await sumNewAnswers(game.db);
    await game.db.insertInto('retired_targets').values({ object_id: objectId, course_id: 'season2' }).execute();
    const later = await createTestUser(game.db);
    expect((await current(later)).questions.map((question) => question.object_id)).not.toContain(objectId);
    await game.db.deleteFrom('quests').where('user_id', '=', later.id).execute();

    const estimate = await estimateReliability(game.db);
    expect(estimate.reopened).toBe(1);
    expect(await game.db.selectFrom('retired_targets').selectAll().where('object_id', '=', objectId).execute()).toEqual(
      [],
    );
    expect((await current(later)).questions.map((question) => question.object_id)).toContain(objectId);
    const summary = await scienceSummary(game.db);
    expect(summary.reopened.map((target) => target.object_id)).toEqual([objectId]);
    expect(summary.reopened[0]!.confidence).toBeLessThan(0.9);
    // The most disputed targets include retired ones, marked so.
    expect(summary.disputed.every((target) => typeof target.retired === 'boolean')).toBe(true);
  });

  it('changes nothing in a course without a rule', async () => {
    game = await openGame(kind);
    const first = await createTestUser(game.db);
    const quest = await current(first);
    expect(await post(first, quest.id, quest.questions[0]!.object_id)).toBe(200);
    await sumNewAnswers(game.db);
    const second = await createTestUser(game.db);
    expect((await current(second)).questions).toEqual(quest.questions);
  });
});

describe.each(DATABASE_KINDS)('migration 0012 on %s', (kind) => {
  it('moves the retirements out of target_consensus, keeps them in quests, and goes down again', async () => {
    const database = await openTestDatabase(kind);
    try {
      const db = database.db;
      const schemaless = db as unknown as Kysely<unknown>;
      const crowd = await seedCrowd(db, { targets: 3, volunteers: 2 });
      await addVotes(db, crowd, crowd.targets, new Map());
      await sumNewAnswers(db);
      await retiredTargets.down(schemaless);
      const [settled, open] = crowd.targets;
      await sql`update target_consensus set retired_at = now() - interval '1 day' where object_id = ${settled!.object_id}`.execute(
        db,
      );
      await retiredTargets.up(schemaless);
      const rows = await db.selectFrom('retired_targets').select(['object_id', 'course_id']).execute();
      expect(rows.map((row) => [Number(row.object_id), row.course_id])).toEqual([[settled!.object_id, crowd.courseId]]);
      const openFor = async (objectId: number) =>
        (await sql<{ open: boolean }>`select target_open_for_quest(${objectId}, now()) as open`.execute(db)).rows[0]!
          .open;
      expect(await openFor(settled!.object_id)).toBe(false);
      expect(await openFor(open!.object_id)).toBe(true);
      await retiredTargets.down(schemaless);
      const back = await sql<{
        object_id: number;
      }>`select object_id from target_consensus where retired_at is not null`.execute(db);
      expect(back.rows.map((row) => Number(row.object_id))).toEqual([settled!.object_id]);
      await retiredTargets.up(schemaless);
    } finally {
      await database.close();
    }
  });
});
