// What retirement saves (bench/science-crowd.ts, docs/science.md "What retirement saves"): the
// baseline is the classifications the campaign without a rule needed to be as accurate as the
// campaign with it, on both questions, and a rule loses when the targets it gets wrong that the
// whole campaign without one got right outnumber the reverse by more than McNemar's two standard
// deviations, over every crowd.
import { describe, expect, it } from 'vitest';
import {
  accuracyLost,
  retirementSaving,
  wrongTargetChanges,
  type CampaignOutcome,
  type CrowdAccuracy,
  type WrongTargets,
} from '../../bench/science-crowd';

const accuracy = (weighted: number, weightedInteraction: number): CrowdAccuracy => ({
  weighted,
  raw: 0,
  weightedInteraction,
  rawInteraction: 0,
  targets: 1000,
});

/** A campaign without a rule on 1,000 targets: 3 calibration votes, then a vote a round up to 6. */
const without: CampaignOutcome = {
  classifications: 6000,
  retired: 0,
  accuracy: accuracy(0.99, 0.98),
  wrong: { galaxyType: [1, 2, 3], interaction: [4, 5] },
  curve: [
    { votes: 3, classifications: 3000, accuracy: accuracy(0.9, 0.9) },
    { votes: 4, classifications: 4000, accuracy: accuracy(0.96, 0.93) },
    { votes: 5, classifications: 5000, accuracy: accuracy(0.97, 0.97) },
    { votes: 6, classifications: 6000, accuracy: accuracy(0.99, 0.98) },
  ],
};

const withRule = (
  classifications: number,
  weighted: number,
  weightedInteraction: number,
  wrong: WrongTargets = { galaxyType: [], interaction: [] },
): CampaignOutcome => ({
  classifications,
  retired: 900,
  accuracy: accuracy(weighted, weightedInteraction),
  wrong,
  curve: [],
});

describe('retirement saving', () => {
  it('is counted against the first point without a rule as accurate on both questions', () => {
    // galaxy_type is reached at 4 votes, interaction only at 5: the baseline is 5,000.
    const saving = retirementSaving(without, withRule(3500, 0.95, 0.95));
    expect(saving).toMatchObject({ votes: 5, classifications: 5000 });
    expect(saving!.saving).toBeCloseTo(0.3, 12);
    // As accurate as the full campaign: the baseline is all of it.
    expect(retirementSaving(without, withRule(4500, 0.99, 0.98))).toEqual({
      votes: 6,
      classifications: 6000,
      saving: 0.25,
    });
  });

  it('is never reached when the rule is more accurate than the whole campaign without one', () => {
    expect(retirementSaving(without, withRule(4000, 0.995, 0.98))).toBeUndefined();
    expect(retirementSaving(without, withRule(4000, 0.99, 0.985))).toBeUndefined();
  });

  it('counts the targets that changed between right and wrong on each question, over every crowd', () => {
    const rule = withRule(4500, 0.99, 0.98, { galaxyType: [2, 3, 6, 7], interaction: [4] });
    expect(wrongTargetChanges([{ without, withRule: rule }])).toEqual({
      galaxyType: { worse: 2, better: 1 },
      interaction: { worse: 0, better: 1 },
    });
    expect(
      wrongTargetChanges([
        { without, withRule: rule },
        { without, withRule: rule },
      ]),
    ).toEqual({
      galaxyType: { worse: 4, better: 2 },
      interaction: { worse: 0, better: 2 },
    });
  });

  it('loses accuracy when the targets it got wrong outnumber those it got right by more than the noise', () => {
    const lost = (galaxyType: number[], interaction: number[], crowds = 1) =>
      accuracyLost(
        Array.from({ length: crowds }, () => ({
          without,
          withRule: withRule(4500, 0, 0, { galaxyType, interaction }),
        })),
      );
    // As before, or better.
    expect(lost([1, 2, 3], [4, 5])).toBe(false);
    expect(lost([], [])).toBe(false);
    // Four more wrong, none fewer: 4 is not more than 2·√4.
    expect(lost([1, 2, 3, 6, 7, 8, 9], [4, 5])).toBe(false);
    // Five more wrong: 5 > 2·√5; on either question.
    expect(lost([1, 2, 3, 6, 7, 8, 9, 10], [4, 5])).toBe(true);
    expect(lost([1, 2, 3], [4, 5, 6, 7, 8, 9, 10])).toBe(true);
    // Three more wrong: within the noise on one crowd (3 ≤ 2·√3), not on two (6 > 2·√6).
    expect(lost([1, 2, 3, 6, 7, 8], [4, 5])).toBe(false);
    expect(lost([1, 2, 3, 6, 7, 8], [4, 5], 2)).toBe(true);
  });
});
