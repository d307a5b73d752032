// The reliability estimate in memory (server/science/reliability.ts, dawid-skene.ts; docs/science.md
// "Reliability") on PGlite and PostgreSQL: the answers read once as columns give the same rates,
// priors and target sums as a plain Dawid–Skene (tests/helpers/dawid-skene-reference.ts, which is
// the SQL estimate it replaced, step for step) within 1e-6, on the worker thread as inline; the
// answers written while an estimate runs count once; one estimate at a time.
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { addVotes, seedCrowd } from '../../bench/science-crowd';
import type { Database } from '../../server/db/schema';
import { refreshTargets, sumNewAnswers } from '../../server/science/consensus';
import { EstimateUnderWayError, estimateReliability } from '../../server/science/reliability';
import { referenceEstimate, type ReferenceAnswer, type ReferenceRates } from '../helpers/dawid-skene-reference';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../helpers/databases';

const RATE_COLUMNS = [
  'galaxy_type_sensitivity',
  'galaxy_type_specificity',
  'interaction_sensitivity',
  'interaction_specificity',
] as const;

/** What the estimate reads and what it writes, as plain rows. */
async function snapshot(db: Kysely<Database>) {
  const answers = (
    await sql<ReferenceAnswer>`select user_id, object_id, course_id, galaxy_type, interaction, ring, fan, tail, distorted
      from answers order by object_id, user_id`.execute(db)
  ).rows.map((row) => ({
    ...row,
    user_id: row.user_id === null ? null : Number(row.user_id),
    object_id: Number(row.object_id),
  }));
  const rates = new Map(
    (await db.selectFrom('volunteer_reliability').selectAll().execute()).map((row) => [
      Number(row.user_id),
      row as ReferenceRates,
    ]),
  );
  const priors = new Map(
    (await db.selectFrom('courses').select(['id', 'spiral_prior', 'interaction_prior']).execute()).map((row) => [
      row.id,
      { spiral: row.spiral_prior, interaction: row.interaction_prior },
    ]),
  );
  const targets = new Map(
    (await db.selectFrom('target_consensus').selectAll().execute()).map((row) => [
      Number(row.object_id),
      row as unknown as Record<string, unknown>,
    ]),
  );
  return { answers, rates, priors, targets };
}

/** The crowd's answers with every kind of field: not_sure, features, an account gone. */
async function answeredCrowd(db: Kysely<Database>) {
  const crowd = await seedCrowd(db, { targets: 240, volunteers: 36, seed: 3 });
  const answered = new Map<number, Set<number>>();
  for (let round = 0; round < 5; round += 1) await addVotes(db, crowd, crowd.targets, answered);
  await sql`update answers set galaxy_type = 'not_sure' where object_id % 7 = 0 and user_id % 3 = 0`.execute(db);
  await sql`update answers set interaction = 'not_sure' where object_id % 5 = 0 and user_id % 4 = 0`.execute(db);
  await sql`update answers set ring = true, fan = (object_id % 2 = 0) where interaction = 'yes' and object_id % 3 = 0`.execute(
    db,
  );
  await sql`update answers set user_id = null where object_id % 11 = 0 and user_id % 5 = 0`.execute(db);
  await sumNewAnswers(db);
  return { crowd, answered };
}

