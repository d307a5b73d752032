// The client's address behind a reverse proxy (TRUST_PROXY, server/config.ts parseTrustProxy):
// each proxy appends the address it saw to X-Forwarded-For, so only the entries that trusted
// proxies wrote, read from the right, say who the client is; anything to their left is the
// client's own writing. `true` is one proxy (a hop count of 1), not "trust every entry", which
// let a client choose its address and so escape every per-address limit.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { DATABASE_KINDS } from '../helpers/databases';
import { insertUserWithPassword, nextIp, startTestApp, uniqueEmail, type TestApp } from '../helpers/test-app';

describe('TRUST_PROXY as the server reads it', () => {
  it('refuses to start with a value that is not true, a hop count or the proxies’ addresses', () => {
    for (const value of ['yes', '127.0.0.1,', '10.0.0.0/33', 'proxy.example.org'])
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        `TRUST_PROXY must be true, a hop count or the proxies' addresses (IP, CIDR, loopback, linklocal, uniquelocal), got '${value}'`,
      );
  });

  it('believes a peer by its hop for true and a count, by its address for a list', () => {
    const believes = (value: string, address: string, hop: number) => {
      const trust = loadConfig({ TRUST_PROXY: value }).trustProxy;
      return trust !== false && trust(address, hop);
    };
    // true: the socket's peer (hop 0) is the proxy; the address it saw (hop 1) is the client.
    expect([believes('true', '192.0.2.7', 0), believes('true', '192.0.2.7', 1)]).toEqual([true, false]);
    expect([believes('2', '192.0.2.7', 1), believes('2', '192.0.2.7', 2)]).toEqual([true, false]);
    expect(believes('loopback', '127.0.0.1', 0)).toBe(true);
    expect(believes('loopback', '192.0.2.7', 0)).toBe(false);
    expect(believes('127.0.0.1, 198.51.100.0/24', '198.51.100.9', 1)).toBe(true);
    for (const off of ['', 'false', '0']) expect(loadConfig({ TRUST_PROXY: off }).trustProxy).toBe(false);
  });
});

describe.each(DATABASE_KINDS)('the client address behind a proxy on %s', (kind) => {
  let t: TestApp;
  /** TRUST_PROXY=true: one proxy, such as nginx appending with $proxy_add_x_forwarded_for. */
  let oneProxy: FastifyInstance;

  beforeAll(async () => {
    t = await startTestApp(kind);
    oneProxy = await t.sibling({ TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = (
    app: FastifyInstance,
    remoteAddress: string,
    forwardedFor: string,
    payload: { email: string; password: string },
  ) =>
    app.inject({
      method: 'POST',
      url: '/api/session',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
      payload,
    });

  it('TRUST_PROXY=true: after 10 wrong passwords from A, X-Forwarded-For: 1.2.3.4, A is still 429', async () => {
    const { email, password } = await insertUserWithPassword(t);
    const volunteer = { email, password };
    const proxy = nextIp();
    const client = nextIp();
    for (let attempt = 0; attempt < 10; attempt++) {
      const wrong = await login(oneProxy, proxy, client, { email: volunteer.email, password: `guess ${attempt}` });
      expect(wrong.statusCode).toBe(422);
    }
    expect((await login(oneProxy, proxy, client, volunteer)).statusCode).toBe(429);
    // The client writes an address of its choice in front; the proxy appends the one it saw.
    const disguised = await login(oneProxy, proxy, `1.2.3.4, ${client}`, volunteer);
    expect(disguised.statusCode).toBe(429);
    // The limit is the client's, not the proxy's: another volunteer's client behind it logs in.
    const neighbour = await login(oneProxy, proxy, nextIp(), volunteer);
    expect(neighbour.statusCode, neighbour.body).toBe(200);
  });

  it('TRUST_PROXY=true: the sign-up limit per client (5 an hour) is not escaped by rotating the header', async () => {
    const proxy = nextIp();
    const client = nextIp();
    const signUp = (forwardedFor: string) =>
      oneProxy.inject({
        method: 'POST',
        url: '/api/signup/verify_email',
        remoteAddress: proxy,
        headers: { 'x-forwarded-for': forwardedFor },
        payload: { email: uniqueEmail('rotating'), locale: 'en' },
      });
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await signUp(`198.51.100.${attempt}, ${client}`)).statusCode).toBe(204);
    expect((await signUp(`198.51.100.99, ${client}`)).statusCode).toBe(429);
  });

  it('a hop count of 2 (a CDN before the proxy): the address the CDN saw, whatever the client wrote', async () => {
    const twoProxies = await t.sibling({ TRUST_PROXY: '2' });
    const { email, password } = await insertUserWithPassword(t);
    const volunteer = { email, password };
    const proxy = nextIp();
    const client = nextIp();
    for (let attempt = 0; attempt < 10; attempt++) {
      const edge = `203.0.113.${attempt + 1}`;
      const wrong = await login(twoProxies, proxy, `${client}, ${edge}`, {
        email: volunteer.email,
        password: 'nope nope',
      });
      expect(wrong.statusCode).toBe(422);
    }
    expect((await login(twoProxies, proxy, `1.2.3.4, ${client}, 203.0.113.50`, volunteer)).statusCode).toBe(429);
  });

  it("the proxies' addresses: X-Forwarded-* of any other peer is not believed", async () => {
    const listed = await t.sibling({ TRUST_PROXY: '127.0.0.1, 198.51.100.0/24' });
    const client = nextIp();
    const direct = nextIp();
    const signUp = (remoteAddress: string, forwardedFor: string) =>
      listed.inject({
        method: 'POST',
        url: '/api/signup/verify_email',
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'https' },
        payload: { email: uniqueEmail('listed'), locale: 'en' },
      });
    const throughProxy = await signUp('127.0.0.1', client);
    expect(throughProxy.headers['strict-transport-security']).toBe('max-age=15552000');
    // A peer that is not a listed proxy is the client, whatever it writes.
    const spoofed = await signUp(direct, client);
    expect(spoofed.headers).not.toHaveProperty('strict-transport-security');
    const counters = await t.database.db
      .selectFrom('rate_limits')
      .select(['key', 'count'])
      .where('key', 'in', [`signup-ip:${client}`, `signup-ip:${direct}`, 'signup-ip:127.0.0.1'])
      .orderBy('key')
      .execute();
    expect(counters).toEqual(
      [
        { key: `signup-ip:${client}`, count: 1 },
        { key: `signup-ip:${direct}`, count: 1 },
      ].sort((a, b) => (a.key < b.key ? -1 : 1)),
    );
  });
});
