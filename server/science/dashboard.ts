// The research dashboard's summary (shared/science.ts ScienceSummary): each read is an
// aggregate over what is already kept small — target_consensus (a row per answered target), the
// per-day ranking counts (migration 0007) and the per-course answer counts (0006) — never a scan
// of every answer, so that the dashboard costs the same at a million answers as at a thousand.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type {
  ScienceAccuracyPoint,
  ScienceConfidenceBin,
  ScienceCourseProgress,
  ScienceDay,
  ScienceDisputedTarget,
  ScienceLevelProgress,
  ScienceReopenedTarget,
  ScienceSummary,
  ScienceVolunteer,
} from '../../shared/science';

export const DASHBOARD_DAYS = 30;
/** Targets with more volunteers than this share the accuracy curve's last point. */
export const ACCURACY_MAX_VOTES = 15;
export const TOP_VOLUNTEERS = 50;
export const DISPUTED_TARGETS = 20;
export const DISPUTED_MIN_VOLUNTEERS = 3;
export const REOPENED_TARGETS = 20;
/**
 * Rows of a course in the progress table at most: a course planned from 100,000 targets has
 * thousands of levels, listed as this many runs of consecutive levels (sky regions, as the
 * planner orders them along the HEALPix curve), each summed.
 */
export const PROGRESS_ROWS = 24;

/** P(spiral) and P(interaction) of a consensus row `c` of a course row `co`, as SQL. */
const spiralProbability = sql`consensus_probability(c.galaxy_type_evidence, co.spiral_prior)`;
const interactionProbability = sql`consensus_probability(c.interaction_evidence, co.interaction_prior)`;

async function courseProgress(db: Kysely<Database>): Promise<ScienceCourseProgress[]> {
  const levels = await sql<{
    course_id: string;
    level_id: number;
    key: string;
    name: Record<string, string> | string;
    targets: number;
    answered: number;
    retired: number;
  }>`
    select l.course_id, l.id as level_id, l.key, l.name,
      count(t.object_id) as targets,
      count(c.object_id) as answered,
      count(r.object_id) as retired
    from levels l
    join courses co on co.id = l.course_id
    join areas a on a.level_id = l.id and not a.retired
    join targets t on t.area_id = a.id and not t.retired
    left join target_consensus c on c.object_id = t.object_id
    left join retired_targets r on r.object_id = t.object_id
    where not l.retired
    group by co.position, l.course_id, l.id, l.key, l.name, l.position
    order by co.position, l.position`.execute(db);
  const courses = await db.selectFrom('courses').selectAll().orderBy('position').execute();
  const counts = await db
    .selectFrom('course_answer_counts')
    .select([
      'course_id',
      (eb) => eb.fn.sum<number>('answers_count').as('answers'),
      (eb) => eb.fn.countAll<number>().as('volunteers'),
    ])
    .where('answers_count', '>', 0)
    .groupBy('course_id')
    .execute();
  return courses.map((course) => {
    const own = levels.rows.filter((level) => level.course_id === course.id);
    const count = counts.find((row) => row.course_id === course.id);
    return {
      course_id: course.id,
      targets: own.reduce((sum, level) => sum + Number(level.targets), 0),
      answered: own.reduce((sum, level) => sum + Number(level.answered), 0),
      retired: own.reduce((sum, level) => sum + Number(level.retired), 0),
      answers: Number(count?.answers ?? 0),
      volunteers: Number(count?.volunteers ?? 0),
      retirement: {
        min_volunteers: course.retire_min_volunteers,
        min_confidence: course.retire_min_confidence,
        max_volunteers: course.retire_max_volunteers,
      },
      levels: levelRows(
        own.map((level) => ({
          level_id: Number(level.level_id),
          key: level.key,
          name: typeof level.name === 'string' ? (JSON.parse(level.name) as Record<string, string>) : level.name,
          targets: Number(level.targets),
          answered: Number(level.answered),
          retired: Number(level.retired),
        })),
      ),
    };
  });
}

/** A course's levels as the progress table's rows: each level, or PROGRESS_ROWS runs of them. */
export function levelRows(levels: readonly ScienceLevelProgress[]): ScienceLevelProgress[] {
  if (levels.length <= PROGRESS_ROWS) return [...levels];
  const size = Math.ceil(levels.length / PROGRESS_ROWS);
  const rows: ScienceLevelProgress[] = [];
  for (let start = 0; start < levels.length; start += size) {
    const run = levels.slice(start, start + size);
    rows.push({
      ...run[0],
      levels: { first: start + 1, last: start + run.length },
      targets: run.reduce((sum, level) => sum + level.targets, 0),
      answered: run.reduce((sum, level) => sum + level.answered, 0),
      retired: run.reduce((sum, level) => sum + level.retired, 0),
    });
  }
  return rows;
}

