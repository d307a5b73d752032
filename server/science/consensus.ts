// A target's consensus summed from its answers (docs/science.md): the counts of every option, the
// same counts weighted by each volunteer's reliability, and the Dawid–Skene evidence of the two
// binary questions (galaxy_type: spiral against elliptical; interaction: yes against no). The
// fractions, probabilities and labels are derived from these on read (./catalogue-rows.ts), so a
// refresh is one aggregate over the target's answers and never reads another target.
//
// The answer path only marks its targets in science_dirty (a trigger, migration 0009); the
// science service drains that table a batch at a time, so a new answer moves its target's
// fractions within a second or two and the POST itself does no science.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * The accuracy assumed for a volunteer the estimator has not seen yet (sensitivity = specificity
 * = 0.75): better than a coin, as most volunteers are, and weighted half as much as a perfect one.
 */
export const DEFAULT_ACCURACY = 0.75;

/** Estimated rates are kept inside [ε, 1 − ε] so that a log-likelihood ratio stays finite. */
export const RATE_BOUND = 0.01;

/** Targets summed per statement: small enough that PGlite's one connection is never held long. */
export const REFRESH_BATCH = 2000;

/**
 * Sums the answers of `objectIds` into target_consensus (inserted or replaced) and retires, by its
 * course's rule, each that meets it. Returns the number of targets written.
 */
export async function refreshTargets(db: Kysely<Database>, objectIds: readonly number[]): Promise<number> {
  if (objectIds.length === 0) return 0;
  // A bigint[] literal: `= any(…)` finds each target's answers through answers_object, whatever
  // the planner guesses of the list's length.
  const ids = `{${objectIds.join(',')}}`;
  const accuracy = sql.lit(DEFAULT_ACCURACY);
  const written = await sql`
    with votes as (
      select a.object_id, a.course_id, a.galaxy_type, a.interaction, a.ring, a.fan, a.tail, a.distorted,
        coalesce(r.galaxy_type_sensitivity, ${accuracy}) as gs, coalesce(r.galaxy_type_specificity, ${accuracy}) as gp,
        coalesce(r.interaction_sensitivity, ${accuracy}) as "is", coalesce(r.interaction_specificity, ${accuracy}) as ip
      from answers a
      left join volunteer_reliability r on r.user_id = a.user_id
      where a.object_id = any(${ids}::bigint[])
    ),
    weighted as (
      select *, greatest(0, gs + gp - 1) as gw, greatest(0, "is" + ip - 1) as iw from votes
    )
    insert into target_consensus (
      object_id, course_id, volunteers,
      n_spiral, n_elliptical, n_type_not_sure, n_interaction_yes, n_interaction_no, n_interaction_not_sure,
      n_ring, n_fan, n_tail, n_distorted,
      w_spiral, w_elliptical, w_type_not_sure, w_interaction_yes, w_interaction_no, w_interaction_not_sure,
      w_ring, w_fan, w_tail, w_distorted,
      galaxy_type_evidence, interaction_evidence, updated_at)
    select object_id, min(course_id), count(*),
      count(*) filter (where galaxy_type = 'spiral'),
      count(*) filter (where galaxy_type = 'elliptical'),
      count(*) filter (where galaxy_type = 'not_sure'),
      count(*) filter (where interaction = 'yes'),
      count(*) filter (where interaction = 'no'),
      count(*) filter (where interaction = 'not_sure'),
      count(*) filter (where interaction = 'yes' and ring),
      count(*) filter (where interaction = 'yes' and fan),
      count(*) filter (where interaction = 'yes' and tail),
      count(*) filter (where interaction = 'yes' and distorted),
      coalesce(sum(gw) filter (where galaxy_type = 'spiral'), 0),
      coalesce(sum(gw) filter (where galaxy_type = 'elliptical'), 0),
      coalesce(sum(gw) filter (where galaxy_type = 'not_sure'), 0),
      coalesce(sum(iw) filter (where interaction = 'yes'), 0),
      coalesce(sum(iw) filter (where interaction = 'no'), 0),
      coalesce(sum(iw) filter (where interaction = 'not_sure'), 0),
      coalesce(sum(iw) filter (where interaction = 'yes' and ring), 0),
      coalesce(sum(iw) filter (where interaction = 'yes' and fan), 0),
      coalesce(sum(iw) filter (where interaction = 'yes' and tail), 0),
      coalesce(sum(iw) filter (where interaction = 'yes' and distorted), 0),
      coalesce(sum(case galaxy_type when 'spiral' then ln(gs / (1 - gp)) when 'elliptical' then ln((1 - gs) / gp) end), 0),
      coalesce(sum(case interaction when 'yes' then ln("is" / (1 - ip)) when 'no' then ln((1 - "is") / ip) end), 0),
      now()
    from weighted
    group by object_id
    on conflict (object_id) do update set
      course_id = excluded.course_id, volunteers = excluded.volunteers,
      n_spiral = excluded.n_spiral, n_elliptical = excluded.n_elliptical, n_type_not_sure = excluded.n_type_not_sure,
      n_interaction_yes = excluded.n_interaction_yes, n_interaction_no = excluded.n_interaction_no,
      n_interaction_not_sure = excluded.n_interaction_not_sure,
      n_ring = excluded.n_ring, n_fan = excluded.n_fan, n_tail = excluded.n_tail, n_distorted = excluded.n_distorted,
      w_spiral = excluded.w_spiral, w_elliptical = excluded.w_elliptical, w_type_not_sure = excluded.w_type_not_sure,
      w_interaction_yes = excluded.w_interaction_yes, w_interaction_no = excluded.w_interaction_no,
      w_interaction_not_sure = excluded.w_interaction_not_sure,
      w_ring = excluded.w_ring, w_fan = excluded.w_fan, w_tail = excluded.w_tail, w_distorted = excluded.w_distorted,
      galaxy_type_evidence = excluded.galaxy_type_evidence, interaction_evidence = excluded.interaction_evidence,
      updated_at = excluded.updated_at
  `.execute(db);
  await retireSettled(db, ids);
  return Number(written.numAffectedRows ?? 0);
}

