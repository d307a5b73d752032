// The rankings' kept counts (migration 0007_ranking_counts) equal the counts recomputed from the
// answers (application-spec §7: answers per volunteer since the start of the hour, day, week or
// month in TIME_ZONE) after new answers, re-posts, a new game, an account deletion and a period
// boundary, against PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RANKING_PERIODS, type RankingPeriod } from '../../shared/api';
import { RankingBoardCache, useRankingTimeZone } from '../../server/game/ranking-counts';
import { periodStart } from '../../server/game/rankings';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { answerRow, openGame, type GameFixture } from '../helpers/sky';

const TIME_ZONE = 'Asia/Tokyo';

interface CountRow {
  course_id: string;
  period: string;
  period_start: number;
  user_id: number;
  answers_count: number;
  reached_at: number;
}

const byKey = (a: CountRow, b: CountRow) =>
  a.course_id.localeCompare(b.course_id) ||
  a.period.localeCompare(b.period) ||
  a.period_start - b.period_start ||
  a.user_id - b.user_id;

describe.each(DATABASE_KINDS)('kept ranking counts on %s', (kind) => {
  let game: GameFixture;

  beforeAll(async () => {
    game = await openGame(kind);
  });
  afterAll(async () => {
    await game?.close();
  });

  const call = (user: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    game.app.inject({ method, url, cookies: user.cookies, payload });
  const currentQuest = async (user: TestUser, course: string) => {
    const response = await call(user, 'GET', `/api/courses/${course}/quests/current`);
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const answer = async (user: TestUser, questId: number, body: object) => {
    const response = await call(user, 'POST', `/api/quests/${questId}/answers`, body);
    expect(response.statusCode).toBe(200);
  };

  /** The kept counts as stored. */
  async function keptCounts(): Promise<CountRow[]> {
    const rows = await game.db.selectFrom('ranking_counts').selectAll().execute();
    return rows
      .map((row) => ({
        course_id: row.course_id,
        period: row.period,
        period_start: new Date(row.period_start).getTime(),
        user_id: Number(row.user_id),
        answers_count: Number(row.answers_count),
        reached_at: new Date(row.reached_at).getTime(),
      }))
      .sort(byKey);
  }

  /** The counts recomputed from the answers of existing accounts, period starts by periodStart. */
  async function recomputedCounts(): Promise<CountRow[]> {
    const answers = await game.db
      .selectFrom('answers')
      .innerJoin('users', 'users.id', 'answers.user_id')
      .select(['answers.user_id', 'answers.course_id', 'answers.created_at'])
      .execute();
    const counts = new Map<string, CountRow>();
    for (const row of answers) {
      const createdAt = new Date(row.created_at);
      for (const period of RANKING_PERIODS) {
        const start = periodStart(period, createdAt, TIME_ZONE).getTime();
        const key = `${row.course_id}/${period}/${start}/${row.user_id}`;
        const count = counts.get(key) ?? {
          course_id: row.course_id,
          period,
          period_start: start,
          user_id: Number(row.user_id),
          answers_count: 0,
          reached_at: 0,
        };
        count.answers_count += 1;
        count.reached_at = Math.max(count.reached_at, createdAt.getTime());
        counts.set(key, count);
      }
    }
    return [...counts.values()].sort(byKey);
  }

  it('equal the counts recomputed from the answers after answers, re-posts, a new game, a deletion and a period boundary', async () => {
    const [vega, altair, deneb] = [
      await createTestUser(game.db),
      await createTestUser(game.db),
      await createTestUser(game.db),
    ];

    // New answers through the answer path, in season2 and training.
    for (const user of [vega, altair, deneb]) {
      for (const course of ['season2', 'training']) {
        const quest = await currentQuest(user, course);
        for (const question of quest.questions.slice(0, 2))
          await answer(user, quest.id, { object_id: question.object_id, galaxy_type: 'spiral' });
      }
    }
    expect(await keptCounts()).toEqual(await recomputedCounts());
    const before = await keptCounts();

    // Re-posts change an answer, not the counts.
    const quest = await currentQuest(vega, 'season2');
    const answered = quest.answers.map((row: { object_id: number }) => row.object_id);
    expect(answered.length).toBeGreaterThan(0);
    for (const objectId of answered) await answer(vega, quest.id, { object_id: objectId, galaxy_type: 'elliptical' });
    expect(await keptCounts()).toEqual(before);

    // A new game deletes the quests and keeps the answers: replaying replaces them.
    const training = await currentQuest(altair, 'training');
    const replayed = training.answers.map((row: { object_id: number }) => row.object_id);
    expect((await call(altair, 'DELETE', '/api/courses/training/quests')).statusCode).toBe(204);
    expect(await keptCounts()).toEqual(before);
    const fresh = await currentQuest(altair, 'training');
    for (const objectId of replayed) await answer(altair, fresh.id, { object_id: objectId, galaxy_type: 'elliptical' });
    expect(await keptCounts()).toEqual(before);

    // An account's deletion takes its counts with it, as its answers leave the rankings.
    expect((await call(deneb, 'DELETE', '/api/current_user')).statusCode).toBe(204);
    const afterDeletion = await keptCounts();
    expect(afterDeletion.some((row) => row.user_id === deneb.id)).toBe(false);
    expect(afterDeletion).toEqual(await recomputedCounts());

    // Answers either side of the start of a month (and so of a day and an hour) in
    // Asia/Tokyo, written in one statement: each lands in its own period.
    const boundary = new Date('2026-02-01T00:00:00+09:00');
    const objects = (await game.db.selectFrom('targets').select('object_id').orderBy('object_id').limit(40).execute())
      .map((row) => Number(row.object_id))
      .filter((objectId) => !answered.includes(objectId));
    const sirius = await createTestUser(game.db);
    await game.db
      .insertInto('answers')
      .values(
        // created_at is the database's to write (schema.ts); these answers are dated on purpose.
        [-1, 0, 1, 3_600_000].map((offset, index) => ({
          ...answerRow({ user_id: sirius.id, object_id: objects[index], course_id: 'season2' }),
          created_at: new Date(boundary.getTime() + offset),
        })) as never,
      )
      .execute();
    const kept = await keptCounts();
    expect(kept).toEqual(await recomputedCounts());
    const siriusMonths = kept.filter((row) => row.user_id === sirius.id && row.period === 'month');
    expect(siriusMonths.map((row) => [new Date(row.period_start).toISOString(), row.answers_count])).toEqual([
      ['2025-12-31T15:00:00.000Z', 1],
      ['2026-01-31T15:00:00.000Z', 3],
    ]);
    const siriusHours = kept.filter((row) => row.user_id === sirius.id && row.period === 'hour');
    expect(siriusHours.map((row) => [new Date(row.period_start).toISOString(), row.answers_count])).toEqual([
      ['2026-01-31T14:00:00.000Z', 1],
      ['2026-01-31T15:00:00.000Z', 2],
      ['2026-01-31T16:00:00.000Z', 1],
    ]);

    // The served ranking, its clock on either side of the boundary: the new period is read at
    // once, not after the cache's second.
    let now = new Date(boundary.getTime() - 1);
    const rankings = new RankingBoardCache(game.db, TIME_ZONE, 60_000, () => now);
    const siriusCount = async (period: RankingPeriod) =>
      (await rankings.get('season2', period)).find((row) => row.id === sirius.id)?.count;
    expect(await siriusCount('month')).toBe(1);
    expect(await siriusCount('hour')).toBe(1);
    now = new Date(boundary.getTime() + 1);
    expect(await siriusCount('month')).toBe(3);
    expect(await siriusCount('hour')).toBe(2);
    now = new Date(boundary.getTime() + 3_600_000);
    expect(await siriusCount('hour')).toBe(1);
    expect(await siriusCount('day')).toBe(3);
  });

  it('recounts in the new zone when TIME_ZONE changes', async () => {
    const user = await createTestUser(game.db);
    const [target] = await game.db
      .selectFrom('targets')
      .select('object_id')
      .orderBy('object_id', 'desc')
      .limit(1)
      .execute();
    // 23:30 on 31 January in Tokyo is 09:30 on the 31st in New York: another day.
    await game.db
      .insertInto('answers')
      .values({
        ...answerRow({ user_id: user.id, object_id: Number(target.object_id), course_id: 'illustris' }),
        created_at: new Date('2026-01-31T23:30:00+09:00'),
      } as never)
      .execute();
    const dayOf = async () =>
      (
        await game.db
          .selectFrom('ranking_counts')
          .select('period_start')
          .where('user_id', '=', user.id)
          .where('period', '=', 'day')
          .executeTakeFirstOrThrow()
      ).period_start;
    expect(new Date(await dayOf()).toISOString()).toBe('2026-01-30T15:00:00.000Z');
    try {
      expect(await useRankingTimeZone(game.db, 'America/New_York')).toBe(true);
      expect(await useRankingTimeZone(game.db, 'America/New_York')).toBe(false);
      expect(new Date(await dayOf()).toISOString()).toBe('2026-01-31T05:00:00.000Z');
    } finally {
      await useRankingTimeZone(game.db, TIME_ZONE);
    }
    expect(await keptCounts()).toEqual(await recomputedCounts());
  });
});
