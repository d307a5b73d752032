// Issue 32 item 4: wrong passwords for an address from one client must slow that client, not lock
// the volunteer out: the login limit per address counts per (address, client IP) pair.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../helpers/databases';
import { insertUserWithPassword, nextIp, startTestApp, type TestApp } from '../helpers/test-app';

describe.each(DATABASE_KINDS)('login lockout on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = (email: string, password: string, remoteAddress: string) =>
    t.inject({ method: 'POST', url: '/api/session', remoteAddress, payload: { email, password } });

  it('ten wrong passwords from one IP throttle that IP only: the right password from another IP logs in', async () => {
    const volunteer = await insertUserWithPassword(t);
    const guesser = nextIp();
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await login(volunteer.email, `guess ${attempt}`, guesser)).statusCode).toBe(422);
    const throttled = await login(volunteer.email, volunteer.password, guesser);
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);

    const elsewhere = await login(volunteer.email.toUpperCase(), volunteer.password, nextIp());
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    expect(elsewhere.json().current_user.email).toBe(volunteer.email);
  });

  it('guesses spread over addresses from one IP are still bounded by the per-IP limit', async () => {
    const guesser = nextIp();
    const volunteer = await insertUserWithPassword(t);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt++)
      statuses.push((await login(`other${attempt}-${volunteer.email}`, 'guess guess', guesser)).statusCode);
    expect(statuses.slice(0, 30).every((status) => status === 422)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
