// A target's consensus summed from its answers (docs/science.md): the counts of every option, the
// same counts weighted by each volunteer's reliability, and the Dawid–Skene evidence of the two
// binary questions (galaxy_type: spiral against elliptical; interaction: yes against no). The
// fractions, probabilities and labels are derived from these on read (./catalogue-rows.ts).
//
// The answer path only logs what it wrote in science_log (triggers, migration 0009); the science
// service adds the log to the targets' sums a batch at a time (sumNewAnswers), so a new answer
// moves its target's fractions within a second or two and the POST itself does no science. The
// estimate (./reliability.ts) writes every target's sums anew from every answer with the new
// rates; the log waits while it runs (ESTIMATE_PAUSE_MS).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema';
import { DEFAULT_ACCURACY } from './dawid-skene';
import { VOTES } from '../db/vote-columns';

/**
 * The longest an estimate may hold the log (science_state.estimate_started_at, migration 0015):
 * a mark older than this is a process that died mid-estimate, and the log is summed again.
 */
export const ESTIMATE_PAUSE_MS = 15 * 60_000;

/** True (in SQL) while an estimate under way holds the log. */
export const estimateUnderWay = sql<boolean>`exists (select 1 from science_state s
  where s.estimate_started_at > now() - ${sql.lit(ESTIMATE_PAUSE_MS / 1000)} * interval '1 second')`;

/** Targets (or log rows) summed per statement: small enough that PGlite's one connection is never held long. */
export const REFRESH_BATCH = 2000;

/** The summed columns of target_consensus, each with its aggregate over signed answer rows `v`. */
const SUMS: [column: string, aggregate: string][] = [
  ['volunteers', 'sum(v.sign)'],
  ...VOTES.flatMap(({ option, question, where }): [string, string][] => [
    [`n_${option}`, `coalesce(sum(v.sign) filter (where ${where}), 0)`],
    // The same count weighted: galaxy_type options by the galaxy_type weight, the rest by the
    // interaction weight.
    [
      `w_${option}`,
      `coalesce(sum(v.sign * ${question === 'galaxy_type' ? 'v.gw' : 'v.iw'}) filter (where ${where}), 0)`,
    ],
  ]),
  [
    'galaxy_type_evidence',
    "coalesce(sum(v.sign * case v.galaxy_type when 'spiral' then ln(v.gs / (1 - v.gp)) when 'elliptical' then ln((1 - v.gs) / v.gp) end), 0)",
  ],
  [
    'interaction_evidence',
    'coalesce(sum(v.sign * case v.interaction when \'yes\' then ln(v."is" / (1 - v.ip)) when \'no\' then ln((1 - v."is") / v.ip) end), 0)',
  ],
];

/**
 * The sums per target of `rows`, a relation of signed answers (object_id, course_id, user_id,
 * sign, and the answer's fields), each weighted by its volunteer's current rates (DEFAULT_ACCURACY
 * for a volunteer not yet estimated, or an answer whose account is gone), as the columns of
 * target_consensus.
 */
function summed(rows: RawBuilder<unknown>) {
  const accuracy = sql.lit(DEFAULT_ACCURACY);
  return sql`
    select v.object_id, min(v.course_id) as course_id,
      ${sql.raw(SUMS.map(([column, aggregate]) => `${aggregate} as ${column}`).join(', '))}, now() as updated_at
    from (
      select r.*, rates.*, greatest(0, rates.gs + rates.gp - 1) as gw, greatest(0, rates."is" + rates.ip - 1) as iw
      from ${rows} r
      left join volunteer_reliability vr on vr.user_id = r.user_id
      cross join lateral (select
        coalesce(vr.galaxy_type_sensitivity, ${accuracy}) as gs, coalesce(vr.galaxy_type_specificity, ${accuracy}) as gp,
        coalesce(vr.interaction_sensitivity, ${accuracy}) as "is", coalesce(vr.interaction_specificity, ${accuracy}) as ip
      ) rates
    ) v
    group by v.object_id`;
}

const COLUMNS = sql.raw(['object_id', 'course_id', ...SUMS.map(([column]) => column), 'updated_at'].join(', '));

/**
 * Sums every answer of `objectIds` into target_consensus (inserted or replaced), with the
 * volunteers' current rates, and (unless `retire` is false) retires, by its course's rule, each
 * that meets it: what sumNewAnswers keeps current, summed from scratch (the tests compare the
 * two). Returns the number of targets written.
 */
export async function refreshTargets(
  db: Kysely<Database>,
  objectIds: readonly number[],
  { retire = true }: { retire?: boolean } = {},
): Promise<number> {
  if (objectIds.length === 0) return 0;
  // A bigint[] literal: `= any(…)` finds each target's answers through answers_object, whatever
  // the planner guesses of the list's length.
  const ids = `{${objectIds.join(',')}}`;
  const written = await sql`
    insert into target_consensus (${COLUMNS})
    ${summed(sql`(select object_id, course_id, user_id, 1 as sign, galaxy_type, interaction, ring, fan, tail, distorted
      from answers where object_id = any(${ids}::bigint[]))`)}
    on conflict (object_id) do update set course_id = excluded.course_id,
      ${sql.raw(SUMS.map(([column]) => `${column} = excluded.${column}`).join(', '))},
      updated_at = excluded.updated_at
  `.execute(db);
  if (retire) await retireSettled(db, sql`c.object_id = any(${ids}::bigint[])`);
  return Number(written.numAffectedRows ?? 0);
}