/** The last DASHBOARD_DAYS days in the rankings' time zone, from the kept per-day counts. */
async function days(db: Kysely<Database>): Promise<ScienceDay[]> {
  const result = await sql<{ day: string; answers: number; volunteers: number }>`
    with zone as (select time_zone from ranking_time_zone where id = 1),
    series as (
      select to_char(d, 'YYYY-MM-DD') as day
      from zone, generate_series(
        date_trunc('day', now() at time zone zone.time_zone) - ${DASHBOARD_DAYS - 1} * interval '1 day',
        date_trunc('day', now() at time zone zone.time_zone), interval '1 day') d
    ),
    counted as (
      select to_char(r.period_start at time zone zone.time_zone, 'YYYY-MM-DD') as day,
        sum(r.answers_count) as answers, count(distinct r.user_id) as volunteers
      from ranking_counts r, zone
      where r.period = 'day' and r.period_start >= now() - ${DASHBOARD_DAYS + 1} * interval '1 day'
      group by 1
    )
    select series.day, coalesce(counted.answers, 0) as answers, coalesce(counted.volunteers, 0) as volunteers
    from series left join counted using (day)
    order by series.day`.execute(db);
  return result.rows.map((row) => ({ day: row.day, answers: Number(row.answers), volunteers: Number(row.volunteers) }));
}

async function confidence(db: Kysely<Database>): Promise<ScienceConfidenceBin[]> {
  const result = await sql<{ course_id: string; bin: number; targets: number }>`
    select c.course_id, least(floor((greatest(${spiralProbability}, 1 - ${spiralProbability}) - 0.5) / 0.05), 9) as bin,
      count(*) as targets
    from target_consensus c join courses co on co.id = c.course_id
    where c.n_spiral + c.n_elliptical > 0
    group by 1, 2 order by 1, 2`.execute(db);
  return result.rows.map((row) => ({
    course_id: row.course_id,
    lower: Math.round((0.5 + Number(row.bin) * 0.05) * 100) / 100,
    targets: Number(row.targets),
  }));
}

/**
 * Against the catalogue's truth (spiral or elliptical), per number of volunteers: the share of
 * targets whose consensus is right, and the share of their single answers that are.
 */
async function accuracy(db: Kysely<Database>): Promise<ScienceAccuracyPoint[]> {
  const result = await sql<{
    course_id: string;
    votes: number;
    targets: number;
    crowd: number;
    single_right: number;
    single_all: number;
  }>`
    select c.course_id, least(c.n_spiral + c.n_elliptical, ${ACCURACY_MAX_VOTES}) as votes, count(*) as targets,
      avg(case when (${spiralProbability} >= 0.5) = (t.galaxy_type = 'spiral') then 1.0 else 0.0 end) as crowd,
      sum(case t.galaxy_type when 'spiral' then c.n_spiral else c.n_elliptical end) as single_right,
      sum(c.n_spiral + c.n_elliptical) as single_all
    from target_consensus c
    join courses co on co.id = c.course_id
    join targets t on t.object_id = c.object_id
    where c.n_spiral + c.n_elliptical > 0 and t.galaxy_type in ('spiral', 'elliptical')
    group by 1, 2 order by 1, 2`.execute(db);
  return result.rows.map((row) => ({
    course_id: row.course_id,
    votes: Number(row.votes),
    targets: Number(row.targets),
    crowd_accuracy: Number(row.crowd),
    volunteer_accuracy: Number(row.single_right) / Number(row.single_all),
  }));
}

async function volunteers(db: Kysely<Database>): Promise<ScienceVolunteer[]> {
  const result = await sql<{
    user_id: number;
    nickname: string;
    answers: number;
    agreement: number | null;
    galaxy_type_sensitivity: number | null;
    galaxy_type_specificity: number | null;
  }>`
    with top as (
      select user_id, sum(answers_count) as answers from course_answer_counts
      group by user_id order by sum(answers_count) desc, user_id limit ${TOP_VOLUNTEERS}
    )
    select top.user_id, u.nickname, top.answers,
      (select avg(case when a.galaxy_type = t.galaxy_type then 1.0 else 0.0 end)
        from answers a join targets t on t.object_id = a.object_id
        where a.user_id = top.user_id and a.galaxy_type in ('spiral', 'elliptical')
          and t.galaxy_type in ('spiral', 'elliptical')) as agreement,
      r.galaxy_type_sensitivity, r.galaxy_type_specificity
    from top join users u on u.id = top.user_id
    left join volunteer_reliability r on r.user_id = top.user_id
    order by top.answers desc, top.user_id`.execute(db);
  return result.rows.map((row) => ({
    user_id: Number(row.user_id),
    nickname: row.nickname,
    answers: Number(row.answers),
    agreement: row.agreement === null ? null : Number(row.agreement),
    galaxy_type_sensitivity: row.galaxy_type_sensitivity,
    galaxy_type_specificity: row.galaxy_type_specificity,
  }));
}

