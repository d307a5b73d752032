// Every spelling of an API path gets the API's checks (issue 32, item 8): the router decodes
// percent-escapes and accepts a target in absolute form, so the checks read the same normalised
// target (server/plugins/request-target.ts): Cache-Control: no-store and the session lookup.
// Sent over raw sockets, since fetch would normalise the target itself.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeRequestTarget } from '../../server/plugins/request-target';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { parseRawResponse, rawExchange } from '../helpers/raw-http';
import { startTestApp, type TestApp } from '../helpers/test-app';

describe('the request target as the router reads it', () => {
  it('drops the scheme and authority of the absolute form and decodes escaped letters, digits, - _ ~', () => {
    expect(normalizeRequestTarget('/api/session')).toBe('/api/session');
    expect(normalizeRequestTarget('/%61pi/session')).toBe('/api/session');
    expect(normalizeRequestTarget('/%41%50%49/%7e%2d%5F')).toBe('/API/~-_');
    expect(normalizeRequestTarget('http://127.0.0.1:8080/api/session?x=%61')).toBe('/api/session?x=%61');
    expect(normalizeRequestTarget('HTTPS://galaxy.example.org')).toBe('/');
    expect(normalizeRequestTarget('http://h/%61pi/quests/%31/answers')).toBe('/api/quests/1/answers');
  });

  it('keeps every other escape as sent, so that no new slash or dot segment appears', () => {
    expect(normalizeRequestTarget('/api%2Fsession')).toBe('/api%2Fsession');
    expect(normalizeRequestTarget('/stellar-globe/%2e%2e/%2E%2e/etc')).toBe('/stellar-globe/%2e%2e/%2E%2e/etc');
    expect(normalizeRequestTarget('/a%20b%25%00')).toBe('/a%20b%25%00');
    expect(normalizeRequestTarget('*')).toBe('*');
  });
});

describe.each(DATABASE_KINDS)('an API path spelled another way on %s', (kind) => {
  let t: TestApp;
  let port: number;
  let user: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    user = await createTestUser(t.database.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = async (target: string) => {
    const [cookie] = Object.entries(user.cookies).map(([name, value]) => `${name}=${value}`);
    const response = await rawExchange(
      port,
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
    );
    return parseRawResponse(response);
  };

  it('gets no-store and the session for /%61pi/session and for absolute-form targets, as /api/session does', async () => {
    for (const target of [
      '/api/session',
      '/%61pi/session',
      '/%61%70%69/session',
      `http://127.0.0.1:${port}/api/session`,
      `http://127.0.0.1:${port}/%61pi/session`,
      'http://another.example/api/session',
    ]) {
      const response = await get(target);
      expect(response.status, target).toBe(200);
      expect(response.headers['cache-control'], target).toBe('no-store');
      // The body is chunked or sized; the JSON is the part between its braces.
      const json = JSON.parse(response.body.slice(response.body.indexOf('{'), response.body.lastIndexOf('}') + 1));
      expect(json.current_user?.email, target).toBe(user.email);
    }
  });

  it('answers an unknown API path in either spelling with a 404 that is not stored', async () => {
    for (const target of ['/%61pi/no-such-route', `http://127.0.0.1:${port}/api/no-such-route`]) {
      const response = await get(target);
      expect(response.status, target).toBe(404);
      expect(response.headers['cache-control'], target).toBe('no-store');
    }
  });
});
