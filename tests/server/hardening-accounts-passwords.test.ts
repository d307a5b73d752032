// Issue 32 item 2: common and easily guessed passwords are refused (OWASP ASVS 4.0.3 §2.1.7), with
// a 422 whose field message the set-password dialog shows in the volunteer's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGuessablePassword } from '../../server/auth/password-strength';
import { MESSAGES } from '../../shared/validation';
import { createTestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { insertUserWithPassword, login, startTestApp, type TestApp } from '../helpers/test-app';

describe('isGuessablePassword', () => {
  it.each(['password', '12345678', 'Passw0rd!', 'iloveyou', 'qwertyuiop', 'galaxycruise1'])(
    'finds %j guessable',
    (password) => {
      expect(isGuessablePassword(password)).toBe(true);
    },
  );

  it('finds the account’s own address or nickname guessable', () => {
    expect(isGuessablePassword('sora.hoshino', ['sora.hoshino@example.org'])).toBe(true);
    expect(isGuessablePassword('VegaVega1', ['x@example.org', 'VegaVega'])).toBe(true);
  });

  it.each(['correct horse battery', 'k7#Vq2!x', 'a brand new passphrase'])('takes %j', (password) => {
    expect(isGuessablePassword(password)).toBe(false);
  });
});

describe.each(DATABASE_KINDS)('PUT /api/signup/password refuses common passwords on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['password', '12345678'])('refuses a first password %j with 422 naming the field', async (password) => {
    const user = await createTestUser(t.database.db);
    const response = await t.inject({
      method: 'PUT',
      url: '/api/signup/password',
      cookies: user.cookies,
      payload: { password },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().errors).toEqual({ password: [MESSAGES.tooCommon] });
    expect(response.json().message).toBe('Password is too common or too easy to guess');
    const row = await t.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
  });

  it('refuses a common new password when updating, and the old one still logs in', async () => {
    const user = await insertUserWithPassword(t);
    const cookies = await login(t, user.email, user.password);
    const response = await t.inject({
      method: 'PUT',
      url: '/api/signup/password',
      cookies,
      payload: { password: 'iloveyou', current_password: user.password },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().errors).toEqual({ password: [MESSAGES.tooCommon] });
    await login(t, user.email, user.password);
  });

  it('takes a password that is not common', async () => {
    const user = await createTestUser(t.database.db);
    const response = await t.inject({
      method: 'PUT',
      url: '/api/signup/password',
      cookies: user.cookies,
      payload: { password: 'a brand new passphrase' },
    });
    expect(response.statusCode, response.body).toBe(204);
  });
});
