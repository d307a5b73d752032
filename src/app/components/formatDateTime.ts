// Dates of notifications and campaigns in the user's language (Intl), as the spec asks of every
// date on screen.
import type { Locale } from '../../../shared/api';

export function formatDateTime(iso: string | null | undefined, locale: Locale): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
