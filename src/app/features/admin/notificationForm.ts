// The edit dialog's form of an admin notification (application-spec §2, §5) and its rules,
// kept apart from the React code so that they can be tested alone.
import {
  LOCALES,
  type AdminNotification,
  type Locale,
  type LocaleText,
  type NotificationInput,
  type NotificationType,
} from '../../../../shared/api';
import { customComponentMarker } from '../../components/NotificationBody';

export interface LocaleRow {
  locale: Locale;
  text: string;
}

export interface NotificationForm {
  type: NotificationType;
  title: LocaleRow[];
  message: LocaleRow[];
  html: boolean;
  locale_fallback: boolean;
  custom_component: string | null;
  /** A datetime-local value (local time, minutes), '' when unset. */
  valid_after: string;
  valid_before: string;
}

function rows(text: LocaleText): LocaleRow[] {
  return LOCALES.filter((locale) => text[locale] !== undefined).map((locale) => ({ locale, text: text[locale]! }));
}

function two(value: number): string {
  return String(value).padStart(2, '0');
}

/** An instant as a datetime-local input value in the browser's time zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** A datetime-local input value (browser time zone) as an ISO instant; '' is null. */
export function fromLocalInput(value: string): string | null {
  return value ? new Date(value).toISOString() : null;
}

export function emptyForm(): NotificationForm {
  return {
    type: 'captain_message',
    title: [{ locale: 'en', text: '' }],
    message: [{ locale: 'en', text: '' }],
    html: false,
    locale_fallback: false,
    custom_component: null,
    valid_after: '',
    valid_before: '',
  };
}

export function formOf(notification: AdminNotification): NotificationForm {
  return {
    type: notification.type,
    title: rows(notification.title),
    message: rows(notification.message),
    html: notification.html,
    locale_fallback: notification.locale_fallback,
    custom_component: notification.custom_component,
    valid_after: toLocalInput(notification.valid_after),
    valid_before: toLocalInput(notification.valid_before),
  };
}

function localeText(list: LocaleRow[]): LocaleText {
  const text: LocaleText = {};
  for (const row of list) if (row.text.trim() !== '') text[row.locale] = row.text;
  return text;
}

export function inputOf(form: NotificationForm): NotificationInput {
  return {
    type: form.type,
    title: localeText(form.title),
    message: localeText(form.message),
    html: form.html,
    locale_fallback: form.locale_fallback,
    custom_component: form.custom_component,
    valid_after: fromLocalInput(form.valid_after),
    valid_before: fromLocalInput(form.valid_before),
  };
}

/** Why the form cannot be saved (a strings key of admin.edit), or null. */
export function saveProblem(form: NotificationForm): 'enTitleRequired' | 'titleRequired' | null {
  const title = localeText(form.title);
  if (form.locale_fallback && title.en === undefined) return 'enTitleRequired';
  if (Object.keys(title).length === 0) return 'titleRequired';
  return null;
}

/** The next locale without a row, or null when every locale has one. */
export function nextLocale(list: LocaleRow[]): Locale | null {
  return LOCALES.find((locale) => !list.some((row) => row.locale === locale)) ?? null;
}

/**
 * What a user of `locale` would see (the server's rule, §5): the texts of that locale when the
 * title exists in it, else the English texts when the notification falls back to English, else
 * nothing.
 */
export function previewFor(
  form: NotificationForm,
  locale: Locale,
): { locale: Locale; title: string; message: string } | null {
  const title = localeText(form.title);
  const message = localeText(form.message);
  const shown: Locale | null =
    title[locale] !== undefined ? locale : form.locale_fallback && title.en !== undefined ? 'en' : null;
  if (!shown) return null;
  return { locale: shown, title: title[shown]!, message: message[shown] ?? '' };
}

/** The special-notification button, once confirmed: the body becomes the component's marker. */
export function withCustomComponent(form: NotificationForm, name: string): NotificationForm {
  const locales = form.message.length > 0 ? form.message.map((row) => row.locale) : form.title.map((row) => row.locale);
  return {
    ...form,
    custom_component: name,
    message: locales.map((locale) => ({ locale, text: customComponentMarker(name) })),
  };
}
