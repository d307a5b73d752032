// Every route's path parameters through the shared schemas (server/routes/schemas.ts,
// server/plugins/path-parameters.ts): a NUL, a lone surrogate and an over-long value in any path
// parameter of any route is a 4xx, never a 500. The routes are the application's own (its
// printed route tree), so a route added later is fuzzed without a line here. (A route whose path
// parameter has a schema of its own is refused when it is registered:
// tests/unit/path-parameters.test.ts.)
import { STATUS_CODES } from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { registeredRoutes } from '../helpers/routes';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** A value each path parameter accepts, so that only the one being fuzzed is wrong. */
const VALID: Record<string, string> = {
  course_id: 'training',
  period: 'hour',
  level_id: '1',
  quest_id: '1',
  id: '1',
  nickname: 'Vega',
  '*': 'index.html',
};

/** What a client may put in a path parameter that no route should pass on (percent-encoded). */
const HOSTILE = {
  NUL: '%00',
  'a lone surrogate': '%ED%A0%80',
  'an over-long value': 'x'.repeat(1025),
};

/** The longest path parameter the router takes (PATH_PARAMETER_MAX_LENGTH, Fastify's maxParamLength). */
const ROUTER_LIMIT = 100;

/** The query parameters some routes require (the export's format, the preview's locale). */
const QUERY = '?format=csv&locale=en';

describe.each(DATABASE_KINDS)('every route with a path parameter on %s', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let withFiles: FastifyInstance;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-dist-'));

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createTestUser(t.database.db, { admin: true });
    // The static files' wildcard routes exist only with a client and a sky to serve.
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Galaxy Cruise</title>');
    fs.mkdirSync(path.join(t.varDirectory, 'sky', 'stellar-globe', 'static'), { recursive: true });
    withFiles = await t.sibling({ DIST_DIR: dist });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers a NUL, a lone surrogate and an over-long value with 4xx, never 5xx', async () => {
    const routes = registeredRoutes(withFiles).filter(({ route }) => /[:*]/.test(route));
    // The application's routes with parameters, the wildcard ones of the static files among them.
    expect(routes.map(({ method, route }) => `${method} ${route}`)).toEqual(
      expect.arrayContaining([
        'GET /api/admin/courses/:course_id/export',
        'GET /api/nicknames/:nickname',
        'POST /api/quests/:quest_id/answers',
        'GET /api/courses/:course_id/rankings/:period',
        'GET /stellar-globe/*',
        'GET /*',
      ]),
    );
    let requests = 0;
    for (const { method, route } of routes) {
      const parameters = route.match(/:[A-Za-z_]+|\*/g)!.map((token) => token.replace(/^:/, ''));
      for (const parameter of parameters) {
        expect(VALID, `a valid ${parameter} for ${route}`).toHaveProperty([parameter]);
        for (const [what, value] of Object.entries(HOSTILE)) {
          const url = route.replace(/:[A-Za-z_]+|\*/g, (token) =>
            token.replace(/^:/, '') === parameter ? value : VALID[token.replace(/^:/, '')]!,
          );
          const response = await withFiles.inject({
            method: method as 'GET',
            url: url + QUERY,
            cookies: admin.cookies,
            ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}),
          });
          requests += 1;
          const where = `${method} ${route} with ${what} as ${parameter}: ${response.statusCode} ${response.body}`;
          expect(response.statusCode, where).toBeGreaterThanOrEqual(400);
          expect(response.statusCode, where).toBeLessThan(500);
          if (route.startsWith('/api/')) {
            expect(response.json(), where).toEqual({
              statusCode: response.statusCode,
              error: STATUS_CODES[response.statusCode],
              message: expect.any(String),
            });
            expect(response.headers['cache-control'], where).toBe('no-store');
          }
        }
      }
    }
    expect(requests).toBeGreaterThanOrEqual(3 * 14);
  });

  it("answers an export of the course '\\0' with 404 Unknown course, not a 500", async () => {
    const response = await t.inject({
      method: 'GET',
      url: '/api/admin/courses/%00/export?format=csv',
      cookies: admin.cookies,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(
      "Unknown course '\u0000': courses are training, season2, illustris, illustris_review, final_campaign.",
    );
  });

  it('answers a path that is not UTF-8 with 400 and a part of it over 100 characters with 414, with the usual headers', async () => {
    const notText = await t.inject({ method: 'GET', url: '/api/nicknames/%ED%A0%80', cookies: admin.cookies });
    expect(notText.statusCode).toBe(400);
    expect(notText.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Bad Request: the path is not text (a percent-escape that is not UTF-8, or a lone surrogate).',
    });
    const tooLong = await t.inject({
      method: 'GET',
      url: `/api/nicknames/${'x'.repeat(ROUTER_LIMIT + 1)}`,
      cookies: admin.cookies,
    });
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json()).toEqual({
      statusCode: 414,
      error: 'URI Too Long',
      message: `URI Too Long: a part of the path may be at most ${ROUTER_LIMIT} characters.`,
    });
    for (const response of [notText, tooLong]) {
      expect(response.headers).toMatchObject({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    }
    // As long as the router allows is still a nickname to look up.
    const longest = await t.inject({
      method: 'GET',
      url: `/api/nicknames/${'x'.repeat(ROUTER_LIMIT)}`,
      cookies: admin.cookies,
    });
    expect(longest.statusCode).toBe(200);
  });
});
