// Volunteer reliability by expectation–maximisation (Dawid & Skene 1979, "Maximum likelihood
// estimation of observer error-rates using the EM algorithm", Appl. Statist. 28, 20–28), one
// binary question at a time: galaxy_type (spiral against elliptical) and interaction (yes against
// no); not_sure is an abstention and tells nothing of a volunteer's errors. Each volunteer has a
// sensitivity (P(says spiral | spiral)) and a specificity (P(says elliptical | elliptical)), each
// course a prior P(spiral); docs/science.md says why this scheme and what the weights are.
//
//   E-step: every target's evidence, Σ log-likelihood ratio of its answers under the current
//           rates (./consensus.ts refreshTargets), gives P(spiral) with the course's prior.
//   M-step: every volunteer's rates from the soft labels of the targets they answered, with a
//           Beta prior worth PRIOR_ANSWERS answers at DEFAULT_ACCURACY (a volunteer with few
//           answers stays near the default instead of swinging to 0 or 1).
//
// Everything is SQL where the answers are, a batch of targets or volunteers per statement, so it
// runs unchanged on PGlite and PostgreSQL and leaves PGlite's one connection free between batches.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { DEFAULT_ACCURACY, RATE_BOUND, refreshCourse, reviewRetirements } from './consensus';

/** The Beta prior of the M-step, in answers: (agreeing + 3) / (answered + 4) at 0.75. */
export const PRIOR_ANSWERS = 4;

/** Answers aggregated per M-step statement (volunteers are grouped up to about this many). */
export const ANSWERS_PER_BATCH = 20_000;

export interface EstimateOptions {
  /** Stop when no volunteer's rate moved more than this in an iteration. */
  tolerance?: number;
  maxIterations?: number;
}

export interface EstimateResult {
  iterations: number;
  volunteers: number;
  answers: number;
  /** The largest change of a rate in the last iteration. */
  change: number;
  /** Retired targets opened again because their confidence fell below their rule's. */
  reopened: number;
}

type Rates = [number, number, number, number];

/**
 * Planner statistics of the tables the science reads. PGlite runs no autovacuum, so without this
 * its planner never learns that answers_object finds a target's answers and scans every answer
 * for each batch; PostgreSQL's autovacuum would have done the same.
 */
export async function analyzeScienceTables(db: Kysely<Database>): Promise<void> {
  await sql`analyze answers, target_consensus, volunteer_reliability`.execute(db);
}

/** Groups volunteers (in id order) into runs of about ANSWERS_PER_BATCH answers. */
async function volunteerBatches(db: Kysely<Database>): Promise<{ batches: [number, number][]; answers: number }> {
  const counts = await db
    .selectFrom('course_answer_counts')
    .select(['user_id', (eb) => eb.fn.sum<number>('answers_count').as('answers')])
    .groupBy('user_id')
    .orderBy('user_id')
    .execute();
  const batches: [number, number][] = [];
  let answers = 0;
  let first: number | undefined;
  let inBatch = 0;
  for (const row of counts) {
    const id = Number(row.user_id);
    first ??= id;
    inBatch += Number(row.answers);
    answers += Number(row.answers);
    if (inBatch >= ANSWERS_PER_BATCH) {
      batches.push([first, id]);
      first = undefined;
      inBatch = 0;
    }
  }
  if (first !== undefined) batches.push([first, Number(counts[counts.length - 1]!.user_id)]);
  return { batches, answers };
}

/** The course priors from the current soft labels, kept inside [ε, 1 − ε]. */
async function estimatePriors(db: Kysely<Database>): Promise<void> {
  const bound = sql.lit(RATE_BOUND);
  await sql`
    update courses co set
      spiral_prior = least(greatest(s.spiral, ${bound}), 1 - ${bound}),
      interaction_prior = least(greatest(coalesce(s.interaction, co.interaction_prior), ${bound}), 1 - ${bound})
    from (
      select c.course_id,
        avg(consensus_probability(c.galaxy_type_evidence, p.spiral_prior))
          filter (where c.n_spiral + c.n_elliptical > 0) as spiral,
        avg(consensus_probability(c.interaction_evidence, p.interaction_prior))
          filter (where c.n_interaction_yes + c.n_interaction_no > 0) as interaction
      from target_consensus c join courses p on p.id = c.course_id
      group by c.course_id
    ) s
    where co.id = s.course_id and s.spiral is not null`.execute(db);
}

