// The rankings served from the counts kept as answers are written (migration 0007_ranking_counts):
// a ranking is the first RANKING_SIZE rows of one period's counts in index order, and the top of
// each course and period is shared by every caller for a second, so that volunteers reloading the
// ranking modal do not each read the database.
import { sql, type Kysely } from 'kysely';
import type { RankingEntry, RankingPeriod } from '../../shared/api';
import type { CourseId } from '../../shared/enums';
import { gravatarUrl } from '../auth/gravatar';
import type { Database } from '../db/schema';
import { RANKING_SIZE, periodStart } from './rankings';

/**
 * Makes ranking_counts' period starts those of `timeZone`. When the zone stored with the counts
 * differs (TIME_ZONE changed), the counts are recounted from the answers, every answer read once:
 * this runs at start, before the server listens, and holds the answers' writers back meanwhile
 * (SHARE lock), so that no answer is counted in the old zone or missed.
 */
export async function useRankingTimeZone(db: Kysely<Database>, timeZone: string): Promise<boolean> {
  const stored = await db.selectFrom('ranking_time_zone').select('time_zone').where('id', '=', 1).executeTakeFirst();
  if (stored?.time_zone === timeZone) return false;
  await db.transaction().execute(async (trx) => {
    await sql`lock table answers in share mode`.execute(trx);
    await sql`insert into ranking_time_zone (id, time_zone) values (1, ${timeZone})
      on conflict (id) do update set time_zone = excluded.time_zone`.execute(trx);
    await sql`delete from ranking_counts`.execute(trx);
    await sql`insert into ranking_counts (course_id, period, period_start, user_id, answers_count, reached_at)
      select answer.course_id, periods.period, date_trunc(periods.period, answer.created_at, ${timeZone}),
        answer.user_id, count(*), max(answer.created_at)
      from answers answer
      cross join (values ('hour'), ('day'), ('week'), ('month')) as periods (period)
      where answer.user_id is not null
      group by 1, 2, 3, 4`.execute(trx);
  });
  return true;
}

/** The top RANKING_SIZE of a course's period starting at `start`, from the kept counts. */
export async function rankingTop(
  db: Kysely<Database>,
  courseId: CourseId,
  period: RankingPeriod,
  start: Date,
): Promise<RankingEntry[]> {
  const rows = await db
    .selectFrom('ranking_counts')
    .innerJoin('users', 'users.id', 'ranking_counts.user_id')
    .select(['users.id', 'users.nickname', 'users.email', 'users.gravatar_public', 'ranking_counts.answers_count'])
    .where('ranking_counts.course_id', '=', courseId)
    .where('ranking_counts.period', '=', period)
    .where('ranking_counts.period_start', '=', start)
    // "Who got there first": among equal counts, the earlier reached_at reached that count earlier.
    .orderBy('ranking_counts.answers_count', 'desc')
    .orderBy('ranking_counts.reached_at', 'asc')
    .orderBy('ranking_counts.user_id', 'asc')
    .limit(RANKING_SIZE)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    nickname: row.nickname,
    count: Number(row.answers_count),
    public_avater: row.gravatar_public ? gravatarUrl(row.email) : null,
  }));
}

/**
 * The rankings of the current periods, each read at most once per `maxAgeMs` by all callers
 * together (a read under way is shared, not repeated). A period that has just begun has a new
 * start, hence a new entry: a ranking never shows the previous period's counts.
 */
export class RankingBoardCache {
  private readonly cached = new Map<string, { at: number; start: number; top: Promise<RankingEntry[]> }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly timeZone: string,
    private readonly maxAgeMs = 1000,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  get(courseId: CourseId, period: RankingPeriod): Promise<RankingEntry[]> {
    const now = this.clock();
    const start = periodStart(period, now, this.timeZone);
    const key = `${courseId}/${period}`;
    const entry = this.cached.get(key);
    if (entry && now.getTime() - entry.at < this.maxAgeMs && entry.start === start.getTime()) return entry.top;
    const top = rankingTop(this.db, courseId, period, start);
    const fresh = { at: now.getTime(), start: start.getTime(), top };
    this.cached.set(key, fresh);
    // A failed read is not kept: the next caller tries again.
    top.catch(() => {
      if (this.cached.get(key) === fresh) this.cached.delete(key);
    });
    return top;
  }
}
