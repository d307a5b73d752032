// Input from outside (README: a body that breaks its route's schema is a 400): strings that
// PostgreSQL cannot store (NUL), integers larger than their column, bodies of the wrong type or
// with unknown fields, and nicknames that would show as nothing (or reorder a ranking's text) in
// public rankings. Each such request is refused with a 400 or 422 that names the field, never a
// 500, and nothing is written.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, QUESTIONNAIRE, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { insertUserWithPassword, startTestApp, type TestApp } from '../helpers/test-app';

const NUL = '\u0000';

const APPLICATION = {
  name: 'Hoshino Sora',
  country_code: 392,
  zip_code: '181-8588',
  address1: '2-21-1 Osawa',
  address2: 'Mitaka',
  address3: 'Tokyo',
  message: '',
};

describe.each(DATABASE_KINDS)('input validation on %s', (kind) => {
  let t: TestApp;
  let volunteer: TestUser;
  let captain: TestUser;

  beforeAll(async () => {
    // The gift campaign open, so that an application reaches its checks and the database.
    t = await startTestApp(kind, {
      PRESENT_OPENS_AT: '2020-01-01T00:00:00Z',
      PRESENT_DEADLINE: '2100-01-01T00:00:00Z',
    });
    volunteer = await createTestUser(t.database.db, { nickname: 'Vega' });
    captain = await createTestUser(t.database.db, { nickname: 'Captain', admin: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  const inject = (options: InjectOptions) => t.inject(options);

  /** A refusal (400 or 422) whose message or field errors name `field`. */
  function expectRefusalNaming(response: { statusCode: number; json(): unknown }, field: string): void {
    expect([400, 422], JSON.stringify(response.json())).toContain(response.statusCode);
    const body = response.json() as { message: string; errors?: Record<string, string[]> };
    const named = body.message.includes(field) || Object.keys(body.errors ?? {}).includes(field);
    expect(named, `${field} in ${JSON.stringify(body)}`).toBe(true);
  }

  describe('a NUL character in a string that reaches PostgreSQL', () => {
    it('is a 400 naming email at login', async () => {
      const user = await insertUserWithPassword(t);
      const response = await inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: `${user.email}${NUL}`, password: user.password },
      });
      expectRefusalNaming(response, 'email');
    });

    it('is a 400 naming email at sign-up and at password reset', async () => {
      for (const url of ['/api/signup/verify_email', '/api/password_reset/verify_email']) {
        const response = await inject({ method: 'POST', url, payload: { email: `new${NUL}@example.org` } });
        expectRefusalNaming(response, 'email');
      }
    });

    it('is a 400 or 422 naming nickname in PUT /api/current_user, and the nickname is kept', async () => {
      const response = await inject({
        method: 'PUT',
        url: '/api/current_user',
        cookies: volunteer.cookies,
        payload: { nickname: `Ve${NUL}ga` },
      });
      expectRefusalNaming(response, 'nickname');
      const row = await t.database.db
        .selectFrom('users')
        .select('nickname')
        .where('id', '=', volunteer.id)
        .executeTakeFirstOrThrow();
      expect(row.nickname).toBe('Vega');
    });

    it('is a 400 naming nickname in GET /api/nicknames/{nickname}', async () => {
      const response = await inject({ method: 'GET', url: '/api/nicknames/Ve%00ga', cookies: volunteer.cookies });
      expectRefusalNaming(response, 'nickname');
    });

    it('is a 400 naming the field in every text of the questionnaire, and nothing is stored', async () => {
      const texts = {
        gender: `woman${NUL}`,
        reasons_for_participation: ['astronomy', `other${NUL}`],
        way_to_know_this_site: `sns${NUL}`,
        birth_year: `1990${NUL}`,
      };
      for (const [field, value] of Object.entries(texts)) {
        const response = await inject({
          method: 'POST',
          url: '/api/current_user/private_information',
          cookies: volunteer.cookies,
          payload: { ...QUESTIONNAIRE, [field]: value },
        });
        expectRefusalNaming(response, field);
      }
      const stored = await t.database.db
        .selectFrom('private_informations')
        .select('user_id')
        .where('user_id', '=', volunteer.id)
        .execute();
      expect(stored).toEqual([]);
    });

    it('is a 400 naming the field in the gift application', async () => {
      const response = await inject({
        method: 'POST',
        url: '/api/present202501',
        cookies: volunteer.cookies,
        payload: { ...APPLICATION, address1: `2-21-1${NUL} Osawa` },
      });
      expectRefusalNaming(response, 'address1');
    });

    it('is a 400 naming the field in a notification the captain writes', async () => {
      const response = await inject({
        method: 'POST',
        url: '/api/notifications',
        cookies: captain.cookies,
        payload: { type: 'captain_message', title: { en: `Hello${NUL}` }, message: { en: 'Clear skies' } },
      });
      expectRefusalNaming(response, 'title');
    });
  });

  describe('an integer larger than its column', () => {
    it('is a 400 naming country_code in the questionnaire (2147483648 does not fit an integer column)', async () => {
      const response = await inject({
        method: 'POST',
        url: '/api/current_user/private_information',
        cookies: volunteer.cookies,
        payload: { ...QUESTIONNAIRE, country_code: 2_147_483_648 },
      });
      expectRefusalNaming(response, 'country_code');
    });

    it('is refused for the scales and the birth year of the questionnaire, whatever their size', async () => {
      for (const [field, value] of [
        ['relation_to_astronomy', 40_000],
        ['time_spent_in_astronomy', 2_147_483_648],
        ['birth_year', 2_147_483_648],
        ['birth_year', '99999999999999999999'],
      ] as const) {
        const response = await inject({
          method: 'POST',
          url: '/api/current_user/private_information',
          cookies: volunteer.cookies,
          payload: { ...QUESTIONNAIRE, [field]: value },
        });
        expectRefusalNaming(response, field);
      }
    });

    it('is a country code of the country table only: ISO 3166-1 numeric (1 to 999) or -1 for other', async () => {
      for (const country_code of [0, 1000, -2]) {
        const response = await inject({
          method: 'POST',
          url: '/api/current_user/private_information',
          cookies: volunteer.cookies,
          payload: { ...QUESTIONNAIRE, country_code },
        });
        expect(response.statusCode).toBe(422);
        expect(response.json().errors).toEqual({ country_code: ['Invalid Format'] });
      }
    });

    it('is a 400 naming country_code in the gift application', async () => {
      const response = await inject({
        method: 'POST',
        url: '/api/present202501',
        cookies: volunteer.cookies,
        payload: { ...APPLICATION, country_code: 2_147_483_648 },
      });
      expectRefusalNaming(response, 'country_code');
    });

    it('is a 400 for a quest id and an object id beyond their bigint columns', async () => {
      const quest = await inject({
        method: 'POST',
        url: `/api/quests/${'9'.repeat(20)}/answers`,
        cookies: volunteer.cookies,
        payload: { object_id: 1 },
      });
      expectRefusalNaming(quest, 'quest_id');
      const object = await inject({
        method: 'POST',
        url: '/api/quests/1/answers',
        cookies: volunteer.cookies,
        payload: { object_id: 2 ** 63 },
      });
      expectRefusalNaming(object, 'object_id');
    });
  });

  describe('strict bodies', () => {
    it('refuses a nickname that is a number instead of turning it into a string', async () => {
      const response = await inject({
        method: 'PUT',
        url: '/api/current_user',
        cookies: volunteer.cookies,
        payload: { nickname: 123 },
      });
      expectRefusalNaming(response, 'nickname');
      expect(response.statusCode).toBe(400);
    });

    it('refuses a country_code of true instead of reading it as 1', async () => {
      const response = await inject({
        method: 'POST',
        url: '/api/current_user/private_information',
        cookies: volunteer.cookies,
        payload: { ...QUESTIONNAIRE, country_code: true },
      });
      expectRefusalNaming(response, 'country_code');
      expect(response.statusCode).toBe(400);
    });

    it('refuses a body with a field its route does not know', async () => {
      const user = await insertUserWithPassword(t);
      const login = await inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: user.email, password: user.password, admin: true },
      });
      expect(login.statusCode).toBe(400);
      expect(login.json().message).toContain('admin');
      const update = await inject({
        method: 'PUT',
        url: '/api/current_user',
        cookies: volunteer.cookies,
        payload: { nickname: 'Vega', email: 'someone-else@example.org' },
      });
      expect(update.statusCode).toBe(400);
      expect(update.json().message).toContain('email');
    });

    it('refuses a boolean given as a string in a body', async () => {
      const response = await inject({
        method: 'PUT',
        url: '/api/current_user',
        cookies: volunteer.cookies,
        payload: { gravatar_private: 'true' },
      });
      expectRefusalNaming(response, 'gravatar_private');
    });

    it('still reads numbers and booleans from the path and the query string, where everything is text', async () => {
      const levels = await inject({ method: 'GET', url: '/api/levels?course_id=training', cookies: volunteer.cookies });
      expect(levels.statusCode).toBe(200);
      const notifications = await inject({
        method: 'GET',
        url: '/api/notifications?include_old=true',
        cookies: volunteer.cookies,
      });
      expect(notifications.statusCode).toBe(200);
      const read = await inject({ method: 'POST', url: '/api/notifications/12345/read', cookies: volunteer.cookies });
      expect(read.statusCode).toBe(404);
    });
  });

  describe('nicknames shown in public rankings', () => {
    const put = (nickname: string) =>
      inject({ method: 'PUT', url: '/api/current_user', cookies: volunteer.cookies, payload: { nickname } });

    it.each([
      ['a zero-width space alone', '\u200b', 'Cannot be blank'],
      ['zero-width joiners and a byte order mark alone', '\u200d\u200d\ufeff', 'Cannot be blank'],
      ['a right-to-left override', 'Ve\u202ega', 'Invalid Format'],
      ['a right-to-left isolate', '\u2067Vega\u2069', 'Invalid Format'],
      ['a control character', 'Ve\u0007ga', 'Invalid Format'],
      ['a line feed', 'Ve\nga', 'Invalid Format'],
    ])('refuses %s with 422 and the nickname keeps its value', async (_label, nickname, message) => {
      const response = await put(nickname);
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({ nickname: [message] });
      const row = await t.database.db
        .selectFrom('users')
        .select('nickname')
        .where('id', '=', volunteer.id)
        .executeTakeFirstOrThrow();
      expect(row.nickname).toBe('Vega');
    });

    it('refuses a lone surrogate with 400 naming the field (no body may hold one), and the nickname keeps its value', async () => {
      const response = await put('Ve\ud800ga');
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/nickname must not contain an unpaired UTF-16 surrogate/);
      const row = await t.database.db
        .selectFrom('users')
        .select('nickname')
        .where('id', '=', volunteer.id)
        .executeTakeFirstOrThrow();
      expect(row.nickname).toBe('Vega');
    });

    it('accepts names in any script, emoji joined by zero-width joiners, and a Persian name with a zero-width non-joiner', async () => {
      for (const nickname of ['星野そら', 'Ærøskøbing', '👩‍🚀 Sora', 'می‌خواهم']) {
        const response = await put(nickname);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json().current_user.nickname).toBe(nickname);
      }
      expect((await put('Vega')).statusCode).toBe(200);
    });
  });
});
