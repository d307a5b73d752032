// Notifications (application-spec §3 Notification, §5 "Notification save" and who sees what, §7
// calls), over HTTP against the real app on both databases.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminNotification, NotificationInput, UserNotification } from '../../shared/api';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createLevelUnlockedNotification } from '../../server/notifications/personal';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../helpers/databases';

const HOUR = 3600_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe.each(DATABASE_KINDS)('notifications on %s', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let admin: TestUser;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    app = await buildApp({
      config: loadConfig({ VAR_DIR: '/nonexistent-var', DIST_DIR: '/nonexistent-dist' }),
      db: database.db,
    });
    admin = await createTestUser(database.db, { admin: true });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  async function create(input: Partial<NotificationInput>): Promise<AdminNotification> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/notifications',
      cookies: admin.cookies,
      payload: { type: 'captain_message', title: { en: 'Ahoy' }, message: { en: 'Hello crew' }, ...input },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  async function list(user: TestUser, includeOld = false): Promise<UserNotification[]> {
    const response = await app.inject({
      method: 'GET',
      url: `/api/notifications${includeOld ? '?include_old=true' : ''}`,
      cookies: user.cookies,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  const ids = (notifications: { id: number }[]) => notifications.map((notification) => notification.id);

  async function markRead(user: TestUser, id: number) {
    return app.inject({ method: 'POST', url: `/api/notifications/${id}/read`, cookies: user.cookies });
  }

  async function countRows() {
    const { count } = await database.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  describe('a guest', () => {
    it('gets 401 from GET /api/notifications and from marking a notification read', async () => {
      expect((await app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
      const notification = await create({});
      expect((await app.inject({ method: 'POST', url: `/api/notifications/${notification.id}/read` })).statusCode).toBe(
        401,
      );
    });
  });

  describe('shown to a user only if a title exists in the language or fallback is allowed', () => {
    it('shows an English-only notification to en users and hides it from ja users without fallback', async () => {
      const en = await createTestUser(database.db, { locale: 'en' });
      const ja = await createTestUser(database.db, { locale: 'ja' });
      const notification = await create({ title: { en: 'English only' }, message: { en: 'Body' } });
      const seen = (await list(en)).find((entry) => entry.id === notification.id);
      expect(seen).toMatchObject({ locale: 'en', title: { en: 'English only' }, message: { en: 'Body' }, read: false });
      expect(ids(await list(ja))).not.toContain(notification.id);
      expect(ids(await list(ja, true))).not.toContain(notification.id);
    });

    it('serves each user the texts of their own locale when both exist', async () => {
      const en = await createTestUser(database.db, { locale: 'en' });
      const ja = await createTestUser(database.db, { locale: 'ja' });
      const notification = await create({
        title: { en: 'Season 2 begins', ja: 'シーズン2開始' },
        message: { en: 'Set sail!', ja: '出航しましょう！' },
        type: 'campaign_start',
      });
      expect((await list(en)).find((entry) => entry.id === notification.id)).toMatchObject({
        type: 'campaign_start',
        locale: 'en',
        title: { en: 'Season 2 begins' },
        message: { en: 'Set sail!' },
      });
      const forJa = (await list(ja)).find((entry) => entry.id === notification.id)!;
      expect(forJa).toMatchObject({
        locale: 'ja',
        title: { ja: 'シーズン2開始' },
        message: { ja: '出航しましょう！' },
      });
      expect(forJa.title.en).toBeUndefined();
    });

    it('falls back to the English texts for a ja user when locale_fallback is on', async () => {
      const ja = await createTestUser(database.db, { locale: 'ja' });
      const notification = await create({
        title: { en: 'Maintenance tonight' },
        message: { en: 'The site stops at 22:00.' },
        locale_fallback: true,
      });
      expect((await list(ja)).find((entry) => entry.id === notification.id)).toMatchObject({
        locale: 'en',
        locale_fallback: true,
        title: { en: 'Maintenance tonight' },
        message: { en: 'The site stops at 22:00.' },
      });
    });

    it('hides a Japanese-only notification from en users, whatever the fallback flag says about ja', async () => {
      const en = await createTestUser(database.db, { locale: 'en' });
      const notification = await create({ title: { ja: '日本語のみ' }, message: { ja: '本文' } });
      expect(ids(await list(en, true))).not.toContain(notification.id);
    });
  });

  describe('shown only within valid_after and valid_before', () => {
    it('hides one whose valid_after is in the future, also with include_old', async () => {
      const user = await createTestUser(database.db);
      const notification = await create({ valid_after: iso(HOUR) });
      expect(ids(await list(user))).not.toContain(notification.id);
      expect(ids(await list(user, true))).not.toContain(notification.id);
    });

    it('shows one inside its window', async () => {
      const user = await createTestUser(database.db);
      const notification = await create({ valid_after: iso(-HOUR), valid_before: iso(HOUR) });
      expect(ids(await list(user))).toContain(notification.id);
    });

    it('hides an expired one (valid_before passed) unless include_old is given', async () => {
      const user = await createTestUser(database.db);
      const notification = await create({ valid_after: iso(-2 * HOUR), valid_before: iso(-HOUR) });
      expect(ids(await list(user))).not.toContain(notification.id);
      expect((await list(user, true)).find((entry) => entry.id === notification.id)).toMatchObject({ read: false });
    });
  });

  describe('read marks per user', () => {
    it('marks read for that user only; unread lists drop it, include_old lists it with read: true', async () => {
      const reader = await createTestUser(database.db);
      const other = await createTestUser(database.db);
      const notification = await create({});
      const response = await markRead(reader, notification.id);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(ids(await list(reader))).not.toContain(notification.id);
      expect((await list(reader, true)).find((entry) => entry.id === notification.id)?.read).toBe(true);
      expect((await list(other)).find((entry) => entry.id === notification.id)?.read).toBe(false);
    });

    it('is idempotent: marking twice answers 204 and keeps one read mark', async () => {
      const reader = await createTestUser(database.db);
      const notification = await create({});
      expect((await markRead(reader, notification.id)).statusCode).toBe(204);
      expect((await markRead(reader, notification.id)).statusCode).toBe(204);
      const marks = await database.db
        .selectFrom('notification_reads')
        .selectAll()
        .where('notification_id', '=', notification.id)
        .execute();
      expect(marks.map((mark) => mark.user_id)).toEqual([reader.id]);
    });

    it('answers 404 for an unknown id and 400 for an id that is not a number', async () => {
      const reader = await createTestUser(database.db);
      expect((await markRead(reader, 987654321)).statusCode).toBe(404);
      const bad = await app.inject({ method: 'POST', url: '/api/notifications/abc/read', cookies: reader.cookies });
      expect(bad.statusCode).toBe(400);
    });

    it('lists newest first', async () => {
      const user = await createTestUser(database.db);
      const first = await create({ title: { en: 'first' } });
      const second = await create({ title: { en: 'second' } });
      const listed = ids(await list(user));
      expect(listed.indexOf(second.id)).toBeLessThan(listed.indexOf(first.id));
    });
  });

  describe('personal notifications (level_unlocked)', () => {
    it('appear only for their user, in en and ja', async () => {
      const owner = await createTestUser(database.db, { locale: 'ja' });
      const other = await createTestUser(database.db, { locale: 'ja' });
      await database.db
        .transaction()
        .execute((trx) =>
          createLevelUnlockedNotification(trx, owner.id, { key: 'season2-2', name: { en: 'Level 2', ja: 'レベル2' } }),
        );
      const mine = (await list(owner)).filter((entry) => entry.type === 'level_unlocked');
      expect(mine).toHaveLength(1);
      expect(mine[0].locale).toBe('ja');
      expect(mine[0].title.ja).toContain('レベル2');
      const row = await database.db
        .selectFrom('notifications')
        .selectAll()
        .where('id', '=', mine[0].id)
        .executeTakeFirstOrThrow();
      expect(row.title).toEqual({ en: expect.stringContaining('Level 2'), ja: expect.stringContaining('レベル2') });
      expect(row.user_id).toBe(owner.id);
      expect((await list(other, true)).filter((entry) => entry.type === 'level_unlocked')).toEqual([]);
      // Another user cannot mark it read either: for them it does not exist.
      expect((await markRead(other, mine[0].id)).statusCode).toBe(404);
      expect((await markRead(owner, mine[0].id)).statusCode).toBe(204);
    });

    it('is not written when the unlocking transaction rolls back', async () => {
      const owner = await createTestUser(database.db);
      await expect(
        database.db.transaction().execute(async (trx) => {
          await createLevelUnlockedNotification(trx, owner.id, { key: 'x', name: { en: 'X', ja: 'X' } });
          throw new Error('answer failed');
        }),
      ).rejects.toThrow('answer failed');
      expect(await list(owner, true)).toEqual(
        expect.not.arrayContaining([expect.objectContaining({ type: 'level_unlocked' })]),
      );
    });

    it('are not in the admin list', async () => {
      const owner = await createTestUser(database.db);
      await createLevelUnlockedNotification(database.db, owner.id, { key: 'k', name: { en: 'K', ja: 'K' } });
      const response = await app.inject({ method: 'GET', url: '/api/admin/notifications', cookies: admin.cookies });
      expect(response.json().every((entry: AdminNotification) => entry.user_id === null)).toBe(true);
    });
  });

  describe('admin: create, edit, delete and the list with the filter off', () => {
    it('creates with every field and answers 201 with the stored notification', async () => {
      const created = await create({
        type: 'no_group',
        title: { en: 'Special', ja: '特別' },
        message: { en: 'x', ja: 'y' },
        html: true,
        locale_fallback: true,
        custom_component: 'Present2025Winter',
        valid_after: '2030-01-01T00:00:00.000Z',
        valid_before: '2030-02-01T00:00:00.000Z',
      });
      expect(created).toMatchObject({
        user_id: null,
        type: 'no_group',
        title: { en: 'Special', ja: '特別' },
        message: { en: 'x', ja: 'y' },
        html: true,
        locale_fallback: true,
        custom_component: 'Present2025Winter',
        valid_after: '2030-01-01T00:00:00.000Z',
        valid_before: '2030-02-01T00:00:00.000Z',
      });
      expect(typeof created.id).toBe('number');
    });

    it('lists every notification newest first, whatever its type or validity', async () => {
      const expired = await create({ valid_before: iso(-HOUR), valid_after: iso(-2 * HOUR), type: 'campaign_start' });
      const future = await create({ valid_after: iso(HOUR), type: 'no_group' });
      const response = await app.inject({ method: 'GET', url: '/api/admin/notifications', cookies: admin.cookies });
      expect(response.statusCode).toBe(200);
      const listed: AdminNotification[] = response.json();
      expect(ids(listed).slice(0, 2)).toEqual([future.id, expired.id]);
      const times = listed.map((entry) => Date.parse(entry.created_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });

    it('edits with PUT (the same fields plus the id) and users see the new texts', async () => {
      const user = await createTestUser(database.db);
      const notification = await create({});
      const response = await app.inject({
        method: 'PUT',
        url: `/api/notifications/${notification.id}`,
        cookies: admin.cookies,
        payload: { id: notification.id, type: 'captain_message', title: { en: 'Edited' }, message: { en: 'New body' } },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        id: notification.id,
        title: { en: 'Edited' },
        message: { en: 'New body' },
      });
      expect((await list(user)).find((entry) => entry.id === notification.id)?.title).toEqual({ en: 'Edited' });
    });

    it('refuses a PUT whose body id differs from the path (400) and answers 404 for an unknown id', async () => {
      const notification = await create({ title: { en: 'Keep me' } });
      const payload = { type: 'captain_message', title: { en: 'Changed' }, message: { en: '' } };
      const mismatch = await app.inject({
        method: 'PUT',
        url: `/api/notifications/${notification.id}`,
        cookies: admin.cookies,
        payload: { ...payload, id: notification.id + 1 },
      });
      expect(mismatch.statusCode).toBe(400);
      const unknown = await app.inject({
        method: 'PUT',
        url: '/api/notifications/987654321',
        cookies: admin.cookies,
        payload,
      });
      expect(unknown.statusCode).toBe(404);
      const row = await database.db
        .selectFrom('notifications')
        .select('title')
        .where('id', '=', notification.id)
        .executeTakeFirstOrThrow();
      expect(row.title).toEqual({ en: 'Keep me' });
    });

    it('deletes (204), with its read marks; deleting again is 404', async () => {
      const user = await createTestUser(database.db);
      const notification = await create({});
      await markRead(user, notification.id);
      const url = `/api/notifications/${notification.id}`;
      expect((await app.inject({ method: 'DELETE', url, cookies: admin.cookies })).statusCode).toBe(204);
      expect(ids(await list(user, true))).not.toContain(notification.id);
      const marks = await database.db
        .selectFrom('notification_reads')
        .selectAll()
        .where('notification_id', '=', notification.id)
        .execute();
      expect(marks).toEqual([]);
      expect((await app.inject({ method: 'DELETE', url, cookies: admin.cookies })).statusCode).toBe(404);
    });
  });

  describe('notification save: validation', () => {
    async function refused(payload: Record<string, unknown>, status: number, message: RegExp) {
      const before = await countRows();
      const response = await app.inject({ method: 'POST', url: '/api/notifications', cookies: admin.cookies, payload });
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().message).toMatch(message);
      expect(await countRows()).toBe(before);
    }
    const valid = { type: 'captain_message', title: { en: 'T', ja: 'T' }, message: { en: 'M' } };

    it('if fall-back-to-English is on, the title must have an en entry (422)', async () => {
      await refused(
        { ...valid, title: { ja: 'タイトル' }, locale_fallback: true },
        422,
        /falling back to English needs an en title/,
      );
      await refused({ ...valid, title: { en: '   ', ja: 'タイトル' }, locale_fallback: true }, 422, /en title/);
    });

    it('a title in no locale is blank (422)', async () => {
      await refused({ ...valid, title: { en: ' ' } }, 422, /title: Cannot be blank/);
    });

    it('valid_after must be before valid_before (422)', async () => {
      await refused(
        { ...valid, valid_after: '2030-01-02T00:00:00Z', valid_before: '2030-01-01T00:00:00Z' },
        422,
        /valid_after must be before valid_before/,
      );
    });

    it('locales are only en and ja; types, dates and fields are checked (400)', async () => {
      await refused({ ...valid, title: { fr: 'Bonjour' } }, 400, /title/);
      await refused({ ...valid, message: { de: 'Hallo' } }, 400, /message/);
      await refused({ ...valid, type: 'spam' }, 400, /type/);
      await refused({ ...valid, valid_after: 'tomorrow' }, 400, /valid_after/);
      await refused({ ...valid, html: 'yes' }, 400, /html/);
      await refused({ title: { en: 'T' }, message: { en: 'M' } }, 400, /type/);
      await refused({ ...valid, custom_component: '<script>' }, 400, /custom_component/);
    });

    it('a malformed JSON body is a 400, not a 500', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/notifications',
        cookies: admin.cookies,
        headers: { 'content-type': 'application/json' },
        payload: '{"type": ',
      });
      expect(response.statusCode).toBe(400);
    });
  });

  describe('preview per locale', () => {
    const preview = (id: number, locale: string) =>
      app.inject({
        method: 'GET',
        url: `/api/admin/notifications/${id}/preview?locale=${locale}`,
        cookies: admin.cookies,
      });

    it('returns exactly what a user of that locale sees', async () => {
      const ja = await createTestUser(database.db, { locale: 'ja' });
      const notification = await create({ title: { en: 'Hi', ja: 'やあ' }, message: { en: 'Body', ja: '本文' } });
      const response = await preview(notification.id, 'ja');
      expect(response.statusCode).toBe(200);
      const { valid_now: validNow, ...shown } = response.json();
      expect(validNow).toBe(true);
      expect(shown).toEqual((await list(ja)).find((entry) => entry.id === notification.id));
      expect((await preview(notification.id, 'en')).json()).toMatchObject({ locale: 'en', title: { en: 'Hi' } });
    });

    it('serves the English texts to ja when falling back, and 404 when nothing would show', async () => {
      const fallback = await create({ title: { en: 'Only en' }, locale_fallback: true });
      expect((await preview(fallback.id, 'ja')).json()).toMatchObject({ locale: 'en', title: { en: 'Only en' } });
      const hidden = await create({ title: { en: 'Only en' }, locale_fallback: false });
      const response = await preview(hidden.id, 'ja');
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toMatch(/Not shown to users of locale ja/);
    });

    it('previews a scheduled notification (valid_now false) and refuses an unknown locale', async () => {
      const scheduled = await create({ valid_after: iso(HOUR) });
      expect((await preview(scheduled.id, 'en')).json()).toMatchObject({ valid_now: false, title: { en: 'Ahoy' } });
      expect((await preview(scheduled.id, 'fr')).statusCode).toBe(400);
    });
  });
});
