// GET /api/campaigns, the new-record response, and GET /api/courses/{course_id}/rankings/{period}
// (application-spec §3, §7, ARCHITECTURE.md) against PGlite and PostgreSQL.
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedCatalogue } from '../../server/db/seed';
import { periodStart } from '../../server/game/rankings';
import { campaignBoard } from '../../server/game/model-reads';
import type { Catalogue } from '../../shared/catalogue';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { answerRow, copyCatalogue, openGame, smallSky, type GameFixture } from '../helpers/sky';

const DAY = 86_400_000;

/** The small sky with two campaigns: one open now with medals at 3 and 5 answers, one long past. */
async function campaignCatalogue(): Promise<Catalogue> {
  const { catalogue } = await smallSky();
  const variant = copyCatalogue(catalogue, `${catalogue.digest}-campaigns`);
  const medal = (count: number, notch: number) => ({
    count,
    image: `campaigns/medal-${notch}.png`,
    notch,
    messages: { en: `${count} galaxies!`, ja: `${count} 個の銀河！` },
  });
  variant.campaigns = [
    {
      id: 11,
      name: { en: 'Open now', ja: '開催中' },
      period_begin: new Date(Date.now() - DAY).toISOString(),
      period_end: new Date(Date.now() + DAY).toISOString(),
      medals: [medal(5, 2), medal(3, 1)],
    },
    {
      id: 10,
      name: { en: 'Long ago', ja: '昔' },
      period_begin: '2022-11-01T00:00:00+09:00',
      period_end: '2023-01-31T23:59:59+09:00',
      medals: [medal(1, 1)],
    },
  ];
  return variant;
}

