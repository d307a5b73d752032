import crypto from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { SESSION_COOKIE, hashToken, registerSessionUser } from '../../server/auth/session-user';
import { revokeUserSessions } from '../../server/auth/sessions';
import type { CurrentQuestResponse } from '../../shared/api';
import { createTestUser } from '../helpers/accounts';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../helpers/databases';
import { openGame, type GameFixture } from '../helpers/sky';

describe.each(DATABASE_KINDS)('GET /api/session on %s', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    app = await buildApp({
      config: loadConfig({ VAR_DIR: '/nonexistent-var', DIST_DIR: '/nonexistent-dist' }),
      db: database.db,
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('runs the migrations on the real database kind', async () => {
    expect(database.kind).toBe(kind);
    const tables = await database.db.introspection.getTables();
    expect(tables.map((table) => table.name).sort()).toEqual(expect.arrayContaining(['sessions', 'users']));
  });

  it('answers a visitor with no session: {"current_user": null, "recommended_course": null}', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/session' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ current_user: null, recommended_course: null });
  });

  it('answers null for an unknown or expired session token', async () => {
    const unknown = await app.inject({ method: 'GET', url: '/api/session', cookies: { [SESSION_COOKIE]: 'nope' } });
    expect(unknown.json().current_user).toBeNull();
  });

  it('returns the user of a live session, with int8 ids as numbers on both drivers', async () => {
    const user = await database.db
      .insertInto('users')
      .values({ email: `${kind}@example.org`, nickname: 'Vega', locale: 'ja', password_hash: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(typeof user.id).toBe('number');
    const token = crypto.randomBytes(32).toString('base64url');
    await database.db
      .insertInto('sessions')
      .values({ token_hash: hashToken(token), user_id: user.id, expires_at: new Date(Date.now() + 3600_000) })
      .execute();
    const response = await app.inject({ method: 'GET', url: '/api/session', cookies: { [SESSION_COOKIE]: token } });
    expect(response.json()).toMatchObject({
      current_user: {
        id: user.id,
        email: `${kind}@example.org`,
        nickname: 'Vega',
        locale: 'ja',
        password_is_set: false,
      },
      // A volunteer who has answered nothing yet is sent to training (server/game/recommend.ts).
      recommended_course: 'training',
    });

    await database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const expired = await app.inject({ method: 'GET', url: '/api/session', cookies: { [SESSION_COOKIE]: token } });
    expect(expired.json().current_user).toBeNull();
  });
});

describe.each(DATABASE_KINDS)('DELETE /api/current_user ends the sessions at once on %s', (kind) => {
  let game: GameFixture;

  beforeAll(async () => {
    game = await openGame(kind);
  });
  afterAll(async () => {
    await game?.close();
  });

  it('answers the old cookie as a visitor’s at once, on the hot routes too', async () => {
    const user = await createTestUser(game.db);
    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      game.app.inject({ method, url, cookies: user.cookies, payload });
    // The game's hot routes may reuse a session lookup for a second: deletion must end that too.
    const quest = await call('GET', '/api/courses/season2/quests/current');
    expect(quest.statusCode).toBe(200);
    expect((await call('GET', '/api/campaigns')).statusCode).toBe(200);

    expect((await call('DELETE', '/api/current_user')).statusCode).toBe(204);

    // A quest in another course would be created for a user who no longer exists.
    expect((await call('GET', '/api/courses/training/quests/current')).statusCode).toBe(401);
    expect((await call('GET', '/api/courses/season2/quests/current')).statusCode).toBe(401);
    expect((await call('GET', '/api/campaigns')).statusCode).toBe(401);
    const { id: questId, questions } = quest.json() as CurrentQuestResponse;
    const answer = await call('POST', `/api/quests/${questId}/answers`, { object_id: questions[0].object_id });
    expect(answer.statusCode).toBe(401);
    expect((await call('GET', '/api/session')).json().current_user).toBeNull();
  });
});

// On PostgreSQL only: PGlite has one connection, which the held lookup would keep from the
// revocation (and a lookup's result reaches the session check before PGlite runs the next statement).
describe('the recent-session lookups of the hot routes on postgres', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
  });
  afterAll(async () => {
    await database?.close();
  });

  it('does not keep a lookup that was under way when the session was revoked', async () => {
    // The session lookup's result is held back until the revocation has committed.
    let lookupRead: () => void = () => {};
    let releaseLookup: () => void = () => {};
    const read = new Promise<void>((resolve) => (lookupRead = resolve));
    const released = new Promise<void>((resolve) => (releaseLookup = resolve));
    let holding = false;
    const slowDb = database.db.withPlugin({
      transformQuery: (args) => args.node,
      async transformResult(args) {
        if (holding) {
          holding = false;
          lookupRead();
          await released;
        }
        return args.result;
      },
    });
    const app = Fastify();
    await app.register(fastifyCookie);
    registerSessionUser(app, slowDb);
    app.get('/api/hot', { config: { recentSession: true } }, async (request) => ({ user: request.user?.id ?? null }));
    const user = await createTestUser(database.db);
    try {
      holding = true;
      const during = app.inject({ method: 'GET', url: '/api/hot', cookies: user.cookies });
      await read;
      await revokeUserSessions(database.db, user.id);
      releaseLookup();
      // The request under way read the session before it ended: it goes on as the user.
      expect((await during).json()).toEqual({ user: user.id });
      const after = await app.inject({ method: 'GET', url: '/api/hot', cookies: user.cookies });
      expect(after.json()).toEqual({ user: null });
    } finally {
      await app.close();
    }
  });
});
