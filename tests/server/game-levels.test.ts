// GET /api/server_info, GET /api/levels, GET /api/levels/{level_id} (application-spec §3, §7)
// against PGlite and PostgreSQL, seeded from the small sky's catalogue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COURSE_IDS } from '../../shared/enums';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { openGame, type GameFixture } from '../helpers/sky';

describe.each(DATABASE_KINDS)('levels and areas on %s', (kind) => {
  let game: GameFixture;
  let user: TestUser;

  beforeAll(async () => {
    game = await openGame(kind);
    user = await createTestUser(game.db);
  });
  afterAll(async () => {
    await game?.close();
  });

  const get = (url: string, who: TestUser | null = user) =>
    game.app.inject({ method: 'GET', url, cookies: who?.cookies });

  describe('GET /api/server_info: number of areas per course, keyed by course then by group (level key)', () => {
    it('counts the catalogue areas of every level of every course', async () => {
      const response = await get('/api/server_info');
      expect(response.statusCode).toBe(200);
      const expected: Record<string, Record<string, number>> = {};
      for (const course of game.catalogue.courses)
        for (const level of course.levels) (expected[course.id] ??= {})[level.key] = level.areas.length;
      expect(response.json()).toEqual({ number_of_areas: expected });
      expect(Object.keys(expected).sort()).toEqual([...COURSE_IDS].sort());
    });

    it('answers 401 to a guest', async () => {
      expect((await get('/api/server_info', null)).statusCode).toBe(401);
    });
  });

  describe('GET /api/levels: levels with the per-user status (locked, active, unlocked) and number_of_areas', () => {
    it('lists every course in sailing order, the first level of each active and the rest locked', async () => {
      const response = await get('/api/levels');
      expect(response.statusCode).toBe(200);
      const levels = response.json();
      const expected = game.catalogue.courses.flatMap((course) =>
        course.levels.map((level, index) => ({
          id: level.id,
          course_id: course.id,
          key: level.key,
          name_key: level.name_key,
          name: level.name,
          type: level.type,
          depth: level.depth,
          survey: level.survey,
          labels: level.labels,
          status: index === 0 ? 'active' : 'locked',
          number_of_areas: level.areas.length,
        })),
      );
      expect(levels).toEqual(expected);
    });

    it('filters by course_id and, with only_status, answers just id, course_id, key and status', async () => {
      const season2 = game.catalogue.courses.find((course) => course.id === 'season2')!;
      const filtered = (await get('/api/levels?course_id=season2')).json();
      expect(filtered.map((level: { key: string }) => level.key)).toEqual(season2.levels.map((level) => level.key));
      const statuses = (await get('/api/levels?course_id=season2&only_status=true')).json();
      expect(statuses).toEqual(
        season2.levels.map((level, index) => ({
          id: level.id,
          course_id: 'season2',
          key: level.key,
          status: index === 0 ? 'active' : 'locked',
        })),
      );
    });

    it('answers 404 for an unknown course, 400 for a bad only_status, 401 for a guest', async () => {
      const unknown = await get('/api/levels?course_id=season3');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toMatch(/Unknown course 'season3'/);
      expect((await get('/api/levels?only_status=perhaps')).statusCode).toBe(400);
      expect((await get('/api/levels', null)).statusCode).toBe(401);
    });
  });

  describe('GET /api/levels/{level_id}: areas, each with id and outline polygons', () => {
    it('returns the level with its status and its areas outlines', async () => {
      const course = game.catalogue.courses.find((candidate) => candidate.id === 'season2')!;
      const level = course.levels[1];
      const response = await get(`/api/levels/${level.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: level.id,
        course_id: 'season2',
        key: level.key,
        status: 'locked',
        number_of_areas: level.areas.length,
        areas: level.areas.map((area) => ({ id: area.id, outlines: area.outlines })),
      });
    });

    it('answers 404 for an unknown level and 400 for an id that is not a positive integer', async () => {
      const missing = await get('/api/levels/999999');
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('Level 999999 not found.');
      for (const id of ['abc', '0', '-3', '99999999999'])
        expect((await get(`/api/levels/${id}`)).statusCode, id).toBe(400);
      expect((await get('/api/levels/1', null)).statusCode).toBe(401);
    });
  });
});
