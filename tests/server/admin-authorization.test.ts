// Every admin route (application-spec §6: only administrators create, edit and delete
// notifications and see the management screen) answers a guest 401 and a volunteer 403 and
// writes nothing for them; an administrator — by the users.admin flag or by ADMIN_EMAILS — is
// served. A discovery pass calls every registered route as a volunteer, so that an admin route
// added later without a row in ADMIN_ROUTES fails this test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../helpers/databases';
import { registeredRoutes } from '../helpers/routes';

const ADMIN_EMAIL = 'harbour-master@example.org';

const notification = {
  type: 'captain_message',
  title: { en: 'Admin only', ja: '管理者のみ' },
  message: { en: 'Body', ja: '本文' },
  locale_fallback: true,
};

interface AdminRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify's route pattern, as the discovery pass sees it. */
  route: string;
  url: (id: number) => string;
  payload?: (id: number) => Record<string, unknown>;
  /** The administrator's expected status. */
  ok: number;
}

// Ordered so that the administrator's pass ends by deleting the fixture notification.
const ADMIN_ROUTES: AdminRoute[] = [
  // The research dashboard's summary and a course's catalogue export (docs/science.md).
  { method: 'GET', route: '/api/admin/science', url: () => '/api/admin/science', ok: 200 },
  {
    method: 'GET',
    route: '/api/admin/courses/:course_id/export',
    url: () => '/api/admin/courses/season2/export?format=csv',
    ok: 200,
  },
  // The courses' page (docs/import.md): the list, and opening or closing an imported course.
  { method: 'GET', route: '/api/admin/courses', url: () => '/api/admin/courses', ok: 200 },
  {
    method: 'PUT',
    route: '/api/admin/courses/:course_id',
    url: () => '/api/admin/courses/lsb-dwarfs',
    payload: () => ({ open: false }),
    ok: 204,
  },
  { method: 'GET', route: '/api/admin/notifications', url: () => '/api/admin/notifications', ok: 200 },
  {
    method: 'GET',
    route: '/api/admin/notifications/:id/preview',
    url: (id) => `/api/admin/notifications/${id}/preview?locale=en`,
    ok: 200,
  },
  {
    method: 'POST',
    route: '/api/notifications',
    url: () => '/api/notifications',
    payload: () => notification,
    ok: 201,
  },
  {
    method: 'PUT',
    route: '/api/notifications/:id',
    url: (id) => `/api/notifications/${id}`,
    payload: (id) => ({ ...notification, id, title: { en: 'Edited' } }),
    ok: 200,
  },
  { method: 'DELETE', route: '/api/notifications/:id', url: (id) => `/api/notifications/${id}`, ok: 204 },
];

