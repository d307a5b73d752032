// The profile half of the accounts tests over HTTP (application-spec §3–§9): the welcome
// questionnaire, nicknames, PUT /api/current_user, GET /api/session's fields and account deletion.
// accounts.test.ts runs these inside its describe for each database kind, on the app it starts
// there, so that both halves share one app per kind.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../server/auth/session-user';
import { createTestUser, QUESTIONNAIRE } from '../helpers/accounts';
import { accountCalls, insertUserWithPassword, login, uniqueEmail, type TestApp } from '../helpers/test-app';

/** The profile's describes, on `testApp()` (started by the caller's beforeAll). */
export function describeProfile(testApp: () => TestApp): void {
  let t: TestApp;
  beforeAll(() => {
    t = testApp();
  });
  const { inject, session, sessionCount } = accountCalls(testApp);

  describe('POST /api/current_user/private_information: the questionnaire rules of §5', () => {
    const post = (cookies: Record<string, string>, payload: object) =>
      inject({ method: 'POST', url: '/api/current_user/private_information', cookies, payload });

    it('stores the answers; private_information_present becomes true', async () => {
      const user = await createTestUser(t.database.db);
      expect((await session(user.cookies)).current_user.private_information_present).toBe(false);
      expect((await post(user.cookies, QUESTIONNAIRE)).statusCode).toBe(204);
      expect((await session(user.cookies)).current_user.private_information_present).toBe(true);
      const row = await t.database.db
        .selectFrom('private_informations')
        .selectAll()
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ ...QUESTIONNAIRE, user_id: user.id });
    });

    it('accepts a birth year of digits with surrounding spaces, and answering again replaces the answers', async () => {
      const user = await createTestUser(t.database.db);
      expect((await post(user.cookies, QUESTIONNAIRE)).statusCode).toBe(204);
      expect((await post(user.cookies, { ...QUESTIONNAIRE, birth_year: ' 1975 ', gender: 'other' })).statusCode).toBe(
        204,
      );
      const rows = await t.database.db
        .selectFrom('private_informations')
        .select(['birth_year', 'gender'])
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toEqual([{ birth_year: 1975, gender: 'other' }]);
    });

    it("answers 'Invalid Format' for a birth year that is not digits", async () => {
      const user = await createTestUser(t.database.db);
      for (const birthYear of ['19x0', '1990.5', '-1990', '3000']) {
        const response = await post(user.cookies, { ...QUESTIONNAIRE, birth_year: birthYear });
        expect(response.statusCode).toBe(422);
        expect(response.json().errors).toEqual({ birth_year: ['Invalid Format'] });
      }
    });

    it("answers 'Cannot be blank' for each missing required answer, and writes nothing", async () => {
      const user = await createTestUser(t.database.db);
      const response = await post(user.cookies, {});
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({
        birth_year: ['Cannot be blank'],
        country_code: ['Cannot be blank'],
        gender: ['Cannot be blank'],
        reasons_for_participation: ['Cannot be blank'],
        relation_to_astronomy: ['Cannot be blank'],
        time_spent_in_astronomy: ['Cannot be blank'],
        way_to_know_this_site: ['Cannot be blank'],
      });
      expect((await session(user.cookies)).current_user.private_information_present).toBe(false);
    });

    it("needs at least one reason, and free text ('other') that is not blank", async () => {
      const user = await createTestUser(t.database.db);
      for (const change of [
        { reasons_for_participation: [] },
        { reasons_for_participation: ['astronomy', '  '] },
        { way_to_know_this_site: '   ' },
      ]) {
        const response = await post(user.cookies, { ...QUESTIONNAIRE, ...change });
        expect(response.statusCode).toBe(422);
        expect(Object.values(response.json().errors)).toEqual([['Cannot be blank']]);
      }
    });

    it('keeps relation to astronomy and time spent on the scale of 1 to 4, and gender to man, woman or other', async () => {
      const user = await createTestUser(t.database.db);
      for (const change of [
        { relation_to_astronomy: 0 },
        { relation_to_astronomy: 5 },
        { time_spent_in_astronomy: 5 },
        { gender: 'robot' },
      ]) {
        const response = await post(user.cookies, { ...QUESTIONNAIRE, ...change });
        expect(response.statusCode).toBe(422);
        expect(response.json().errors).toEqual({ [Object.keys(change)[0]]: ['Invalid Format'] });
      }
      expect(
        (await post(user.cookies, { ...QUESTIONNAIRE, relation_to_astronomy: 4, time_spent_in_astronomy: 1 }))
          .statusCode,
      ).toBe(204);
    });

    it('answers 400 for answers of the wrong type and 401 for a visitor', async () => {
      const user = await createTestUser(t.database.db);
      const wrongType = await post(user.cookies, { ...QUESTIONNAIRE, relation_to_astronomy: 'a lot' });
      expect(wrongType.statusCode).toBe(400);
      expect(wrongType.json().message).toMatch(/relation_to_astronomy/);
      expect((await post({}, QUESTIONNAIRE)).statusCode).toBe(401);
    });
  });

  describe('GET /api/nicknames/{nickname}: availability', () => {
    it('answers {count}: 0 when free, 1 when another user has it (trimmed, case-insensitive)', async () => {
      const other = await createTestUser(t.database.db, { nickname: 'Andromeda' });
      const me = await createTestUser(t.database.db, { nickname: 'Pleiades' });
      const count = async (nickname: string, cookies = me.cookies) =>
        (await inject({ method: 'GET', url: `/api/nicknames/${encodeURIComponent(nickname)}`, cookies })).json();
      expect(await count('Andromeda')).toEqual({ count: 1 });
      expect(await count('andromeda ')).toEqual({ count: 1 });
      expect(await count('Orion')).toEqual({ count: 0 });
      // One's own nickname is not taken for oneself.
      expect(await count('Pleiades')).toEqual({ count: 0 });
      expect(await count('Pleiades', other.cookies)).toEqual({ count: 1 });
    });

    it('looks up Japanese nicknames', async () => {
      const other = await createTestUser(t.database.db, { nickname: 'すばる' });
      const response = await inject({
        method: 'GET',
        url: `/api/nicknames/${encodeURIComponent('すばる')}`,
        cookies: (await createTestUser(t.database.db)).cookies,
      });
      expect(response.json()).toEqual({ count: 1 });
      expect(other.id).toBeGreaterThan(0);
    });

    it('answers 401 for a visitor', async () => {
      expect((await inject({ method: 'GET', url: '/api/nicknames/Vega' })).statusCode).toBe(401);
    });
  });

  describe('PUT /api/current_user: nickname, locale and gravatar rules', () => {
    const put = (cookies: Record<string, string>, payload: object) =>
      inject({ method: 'PUT', url: '/api/current_user', cookies, payload });

    it('updates nickname and locale and answers the current user', async () => {
      const user = await createTestUser(t.database.db, { nickname: '' });
      const response = await put(user.cookies, { nickname: '  Sirius ', locale: 'ja' });
      expect(response.statusCode).toBe(200);
      expect(response.json().current_user).toMatchObject({ id: user.id, nickname: 'Sirius', locale: 'ja' });
      expect((await session(user.cookies)).current_user).toMatchObject({ nickname: 'Sirius', locale: 'ja' });
    });

    it("refuses a blank nickname: 'Cannot be blank'", async () => {
      const user = await createTestUser(t.database.db);
      const response = await put(user.cookies, { nickname: '   ' });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({ nickname: ['Cannot be blank'] });
    });

    it("refuses a nickname another user has: 422 'The nickname has already been taken' ('already taken')", async () => {
      await createTestUser(t.database.db, { nickname: 'Betelgeuse' });
      const user = await createTestUser(t.database.db, { nickname: 'Rigel' });
      const response = await put(user.cookies, { nickname: 'BETELGEUSE' });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        message: 'The nickname has already been taken',
        errors: { nickname: ['already taken'] },
      });
      expect((await session(user.cookies)).current_user.nickname).toBe('Rigel');
      // Keeping one's own nickname (in another case) is no conflict.
      expect((await put(user.cookies, { nickname: 'rigel' })).statusCode).toBe(200);
    });

    it('lets gravatar public display be on only with gravatar use on; turning use off clears it', async () => {
      const user = await createTestUser(t.database.db);
      const both = await put(user.cookies, { gravatar_private: true, gravatar_public: true });
      expect(both.json().current_user).toMatchObject({ gravatar_private: true, gravatar_public: true });
      const off = await put(user.cookies, { gravatar_private: false });
      expect(off.json().current_user).toMatchObject({ gravatar_private: false, gravatar_public: false });
      const publicOnly = await put(user.cookies, { gravatar_public: true });
      expect(publicOnly.json().current_user).toMatchObject({ gravatar_private: false, gravatar_public: false });
    });

    it('answers 400 for an unknown locale and 401 for a visitor', async () => {
      const user = await createTestUser(t.database.db);
      expect((await put(user.cookies, { locale: 'fr' })).statusCode).toBe(400);
      expect((await put({}, { nickname: 'Deneb' })).statusCode).toBe(401);
    });
  });

  describe('GET /api/session: the current user in full', () => {
    it('gives avatar_url from the MD5 of the trimmed, lower-cased address when gravatar use is on, else null', async () => {
      const user = await createTestUser(t.database.db, { email: uniqueEmail('Gravatar') });
      expect((await session(user.cookies)).current_user.avatar_url).toBeNull();
      await inject({
        method: 'PUT',
        url: '/api/current_user',
        cookies: user.cookies,
        payload: { gravatar_private: true },
      });
      const digest = createHash('md5').update(user.email.trim().toLowerCase()).digest('hex');
      expect((await session(user.cookies)).current_user.avatar_url).toBe(
        `https://www.gravatar.com/avatar/${digest}?d=identicon`,
      );
    });

    it('makes admin true for users.admin and for an address on ADMIN_EMAILS (any case)', async () => {
      const volunteer = await createTestUser(t.database.db);
      const granted = await createTestUser(t.database.db, { admin: true });
      const listed = await createTestUser(t.database.db, { email: 'captain@example.org' });
      expect((await session(volunteer.cookies)).current_user.admin).toBe(false);
      expect((await session(granted.cookies)).current_user.admin).toBe(true);
      expect((await session(listed.cookies)).current_user.admin).toBe(true);
    });

    it('gives admin at login too for an address on ADMIN_EMAILS', async () => {
      const user = await insertUserWithPassword(t, { email: 'Navigator@example.org' });
      const response = await inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: user.email, password: user.password },
      });
      expect(response.json().current_user.admin).toBe(true);
    });
  });

  describe('DELETE /api/current_user: account deletion', () => {
    it('deletes the account, revokes every session and clears the cookie', async () => {
      const user = await insertUserWithPassword(t);
      const here = await login(t, user.email, user.password);
      const elsewhere = await login(t, user.email, user.password);
      await inject({
        method: 'POST',
        url: '/api/current_user/private_information',
        cookies: here,
        payload: QUESTIONNAIRE,
      });
      const response = await inject({ method: 'DELETE', url: '/api/current_user', cookies: here });
      expect(response.statusCode).toBe(204);
      expect(response.cookies.find((candidate) => candidate.name === SESSION_COOKIE)!.value).toBe('');
      expect(await sessionCount(user.id)).toBe(0);
      expect((await session(elsewhere)).current_user).toBeNull();
      const rows = await t.database.db.selectFrom('users').select('id').where('id', '=', user.id).execute();
      expect(rows).toEqual([]);
      const questionnaire = await t.database.db
        .selectFrom('private_informations')
        .select('user_id')
        .where('user_id', '=', user.id)
        .execute();
      expect(questionnaire).toEqual([]);
      // The address can sign up again.
      const again = await inject({
        method: 'POST',
        url: '/api/signup/verify_email',
        payload: { email: user.email, locale: 'en' },
      });
      expect(again.statusCode).toBe(204);
    });

    it('keeps classification results, no longer linked to the person', async () => {
      const tables = (await t.database.db.introspection.getTables()).map((table) => table.name);
      const gameTables = ['answers', 'quests'].filter((name) => tables.includes(name));
      // The game's tables (0003_game) reference users ON DELETE SET NULL.
      const { rows: rules } = await sql<{ table_name: string; delete_rule: string }>`
        select kcu.table_name, rc.delete_rule
        from information_schema.referential_constraints rc
        join information_schema.key_column_usage kcu
          on kcu.constraint_name = rc.constraint_name and kcu.constraint_schema = rc.constraint_schema
        where kcu.column_name = 'user_id' and kcu.table_name in ('answers', 'quests')
        order by kcu.table_name`.execute(t.database.db);
      expect(rules).toEqual(gameTables.map((name) => ({ table_name: name, delete_rule: 'SET NULL' })));

      const user = await createTestUser(t.database.db);
      const target = tables.includes('targets')
        ? (await sql<{ object_id: number }>`select object_id from targets limit 1`.execute(t.database.db)).rows[0]
        : undefined;
      if (target && tables.includes('answers'))
        await sql`insert into answers (user_id, object_id, course_id, galaxy_type, interaction, ring, fan, tail, distorted)
                  values (${user.id}, ${target.object_id}, 'season2', 'spiral', 'no', false, false, false, false)`.execute(
          t.database.db,
        );
      const response = await inject({ method: 'DELETE', url: '/api/current_user', cookies: user.cookies });
      expect(response.statusCode).toBe(204);
      if (target && tables.includes('answers')) {
        const { rows } = await sql<{ user_id: number | null }>`
          select user_id from answers where object_id = ${target.object_id}`.execute(t.database.db);
        expect(rows).toEqual([{ user_id: null }]);
      }
      expect(await t.database.db.selectFrom('users').select('id').where('id', '=', user.id).execute()).toEqual([]);
    });

    it('answers 401 for a visitor', async () => {
      expect((await inject({ method: 'DELETE', url: '/api/current_user' })).statusCode).toBe(401);
    });
  });
}
