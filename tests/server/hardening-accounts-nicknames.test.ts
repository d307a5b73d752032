// Nicknames: a name that imitates another through full-width letters, zero-width joiners or case
// is the same name ('already taken'), invisible and format characters are refused, and names are
// kept NFKC-normalised (issue 32). Look-alike letters of another script, or of the same one, and
// combining marks NFKC left unattached make the same name too: names are compared by their
// confusable skeleton (Unicode TS #39, migration 0015), while names written wholly in one script
// stay names of their own.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TEXTS } from '../../shared/validation';
import type { Database } from '../../server/db/schema';
import * as accountHardening from '../../server/db/migrations/0010_account_hardening';
import * as nicknameSkeleton from '../../server/db/migrations/0015_nickname_skeleton';
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

describe.each(DATABASE_KINDS)('nicknames of look-alike letters (UTS #39 skeleton) on %s', (kind) => {
  let t: TestApp;
  let imitator: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    await createTestUser(t.database.db, { nickname: 'Vega' });
    await createTestUser(t.database.db, { nickname: 'Polaris1' });
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
    ['a Cyrillic е (U+0435) among Latin letters', 'V\u0435ga'],
    ['a combining acute accent NFKC leaves unattached', 'V\u0301ega'],
    ['a stroke overlay and a macron below, which no precomposed letter has', 'Ve\u0336g\u0331a'],
    ['a Cyrillic capital Е in another case', 'V\u0415GA'],
    ['a Greek alpha', 'Veg\u03b1'],
    ['a Latin script g (U+0261)', 'Ve\u0261a'],
    ["a capital I for the other name's digit 1", 'PolarisI'],
    ['a small l for the digit 1', 'Polarisl'],
  ])('refuses %s as already taken (PUT 422 with the spec’s message, GET count 1)', async (_label, nickname) => {
    expect(await count(imitator, nickname)).toBe(1);
    const response = await put(imitator, nickname);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({
      message: ERROR_TEXTS.nicknameTaken,
      errors: { nickname: ['already taken'] },
    });
  });

  it.each([
    ['Japanese', 'ベガ星'],
    ['Japanese in hiragana and kanji', 'ほし野すばる'],
    ['Cyrillic', 'Вега'],
    ['Greek', 'Βέγα'],
    ['Latin with its own accents', 'Véga'],
    ['Arabic with its vowel marks', 'وَيغا'],
  ])('takes a name written wholly in %s, which is then taken for anyone else', async (_label, nickname) => {
    const owner = await createTestUser(t.database.db, { nickname: `owner ${nickname.length} ${_label}` });
    expect(await count(owner, nickname)).toBe(0);
    const response = await put(owner, nickname);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().current_user.nickname).toBe(nickname);
    // The same name again is the owner's; from anyone else it is taken.
    expect((await put(owner, nickname)).statusCode).toBe(200);
    expect((await put(imitator, nickname)).statusCode).toBe(422);
  });

  it('keys stored names in the database, whatever wrote them: a concurrent or direct write is refused too', async () => {
    await expect(createTestUser(t.database.db, { nickname: 'V\u0435GA' })).rejects.toThrow(/users_nickname_skeleton/);
    const [{ skeleton }] = (
      await sql<{ skeleton: string }>`select nickname_skeleton(${'V\u0301\u0435ga'}) as skeleton`.execute(t.database.db)
    ).rows;
    expect(skeleton).toBe('vega');
  });
});

/**
 * A fresh database for a migration's test: typed, untyped for the migrations (which work on any
 * schema), and a way to add a user straight into it.
 */
async function withDatabase(
  kind: (typeof DATABASE_KINDS)[number],
  test: (context: {
    db: Kysely<Database>;
    schemaless: Kysely<unknown>;
    insert: (nickname: string, email: string) => Promise<number>;
  }) => Promise<void>,
): Promise<void> {
  const database = await openTestDatabase(kind);
  try {
    const db = database.db;
    const insert = async (nickname: string, email: string) =>
      (
        await db
          .insertInto('users')
          .values({ email, nickname, locale: 'en', password_hash: null })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    await test({ db, schemaless: db as unknown as Kysely<unknown>, insert });
  } finally {
    await database.close();
  }
}

describe.each(DATABASE_KINDS)('migration 0010 on %s', (kind) => {
  it('tells apart names that already collide under the new rule, keeping the first, and goes down again', async () => {
    await withDatabase(kind, async ({ db, schemaless, insert }) => {
      await nicknameSkeleton.down(schemaless);
      await accountHardening.down(schemaless);
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
      await nicknameSkeleton.up(schemaless);
    });
  });
});

describe.each(DATABASE_KINDS)('migration 0015 on %s', (kind) => {
  it('keys every stored name by its skeleton, tells apart names that already look alike, and goes down again', async () => {
    await withDatabase(kind, async ({ db, schemaless, insert }) => {
      await nicknameSkeleton.down(schemaless);
      const first = await insert('Vega', 'a@example.org');
      const cyrillic = await insert('V\u0435ga', 'b@example.org');
      const marked = await insert('V\u0301ega', 'c@example.org');
      const other = await insert('Вера', 'd@example.org');
      await insert('', 'e@example.org');
      await insert('', 'f@example.org');
      await nicknameSkeleton.up(schemaless);
      const rows = await db.selectFrom('users').select(['id', 'nickname', 'nickname_skeleton']).orderBy('id').execute();
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(byId.get(first)).toMatchObject({ nickname: 'Vega', nickname_skeleton: 'vega' });
      expect(byId.get(cyrillic)!.nickname).toBe(`V\u0435ga #${cyrillic}`);
      expect(byId.get(marked)!.nickname).toBe(`V\u0301ega #${marked}`);
      expect(byId.get(other)).toMatchObject({ nickname: 'Вера' });
      expect(byId.get(other)!.nickname_skeleton).not.toBe('vega');
      expect(rows.filter((row) => row.nickname === '').map((row) => row.nickname_skeleton)).toEqual(['', '']);
      await expect(insert('V\u0301EGA', 'g@example.org')).rejects.toThrow();
      await nicknameSkeleton.down(schemaless);
      await nicknameSkeleton.up(schemaless);
    });
  });
});
