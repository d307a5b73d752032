// Retirement in the game (docs/science.md), on PGlite and PostgreSQL: with a course rule on, a
// target retired by it is no longer put into new quests, stays in the quest that already showed
// it, and an area whose every target is retired is passed over as done.
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { addVotes, seedCrowd } from '../../cli/bench/science-crowd';
import * as retiredTargets from '../../server/db/migrations/0012_retired_targets';
import type { Answer } from '../../src/shared/api';
import { sumNewAnswers } from '../../server/science/consensus';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS, openTestDatabase } from '../helpers/databases';
import { openGame, type GameFixture } from '../helpers/sky';

interface Quest {
  id: number;
  area_id: number;
  questions: { object_id: number }[];
  done_area_ids: number[];
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
  const post = async (user: TestUser, questId: number, objectId: number) => {
    const response = await game!.app.inject({
      method: 'POST',
      url: `/api/quests/${questId}/answers`,
      cookies: user.cookies,
      payload: answer(objectId),
    });
    return response.statusCode;
  };

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
    expect(fresh.questions.map((question) => question.object_id)).toEqual(rest);
    expect(await post(second, fresh.id, settled!)).toBe(422);
    for (const objectId of rest) expect(await post(second, fresh.id, objectId)).toBe(200);
    const next = await current(second);
    expect(next.id).not.toBe(fresh.id);
    expect(next.done_area_ids).toContain(before.area_id);
  });

  it('passes over an area whose every target is retired', async () => {
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
    expect(skipped.done_area_ids).toEqual([quest.area_id]);
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
