// The dashboard's numbers, shares and days in the page's language (Intl), for its tables and for
// the charts' ticks: Observable Plot's own formats are English.
import type { Locale } from '../../../../shared/api';

export interface DashboardFormats {
  count: (value: number) => string;
  /** A share 0 … 1 as a percentage with at most one decimal; '–' for null. */
  percent: (value: number | null) => string;
  /** A probability 0 … 1 with two decimals. */
  probability: (value: number) => string;
  /** Degrees with five decimals (a link to a view carries as many). */
  degrees: (value: number) => string;
  /** A day, short (ticks). */
  shortDay: (date: Date) => string;
  /** A day, in full (tables). */
  day: (date: Date) => string;
  /** A moment (ISO 8601) as a date and time in the server's time zone (the page names the zone). */
  time: (iso: string) => string;
}

export function dashboardFormats(locale: Locale, timeZone = 'UTC'): DashboardFormats {
  const count = new Intl.NumberFormat(locale);
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const probability = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const degrees = new Intl.NumberFormat(locale, { minimumFractionDigits: 5, maximumFractionDigits: 5 });
  const shortDay = new Intl.DateTimeFormat(locale, { month: 'numeric', day: 'numeric' });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  let time: Intl.DateTimeFormat;
  try {
    time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  } catch {
    // A zone this browser does not know: UTC, which the page then names instead.
    time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  }
  return {
    count: (value) => count.format(value),
    percent: (value) => (value === null ? '–' : percent.format(value)),
    probability: (value) => probability.format(value),
    degrees: (value) => degrees.format(value),
    shortDay: (date) => shortDay.format(date),
    day: (date) => day.format(date),
    time: (iso) => time.format(new Date(iso)),
  };
}