describe.each(DATABASE_KINDS)('campaigns and the new-record response on %s', (kind) => {
  let game: GameFixture;

  beforeAll(async () => {
    game = await openGame(kind, await campaignCatalogue());
  });
  afterAll(async () => {
    await game?.close();
  });

  const campaigns = async (user: TestUser) => {
    const response = await game.app.inject({ method: 'GET', url: '/api/campaigns', cookies: user.cookies });
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it("counts all volunteers' answers in the window, and new_record is true exactly when a medal count is crossed", async () => {
    const volunteers = [await createTestUser(game.db), await createTestUser(game.db)];
    const before = await campaigns(volunteers[0]);
    expect(before.map((entry: { meta: { id: number } }) => entry.meta.id)).toEqual([10, 11]);
    expect(before[1]).toEqual({
      meta: {
        id: 11,
        name: { en: 'Open now', ja: '開催中' },
        period_begin: expect.any(String),
        period_end: expect.any(String),
        medals: [
          { count: 3, image: 'campaigns/medal-1.png', notch: 1, messages: { en: '3 galaxies!', ja: '3 個の銀河！' } },
          { count: 5, image: 'campaigns/medal-2.png', notch: 2, messages: { en: '5 galaxies!', ja: '5 個の銀河！' } },
        ],
      },
      count: 0,
    });

    const quests = [];
    for (const volunteer of volunteers) {
      const response = await game.app.inject({
        method: 'GET',
        url: '/api/courses/season2/quests/current',
        cookies: volunteer.cookies,
      });
      quests.push(response.json());
    }
    const records: boolean[] = [];
    const counts: number[] = [];
    // Alternate volunteers: the count is the community's, not one user's.
    for (let i = 0; i < 6; i++) {
      const who = i % 2;
      const quest = quests[who];
      const response = await game.app.inject({
        method: 'POST',
        url: `/api/quests/${quest.id}/answers`,
        cookies: volunteers[who].cookies,
        payload: { object_id: quest.questions[Math.floor(i / 2)].object_id, galaxy_type: 'spiral' },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      records.push(body.new_record);
      counts.push(body.campaigns.find((entry: { meta: { id: number } }) => entry.meta.id === 11).count);
      expect(body.answers_count).toBe(Math.floor(i / 2) + 1);
    }
    expect(counts).toEqual([1, 2, 3, 4, 5, 6]);
    expect(records).toEqual([false, false, true, false, true, false]);

    // A changed answer is the same answer: no count, no record.
    const changed = await game.app.inject({
      method: 'POST',
      url: `/api/quests/${quests[0].id}/answers`,
      cookies: volunteers[0].cookies,
      payload: { object_id: quests[0].questions[0].object_id, galaxy_type: 'elliptical' },
    });
    expect(changed.json().new_record).toBe(false);

    const after = await campaigns(volunteers[1]);
    expect(after.find((entry: { meta: { id: number } }) => entry.meta.id === 11).count).toBe(6);
    // The past window counts nothing answered now.
    expect(after.find((entry: { meta: { id: number } }) => entry.meta.id === 10).count).toBe(0);
  });

  it('answers 401 to the poll right after logout, though polls reuse a session lookup for a second', async () => {
    const volunteer = await createTestUser(game.db);
    await campaigns(volunteer);
    await campaigns(volunteer);
    const logout = await game.app.inject({ method: 'DELETE', url: '/api/session', cookies: volunteer.cookies });
    expect(logout.statusCode).toBe(204);
    const after = await game.app.inject({ method: 'GET', url: '/api/campaigns', cookies: volunteer.cookies });
    expect(after.statusCode).toBe(401);
  });

  it('answers 401 to a guest', async () => {
    expect((await game.app.inject({ method: 'GET', url: '/api/campaigns' })).statusCode).toBe(401);
  });

  describe('a session revoked by another server process', () => {
    afterEach(() => {
      vi.useRealTimers();
      vi.restoreAllMocks();
    });

    // The poll's status at each time after the first lookup, when the lookup drew `random` for its
    // reuse and the session row was then deleted directly, as another process's logout does.
    const statusesAfterRevocation = async (random: number, times: number[]) => {
      const volunteer = await createTestUser(game.db);
      vi.useFakeTimers({ toFake: ['Date'] });
      const start = Date.now();
      vi.spyOn(Math, 'random').mockReturnValue(random);
      await campaigns(volunteer);
      vi.mocked(Math.random).mockRestore();
      await game.db.deleteFrom('sessions').where('user_id', '=', volunteer.id).execute();
      const statuses: number[] = [];
      for (const time of times) {
        vi.setSystemTime(start + time);
        const poll = await game.app.inject({ method: 'GET', url: '/api/campaigns', cookies: volunteer.cookies });
        statuses.push(poll.statusCode);
      }
      return statuses;
    };

    it('is seen within a second: a lookup is reused for a random half second to a second', async () => {
      expect(await statusesAfterRevocation(0, [0, 499, 500])).toEqual([200, 200, 401]);
      expect(await statusesAfterRevocation(0.9999, [0, 999, 1000])).toEqual([200, 200, 401]);
    });
  });
});

describe.each(DATABASE_KINDS)('rankings per hour, day, week and month on %s', (kind) => {
  let game: GameFixture;
  let objects: number[];
  const timeZone = 'Asia/Tokyo';

  beforeAll(async () => {
    game = await openGame(kind);
    const season2 = game.catalogue.courses.find((course) => course.id === 'season2')!;
    objects = season2.levels.flatMap((level) => level.areas.flatMap((area) => area.targets.map((t) => t.object_id)));
  });
  afterAll(async () => {
    await game?.close();
  });

  /** Answers of `user` in season2 at the given instants (one object each). */
  async function answersAt(user: TestUser, times: Date[]) {
    await game.db
      .insertInto('answers')
      .values(
        // created_at is the database's to write (schema.ts); these answers are dated on purpose.
        times.map((at, index) => ({
          ...answerRow({ user_id: user.id, object_id: objects[index], course_id: 'season2' }),
          created_at: at,
        })) as never,
      )
      .execute();
  }

  const ranking = async (user: TestUser, course: string, period: string) =>
    game.app.inject({ method: 'GET', url: `/api/courses/${course}/rankings/${period}`, cookies: user.cookies });

  it('counts answers since the start of the period in Asia/Tokyo, ties to who got there first, public_avater only when public', async () => {
    const now = new Date();
    const starts = {
      hour: periodStart('hour', now, timeZone),
      day: periodStart('day', now, timeZone),
      week: periodStart('week', now, timeZone),
      month: periodStart('month', now, timeZone),
    };
    const at = (start: Date, ms: number) => new Date(start.getTime() + ms);
    const email = `  Vega.${crypto.randomBytes(3).toString('hex')}@Example.org `.trim();
    const vega = await createTestUser(game.db, { email, nickname: 'Vega' });
    await game.db
      .updateTable('users')
      .set({ gravatar_private: true, gravatar_public: true })
      .where('id', '=', vega.id)
      .execute();
    const altair = await createTestUser(game.db, { nickname: 'Altair' });
    // Gravatar in use but not made public: no avatar on rankings.
    await game.db.updateTable('users').set({ gravatar_private: true }).where('id', '=', altair.id).execute();
    const deneb = await createTestUser(game.db, { nickname: 'Deneb' });

    // This hour: Vega 2 (reached 2 at +2 ms), Altair 2 (reached 2 at +1 ms), Deneb 1.
    // Before this hour (same month): Vega 1 more; before this month: Deneb 5 more.
    await answersAt(vega, [at(starts.hour, 0), at(starts.hour, 2), at(starts.hour, -1)]);
    await answersAt(altair, [at(starts.hour, 0), at(starts.hour, 1)]);
    await answersAt(deneb, [at(starts.hour, 5), ...Array.from({ length: 5 }, (_, i) => at(starts.month, -1 - i))]);

    const hour = await ranking(vega, 'season2', 'hour');
    expect(hour.statusCode).toBe(200);
    const hash = crypto.createHash('md5').update(email.trim().toLowerCase()).digest('hex');
    expect(hour.json()).toEqual([
      { id: altair.id, nickname: 'Altair', count: 2, public_avater: null },
      { id: vega.id, nickname: 'Vega', count: 2, public_avater: expect.stringContaining(hash) },
      { id: deneb.id, nickname: 'Deneb', count: 1, public_avater: null },
    ]);
    expect(hour.json()[1].public_avater).toMatch(new RegExp(`^https://www\\.gravatar\\.com/avatar/${hash}`));

    // The hour's answer at -1 ms belongs to the day, week and month when their start is earlier.
    const month = (await ranking(vega, 'season2', 'month')).json();
    const vegaMonth = starts.month.getTime() <= starts.hour.getTime() - 1 ? 3 : 2;
    expect(month.find((row: { id: number }) => row.id === vega.id).count).toBe(vegaMonth);
    expect(month.find((row: { id: number }) => row.id === deneb.id).count).toBe(1);
    for (const period of ['day', 'week'] as const) {
      const rows = (await ranking(vega, 'season2', period)).json();
      const expected = starts[period].getTime() <= starts.hour.getTime() - 1 ? 3 : 2;
      expect(rows.find((row: { id: number }) => row.id === vega.id).count, period).toBe(expected);
    }

    // Other courses have their own rankings.
    expect((await ranking(vega, 'illustris', 'hour')).json()).toEqual([]);
  });

  it('lists the top 100 only', async () => {
    const users = await game.db
      .insertInto('users')
      .values(
        Array.from({ length: 101 }, (_, i) => ({
          email: `crowd${i}-${crypto.randomBytes(3).toString('hex')}@example.org`,
          nickname: `crowd${i}-${crypto.randomBytes(3).toString('hex')}`,
          locale: 'en',
          password_hash: null,
        })),
      )
      .returning('id')
      .execute();
    const start = periodStart('month', new Date(), timeZone);
    await game.db
      .insertInto('answers')
      .values(
        users.map((user, i) => ({
          ...answerRow({ user_id: user.id, object_id: objects[0], course_id: 'illustris' }),
          created_at: new Date(start.getTime() + i),
        })) as never,
      )
      .execute();
    const viewer = await createTestUser(game.db);
    const rows = (await ranking(viewer, 'illustris', 'month')).json();
    expect(rows).toHaveLength(100);
    // Equal counts: the earliest come first, so the 101st (latest) is the one left out.
    expect(rows.map((row: { id: number }) => row.id)).toEqual(users.slice(0, 100).map((user) => user.id));
  });

  it('answers 400 for an unknown period, 404 for an unknown course, 401 for a guest', async () => {
    const viewer = await createTestUser(game.db);
    const period = await ranking(viewer, 'season2', 'year');
    expect(period.statusCode).toBe(400);
    expect((await ranking(viewer, 'season9', 'day')).statusCode).toBe(404);
    const guest = await game.app.inject({ method: 'GET', url: '/api/courses/season2/rankings/day' });
    expect(guest.statusCode).toBe(401);
  });
});

describe.each(DATABASE_KINDS)('campaign counts under concurrent answers on %s', (kind) => {
  let game: GameFixture;

  beforeAll(async () => {
    const variant = await campaignCatalogue();
    const open = variant.campaigns[0];
    const medal = (count: number) => ({
      count,
      image: 'campaigns/medal.png',
      notch: 1,
      messages: { en: 'm', ja: 'm' },
    });
    // Two overlapping open windows: every new answer counts in both.
    variant.campaigns = [
      { ...open, id: 21, medals: [medal(5), medal(20)] },
      { ...open, id: 22, medals: [medal(7)] },
    ];
    variant.digest = `${variant.digest}-concurrent`;
    game = await openGame(kind, variant);
  });
  afterAll(async () => {
    await game?.close();
  });

  it('counts every answer once and reports each medal crossing exactly once', async () => {
    const volunteers = await Promise.all(Array.from({ length: 8 }, () => createTestUser(game.db)));
    const quests = await Promise.all(
      volunteers.map(
        async (volunteer) =>
          (
            await game.app.inject({
              method: 'GET',
              url: '/api/courses/season2/quests/current',
              cookies: volunteer.cookies,
            })
          ).json() as Promise<{ id: number; questions: { object_id: number }[] }>,
      ),
    );
    const posts = volunteers.flatMap((volunteer, i) =>
      quests[i].questions.map((question) =>
        game.app.inject({
          method: 'POST',
          url: `/api/quests/${quests[i].id}/answers`,
          cookies: volunteer.cookies,
          payload: { object_id: question.object_id },
        }),
      ),
    );
    const responses = await Promise.all(posts);
    expect(responses.map((response) => response.statusCode)).toEqual(responses.map(() => 200));
    expect(responses.filter((response) => response.json().new_record)).toHaveLength(3);
    // The count read back from the database (the sequences, not this process's cache).
    const board = await campaignBoard(game.db);
    expect(board.map((entry) => [entry.meta.id, entry.count])).toEqual([
      [21, posts.length],
      [22, posts.length],
    ]);
    const stored = await game.db
      .selectFrom('answers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(stored.n).toBe(posts.length);
  });

  it('keeps counting from the recount when the catalogue is seeded again', async () => {
    const before = await campaignBoard(game.db);
    const variant = copyCatalogue(game.catalogue, `${game.catalogue.digest}-reseeded`);
    await seedCatalogue(game.db, variant);
    // The re-seed recounts every window from the answers themselves: the same numbers.
    expect(await campaignBoard(game.db)).toEqual(before);
    const volunteer = await createTestUser(game.db);
    const quest = (
      await game.app.inject({ method: 'GET', url: '/api/courses/season2/quests/current', cookies: volunteer.cookies })
    ).json();
    const response = await game.app.inject({
      method: 'POST',
      url: `/api/quests/${quest.id}/answers`,
      cookies: volunteer.cookies,
      payload: { object_id: quest.questions[0].object_id },
    });
    expect(response.statusCode).toBe(200);
    const after = await campaignBoard(game.db);
    expect(after.map((entry) => entry.count)).toEqual(before.map((entry) => entry.count + 1));
  });
});
