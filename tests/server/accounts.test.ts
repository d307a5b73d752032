// Accounts over HTTP (application-spec §3–§9): login and logout, sessions, passwords, the
// profile, the welcome questionnaire, nicknames, account deletion and GET /api/session's fields.
import { createHash } from 'node:crypto';
import argon2 from 'argon2';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, hashToken } from '../../server/auth/session-user';
import { createTestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import {
  insertUserWithPassword,
  login,
  nextIp,
  sessionCookieOf,
  startTestApp,
  uniqueEmail,
  type TestApp,
} from '../helpers/test-app';

const QUESTIONNAIRE = {
  birth_year: 1990,
  country_code: 392,
  gender: 'woman',
  reasons_for_participation: ['astronomy', 'contribute_to_science'],
  relation_to_astronomy: 2,
  time_spent_in_astronomy: 3,
  way_to_know_this_site: 'sns',
};

/** The algorithm and parameters of a PHC-format hash ($argon2id$v=19$m=…,t=…,p=…$salt$hash). */
function argon2Parameters(hash: string) {
  const [, type, , parameters] = hash.split('$');
  const values = Object.fromEntries(parameters.split(',').map((pair) => pair.split('=')));
  return { type, m: Number(values.m), t: Number(values.t), p: Number(values.p) };
}

describe.each(DATABASE_KINDS)('accounts on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { ADMIN_EMAILS: 'Captain@Example.org, navigator@example.org' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const inject = (options: InjectOptions) => t.inject(options);
  const session = async (cookies: Record<string, string>) =>
    (await inject({ method: 'GET', url: '/api/session', cookies })).json();
  const sessionCount = async (userId: number) =>
    (await t.database.db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).execute()).length;

  describe('POST /api/session: login', () => {
    it('logs in with the right password and answers the session (current_user, recommended_course)', async () => {
      const user = await insertUserWithPassword(t, { nickname: 'Vega', locale: 'ja' });
      const response = await inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: user.email, password: user.password },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        current_user: { id: user.id, email: user.email, nickname: 'Vega', locale: 'ja', password_is_set: true },
      });
      expect(response.json()).toHaveProperty('recommended_course');
      // The same answer as GET /api/session with the new cookie.
      expect(await session(sessionCookieOf(response))).toEqual(response.json());
    });

    it("answers 422 'E-mail or password is incorrect.' for a wrong password, an unknown address and an account without a password", async () => {
      const user = await insertUserWithPassword(t);
      const passwordless = await createTestUser(t.database.db);
      for (const payload of [
        { email: user.email, password: 'wrong password' },
        { email: uniqueEmail('nobody'), password: user.password },
        { email: passwordless.email, password: 'anything at all' },
      ]) {
        const response = await inject({ method: 'POST', url: '/api/session', payload });
        expect(response.statusCode).toBe(422);
        expect(response.json()).toEqual({
          statusCode: 422,
          error: 'Unprocessable Entity',
          message: 'E-mail or password is incorrect.',
        });
        expect(response.cookies).toEqual([]);
      }
    });

    it('compares addresses case-insensitively and ignores surrounding spaces', async () => {
      const user = await insertUserWithPassword(t);
      const response = await inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: `  ${user.email.toUpperCase()} `, password: user.password },
      });
      expect(response.statusCode).toBe(200);
    });

    it('sets an HttpOnly, SameSite=Lax session cookie on Path=/, Secure only when the request came over https', async () => {
      const user = await insertUserWithPassword(t);
      const plain = await inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: user.email, password: user.password },
      });
      const cookie = plain.cookies.find((candidate) => candidate.name === SESSION_COOKIE)!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie.secure).toBeFalsy();
      // 256 random bits, base64url.
      expect(cookie.value).toMatch(/^[\w-]{43}$/);

      // Behind a TLS-terminating proxy (TRUST_PROXY) the proxy's X-Forwarded-Proto counts.
      const proxied = await t.sibling({ TRUST_PROXY: 'true' });
      const secure = await proxied.inject({
        method: 'POST',
        url: '/api/session',
        remoteAddress: nextIp(),
        headers: { 'x-forwarded-proto': 'https' },
        payload: { email: user.email, password: user.password },
      });
      expect(secure.cookies.find((candidate) => candidate.name === SESSION_COOKIE)).toMatchObject({
        secure: true,
        httpOnly: true,
        sameSite: 'Lax',
      });
      // Without TRUST_PROXY a client cannot claim https for itself.
      const claimed = await inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'x-forwarded-proto': 'https' },
        payload: { email: user.email, password: user.password },
      });
      expect(claimed.cookies.find((candidate) => candidate.name === SESSION_COOKIE)!.secure).toBeFalsy();
    });

    it('stores only the SHA-256 of the session token', async () => {
      const user = await insertUserWithPassword(t);
      const cookies = await login(t, user.email, user.password);
      const stored = await t.database.db
        .selectFrom('sessions')
        .select('token_hash')
        .where('user_id', '=', user.id)
        .execute();
      expect(stored.map((row) => row.token_hash)).toEqual([hashToken(cookies[SESSION_COOKIE])]);
    });

    it('rotates the session at login: a new token, and the session the request came with is revoked', async () => {
      const user = await insertUserWithPassword(t);
      const first = await login(t, user.email, user.password);
      const second = await inject({
        method: 'POST',
        url: '/api/session',
        cookies: first,
        payload: { email: user.email, password: user.password },
      });
      const rotated = sessionCookieOf(second);
      expect(rotated[SESSION_COOKIE]).not.toBe(first[SESSION_COOKIE]);
      expect((await session(first)).current_user).toBeNull();
      expect((await session(rotated)).current_user.id).toBe(user.id);
      expect(await sessionCount(user.id)).toBe(1);
    });

    it('takes as long for an unknown address as for a known one (a dummy argon2 verification)', async () => {
      const user = await insertUserWithPassword(t);
      const attempt = async (email: string) => {
        const started = performance.now();
        const response = await inject({
          method: 'POST',
          url: '/api/session',
          payload: { email, password: 'not it!!' },
        });
        expect(response.statusCode).toBe(422);
        return performance.now() - started;
      };
      await attempt(uniqueEmail('warm-up'));
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 5; i++) {
        known.push(await attempt(user.email));
        unknown.push(await attempt(uniqueEmail('unknown')));
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[2];
      // Without the dummy verification an unknown address answers in about a millisecond,
      // against tens of milliseconds for argon2id at m = 19 MiB.
      expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
      expect(median(unknown)).toBeLessThan(median(known) * 2);
    });
  });

  describe('argon2id passwords (m = 19 MiB, t = 2, p = 1)', () => {
    it('stores argon2id hashes with m=19456, t=2, p=1', async () => {
      const user = await createTestUser(t.database.db);
      const response = await inject({
        method: 'PUT',
        url: '/api/signup/password',
        cookies: user.cookies,
        payload: { password: 'a new password' },
      });
      expect(response.statusCode).toBe(204);
      const row = await t.database.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(argon2Parameters(row.password_hash!)).toEqual({ type: 'argon2id', m: 19456, t: 2, p: 1 });
    });

    it('rehashes at login when the stored parameters differ', async () => {
      const weak = await argon2.hash('an older password', {
        type: argon2.argon2id,
        memoryCost: 4096,
        timeCost: 1,
        parallelism: 1,
      });
      const user = await insertUserWithPassword(t, { password: 'an older password', passwordHash: weak });
      await login(t, user.email, user.password);
      const row = await t.database.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(argon2Parameters(row.password_hash!)).toEqual({ type: 'argon2id', m: 19456, t: 2, p: 1 });
      expect(await argon2.verify(row.password_hash!, 'an older password')).toBe(true);
      // The rehashed password still logs in.
      await login(t, user.email, user.password);
    });
  });

  describe('DELETE /api/session: logout', () => {
    it('revokes the session in the database and clears the cookie', async () => {
      const user = await insertUserWithPassword(t);
      const cookies = await login(t, user.email, user.password);
      // The game's hot routes may reuse a session lookup for a second: a logout must end that too.
      const hotRoutes = [
        { method: 'GET', url: '/api/campaigns' },
        { method: 'GET', url: '/api/courses/season2/quests/current' },
      ] as const;
      for (const route of hotRoutes) expect((await inject({ ...route, cookies })).statusCode).toBe(200);
      const response = await inject({ method: 'DELETE', url: '/api/session', cookies });
      expect(response.statusCode).toBe(204);
      const cleared = response.cookies.find((candidate) => candidate.name === SESSION_COOKIE)!;
      expect(cleared.value).toBe('');
      expect(await sessionCount(user.id)).toBe(0);
      // The old cookie, replayed, is a visitor's.
      for (const route of hotRoutes) expect((await inject({ ...route, cookies })).statusCode).toBe(401);
      expect((await session(cookies)).current_user).toBeNull();
    });

    it('answers 204 for a visitor too', async () => {
      expect((await inject({ method: 'DELETE', url: '/api/session' })).statusCode).toBe(204);
    });
  });

  describe('PUT /api/signup/password: the password rules of §5', () => {
    it('sets a first password without current_password; password_is_set becomes true', async () => {
      const user = await createTestUser(t.database.db);
      expect((await session(user.cookies)).current_user.password_is_set).toBe(false);
      const response = await inject({
        method: 'PUT',
        url: '/api/signup/password',
        cookies: user.cookies,
        payload: { password: 'k7#Vq2!x' },
      });
      expect(response.statusCode).toBe(204);
      expect((await session(user.cookies)).current_user.password_is_set).toBe(true);
      await login(t, user.email, 'k7#Vq2!x');
    });

    it("refuses fewer than 8 characters: 'must be at least 8 characters'", async () => {
      const user = await createTestUser(t.database.db);
      const response = await inject({
        method: 'PUT',
        url: '/api/signup/password',
        cookies: user.cookies,
        payload: { password: 'seven77' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({ password: ['must be at least 8 characters'] });
      expect(response.json().message).toBe('Password must be at least 8 characters');
    });

    it("refuses more than 128 characters: 'is too long (maximum is 128 characters)', counting characters, not bytes", async () => {
      const user = await createTestUser(t.database.db);
      const tooLong = await inject({
        method: 'PUT',
        url: '/api/signup/password',
        cookies: user.cookies,
        payload: { password: 'x'.repeat(129) },
      });
      expect(tooLong.statusCode).toBe(422);
      expect(tooLong.json().errors).toEqual({ password: ['is too long (maximum is 128 characters)'] });
      // 128 characters outside the BMP are 256 UTF-16 units, and still allowed (varied, as one
      // character repeated is refused as too easy to guess).
      const varied = Array.from({ length: 128 }, (_, i) => String.fromCodePoint(0x1f300 + ((i * 37) % 256))).join('');
      const longest = await inject({
        method: 'PUT',
        url: '/api/signup/password',
        cookies: user.cookies,
        payload: { password: varied },
      });
      expect(longest.statusCode).toBe(204);
    });

    it("requires the current password once one is set: missing → 'Cannot be blank', wrong → 422 'Current password does not match.'", async () => {
      const user = await insertUserWithPassword(t);
      const cookies = await login(t, user.email, user.password);
      const missing = await inject({
        method: 'PUT',
        url: '/api/signup/password',
        cookies,
        payload: { password: 'a brand new one' },
      });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errors).toEqual({ current_password: ['Cannot be blank'] });
      const wrong = await inject({
        method: 'PUT',
        url: '/api/signup/password',
        cookies,
        payload: { password: 'a brand new one', current_password: 'not the password' },
      });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json()).toMatchObject({ message: 'Current password does not match.' });
      // Nothing changed: the old password still logs in.
      await login(t, user.email, user.password);
    });

    it("changes the password with the right current password and revokes the user's other sessions", async () => {
      const user = await insertUserWithPassword(t);
      const here = await login(t, user.email, user.password);
      const elsewhere = await login(t, user.email, user.password);
      const response = await inject({
        method: 'PUT',
        url: '/api/signup/password',
        cookies: here,
        payload: { password: 'the new password', current_password: user.password },
      });
      expect(response.statusCode).toBe(204);
      expect((await session(here)).current_user.id).toBe(user.id);
      expect((await session(elsewhere)).current_user).toBeNull();
      await login(t, user.email, 'the new password');
      const old = await inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: user.email, password: user.password },
      });
      expect(old.statusCode).toBe(422);
    });

    it('answers 401 for a visitor', async () => {
      const response = await inject({ method: 'PUT', url: '/api/signup/password', payload: { password: 'whatever1' } });
      expect(response.statusCode).toBe(401);
    });
  });

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
});