/**
 * Whether a consensus row `c` of a course row `co` meets the course's rule: at least
 * retire_max_volunteers volunteers, or at least retire_min_volunteers whose consensus is at least
 * retire_min_confidence sure on both questions.
 */
const meetsRule = sql`(
  (co.retire_max_volunteers is not null and c.volunteers >= co.retire_max_volunteers)
  or (co.retire_min_volunteers is not null and c.volunteers >= co.retire_min_volunteers
    and c.n_spiral + c.n_elliptical > 0 and c.n_interaction_yes + c.n_interaction_no > 0
    and least(
      greatest(consensus_probability(c.galaxy_type_evidence, co.spiral_prior),
        1 - consensus_probability(c.galaxy_type_evidence, co.spiral_prior)),
      greatest(consensus_probability(c.interaction_evidence, co.interaction_prior),
        1 - consensus_probability(c.interaction_evidence, co.interaction_prior))
    ) >= coalesce(co.retire_min_confidence, 0)))`;

/** Retires the targets of consensus rows `c` chosen by `where` that meet their course's rule. */
async function retireSettled(db: Kysely<Database>, where: RawBuilder<unknown>): Promise<void> {
  await sql`
    insert into retired_targets (object_id, course_id)
    select c.object_id, c.course_id
    from target_consensus c
    join courses co on co.id = c.course_id
    where ${where} and ${meetsRule}
    on conflict (object_id) do nothing
  `.execute(db);
}

/**
 * After an estimate has changed the weights: a retired target of a course with a rule that no
 * longer meets it (its confidence fell below the rule's) is opened again, recorded in
 * reopened_targets (the dashboard lists them), and volunteers are sent to it again; every target
 * that now meets its rule is retired. Returns the number opened again.
 */
export async function reviewRetirements(db: Kysely<Database>): Promise<number> {
  const reopened = await sql`
    with reopened as (
      delete from retired_targets r
      using target_consensus c, courses co
      where c.object_id = r.object_id and co.id = r.course_id
        and (co.retire_min_volunteers is not null or co.retire_max_volunteers is not null)
        and not ${meetsRule}
      returning r.object_id, r.course_id, r.retired_at
    )
    insert into reopened_targets (object_id, course_id, retired_at, reopened_at)
    select object_id, course_id, retired_at, now() from reopened
    on conflict (object_id) do update set retired_at = excluded.retired_at, reopened_at = excluded.reopened_at
  `.execute(db);
  await retireSettled(db, sql`true`);
  return Number(reopened.numAffectedRows ?? 0);
}

/**
 * Adds the answers logged since the last call (science_log: +1 for an answer written, −1 and +1 for
 * one changed) to their targets' sums, with the volunteers' current rates, up to REFRESH_BATCH log
 * rows at a time, and retires the targets that now meet their course's rule. Each batch is one
 * statement, taking the rows from the log and adding them together (so a failure leaves them
 * logged), not a transaction: on PGlite's one connection a transaction holds the connection
 * through its every round trip, and under load each of those waits for the event loop's other
 * work while the answer posts queue behind it. The retirement is a second statement (a crash
 * between them leaves a target unretired until its next answer or the next estimate). The cost
 * is the new answers', not the targets' every answer. After a batch it rests as long as the batch
 * took, so that a backlog under a flood of answers takes at most about half of the database's
 * time. Returns the number of targets changed.
 */
export async function sumNewAnswers(db: Kysely<Database>, batch = REFRESH_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const started = performance.now();
    const { rows } = await sql<{ object_id: number; taken: number }>`
      with taken as (
        delete from science_log where id = any(array(
          select id from science_log where not ${estimateUnderWay}
          order by id limit ${batch} for update skip locked))
        returning *
      ),
      added as (
        insert into target_consensus (${COLUMNS})
        ${summed(sql`taken`)}
        on conflict (object_id) do update set
          ${sql.raw(SUMS.map(([column]) => `${column} = target_consensus.${column} + excluded.${column}`).join(', '))},
          updated_at = excluded.updated_at
        returning object_id
      )
      select added.object_id, (select count(*) from taken) as taken from added`.execute(db);
    const ids = rows.map((row) => Number(row.object_id));
    if (ids.length > 0) await retireSettled(db, sql`c.object_id = any(${`{${ids.join(',')}}`}::bigint[])`);
    total += ids.length;
    const taken = rows.length === 0 ? 0 : Number(rows[0]!.taken);
    if (taken < batch) return total;
    await new Promise((resolve) => setTimeout(resolve, Math.min(performance.now() - started, 1000)));
  }
}

/**
 * Removes the log's deleted rows (PGlite only: PostgreSQL's autovacuum does it). PGlite runs no
 * autovacuum, so without this every row the log ever held stays in its table and its index, and
 * taking the next batch reads past all of them: a history of 220,000 answers once summed made
 * each second's batch cost more database time than the answers themselves.
 */
export async function vacuumScienceLog(db: Kysely<Database>): Promise<void> {
  await sql`vacuum science_log`.execute(db);
}