describe.each(DATABASE_KINDS)('admin routes are for administrators only, on %s', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let fixtureId: number;
  // The discovery pass reaches routes that write mail to the outbox: a throw-away VAR_DIR.
  const varDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-admin-'));

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    app = await buildApp({
      config: loadConfig({ VAR_DIR: varDirectory, DIST_DIR: '/nonexistent-dist', ADMIN_EMAILS: ADMIN_EMAIL }),
      db: database.db,
    });
    const row = await database.db
      .insertInto('notifications')
      .values({ type: 'no_group', title: JSON.stringify({ en: 'Fixture' }), message: JSON.stringify({ en: 'x' }) })
      .returning('id')
      .executeTakeFirstOrThrow();
    fixtureId = row.id;
    // A course for the export to write (its header alone: the course has no target).
    await database.db.insertInto('courses').values({ id: 'season2', position: 1 }).execute();
    // An imported course for an administrator to close.
    await database.db.insertInto('courses').values({ id: 'lsb-dwarfs', position: 100, imported: true }).execute();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    fs.rmSync(varDirectory, { recursive: true, force: true });
  });

  /** Everything an admin route may write. */
  async function snapshot() {
    return {
      notifications: await database.db.selectFrom('notifications').selectAll().orderBy('id').execute(),
      reads: await database.db.selectFrom('notification_reads').selectAll().execute(),
      courses: await database.db.selectFrom('courses').selectAll().orderBy('id').execute(),
    };
  }

  function call(route: AdminRoute, user: TestUser | null): Promise<Awaited<ReturnType<FastifyInstance['inject']>>> {
    const options: InjectOptions = { method: route.method, url: route.url(fixtureId) };
    if (route.payload) options.payload = route.payload(fixtureId);
    if (user) options.cookies = user.cookies;
    return app.inject(options);
  }

  describe('a guest', () => {
    it.each(ADMIN_ROUTES.map((route) => [`${route.method} ${route.route}`, route] as const))(
      '%s answers 401 and writes nothing',
      async (_name, route) => {
        const before = await snapshot();
        const response = await call(route, null);
        expect(response.statusCode, response.body).toBe(401);
        expect(await snapshot()).toEqual(before);
      },
    );
  });

  describe('a volunteer', () => {
    it.each(ADMIN_ROUTES.map((route) => [`${route.method} ${route.route}`, route] as const))(
      '%s answers 403 and writes nothing',
      async (_name, route) => {
        const volunteer = await createTestUser(database.db);
        const before = await snapshot();
        const response = await call(route, volunteer);
        expect(response.statusCode, response.body).toBe(403);
        expect(response.json().message).toBe('Administrators only.');
        expect(await snapshot()).toEqual(before);
      },
    );

    it('is also refused with a body that would not validate (authorization comes first)', async () => {
      const volunteer = await createTestUser(database.db);
      const response = await app.inject({
        method: 'POST',
        url: '/api/notifications',
        cookies: volunteer.cookies,
        payload: { nonsense: true },
      });
      expect(response.statusCode).toBe(403);
    });
  });

  describe('an administrator', () => {
    it('by the admin flag is served by every admin route', async () => {
      const admin = await createTestUser(database.db, { admin: true });
      for (const route of ADMIN_ROUTES) {
        const response = await call(route, admin);
        expect(response.statusCode, `${route.method} ${route.route}: ${response.body}`).toBe(route.ok);
      }
      const left = await database.db.selectFrom('notifications').select('id').where('id', '=', fixtureId).execute();
      expect(left).toEqual([]);
    });

    it('by ADMIN_EMAILS is served too', async () => {
      const listed = await createTestUser(database.db, { email: ADMIN_EMAIL });
      const response = await app.inject({
        method: 'POST',
        url: '/api/notifications',
        cookies: listed.cookies,
        payload: notification,
      });
      expect(response.statusCode, response.body).toBe(201);
    });
  });

  describe('no other route answers a volunteer "Administrators only."', () => {
    it('every route refused to a volunteer with 403 is in the table above', async () => {
      const listed = new Set(ADMIN_ROUTES.map((route) => `${route.method} ${route.route}`));
      const routes = registeredRoutes(app).filter((route) => route.route.startsWith('/api/'));
      expect(routes.length).toBeGreaterThan(ADMIN_ROUTES.length);
      for (const { method, route } of routes) if (listed.has(`${method} ${route}`)) listed.delete(`${method} ${route}`);
      // Every admin route of the table is registered.
      expect([...listed]).toEqual([]);
      const unlisted: string[] = [];
      for (const { method, route } of registeredRoutes(app)) {
        if (!route.startsWith('/api/')) continue;
        if (ADMIN_ROUTES.some((admin) => admin.method === method && admin.route === route)) continue;
        // A fresh volunteer per call: some routes (account deletion, logout) end the session.
        const volunteer = await createTestUser(database.db);
        const url = route.replace(/:[A-Za-z_]+/g, '1');
        const response = await app.inject({
          method: method as InjectOptions['method'],
          url,
          cookies: volunteer.cookies,
          ...(method === 'GET' ? {} : { payload: {} }),
        });
        if (response.statusCode === 403 && /Administrators only/.test(response.body))
          unlisted.push(`${method} ${route}`);
      }
      expect(unlisted).toEqual([]);
    });
  });
});
