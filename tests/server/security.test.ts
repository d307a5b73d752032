// Request safety for the whole application: security headers and the CSP the client needs,
// JSON-only bodies, the Origin check on state-changing calls, error answers that are 4xx with
// {statusCode, error, message} and never a 500, and the rate limits of the account routes,
// counted in the database so that several server processes share them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
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

    it('sends Cache-Control: no-store on every /api/ response, personal or not, errors included', async () => {
      const user = await createTestUser(t.database.db);
      for (const [url, cookies, status] of [
        ['/api/session', user.cookies, 200],
        ['/api/present202501/stat', user.cookies, 200],
        ['/api/notifications', user.cookies, 200],
        ['/api/session', undefined, 200],
        ['/api/present202501/stat', undefined, 401],
        ['/api/no-such-route', undefined, 404],
      ] as const) {
        const response = await t.inject({ method: 'GET', url, cookies });
        expect(response.statusCode).toBe(status);
        expect(response.headers['cache-control']).toBe('no-store');
      }
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

    it('lets through the site itself: PUBLIC_URL, or no Origin at all', async () => {
      for (const headers of [{ origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' }, {}]) {
        const response = await t.inject({
          method: 'POST',
          url: '/api/password_reset/verify_email',
          headers,
          payload: { email: uniqueEmail() },
        });
        expect(response.statusCode).toBe(204);
      }
    });

    it('answers 403 to an Origin that matches only the Host header (a DNS-rebinding page)', async () => {
      // The rebinding page's name resolves to this server: browser and Host both say its name.
      for (const [origin, host] of [
        ['http://rebinding.example:8080', 'rebinding.example:8080'],
        ['http://127.0.0.1:8080', '127.0.0.1:8080'],
      ]) {
        const response = await t.inject({
          method: 'POST',
          url: '/api/signup/verify_email',
          headers: { origin, host },
          payload: { email: uniqueEmail(), locale: 'en' },
        });
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe(`Requests from origin ${origin} are not allowed.`);
      }
    });

    it('lets through the extra origins of ALLOWED_ORIGINS, in any spelling of the same origin', async () => {
      const app = await t.sibling({
        PUBLIC_URL,
        ALLOWED_ORIGINS: ' http://localhost:5173/ ,https://Mirror.example.org:443',
      });
      for (const origin of [PUBLIC_URL, 'http://localhost:5173', 'https://mirror.example.org']) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/password_reset/verify_email',
          headers: { origin },
          remoteAddress: nextIp(),
          payload: { email: uniqueEmail() },
        });
        expect(response.statusCode).toBe(204);
      }
      const other = await app.inject({
        method: 'POST',
        url: '/api/password_reset/verify_email',
        headers: { origin: 'http://localhost:5174' },
        remoteAddress: nextIp(),
        payload: { email: uniqueEmail() },
      });
      expect(other.statusCode).toBe(403);
    });

    it('lets through the loopback names of the port when PUBLIC_URL is not set', async () => {
      const app = await t.sibling({ PUBLIC_URL: '', PORT: '8080' });
      for (const origin of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080']) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/password_reset/verify_email',
          headers: { origin },
          remoteAddress: nextIp(),
          payload: { email: uniqueEmail() },
        });
        expect(response.statusCode).toBe(204);
      }
      for (const origin of ['http://localhost:8081', 'http://rebinding.example:8080']) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/password_reset/verify_email',
          headers: { origin },
          remoteAddress: nextIp(),
          payload: { email: uniqueEmail() },
        });
        expect(response.statusCode).toBe(403);
      }
    });

    it('refuses to start with an ALLOWED_ORIGINS entry that is not an origin', () => {
      for (const entry of ['*', 'localhost:5173', 'https://galaxy.example.org/path', 'ftp://galaxy.example.org'])
        expect(() => loadConfig({ ALLOWED_ORIGINS: `http://localhost:5173,${entry}` })).toThrow(
          `ALLOWED_ORIGINS must be a comma-separated list of origins such as https://galaxy.example.org, got '${entry}'`,
        );
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

    it('answers 413 Payload Too Large for a body over the 16 KiB limit, naming the limit, and closes the connection', async () => {
      const response = await t.inject({
        method: 'POST',
        url: '/api/signup/verify_email',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@b.c', locale: 'en', padding: 'x'.repeat(16 * 1024) }),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({
        statusCode: 413,
        error: 'Payload Too Large',
        message: "Payload Too Large: this request's body may be at most 16 KiB.",
      });
      // The rest of a body the server did not read is not awaited.
      expect(response.headers.connection).toBe('close');
    });

    it('answers 400 for JSON nested deeper than 32 levels, before parsing it', async () => {
      const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
      for (const payload of [nested(33), `{"email": ${nested(40)}, "password": "whatever1"}`, nested(8000)]) {
        const response = await t.inject({
          method: 'POST',
          url: '/api/session',
          headers: { 'content-type': 'application/json' },
          payload,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          statusCode: 400,
          error: 'Bad Request',
          message: 'Request body is nested too deeply: at most 32 levels of arrays and objects.',
        });
      }
      // 32 levels are parsed, and the schema answers.
      const deepest = await t.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: `{"email": ${nested(31)}, "password": "whatever1"}`,
      });
      expect(deepest.statusCode).toBe(400);
      expect(deepest.json().message).toMatch(/^Invalid request: body\/email /);
    });

    it('counts no brackets inside strings, escaped quotes included', async () => {
      const response = await t.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: uniqueEmail(), password: `"\\${'[{'.repeat(100)}` }),
      });
      expect(response.statusCode).toBe(422);
      // A string that ends in a backslash ends there: the nesting after it counts.
      const afterBackslash = await t.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: `{"password": "x\\\\", "email": ${'['.repeat(40)}${']'.repeat(40)}}`,
      });
      expect(afterBackslash.statusCode).toBe(400);
      expect(afterBackslash.json().message).toBe(
        'Request body is nested too deeply: at most 32 levels of arrays and objects.',
      );
    });

    it('takes up to 1 MiB from an administrator editing notifications, and nothing large from anyone else', async () => {
      const admin = await createTestUser(t.database.db, { admin: true });
      const volunteer = await createTestUser(t.database.db);
      const long = 'あ'.repeat(18_000);
      const payload = { type: 'captain_message', title: { en: 'Long', ja: '長い' }, message: { en: long, ja: long } };
      expect(Buffer.byteLength(JSON.stringify(payload))).toBeGreaterThan(100_000);
      const created = await t.inject({ method: 'POST', url: '/api/notifications', cookies: admin.cookies, payload });
      expect(created.statusCode).toBe(201);
      const updated = await t.inject({
        method: 'PUT',
        url: `/api/notifications/${created.json().id}`,
        cookies: admin.cookies,
        payload,
      });
      expect(updated.statusCode).toBe(200);
      // Half a million nested arrays fit in 1 MiB: refused, not parsed.
      const deep = await t.inject({
        method: 'POST',
        url: '/api/notifications',
        cookies: admin.cookies,
        headers: { 'content-type': 'application/json' },
        payload: '['.repeat(500_000) + ']'.repeat(500_000),
      });
      expect(deep.statusCode).toBe(400);
      expect(deep.json().message).toBe('Request body is nested too deeply: at most 32 levels of arrays and objects.');
      // A guest or a volunteer is refused before the body is read: the too-deep body is not looked at.
      for (const [cookies, status] of [
        [undefined, 401],
        [volunteer.cookies, 403],
      ] as const) {
        const response = await t.inject({
          method: 'POST',
          url: '/api/notifications',
          cookies,
          headers: { 'content-type': 'application/json' },
          payload: '['.repeat(500_000) + ']'.repeat(500_000),
        });
        expect(response.statusCode).toBe(status);
      }
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

    it('login: 30 a minute per IP, 10 per 15 minutes per address from one IP', async () => {
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
      const guesser = nextIp();
      await expectLimit(10, () =>
        t.inject({
          method: 'POST',
          url: '/api/session',
          remoteAddress: guesser,
          payload: { email: user.email, password: 'guess guess' },
        }),
      );
      // Also for the right password from that IP; from any other, the volunteer still logs in
      // (tests/server/hardening-accounts-lockout.test.ts).
      const right = await t.inject({
        method: 'POST',
        url: '/api/session',
        remoteAddress: guesser,
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
