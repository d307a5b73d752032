// Request safety for the whole application: security headers and the CSP the client needs,
// JSON-only bodies, the Origin check on state-changing calls, error answers that are 4xx with
// {statusCode, error, message} and never a 500, and the rate limits of the account routes,
// counted in the database so that several server processes share them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { insertUserWithPassword, nextIp, startTestApp, uniqueEmail, type TestApp } from '../helpers/test-app';

const PUBLIC_URL = 'https://galaxy.example.org';

describe.each(DATABASE_KINDS)('request safety on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { PUBLIC_URL });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('security headers (helmet) with a CSP the built client runs under', () => {
    it('sends a CSP that allows wasm, workers from self and blob:, and nothing from elsewhere', async () => {
      const response = await t.inject({ method: 'GET', url: '/api/session' });
      const csp = Object.fromEntries(
        String(response.headers['content-security-policy'])
          .split(';')
          .map((directive) => directive.trim().split(/\s+/))
          .map(([name, ...values]) => [name, values]),
      );
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(csp['worker-src']).toEqual(["'self'", 'blob:']);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['frame-ancestors']).toEqual(["'self'"]);
      expect(csp['img-src']).toContain('https://www.gravatar.com');
      expect(csp).not.toHaveProperty('upgrade-insecure-requests');
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
      });
    });

    it('sends Strict-Transport-Security over https only', async () => {
      expect((await t.inject({ method: 'GET', url: '/api/session' })).headers).not.toHaveProperty(
        'strict-transport-security',
      );
      const proxied = await t.sibling({ TRUST_PROXY: 'true' });
      const secure = await proxied.inject({
        method: 'GET',
        url: '/api/session',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(secure.headers['strict-transport-security']).toBe('max-age=15552000');
    });

    it('lets images and fetches come from DATA_HOST when it is set', async () => {
      const withDataHost = await t.sibling({ DATA_HOST: 'https://cdn.example.org:8443/sky/' });
      const csp = String(
        (await withDataHost.inject({ method: 'GET', url: '/api/session' })).headers['content-security-policy'],
      );
      expect(csp).toMatch(/img-src [^;]*cdn\.example\.org:8443/);
      expect(csp).toMatch(/connect-src [^;]*cdn\.example\.org:8443/);
    });
  });

  describe('JSON bodies only', () => {
    it('answers 415 for text/plain and form bodies, and writes nothing', async () => {
      const email = uniqueEmail('plain');
      for (const contentType of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ]) {
        const response = await t.inject({
          method: 'POST',
          url: '/api/signup/verify_email',
          headers: { 'content-type': contentType },
          payload: JSON.stringify({ email, locale: 'en' }),
        });
        expect(response.statusCode).toBe(415);
        expect(response.json()).toEqual({
          statusCode: 415,
          error: 'Unsupported Media Type',
          message: 'Unsupported Media Type: request bodies must be application/json.',
        });
      }
      const tokens = await t.database.db
        .selectFrom('email_tokens')
        .select('email')
        .where('email', '=', email)
        .execute();
      expect(tokens).toEqual([]);
    });
  });

  describe('the Origin check on state-changing methods', () => {
    it('answers 403 to a POST, PUT or DELETE from another origin', async () => {
      const user = await createTestUser(t.database.db);
      for (const [method, url, payload] of [
        ['POST', '/api/session', { email: 'a@b.c', password: 'whatever1' }],
        ['PUT', '/api/current_user', { nickname: 'Mallory' }],
        ['DELETE', '/api/current_user', undefined],
        ['DELETE', '/api/session', undefined],
      ] as const) {
        const response = await t.inject({
          method,
          url,
          payload,
          cookies: user.cookies,
          headers: { origin: 'https://evil.example' },
        });
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe('Requests from origin https://evil.example are not allowed.');
      }
      // Nothing happened: the account and its session are still there.
      expect(
        (await t.inject({ method: 'GET', url: '/api/session', cookies: user.cookies })).json().current_user,
      ).toMatchObject({
        id: user.id,
      });
    });

    it('answers 403 to Sec-Fetch-Site: cross-site and to Origin: null', async () => {
      for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'null' }]) {
        const response = await t.inject({
          method: 'POST',
          url: '/api/password_reset/verify_email',
          headers,
          payload: { email: uniqueEmail() },
        });
        expect(response.statusCode).toBe(403);
      }
    });

    it('lets through the site itself: PUBLIC_URL, the Host it was reached at, or no Origin at all', async () => {
      for (const headers of [
        { origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' },
        { origin: 'http://127.0.0.1:8080', host: '127.0.0.1:8080' },
        {},
      ]) {
        const response = await t.inject({
          method: 'POST',
          url: '/api/password_reset/verify_email',
          headers,
          payload: { email: uniqueEmail() },
        });
        expect(response.statusCode).toBe(204);
      }
    });

    it('does not apply to GET', async () => {
      const response = await t.inject({
        method: 'GET',
        url: '/api/session',
        headers: { origin: 'https://evil.example' },
      });
      expect(response.statusCode).toBe(200);
    });
  });

  describe('bad input is a 400 with {statusCode, error, message}, never a 500', () => {
    it('answers 400 for malformed JSON', async () => {
      const response = await t.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: '{"email": "a@b.c", "password": ',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(response.json().message).toMatch(/^Request body is not valid JSON/);
    });

    it('answers 400 for a body over the 1 MiB limit', async () => {
      const response = await t.inject({
        method: 'POST',
        url: '/api/signup/verify_email',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@b.c', locale: 'en', padding: 'x'.repeat(1024 * 1024) }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Request body is too large.' });
    });

    it('answers 400 naming the field when the body does not match the schema', async () => {
      const missing = await t.inject({ method: 'POST', url: '/api/session', payload: { email: 'a@b.c' } });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe("Invalid request: body must have required property 'password'");
      const wrongType = await t.inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: { address: 'a@b.c' }, password: 'whatever1' },
      });
      expect(wrongType.statusCode).toBe(400);
      expect(wrongType.json().message).toMatch(/email/);
    });

    it('answers 400 for a JSON body that tries prototype pollution', async () => {
      const response = await t.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: '{"email": "a@b.c", "password": "whatever1", "__proto__": {"admin": true}}',
      });
      expect(response.statusCode).toBe(400);
    });

    it('answers an unexpected failure with a bare 500 that leaks nothing', async () => {
      const app = await t.sibling();
      app.get('/api/test-failure', async () => {
        throw new Error('secret detail of a failed query');
      });
      const response = await app.inject({ method: 'GET', url: '/api/test-failure' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'Internal Server Error',
      });
    });
  });

  describe('rate limits answer 429 after the limit', () => {
    async function expectLimit(
      limit: number,
      send: (attempt: number) => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): unknown }>,
    ) {
      for (let attempt = 0; attempt < limit; attempt++) expect((await send(attempt)).statusCode).not.toBe(429);
      const refused = await send(limit);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
      expect((refused.json() as { message: string }).message).toMatch(/^Too many requests: try again in \d+ /);
    }

    it('login: 30 a minute per IP, 10 per 15 minutes per address', async () => {
      const ip = nextIp();
      await expectLimit(30, () =>
        t.inject({
          method: 'POST',
          url: '/api/session',
          remoteAddress: ip,
          payload: { email: uniqueEmail(), password: 'not the one' },
        }),
      );
      const user = await insertUserWithPassword(t);
      await expectLimit(10, () =>
        t.inject({ method: 'POST', url: '/api/session', payload: { email: user.email, password: 'guess guess' } }),
      );
      // Also for the right password: the address is locked for the window, not only wrong guesses.
      const right = await t.inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: user.email.toUpperCase(), password: user.password },
      });
      expect(right.statusCode).toBe(429);
    });

    it('sign-up mail (hard, since 409 reveals registered addresses): 5 an hour per IP, 3 per address', async () => {
      const ip = nextIp();
      await expectLimit(5, () =>
        t.inject({
          method: 'POST',
          url: '/api/signup/verify_email',
          remoteAddress: ip,
          payload: { email: uniqueEmail(), locale: 'en' },
        }),
      );
      const email = uniqueEmail('twice');
      await expectLimit(3, () =>
        t.inject({ method: 'POST', url: '/api/signup/verify_email', payload: { email, locale: 'en' } }),
      );
    });

    it('password-reset mail: 10 an hour per IP, 3 per address', async () => {
      const ip = nextIp();
      await expectLimit(10, () =>
        t.inject({
          method: 'POST',
          url: '/api/password_reset/verify_email',
          remoteAddress: ip,
          payload: { email: uniqueEmail() },
        }),
      );
      const email = uniqueEmail('reset');
      await expectLimit(3, () =>
        t.inject({ method: 'POST', url: '/api/password_reset/verify_email', payload: { email } }),
      );
    });

    it('nickname look-ups: 120 a minute per user', async () => {
      const user = await createTestUser(t.database.db);
      await expectLimit(120, (attempt) =>
        t.inject({ method: 'GET', url: `/api/nicknames/name${attempt}`, cookies: user.cookies }),
      );
    });

    it('counts in the database, so two server processes on one database share each limit', async () => {
      const other = await t.sibling({ PUBLIC_URL });
      const ip = nextIp();
      const apps = [t.app, other];
      await expectLimit(5, (attempt) =>
        apps[attempt % 2].inject({
          method: 'POST',
          url: '/api/signup/verify_email',
          remoteAddress: ip,
          payload: { email: uniqueEmail(), locale: 'en' },
        }),
      );
      const counters = await t.database.db.selectFrom('rate_limits').select(['key', 'count']).execute();
      expect(counters).toContainEqual({ key: `signup-ip:${ip}`, count: 6 });
    });

    it('starts a new window once the old one has expired', async () => {
      const ip = nextIp();
      const send = () =>
        t.inject({
          method: 'POST',
          url: '/api/signup/verify_email',
          remoteAddress: ip,
          payload: { email: uniqueEmail(), locale: 'en' },
        });
      for (let attempt = 0; attempt < 5; attempt++) await send();
      expect((await send()).statusCode).toBe(429);
      await t.database.db
        .updateTable('rate_limits')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('key', '=', `signup-ip:${ip}`)
        .execute();
      expect((await send()).statusCode).toBe(204);
    });

    it('RATE_LIMITS=off turns them off (loopback load runs)', async () => {
      const unlimited = await t.sibling({ PUBLIC_URL, RATE_LIMITS: 'off' });
      const ip = nextIp();
      for (let attempt = 0; attempt < 7; attempt++) {
        const response = await unlimited.inject({
          method: 'POST',
          url: '/api/signup/verify_email',
          remoteAddress: ip,
          payload: { email: uniqueEmail(), locale: 'en' },
        });
        expect(response.statusCode).toBe(204);
      }
    });
  });
});
