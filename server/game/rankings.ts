// Rankings: answers per user since the start of the current hour, day, week (Monday) or month in
// the server's time zone (TIME_ZONE, default Asia/Tokyo), top 100, ties to whoever got there
// first.
import type { RankingPeriod } from '../../shared/api';
export const RANKING_SIZE = 100;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(at: Date, timeZone: string): WallClock {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(at).map((part) => [part.type, Number(part.value)]));
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

/** The instant at which the wall clock of `timeZone` shows `clock` (the earlier one across a DST fold). */
function fromWallClock(clock: WallClock, timeZone: string): Date {
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  // The zone's offset at a nearby instant, applied twice: right except inside a DST gap, where the
  // later offset is kept (the wall-clock time does not exist there).
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const shown = wallClock(new Date(guess), timeZone);
    const shownUtc = Date.UTC(shown.year, shown.month - 1, shown.day, shown.hour, shown.minute, shown.second);
    guess += asUtc - shownUtc;
  }
  return new Date(guess);
}

export function periodStart(period: RankingPeriod, now: Date, timeZone: string): Date {
  const clock = wallClock(now, timeZone);
  const start: WallClock = { ...clock, minute: 0, second: 0 };
  if (period !== 'hour') start.hour = 0;
  if (period === 'month') start.day = 1;
  if (period === 'week') {
    // ISO weeks start on Monday; the weekday of a civil date does not depend on the zone.
    const weekday = new Date(Date.UTC(clock.year, clock.month - 1, clock.day)).getUTCDay();
    const back = (weekday + 6) % 7;
    const monday = new Date(Date.UTC(clock.year, clock.month - 1, clock.day - back));
    start.year = monday.getUTCFullYear();
    start.month = monday.getUTCMonth() + 1;
    start.day = monday.getUTCDate();
  }
  return fromWallClock(start, timeZone);
}
