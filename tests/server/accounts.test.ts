// Accounts over HTTP (application-spec §3–§9): login and logout, sessions, passwords; then, on the
// same app (one per database kind), the profile's tests from accounts-profile.ts: the welcome
// questionnaire, nicknames, PUT /api/current_user, GET /api/session's fields, account deletion.
import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, hashToken } from '../../server/auth/session-user';
import { createTestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import {
  accountCalls,
  insertUserWithPassword,
  login,
  nextIp,
  sessionCookieOf,
  startTestApp,
  uniqueEmail,
  type TestApp,
} from '../helpers/test-app';
import { describeProfile } from './accounts-profile';

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

  const { inject, session, sessionCount } = accountCalls(() => t);

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

  describeProfile(() => t);
});
