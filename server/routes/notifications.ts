// Notifications (application-spec §7): the volunteer's list and read marks, and the admin
// screen's create / edit / delete, list with the filter off, and preview per locale.
//
// GET /api/notifications: without include_old, the unread notifications that are valid now;
// with include_old=true, read and expired ones too (newest first, at most OLD_LIMIT). One that is
// not yet valid (valid_after in the future) is never listed. Either way, only those whose title
// exists in the user's locale, or that fall back to English (then the en texts are served).
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { LOCALES, NOTIFICATION_TYPES, type NotificationInput, type UserNotification } from '../../shared/api';
import { requireAdmin, requireUser } from '../auth/session-user';
import type { Database } from '../db/schema';
import { HttpError } from '../http-error';
import { NOTIFICATION_BODY_LIMIT } from '../plugins/json-body';
import {
  NotificationInputError,
  isWithinValidity,
  notificationValues,
  toAdminNotification,
  toUserNotification,
  type NotificationRow,
} from '../notifications/notifications';
import { int8IdSchema, pathParameters, text } from './schemas';

/** include_old lists at most this many, newest first: enough for any screen, bounded for the server. */
const OLD_LIMIT = 200;

const idParams = pathParameters({ id: int8IdSchema });

const localeText = {
  type: 'object',
  // Only en and ja exist (application-spec §1); another key is an error, not silently dropped.
  propertyNames: { enum: [...LOCALES] },
  additionalProperties: text(20_000),
} as const;

const dateTime = { type: ['string', 'null'], format: 'date-time' } as const;

const notificationBody = {
  type: 'object',
  required: ['type', 'title', 'message'],
  additionalProperties: false,
  properties: {
    id: int8IdSchema,
    type: { type: 'string', enum: [...NOTIFICATION_TYPES] },
    title: localeText,
    message: localeText,
    html: { type: 'boolean' },
    locale_fallback: { type: 'boolean' },
    // The name of a client component that replaces the body ("special notification").
    custom_component: { type: ['string', 'null'], pattern: '^([A-Za-z][A-Za-z0-9_]{0,63})?$' },
    valid_after: dateTime,
    valid_before: dateTime,
  },
} as const;

// Checked before the body is validated, so that a guest or a volunteer learns nothing more
// than 401 / 403 whatever they send; the administrator's check before the body is even read,
// as only the administrator may send the editor's large bodies (NOTIFICATION_BODY_LIMIT).
const asUser = { preValidation: async (request: FastifyRequest) => void requireUser(request) };
const asAdmin = { onRequest: async (request: FastifyRequest) => void requireAdmin(request) };

function parseInput(body: NotificationInput) {
  try {
    return notificationValues(body);
  } catch (error) {
    if (error instanceof NotificationInputError) throw new HttpError(422, error.message);
    throw error;
  }
}

