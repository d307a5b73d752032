// The request helper of application-spec §7 and the alert rule of §8, against a real HTTP
// server on 127.0.0.1 that echoes what it received.
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  RequestError,
  getUrl,
  request,
  setAlertHandler,
  setBaseUrl,
  setOfflineAnswer,
  setReloadLine,
} from '../../src/app/api/request';

let server: FastifyInstance;
const serverUrl = () => `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
const alerts: string[] = [];

beforeAll(async () => {
  server = Fastify();
  server.all('/echo/*', async (req) => ({
    method: req.method,
    url: req.url,
    body: req.body ?? null,
    accept: req.headers.accept,
    contentType: req.headers['content-type'] ?? null,
  }));
  server.delete('/empty', async (_req, reply) => reply.code(204).send());
  server.get('/status/:code', async (req, reply) => {
    const code = Number((req.params as { code: string }).code);
    return reply.code(code).send({ reason: `failed with ${code}` });
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  setBaseUrl(serverUrl());
  setAlertHandler((message) => alerts.push(message));
});
afterAll(() => server.close());
beforeEach(() => {
  alerts.length = 0;
});

describe('request helper', () => {
  it('replaces {param} tokens and sends the remaining fields as a query string for GET', async () => {
    const echo = await request<{ method: string; url: string; body: unknown }>('get', '/echo/levels/{level_id}', {
      level_id: 7,
      course_id: 'season2',
      only_status: true,
    });
    expect(echo.method).toBe('GET');
    expect(echo.url).toBe('/echo/levels/7?course_id=season2&only_status=true');
    expect(echo.body).toBeNull();
  });

  it.each(['post', 'put', 'patch', 'delete'] as const)(
    'sends the remaining fields as a JSON body for %s',
    async (method) => {
      const echo = await request<{ method: string; url: string; body: unknown; accept: string; contentType: string }>(
        method,
        '/echo/quests/{quest_id}/answers',
        { quest_id: 12, object_id: 42, galaxy_type: 'spiral' },
      );
      expect(echo.method).toBe(method.toUpperCase());
      expect(echo.url).toBe('/echo/quests/12/answers');
      expect(echo.body).toEqual({ object_id: 42, galaxy_type: 'spiral' });
      expect(echo.accept).toBe('application/json');
      expect(echo.contentType).toMatch(/^application\/json/);
    },
  );

  it('returns no body for a 204', async () => {
    expect(await request('delete', '/empty')).toBeUndefined();
  });

  it("throws an error with status, statusText and data and alerts 'Please Reload.'", async () => {
    const failure = request('get', '/status/{code}', { code: 500 });
    await expect(failure).rejects.toBeInstanceOf(RequestError);
    await expect(failure).rejects.toMatchObject({
      status: 500,
      statusText: 'Internal Server Error',
      data: { reason: 'failed with 500' },
    });
    expect(alerts).toEqual(['500 Internal Server Error\n{"reason":"failed with 500"}\nPlease Reload.']);
  });

  it("ends the alert in the page's language once set (Japanese here)", async () => {
    setReloadLine('ページを再読み込みしてください。');
    try {
      await expect(request('get', '/status/{code}', { code: 500 })).rejects.toBeInstanceOf(RequestError);
      expect(alerts).toEqual([
        '500 Internal Server Error\n{"reason":"failed with 500"}\nページを再読み込みしてください。',
      ]);
    } finally {
      setReloadLine('Please Reload.');
    }
  });

  it.each([409, 422])('passes %i silently to the caller', async (code) => {
    await expect(request('get', '/status/{code}', { code })).rejects.toMatchObject({ status: code });
    expect(alerts).toEqual([]);
  });

  it('alerts a network failure too, as status 0', async () => {
    setBaseUrl('http://127.0.0.1:9');
    try {
      await expect(request('get', '/api/session')).rejects.toMatchObject({ status: 0 });
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatch(/Please Reload\.$/);
    } finally {
      setBaseUrl(serverUrl());
    }
  });

  it('raises no alert for a network failure while the browser says it is offline (the offline notice says so)', async () => {
    setBaseUrl('http://127.0.0.1:9');
    vi.stubGlobal('navigator', { onLine: false });
    try {
      await expect(request('get', '/api/session')).rejects.toMatchObject({ status: 0 });
      expect(alerts).toEqual([]);
      // Offline or not, a server's own failure still alerts.
      setBaseUrl(serverUrl());
      await expect(request('get', '/status/{code}', { code: 500 })).rejects.toMatchObject({ status: 500 });
      expect(alerts).toHaveLength(1);
    } finally {
      vi.unstubAllGlobals();
      setBaseUrl(serverUrl());
    }
  });

  it('answers a GET that fails for want of a network with the answer the page kept (the offline start), without an alert', async () => {
    setBaseUrl('http://127.0.0.1:9');
    const asked: string[] = [];
    setOfflineAnswer(async (url) => {
      asked.push(url);
      return url.endsWith('/api/courses') ? [{ id: 'training' }] : undefined;
    });
    try {
      await expect(request('get', '/api/courses')).resolves.toEqual([{ id: 'training' }]);
      expect(alerts).toEqual([]);
      // Nothing kept: the failure as before. Not a GET: never asked.
      await expect(request('get', '/api/my_records')).rejects.toMatchObject({ status: 0 });
      await expect(request('post', '/api/session', { email: 'a@b.c' })).rejects.toMatchObject({ status: 0 });
      expect(asked).toEqual(['http://127.0.0.1:9/api/courses', 'http://127.0.0.1:9/api/my_records']);
    } finally {
      setOfflineAnswer(async () => undefined);
      setBaseUrl(serverUrl());
    }
  });

  it('builds the URL of a GET as it sends it: getUrl', () => {
    expect(getUrl('/api/levels', { course_id: 'training' })).toBe(`${serverUrl()}/api/levels?course_id=training`);
    expect(getUrl('/api/courses/{course_id}/quests/current', { course_id: 'season2' })).toBe(
      `${serverUrl()}/api/courses/season2/quests/current`,
    );
  });

  it('raises no alert for a background refresh, which still fails to its caller', async () => {
    await expect(request('get', '/status/{code}', { code: 401 }, { background: true })).rejects.toMatchObject({
      status: 401,
    });
    setBaseUrl('http://127.0.0.1:9');
    try {
      await expect(request('get', '/api/campaigns', undefined, { background: true })).rejects.toMatchObject({
        status: 0,
      });
    } finally {
      setBaseUrl(serverUrl());
    }
    expect(alerts).toEqual([]);
  });
});
