// A request that stalls is answered 408 and its connection closed (issue 32, item 1): a body
// that stops half-way within BODY_IDLE_TIMEOUT_MS, a body or headers that trickle within
// REQUEST_TIMEOUT_MS and one check interval (server/plugins/request-timeouts.ts), while other
// volunteers are answered meanwhile. Short limits here; the defaults are 10 s and 30 s.
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectionsCheckingInterval } from '../../server/plugins/request-timeouts';
import { createTestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import { parseRawResponse, rawRequest, within, type RawExchange } from '../helpers/raw-http';
import { startTestApp, type TestApp } from '../helpers/test-app';

const REQUEST_TIMEOUT_MS = 2000;
const BODY_IDLE_TIMEOUT_MS = 1000;
/** What a busy two-core machine may add to a timer: the limits are asserted with this much room. */
const SLACK_MS = 3000;

const stalledLogin = (length = 100) =>
  'POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
  `Content-Length: ${length}\r\n\r\n{"email":"stalled@example.org",`;

describe.each(DATABASE_KINDS)('a stalled request is closed within its limit on %s', (kind) => {
  let t: TestApp;
  let port: number;
  const open: RawExchange[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind, {
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      BODY_IDLE_TIMEOUT_MS: String(BODY_IDLE_TIMEOUT_MS),
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterEach(() => {
    for (const exchange of open.splice(0)) exchange.socket.destroy();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 408 to a body that stops half-way and closes it within BODY_IDLE_TIMEOUT_MS, answering others meanwhile', async () => {
    const user = await createTestUser(t.database.db);
    const started = performance.now();
    const stalled = await Promise.all(Array.from({ length: 20 }, () => rawRequest(port, stalledLogin())));
    open.push(...stalled);
    // A volunteer's calls go on while twenty connections hold half a body each.
    const cookie = Object.entries(user.cookies).map(([name, value]) => `${name}=${value}`)[0];
    for (let call = 0; call < 3; call++) {
      const response = await fetch(`http://127.0.0.1:${port}/api/session`, { headers: { cookie } });
      expect(response.status).toBe(200);
      expect((await response.json()).current_user.email).toBe(user.email);
    }
    for (const exchange of stalled) {
      const { response, at } = await within(exchange.closed, BODY_IDLE_TIMEOUT_MS + SLACK_MS, 'stalled body closed');
      expect(at - started).toBeGreaterThanOrEqual(BODY_IDLE_TIMEOUT_MS - 50);
      const parsed = parseRawResponse(response);
      expect(parsed.status).toBe(408);
      expect(parsed.headers.connection).toBe('close');
      expect(JSON.parse(parsed.body)).toEqual({
        statusCode: 408,
        error: 'Request Timeout',
        message: 'Request Timeout: no part of the request body arrived for 1 s.',
      });
    }
  });

  it('closes a body that trickles in, a byte at a time, within REQUEST_TIMEOUT_MS and one check interval', async () => {
    const started = performance.now();
    const exchange = await rawRequest(port, stalledLogin(1000));
    open.push(exchange);
    // Each byte well within the body's idle limit: only the whole request's limit can end it.
    const trickle = setInterval(() => exchange.send(' '), BODY_IDLE_TIMEOUT_MS / 4);
    try {
      const limit = REQUEST_TIMEOUT_MS + connectionsCheckingInterval(REQUEST_TIMEOUT_MS);
      const { response, at } = await within(exchange.closed, limit + SLACK_MS, 'trickling body closed');
      expect(at - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
      expect(parseRawResponse(response).status).toBe(408);
    } finally {
      clearInterval(trickle);
    }
  });

  it('closes headers that never end within REQUEST_TIMEOUT_MS and one check interval', async () => {
    const started = performance.now();
    const exchange = await rawRequest(port, 'GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    open.push(exchange);
    const trickle = setInterval(() => exchange.send('X-Slow: 1\r\n'), BODY_IDLE_TIMEOUT_MS / 4);
    try {
      const limit = REQUEST_TIMEOUT_MS + connectionsCheckingInterval(REQUEST_TIMEOUT_MS);
      const { response, at } = await within(exchange.closed, limit + SLACK_MS, 'trickling headers closed');
      expect(at - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
      expect(parseRawResponse(response).status).toBe(408);
    } finally {
      clearInterval(trickle);
    }
  });

  it('lets a body that arrives in parts, each within the idle limit, through to its route', async () => {
    const body = JSON.stringify({ email: 'nobody@example.org', password: 'not the password' });
    const exchange = await rawRequest(
      port,
      'POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n' +
        `Content-Length: ${body.length}\r\n\r\n`,
    );
    open.push(exchange);
    for (const part of [body.slice(0, 5), body.slice(5, 12), body.slice(12)]) {
      await new Promise((resolve) => setTimeout(resolve, BODY_IDLE_TIMEOUT_MS / 2));
      exchange.send(part);
    }
    const { response } = await within(exchange.closed, 60_000, 'answer');
    // The login's own answer to unknown credentials: the body was read whole and parsed.
    expect(parseRawResponse(response).status).toBe(422);
  });
});