/** The M-step for the volunteers with ids in [first, last]; returns their new rates. */
async function estimateVolunteers(db: Kysely<Database>, first: number, last: number) {
  const prior = sql.lit(PRIOR_ANSWERS);
  const agreeing = sql.lit(PRIOR_ANSWERS * DEFAULT_ACCURACY);
  const bound = sql.lit(RATE_BOUND);
  const rate = (numerator: ReturnType<typeof sql>, denominator: ReturnType<typeof sql>) =>
    sql`least(greatest((coalesce(${numerator}, 0) + ${agreeing}) / (coalesce(${denominator}, 0) + ${prior}), ${bound}), 1 - ${bound})`;
  const typed = sql`a.galaxy_type in ('spiral', 'elliptical')`;
  const decided = sql`a.interaction in ('yes', 'no')`;
  const result = await sql<{
    user_id: number;
    galaxy_type_sensitivity: number;
    galaxy_type_specificity: number;
    interaction_sensitivity: number;
    interaction_specificity: number;
  }>`
    insert into volunteer_reliability (user_id, galaxy_type_sensitivity, galaxy_type_specificity,
      interaction_sensitivity, interaction_specificity, galaxy_type_answers, interaction_answers, estimated_at)
    select a.user_id,
      ${rate(sql`sum(p.spiral) filter (where a.galaxy_type = 'spiral')`, sql`sum(p.spiral) filter (where ${typed})`)},
      ${rate(sql`sum(1 - p.spiral) filter (where a.galaxy_type = 'elliptical')`, sql`sum(1 - p.spiral) filter (where ${typed})`)},
      ${rate(sql`sum(p.interacting) filter (where a.interaction = 'yes')`, sql`sum(p.interacting) filter (where ${decided})`)},
      ${rate(sql`sum(1 - p.interacting) filter (where a.interaction = 'no')`, sql`sum(1 - p.interacting) filter (where ${decided})`)},
      count(*) filter (where ${typed}), count(*) filter (where ${decided}), now()
    from answers a
    join target_consensus c on c.object_id = a.object_id
    join courses co on co.id = c.course_id
    cross join lateral (select
      consensus_probability(c.galaxy_type_evidence, co.spiral_prior) as spiral,
      consensus_probability(c.interaction_evidence, co.interaction_prior) as interacting) p
    where a.user_id between ${first} and ${last}
    group by a.user_id
    on conflict (user_id) do update set
      galaxy_type_sensitivity = excluded.galaxy_type_sensitivity,
      galaxy_type_specificity = excluded.galaxy_type_specificity,
      interaction_sensitivity = excluded.interaction_sensitivity,
      interaction_specificity = excluded.interaction_specificity,
      galaxy_type_answers = excluded.galaxy_type_answers,
      interaction_answers = excluded.interaction_answers,
      estimated_at = excluded.estimated_at
    returning user_id, galaxy_type_sensitivity, galaxy_type_specificity, interaction_sensitivity, interaction_specificity
  `.execute(db);
  return result.rows;
}

/**
 * Re-estimates every volunteer's rates and every course's priors until they settle, then sums
 * every target again with the final weights, and holds every course's retirements against its
 * rule again (reviewRetirements: a target whose confidence fell below it is opened again). Safe to run beside the answer path and the refresh:
 * each statement is a batch of its own.
 */
export async function estimateReliability(
  db: Kysely<Database>,
  { tolerance = 1e-3, maxIterations = 30 }: EstimateOptions = {},
): Promise<EstimateResult> {
  await analyzeScienceTables(db);
  const { batches, answers } = await volunteerBatches(db);
  const previous = new Map<number, Rates>();
  let change = Infinity;
  let iterations = 0;
  // The first E-step sums the targets with the weights as they are (the defaults at first). No
  // target is retired or opened again until the estimate has settled (reviewRetirements).
  await refreshCourse(db, undefined, { retire: false });
  while (iterations < maxIterations && change > tolerance) {
    iterations += 1;
    await estimatePriors(db);
    change = 0;
    for (const [first, last] of batches) {
      for (const row of await estimateVolunteers(db, first, last)) {
        const rates: Rates = [
          row.galaxy_type_sensitivity,
          row.galaxy_type_specificity,
          row.interaction_sensitivity,
          row.interaction_specificity,
        ];
        const before = previous.get(Number(row.user_id)) ?? [
          DEFAULT_ACCURACY,
          DEFAULT_ACCURACY,
          DEFAULT_ACCURACY,
          DEFAULT_ACCURACY,
        ];
        for (let i = 0; i < 4; i += 1) change = Math.max(change, Math.abs(rates[i]! - before[i]!));
        previous.set(Number(row.user_id), rates);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    await refreshCourse(db, undefined, { retire: false });
  }
  const reopened = await reviewRetirements(db);
  await db
    .updateTable('science_state')
    .set({ estimated_at: new Date(), answers_at_estimate: answers, iterations })
    .where('id', '=', 1)
    .execute();
  return { iterations, volunteers: previous.size, answers, change, reopened };
}