/**
 * Retires the targets of `ids` (a bigint[] literal) that meet their course's rule: at least
 * retire_max_volunteers volunteers, or at least retire_min_volunteers whose consensus is at least
 * retire_min_confidence sure on both questions. A retired target stays retired.
 */
async function retireSettled(db: Kysely<Database>, ids: string): Promise<void> {
  await sql`
    update target_consensus c set retired_at = now()
    from courses co
    where co.id = c.course_id and c.retired_at is null
      and c.object_id = any(${ids}::bigint[])
      and (
        (co.retire_max_volunteers is not null and c.volunteers >= co.retire_max_volunteers)
        or (co.retire_min_volunteers is not null and c.volunteers >= co.retire_min_volunteers
          and c.n_spiral + c.n_elliptical > 0 and c.n_interaction_yes + c.n_interaction_no > 0
          and least(
            greatest(consensus_probability(c.galaxy_type_evidence, co.spiral_prior),
              1 - consensus_probability(c.galaxy_type_evidence, co.spiral_prior)),
            greatest(consensus_probability(c.interaction_evidence, co.interaction_prior),
              1 - consensus_probability(c.interaction_evidence, co.interaction_prior))
          ) >= coalesce(co.retire_min_confidence, 0))
      )
  `.execute(db);
}

/**
 * Refreshes the targets marked in science_dirty, up to REFRESH_BATCH marks at a time, each batch
 * its own transaction (taken from the log and summed together, so a failure leaves them marked).
 * After a batch it rests as long as the batch took, so that a backlog under a heavy load of answers
 * takes at most about half of the database's time. Returns the number of targets refreshed.
 */
export async function drainDirtyTargets(db: Kysely<Database>, batch = REFRESH_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const started = performance.now();
    const marks = await db.transaction().execute(async (trx) => {
      const taken = await sql<{ object_id: number }>`
        delete from science_dirty where id in (
          select id from science_dirty order by id limit ${batch} for update skip locked)
        returning object_id`.execute(trx);
      const ids = [...new Set(taken.rows.map((row) => Number(row.object_id)))];
      total += await refreshTargets(trx, ids);
      return taken.rows.length;
    });
    if (marks < batch) return total;
    await new Promise((resolve) => setTimeout(resolve, Math.min(performance.now() - started, 1000)));
  }
}

/** Every target of `courseId` that has answers, summed again (after a change of weights or priors). */
export async function refreshCourse(db: Kysely<Database>, courseId: string | undefined, batch = REFRESH_BATCH) {
  let after = -1;
  let total = 0;
  for (;;) {
    let query = db
      .selectFrom('target_consensus')
      .select('object_id')
      .where('object_id', '>', after)
      .orderBy('object_id')
      .limit(batch);
    if (courseId !== undefined) query = query.where('course_id', '=', courseId);
    const ids = (await query.execute()).map((row) => Number(row.object_id));
    if (ids.length === 0) return total;
    total += await refreshTargets(db, ids);
    after = ids[ids.length - 1]!;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
