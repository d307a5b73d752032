// The present202501 gift campaign (application-spec §2 gift screen, §5 "Gift form", §8, §9) over
// HTTP on both databases. Classified galaxies are rows of the answers table, written here for
// targets of the small sky's catalogue.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PresentStat } from '../../shared/api';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { seedCatalogue } from '../../server/db/seed';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../helpers/databases';
import { answerRow, smallSky } from '../helpers/sky';

const DAY = 24 * 3600_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const MIN = 3;

const application = {
  name: 'Hoshino Sora',
  country_code: 392,
  zip_code: '181-8588',
  address1: '2-21-1 Osawa',
  address2: 'Mitaka',
  address3: 'Tokyo',
  message: 'Thank you!',
};

describe('present202501 configuration (application-spec §9)', () => {
  it('defaults: opens 2025-02-07 09:00 JST, deadline 2025-02-14 23:59 JST, 1000 galaxies', () => {
    const { present } = loadConfig({});
    expect(present.opensAt.toISOString()).toBe('2025-02-07T00:00:00.000Z');
    expect(present.deadline.toISOString()).toBe('2025-02-14T14:59:59.000Z');
    expect(present.minGalaxies).toBe(1000);
  });

  it('reads PRESENT_OPENS_AT, PRESENT_DEADLINE and PRESENT_MIN_GALAXIES, and refuses nonsense', () => {
    const { present } = loadConfig({
      PRESENT_OPENS_AT: '2026-01-01T00:00:00Z',
      PRESENT_DEADLINE: '2026-01-31T00:00:00+09:00',
      PRESENT_MIN_GALAXIES: '50',
    });
    expect(present).toEqual({
      opensAt: new Date('2026-01-01T00:00:00Z'),
      deadline: new Date('2026-01-30T15:00:00Z'),
      minGalaxies: 50,
    });
    expect(() => loadConfig({ PRESENT_OPENS_AT: '2026-01-01 00:00' })).toThrow(/PRESENT_OPENS_AT/);
    expect(() => loadConfig({ PRESENT_MIN_GALAXIES: 'many' })).toThrow(/PRESENT_MIN_GALAXIES/);
    expect(() => loadConfig({ PRESENT_OPENS_AT: '2025-03-01T00:00:00Z' })).toThrow(/before PRESENT_DEADLINE/);
  });
});

