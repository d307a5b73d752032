import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { SESSION_COOKIE, hashToken } from '../../server/auth/session-user';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../helpers/databases';

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
