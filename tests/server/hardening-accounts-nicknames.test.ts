// Issue 32 item 9, nicknames: a name that imitates another through full-width letters, zero-width
// joiners or case is the same name ('already taken'), invisible and format characters are refused,
// and names are kept NFKC-normalised.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as accountHardening from '../../server/db/migrations/0010_account_hardening';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS, openTestDatabase } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';

describe.each(DATABASE_KINDS)('nicknames that imitate others on %s', (kind) => {
  let t: TestApp;
  let vega: TestUser;
  let imitator: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    vega = await createTestUser(t.database.db, { nickname: 'Vega Star' });
    imitator = await createTestUser(t.database.db, { nickname: 'Imitator' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const put = (user: TestUser, nickname: string) =>
    t.inject({ method: 'PUT', url: '/api/current_user', cookies: user.cookies, payload: { nickname } });
  const count = async (user: TestUser, nickname: string) =>
    (
      await t.inject({ method: 'GET', url: `/api/nicknames/${encodeURIComponent(nickname)}`, cookies: user.cookies })
    ).json().count;

  it.each([
    ['full-width letters', 'Ｖｅｇａ Ｓｔａｒ'],
    ['a zero-width joiner', 'Ve\u200dga Star'],
    ['a zero-width non-joiner', 'Vega St\u200car'],
    ['another case and doubled spaces', 'vEGA   star'],
  ])('refuses %s as already taken (PUT 422, GET count 1)', async (_label, nickname) => {
    expect(await count(imitator, nickname)).toBe(1);
    const response = await put(imitator, nickname);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().errors).toEqual({ nickname: ['already taken'] });
  });

  it.each([
    ['a zero-width space', 'Ve\u200bga'],
    ['a word joiner', 'Ve\u2060ga'],
    ['a soft hyphen', 'Ve\u00adga'],
    ['a Hangul filler', '\u3164Vega'],
    ['a joiner at the end', 'Vega\u200d'],
    ['a language tag', 'Vega\u{e0001}'],
  ])('refuses %s with 422 Invalid Format', async (_label, nickname) => {
    const response = await put(imitator, nickname);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().errors).toEqual({ nickname: ['Invalid Format'] });
  });

  it('keeps a name NFKC-normalised', async () => {
    const response = await put(imitator, 'Ｓｉｒｉｕｓ ①');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().current_user.nickname).toBe('Sirius 1');
  });

  it('lets the volunteer keep their own name in another case', async () => {
    const response = await put(vega, 'VEGA STAR');
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe.each(DATABASE_KINDS)('migration 0010 on %s', (kind) => {
  it('tells apart names that already collide under the new rule, keeping the first, and goes down again', async () => {
    const database = await openTestDatabase(kind);
    try {
      const db = database.db;
      // The migration works on any schema: it takes the database untyped.
      const schemaless = db as unknown as Kysely<unknown>;
      await accountHardening.down(schemaless);
      const insert = async (nickname: string, email: string) =>
        (
          await db
            .insertInto('users')
            .values({ email, nickname, locale: 'en', password_hash: null })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const first = await insert('Vega', 'a@example.org');
      const wide = await insert('Ｖｅｇａ', 'b@example.org');
      const joined = await insert('ve\u200dga', 'c@example.org');
      const other = await insert('Deneb', 'd@example.org');
      await insert('', 'e@example.org');
      await insert('', 'f@example.org');
      await accountHardening.up(schemaless);
      const rows = await db.selectFrom('users').select(['id', 'nickname', 'nickname_key']).orderBy('id').execute();
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(byId.get(first)).toMatchObject({ nickname: 'Vega', nickname_key: 'vega' });
      expect(byId.get(wide)!.nickname).toBe(`Ｖｅｇａ #${wide}`);
      expect(byId.get(joined)!.nickname).toBe(`ve\u200dga #${joined}`);
      expect(byId.get(other)).toMatchObject({ nickname: 'Deneb', nickname_key: 'deneb' });
      await expect(insert('VEGA', 'g@example.org')).rejects.toThrow();
      await accountHardening.down(schemaless);
      await accountHardening.up(schemaless);
    } finally {
      await database.close();
    }
  });
});
