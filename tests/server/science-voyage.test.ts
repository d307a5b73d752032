// The simulated crowd of issue 39 as the project's own test (docs/science.md, "The crowd through
// the API"): 30 volunteers (18 good at 90 %, 7 noisy at 65 %, 3 always "spiral", 2 random) sail a
// small research course through the HTTP API, as the main screen does, with the science running
// as a serving process runs it. With the retirement rule, arriving all at once and one after
// another: no reply is a 5xx, the late volunteers are told that no galaxy is left (a quest reply
// with no_more_available_objects, before they have done its areas), the classifications saved
// against the crowd without a rule are at least 30 % in both arrivals, and the consensus is as
// often right as without the rule. PGlite (the logic is the same SQL on PostgreSQL, which the
// retirement tests run).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ARRIVALS,
  THIRTY_VOLUNTEERS,
  VOYAGE_RULE,
  runVoyage,
  type Arrival,
  type VoyageRun,
} from '../../bench/science-voyage';
import type { RetirementRule } from '../../bench/science-crowd';
import { openTestDatabase } from '../helpers/databases';

/**
 * Twelve areas of eight targets in four levels: small enough for a test (about 40 s), long enough
 * that the crowd sailing together meets an estimate, and several areas to retire in a row.
 */
const TARGETS = 96;

type Run = VoyageRun;

async function voyage(rule: RetirementRule | null, arrival: Arrival): Promise<Run> {
  const database = await openTestDatabase('pglite');
  try {
    return await runVoyage(database.db, { rule, arrival, targets: TARGETS });
  } finally {
    await database.close();
  }
}

describe('a crowd of 30 sailing a research course through the API', () => {
  let without: Run;
  const withRule = new Map<Arrival, Run>();
  beforeAll(async () => {
    without = await voyage(null, 'in-step');
    for (const arrival of ARRIVALS) withRule.set(arrival, await voyage(VOYAGE_RULE, arrival));
    const line = (name: string, run: Run) =>
      `${name}: ${run.outcome.answers} answers, galaxy_type ${(run.accuracy.galaxyType * 100).toFixed(1)} %, ` +
      `interaction ${(run.accuracy.interaction * 100).toFixed(1)} %, ${run.outcome.estimates} estimates, ` +
      `no galaxy left for ${run.outcome.noGalaxyLeft} (${run.outcome.nothingAtFirst} at once), ${run.outcome.seconds.toFixed(0)} s simulated`;
    console.log([line('without a rule', without), ...ARRIVALS.map((a) => line(a, withRule.get(a)!))].join('\n'));
  }, 600_000);

  it('answers every volunteer without a 5xx, with or without the rule', () => {
    for (const run of [without, ...withRule.values()]) {
      expect(run.outcome.serverErrors).toBe(0);
      expect(Object.keys(run.outcome.statuses).every((status) => Number(status) < 500)).toBe(true);
    }
    // Without a rule every volunteer classifies every target.
    expect(without.outcome.answers).toBe(TARGETS * THIRTY_VOLUNTEERS.length);
  });

  it.each(ARRIVALS)('saves at least 30 per cent of the classifications, %s', (arrival) => {
    const run = withRule.get(arrival)!;
    expect(1 - run.outcome.answers / without.outcome.answers).toBeGreaterThanOrEqual(0.3);
  });

  it.each(ARRIVALS)('loses no accuracy to the rule, %s', (arrival) => {
    const run = withRule.get(arrival)!;
    expect(run.accuracy.galaxyType).toBeGreaterThanOrEqual(without.accuracy.galaxyType);
    expect(run.accuracy.interaction).toBeGreaterThanOrEqual(without.accuracy.interaction);
  });

  it.each(ARRIVALS)('sails every volunteer to the end of the course, %s', (arrival) => {
    expect(withRule.get(arrival)!.outcome.ended).toBe(THIRTY_VOLUNTEERS.length);
  });

  it('tells the volunteers who come to a settled course that no galaxy is left', () => {
    const run = withRule.get('one-after-another')!;
    // The late volunteers find every area settled by those before them, at their first call.
    expect(run.outcome.nothingAtFirst).toBeGreaterThan(0);
    expect(run.outcome.noGalaxyLeft).toBeGreaterThanOrEqual(run.outcome.nothingAtFirst);
  });
});