/** The least sure targets with a few volunteers, retired ones included (a rule may have settled them wrongly). */
async function disputed(db: Kysely<Database>): Promise<ScienceDisputedTarget[]> {
  const result = await sql<ScienceDisputedTarget & { p_spiral: number; p_interaction: number }>`
    select c.object_id, c.course_id, t.ra, t.dec, c.volunteers, p.spiral as p_spiral, p.interacting as p_interaction,
      least(greatest(p.spiral, 1 - p.spiral), greatest(p.interacting, 1 - p.interacting)) as confidence,
      exists (select 1 from retired_targets r where r.object_id = c.object_id) as retired
    from target_consensus c
    join courses co on co.id = c.course_id
    join targets t on t.object_id = c.object_id and not t.retired
    cross join lateral (select ${spiralProbability} as spiral, ${interactionProbability} as interacting) p
    where c.volunteers >= ${DISPUTED_MIN_VOLUNTEERS}
    order by confidence, c.volunteers desc, c.object_id
    limit ${DISPUTED_TARGETS}`.execute(db);
  return result.rows.map((row) => ({
    object_id: Number(row.object_id),
    course_id: row.course_id,
    ra: row.ra,
    dec: row.dec,
    volunteers: Number(row.volunteers),
    confidence: row.confidence,
    consensus_galaxy_type: row.p_spiral >= 0.5 ? 'spiral' : 'elliptical',
    consensus_interaction: row.p_interaction >= 0.5 ? 'yes' : 'no',
    retired: row.retired,
  }));
}

/** The targets an estimate opened again (reviewRetirements) that are still open, the latest first. */
async function reopened(db: Kysely<Database>): Promise<ScienceReopenedTarget[]> {
  const result = await sql<
    Omit<ScienceReopenedTarget, 'retired_at' | 'reopened_at'> & {
      retired_at: Date | string;
      reopened_at: Date | string;
    }
  >`
    select o.object_id, o.course_id, t.ra, t.dec, coalesce(c.volunteers, 0) as volunteers,
      coalesce(least(greatest(p.spiral, 1 - p.spiral), greatest(p.interacting, 1 - p.interacting)), 0.5) as confidence,
      o.retired_at, o.reopened_at
    from reopened_targets o
    join targets t on t.object_id = o.object_id and not t.retired
    join courses co on co.id = o.course_id
    left join target_consensus c on c.object_id = o.object_id
    cross join lateral (select ${spiralProbability} as spiral, ${interactionProbability} as interacting) p
    where not exists (select 1 from retired_targets r where r.object_id = o.object_id)
    order by o.reopened_at desc, o.object_id
    limit ${REOPENED_TARGETS}`.execute(db);
  return result.rows.map((row) => ({
    object_id: Number(row.object_id),
    course_id: row.course_id,
    ra: row.ra,
    dec: row.dec,
    volunteers: Number(row.volunteers),
    confidence: Number(row.confidence),
    retired_at: new Date(row.retired_at).toISOString(),
    reopened_at: new Date(row.reopened_at).toISOString(),
  }));
}

export async function scienceSummary(db: Kysely<Database>): Promise<ScienceSummary> {
  const state = await db.selectFrom('science_state').select('estimated_at').where('id', '=', 1).executeTakeFirst();
  const zone = await db.selectFrom('ranking_time_zone').select('time_zone').where('id', '=', 1).executeTakeFirst();
  return {
    courses: await courseProgress(db),
    days: await days(db),
    confidence: await confidence(db),
    accuracy: await accuracy(db),
    volunteers: await volunteers(db),
    disputed: await disputed(db),
    reopened: await reopened(db),
    estimated_at: state?.estimated_at ? new Date(state.estimated_at).toISOString() : null,
    time_zone: zone?.time_zone ?? 'UTC',
  };
}