/** Runs the reference on what the database holds, then the estimate, and compares them. */
async function expectSameAsReference(db: Kysely<Database>, worker: boolean) {
  const before = await snapshot(db);
  const reference = referenceEstimate(before.answers, before.rates, before.priors);
  const result = await estimateReliability(db, { worker });
  const after = await snapshot(db);
  expect(result.iterations).toBe(reference.iterations);
  expect(after.rates.size).toBe(reference.rates.size);
  for (const [user, rates] of reference.rates)
    for (const column of RATE_COLUMNS) expect(after.rates.get(user)![column]).toBeCloseTo(rates[column], 6);
  for (const [course, prior] of reference.priors) {
    expect(after.priors.get(course)!.spiral).toBeCloseTo(prior.spiral, 6);
    expect(after.priors.get(course)!.interaction).toBeCloseTo(prior.interaction, 6);
  }
  expect(after.targets.size).toBe(reference.targets.size);
  for (const [objectId, row] of reference.targets) {
    const stored = after.targets.get(objectId)!;
    for (const [column, value] of Object.entries(row))
      if (typeof value === 'number') expect(Number(stored[column] ?? 0), `${objectId} ${column}`).toBeCloseTo(value, 6);
      else expect(stored[column]).toBe(value);
    // Columns the reference never touched are zero.
    for (const column of ['n_ring', 'w_ring', 'n_fan', 'w_fan', 'n_distorted'])
      if (!(column in row)) expect(Number(stored[column])).toBe(0);
  }
}

describe.each(DATABASE_KINDS)('the reliability estimate in memory on %s', (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('gives the rates, priors and target sums of a plain Dawid–Skene within 1e-6, first and again', async () => {
    database = await openTestDatabase(kind);
    const { crowd, answered } = await answeredCrowd(database.db);
    await expectSameAsReference(database.db, false);
    // Again from the stored rates, with more answers, on the worker thread.
    for (let round = 0; round < 2; round += 1) await addVotes(database.db, crowd, crowd.targets, answered);
    await sumNewAnswers(database.db);
    await expectSameAsReference(database.db, true);
  });

  it('counts the answers written while an estimate runs once, with the new weights', async () => {
    database = await openTestDatabase(kind);
    const db = database.db;
    const { crowd, answered } = await answeredCrowd(db);
    let done = false;
    const estimate = estimateReliability(db).finally(() => (done = true));
    // Answers keep coming and the log keeps being asked to sum them while the estimate reads,
    // iterates and writes.
    let rounds = 0;
    while (!done || rounds < 2) {
      await addVotes(db, crowd, crowd.targets.slice(0, 60), answered);
      await sumNewAnswers(db);
      rounds += 1;
    }
    await estimate;
    await sumNewAnswers(db);
    expect(await db.selectFrom('science_log').select('id').execute()).toEqual([]);
    // Every target's sums are its answers' summed afresh with the rates now stored.
    const summed = await snapshot(db);
    const objectIds = [...summed.targets.keys()];
    await refreshTargets(db, objectIds, { retire: false });
    const fresh = await snapshot(db);
    for (const objectId of objectIds)
      for (const [column, value] of Object.entries(fresh.targets.get(objectId)!))
        if (typeof value === 'number')
          expect(Number(summed.targets.get(objectId)![column]), `${objectId} ${column}`).toBeCloseTo(value, 9);
    const counted = await sql<{ answers: string }>`select count(*) as answers from answers`.execute(db);
    const volunteers = [...summed.targets.values()].reduce((total, row) => total + Number(row.volunteers), 0);
    expect(volunteers).toBe(Number(counted.rows[0]!.answers));
  });

  it('runs one estimate at a time, and the log waits for it', async () => {
    database = await openTestDatabase(kind);
    const db = database.db;
    const { crowd, answered } = await answeredCrowd(db);
    await db.updateTable('science_state').set({ estimate_started_at: new Date() }).execute();
    await expect(estimateReliability(db)).rejects.toThrow(EstimateUnderWayError);
    await addVotes(db, crowd, crowd.targets.slice(0, 5), answered);
    expect(await sumNewAnswers(db)).toBe(0);
    expect((await db.selectFrom('science_log').select('id').execute()).length).toBe(5);
    // A mark older than an estimate could take is a process that died: taken over.
    await db
      .updateTable('science_state')
      .set({ estimate_started_at: new Date(Date.now() - 3_600_000) })
      .execute();
    expect(await sumNewAnswers(db)).toBe(5);
    await estimateReliability(db);
    expect((await db.selectFrom('science_state').selectAll().executeTakeFirstOrThrow()).estimate_started_at).toBeNull();
  });
});