export const notificationRoutes: FastifyPluginAsync<{ db: Kysely<Database> }> = async (app, { db }) => {
  /** Notifications for everyone and the user's own personal ones, with the user's read mark. */
  const visibleTo = (userId: number) =>
    db
      .selectFrom('notifications')
      .leftJoin('notification_reads', (join) =>
        join
          .onRef('notification_reads.notification_id', '=', 'notifications.id')
          .on('notification_reads.user_id', '=', userId),
      )
      .selectAll('notifications')
      .select(sql<boolean>`notification_reads.user_id is not null`.as('read'))
      .where((eb) => eb.or([eb('notifications.user_id', 'is', null), eb('notifications.user_id', '=', userId)]));

  app.get<{ Querystring: { include_old?: boolean } }>(
    '/api/notifications',
    {
      ...asUser,
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { include_old: { type: 'boolean' } },
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const now = new Date();
      const includeOld = request.query.include_old ?? false;
      let query = visibleTo(user.id)
        .where((eb) => eb.or([eb('notifications.valid_after', 'is', null), eb('notifications.valid_after', '<=', now)]))
        // The locale rule in SQL too, so that OLD_LIMIT counts only what the user may see
        // (titles are stored without blank entries, so a key means a title).
        .where(
          sql<boolean>`(notifications.title ? ${user.locale} or (notifications.locale_fallback and notifications.title ? 'en'))`,
        )
        .orderBy('notifications.created_at', 'desc')
        .orderBy('notifications.id', 'desc');
      if (includeOld) query = query.limit(OLD_LIMIT);
      else
        query = query
          .where('notification_reads.user_id', 'is', null)
          .where((eb) =>
            eb.or([eb('notifications.valid_before', 'is', null), eb('notifications.valid_before', '>', now)]),
          );
      const rows = await query.execute();
      const list: UserNotification[] = [];
      for (const row of rows) {
        const shown = toUserNotification(row, user.locale, row.read);
        if (shown) list.push(shown);
      }
      return list;
    },
  );

  app.post<{ Params: { id: number } }>(
    '/api/notifications/:id/read',
    { ...asUser, schema: { params: idParams } },
    async (request, reply) => {
      const user = requireUser(request);
      const found = await visibleTo(user.id).where('notifications.id', '=', request.params.id).executeTakeFirst();
      if (!found) throw new HttpError(404, `Notification ${request.params.id} not found`);
      // Marking twice is harmless: the read mark keeps its first time.
      await db
        .insertInto('notification_reads')
        .values({ notification_id: found.id, user_id: user.id })
        .onConflict((conflict) => conflict.columns(['user_id', 'notification_id']).doNothing())
        .execute();
      return reply.code(204).send();
    },
  );

  app.post<{ Body: NotificationInput }>(
    '/api/notifications',
    { ...asAdmin, bodyLimit: NOTIFICATION_BODY_LIMIT, schema: { body: notificationBody } },
    async (request, reply) => {
      requireAdmin(request);
      if (request.body.id !== undefined) throw new HttpError(400, 'body/id must not be given when creating');
      const values = parseInput(request.body);
      const row = await db.insertInto('notifications').values(values).returningAll().executeTakeFirstOrThrow();
      return reply.code(201).send(toAdminNotification(row));
    },
  );

  app.put<{ Params: { id: number }; Body: NotificationInput }>(
    '/api/notifications/:id',
    { ...asAdmin, bodyLimit: NOTIFICATION_BODY_LIMIT, schema: { params: idParams, body: notificationBody } },
    async (request) => {
      requireAdmin(request);
      const { id } = request.params;
      if (request.body.id !== undefined && request.body.id !== id)
        throw new HttpError(400, `body/id ${request.body.id} does not match the notification ${id} of the path`);
      const values = parseInput(request.body);
      const row = await db
        .updateTable('notifications')
        .set({ ...values, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new HttpError(404, `Notification ${id} not found`);
      return toAdminNotification(row);
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/api/notifications/:id',
    { ...asAdmin, schema: { params: idParams } },
    async (request, reply) => {
      requireAdmin(request);
      // Its read marks go with it (ON DELETE CASCADE), in the same statement.
      const deleted = await db
        .deleteFrom('notifications')
        .where('id', '=', request.params.id)
        .returning('id')
        .executeTakeFirst();
      if (!deleted) throw new HttpError(404, `Notification ${request.params.id} not found`);
      return reply.code(204).send();
    },
  );

  // The admin list "with the filter off": every type, every validity, newest first. Personal
  // notifications (level_unlocked, one per user and level) are machine-made and not listed.
  app.get('/api/admin/notifications', async (request) => {
    requireAdmin(request);
    const rows = await db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toAdminNotification);
  });

  // What a user of the locale would see of the notification, read mark false; 404 when the locale
  // rule hides it. The validity window is not applied: previewing a scheduled message is the point.
  app.get<{ Params: { id: number }; Querystring: { locale: string } }>(
    '/api/admin/notifications/:id/preview',
    {
      ...asAdmin,
      schema: {
        params: idParams,
        querystring: {
          type: 'object',
          required: ['locale'],
          additionalProperties: false,
          properties: { locale: { type: 'string', enum: [...LOCALES] } },
        },
      },
    },
    async (request) => {
      requireAdmin(request);
      const row: NotificationRow | undefined = await db
        .selectFrom('notifications')
        .selectAll()
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!row) throw new HttpError(404, `Notification ${request.params.id} not found`);
      const shown = toUserNotification(row, request.query.locale, false);
      if (!shown)
        throw new HttpError(
          404,
          `Not shown to users of locale ${request.query.locale}: no ${request.query.locale} title and no fallback to English`,
        );
      return { ...shown, valid_now: isWithinValidity(row, new Date()) };
    },
  );
};