describe.each(DATABASE_KINDS)('present202501 on %s', (kind) => {
  let database: TestDatabase;
  let open: FastifyInstance;
  let targets: number[];

  async function appWith(env: Record<string, string>) {
    return buildApp({
      config: loadConfig({ VAR_DIR: '/nonexistent-var', DIST_DIR: '/nonexistent-dist', ...env }),
      db: database.db,
    });
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await seedCatalogue(database.db, (await smallSky()).catalogue);
    const season2 = await database.db
      .selectFrom('targets')
      .innerJoin('areas', 'areas.id', 'targets.area_id')
      .innerJoin('levels', 'levels.id', 'areas.level_id')
      .select('targets.object_id')
      .where('levels.course_id', '=', 'season2')
      .orderBy('targets.object_id')
      .execute();
    targets = season2.map((row) => row.object_id);
    expect(targets.length).toBeGreaterThanOrEqual(MIN);
    open = await appWith({
      PRESENT_OPENS_AT: iso(-DAY),
      PRESENT_DEADLINE: iso(DAY),
      PRESENT_MIN_GALAXIES: String(MIN),
    });
  });
  afterAll(async () => {
    await open?.close();
    await database?.close();
  });

  /** A volunteer who has classified `count` season2 galaxies (answers rows). */
  async function volunteer(count: number): Promise<TestUser> {
    const user = await createTestUser(database.db);
    if (count > 0)
      await database.db
        .insertInto('answers')
        .values(
          targets
            .slice(0, count)
            .map((objectId) => answerRow({ user_id: user.id, object_id: objectId, course_id: 'season2' })),
        )
        .execute();
    return user;
  }

  const apply = (user: TestUser, payload: Record<string, unknown> = application, app = open) =>
    app.inject({ method: 'POST', url: '/api/present202501', cookies: user.cookies, payload });
  const stat = async (user: TestUser, app = open): Promise<PresentStat> => {
    const response = await app.inject({ method: 'GET', url: '/api/present202501/stat', cookies: user.cookies });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const stored = (user: TestUser) =>
    database.db.selectFrom('present_applications').selectAll().where('user_id', '=', user.id).execute();

  describe('a guest', () => {
    it('gets 401 from every gift call', async () => {
      for (const method of ['POST', 'DELETE'] as const)
        expect((await open.inject({ method, url: '/api/present202501', payload: application })).statusCode).toBe(401);
      expect((await open.inject({ method: 'GET', url: '/api/present202501/stat' })).statusCode).toBe(401);
    });
  });

  describe('GET /api/present202501/stat', () => {
    it("counts the user's classified galaxies against min_galaxies, without an application", async () => {
      const user = await volunteer(2);
      await volunteer(5);
      const body = await stat(user);
      expect(body).toMatchObject({ count: 2, min_galaxies: MIN });
      expect(body).not.toHaveProperty('application');
    });

    it('counts answers in every course', async () => {
      const user = await volunteer(1);
      const training = await database.db
        .selectFrom('targets')
        .innerJoin('areas', 'areas.id', 'targets.area_id')
        .innerJoin('levels', 'levels.id', 'areas.level_id')
        .select('targets.object_id')
        .where('levels.course_id', '=', 'training')
        .executeTakeFirstOrThrow();
      await database.db
        .insertInto('answers')
        .values(answerRow({ user_id: user.id, object_id: training.object_id, course_id: 'training' }))
        .execute();
      expect((await stat(user)).count).toBe(2);
    });
  });

  describe('galaxy count must reach min_galaxies', () => {
    it("answers 422 with {required} and 'You do not meet the application requirements (...)'", async () => {
      const user = await volunteer(MIN - 1);
      const response = await apply(user);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        required: MIN,
        message: `You do not meet the application requirements (you haven't classified ${MIN} galaxies)`,
      });
      expect(await stored(user)).toEqual([]);
    });

    it('with the default of 1000 galaxies', async () => {
      const app = await appWith({ PRESENT_OPENS_AT: iso(-DAY), PRESENT_DEADLINE: iso(DAY) });
      try {
        const user = await volunteer(MIN);
        const response = await apply(user, application, app);
        expect(response.statusCode).toBe(422);
        expect(response.json()).toMatchObject({
          required: 1000,
          message: "You do not meet the application requirements (you haven't classified 1000 galaxies)",
        });
        expect((await stat(user, app)).min_galaxies).toBe(1000);
      } finally {
        await app.close();
      }
    });

    it('accepts exactly min_galaxies', async () => {
      const user = await volunteer(MIN);
      expect((await apply(user)).statusCode).toBe(200);
    });
  });

  describe('apply, update and cancel', () => {
    it('applies: 200 with the application, which the stat then carries', async () => {
      const user = await volunteer(MIN);
      const response = await apply(user);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual(application);
      expect((await stat(user)).application).toEqual(application);
    });

    it('a second POST updates the one application', async () => {
      const user = await volunteer(MIN);
      await apply(user);
      const moved = { ...application, address1: '1-1 Chiyoda', address3: '', message: '' };
      const response = await apply(user, moved);
      expect(response.statusCode).toBe(200);
      expect((await stat(user)).application).toEqual(moved);
      expect(await stored(user)).toHaveLength(1);
    });

    it('DELETE cancels (204); the stat has no application; cancelling again is harmless', async () => {
      const user = await volunteer(MIN);
      await apply(user);
      const other = await volunteer(MIN);
      await apply(other);
      const cancel = () => open.inject({ method: 'DELETE', url: '/api/present202501', cookies: user.cookies });
      expect((await cancel()).statusCode).toBe(204);
      expect(await stat(user)).not.toHaveProperty('application');
      expect((await cancel()).statusCode).toBe(204);
      expect((await stat(other)).application).toEqual(application);
    });

    it('trims the texts it stores', async () => {
      const user = await volunteer(MIN);
      await apply(user, { ...application, name: '  Hoshino Sora  ' });
      expect((await stored(user))[0].name).toBe('Hoshino Sora');
    });
  });

  describe('gift form validation', () => {
    async function refused(payload: Record<string, unknown>, errors: Record<string, string[]>) {
      const user = await volunteer(MIN);
      const response = await apply(user, payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ message: 'There are fields that have not been filled in.', errors });
      expect(await stored(user)).toEqual([]);
    }

    it("name, country, zip code and address1 are required: 'Cannot be blank'", async () => {
      const { name: _name, country_code: _country, ...rest } = application;
      await refused(rest, { name: ['Cannot be blank'], country_code: ['Cannot be blank'] });
      await refused(
        { ...application, zip_code: '   ', address1: '' },
        { zip_code: ['Cannot be blank'], address1: ['Cannot be blank'] },
      );
      await refused(
        { ...application, name: null, country_code: null },
        {
          name: ['Cannot be blank'],
          country_code: ['Cannot be blank'],
        },
      );
    });

    it('address2, address3 and message are optional', async () => {
      const user = await volunteer(MIN);
      const { address2: _2, address3: _3, message: _m, ...required } = application;
      const response = await apply(user, required);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ...required, address2: '', address3: '', message: '' });
    });

    it("too long texts: 'is too long (maximum is {max} characters)'", async () => {
      await refused(
        { ...application, name: 'n'.repeat(101), message: 'm'.repeat(1001) },
        { name: ['is too long (maximum is 100 characters)'], message: ['is too long (maximum is 1000 characters)'] },
      );
    });

    it("a country code outside the country table is 'Invalid Format'; a non-number is a 400", async () => {
      await refused({ ...application, country_code: 1000 }, { country_code: ['Invalid Format'] });
      const user = await volunteer(MIN);
      const response = await apply(user, { ...application, country_code: 'Japan' });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/country_code/);
      expect(await stored(user)).toEqual([]);
    });

    it("accepts 'other' (-1) as a country", async () => {
      const user = await volunteer(MIN);
      expect((await apply(user, { ...application, country_code: -1 })).statusCode).toBe(200);
    });
  });

  describe('the application window (PRESENT_OPENS_AT to PRESENT_DEADLINE)', () => {
    it('refuses applying before the page opens with 403 and the opening time', async () => {
      const app = await appWith({
        PRESENT_OPENS_AT: iso(DAY),
        PRESENT_DEADLINE: iso(2 * DAY),
        PRESENT_MIN_GALAXIES: '1',
      });
      try {
        const user = await volunteer(MIN);
        const response = await apply(user, application, app);
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toMatch(/not open yet: applications open at \d{4}-\d\d-\d\d \d\d:\d\d JST/);
        expect(await stored(user)).toEqual([]);
        // The stat stays readable: the form shows the count against the requirement.
        expect((await stat(user, app)).count).toBe(MIN);
      } finally {
        await app.close();
      }
    });

    it('refuses applying and updating after the deadline with 403; cancelling still works', async () => {
      const user = await volunteer(MIN);
      expect((await apply(user)).statusCode).toBe(200);
      const closed = await appWith({
        PRESENT_OPENS_AT: iso(-2 * DAY),
        PRESENT_DEADLINE: iso(-DAY),
        PRESENT_MIN_GALAXIES: '1',
      });
      try {
        const response = await apply(user, { ...application, name: 'Late change' }, closed);
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toMatch(/closed: the deadline was .* JST/);
        expect((await stored(user))[0].name).toBe(application.name);
        const cancel = await closed.inject({ method: 'DELETE', url: '/api/present202501', cookies: user.cookies });
        expect(cancel.statusCode).toBe(204);
        expect(await stored(user)).toEqual([]);
      } finally {
        await closed.close();
      }
    });
  });
});
