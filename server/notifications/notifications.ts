// The rules of captain messages (application-spec §5, "Notification save" and who sees what),
// kept free of HTTP so that they read like the spec and are tested once.
import type { Selectable } from 'kysely';
import {
  LOCALES,
  type AdminNotification,
  type Locale,
  type LocaleText,
  type NotificationInput,
  type UserNotification,
} from '../../shared/api';
import type { NotificationsTable } from '../db/schema';

export type NotificationRow = Selectable<NotificationsTable>;

function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/** Entries whose text is blank after trimming are dropped: an empty title row is no title. */
export function cleanLocaleText(text: LocaleText): LocaleText {
  const cleaned: LocaleText = {};
  for (const [locale, value] of Object.entries(text)) {
    if (isLocale(locale) && typeof value === 'string' && value.trim() !== '') cleaned[locale] = value;
  }
  return cleaned;
}

/**
 * The locale whose texts a user of `locale` is shown, or null when the notification is hidden
 * from them: the user's own locale when a title exists in it, else English when the notification
 * allows falling back and has an English title.
 */
export function servedLocale(
  notification: Pick<NotificationRow, 'title' | 'locale_fallback'>,
  locale: string,
): Locale | null {
  const title = notification.title as LocaleText;
  if (isLocale(locale) && title[locale]) return locale;
  if (notification.locale_fallback && title.en) return 'en';
  return null;
}

/** Whether `now` lies within valid_after (inclusive) and valid_before (exclusive), each optional. */
export function isWithinValidity(
  notification: Pick<NotificationRow, 'valid_after' | 'valid_before'>,
  now: Date,
): boolean {
  if (notification.valid_after && notification.valid_after > now) return false;
  if (notification.valid_before && notification.valid_before <= now) return false;
  return true;
}

/** The stored fields every view of a notification carries, dates as ISO 8601. */
function storedFields(row: NotificationRow) {
  return {
    id: row.id,
    type: row.type,
    title: row.title as LocaleText,
    message: row.message as LocaleText,
    html: row.html,
    locale_fallback: row.locale_fallback,
    custom_component: row.custom_component,
    valid_after: row.valid_after?.toISOString() ?? null,
    valid_before: row.valid_before?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

/** What a user of `locale` sees of a notification (validity aside), or null when it is hidden. */
export function toUserNotification(row: NotificationRow, locale: string, read: boolean): UserNotification | null {
  const served = servedLocale(row, locale);
  if (!served) return null;
  const title = row.title as LocaleText;
  const message = row.message as LocaleText;
  return {
    ...storedFields(row),
    locale: served,
    title: { [served]: title[served] },
    message: { [served]: message[served] ?? '' },
    read,
  };
}

export function toAdminNotification(row: NotificationRow): AdminNotification {
  return { ...storedFields(row), user_id: row.user_id, updated_at: row.updated_at.toISOString() };
}

export interface NotificationValues {
  type: NotificationRow['type'];
  title: string;
  message: string;
  html: boolean;
  locale_fallback: boolean;
  custom_component: string | null;
  valid_after: Date | null;
  valid_before: Date | null;
}

export class NotificationInputError extends Error {}

/**
 * Checks an admin's notification (schema validation has already checked types and locales) and
 * returns the row values; throws NotificationInputError with the message the admin screen shows.
 */
export function notificationValues(input: NotificationInput): NotificationValues {
  const title = cleanLocaleText(input.title);
  const message = cleanLocaleText(input.message);
  if (Object.keys(title).length === 0) throw new NotificationInputError('title: Cannot be blank');
  const fallback = input.locale_fallback ?? false;
  if (fallback && !title.en)
    throw new NotificationInputError(
      'title: falling back to English needs an en title (add an en row or turn fallback off)',
    );
  const validAfter = input.valid_after ? new Date(input.valid_after) : null;
  const validBefore = input.valid_before ? new Date(input.valid_before) : null;
  if (validAfter && validBefore && validAfter >= validBefore)
    throw new NotificationInputError('valid_after must be before valid_before');
  return {
    type: input.type,
    title: JSON.stringify(title),
    message: JSON.stringify(message),
    html: input.html ?? false,
    locale_fallback: fallback,
    custom_component: input.custom_component || null,
    valid_after: validAfter,
    valid_before: validBefore,
  };
}
