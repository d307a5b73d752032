// The Dawid–Skene estimate (Dawid & Skene 1979, Appl. Statist. 28, 20–28) over answers held as
// columns in memory: one pass over typed arrays per step, no allocation inside a loop, so an
// iteration over 7.5 million answers costs a few tens of milliseconds (./reliability.ts reads the
// columns from the database once and writes back the rates and the targets' sums). The model,
// one binary question at a time with not_sure an abstention, and why it is this one, are in
// docs/science.md; the statement of each step below is the SQL estimate's it replaced, so that
// the rates are the same (tests/server/science-reliability-memory.test.ts holds them against a
// plain implementation within 1e-6).
//
//   E-step: each target's evidence, Σ of its answers' log-likelihood ratios under the current
//           rates: ln(s / (1 − p)) for a spiral answer, ln((1 − s) / p) for an elliptical one
//           (s sensitivity, p specificity), and the same for interaction yes / no.
//   priors: per course, the mean P(spiral) (P(interaction)) of its targets that have a spiral or
//           elliptical (yes or no) answer, with the prior before; kept in [ε, 1 − ε].
//   M-step: per volunteer, with each target's P(spiral) under the new prior, sensitivity =
//           (Σ P over its spiral answers + 3) / (Σ P over its spiral and elliptical answers + 4)
//           and specificity the same with 1 − P: a Beta prior worth PRIOR_ANSWERS answers at
//           DEFAULT_ACCURACY; the same for interaction. Kept in [ε, 1 − ε].
// It stops when no rate moved more than `tolerance` (the first iteration is measured from
// DEFAULT_ACCURACY) or after `maxIterations`, and the targets' sums are taken with the last rates.

import { VOTES } from '../db/vote-columns';

/** The accuracy assumed for a volunteer not yet estimated (sensitivity = specificity = 0.75). */
export const DEFAULT_ACCURACY = 0.75;
/** Estimated rates and priors are kept inside [ε, 1 − ε], so a log-likelihood ratio stays finite. */
export const RATE_BOUND = 0.01;
/** The Beta prior of the M-step, in answers: (agreeing + 3) / (answered + 4) at 0.75. */
export const PRIOR_ANSWERS = 4;

/**
 * An answer's fields in one byte: galaxy_type in bits 0–1 (0 spiral, 1 elliptical, 2 not_sure),
 * interaction in bits 2–3 (0 yes, 1 no, 2 not_sure), then ring, fan, tail, distorted.
 */
export const ANSWER_CODE = {
  galaxyType: { spiral: 0, elliptical: 1, not_sure: 2 },
  interaction: { yes: 0, no: 1, not_sure: 2 },
  ring: 16,
  fan: 32,
  tail: 64,
  distorted: 128,
} as const;

/** The same code as SQL over an answers row `a` (answers, science_log). */
export const ANSWER_CODE_SQL =
  "(case a.galaxy_type when 'spiral' then 0 when 'elliptical' then 1 else 2 end" +
  " + 4 * case a.interaction when 'yes' then 0 when 'no' then 1 else 2 end" +
  ' + 16 * a.ring::int + 32 * a.fan::int + 64 * a.tail::int + 128 * a.distorted::int)::int2';

export interface AnswerColumns {
  /** Per answer: the index of its target. */
  target: Int32Array;
  /** Per answer: the index of its volunteer, −1 for an answer whose account is gone. */
  volunteer: Int32Array;
  /** Per answer: its fields (ANSWER_CODE). */
  code: Uint8Array;
  /** Answers in the arrays (they may be longer). */
  answers: number;
  /** Per target: the index of its course. */
  targetCourse: Int32Array;
  targets: number;
  volunteers: number;
  courses: number;
}

export interface EstimateInput extends AnswerColumns {
  /** The rates to start from, four per volunteer (galaxy_type s, p, interaction s, p). */
  rates: Float64Array;
  /** Per course: P(spiral), P(interaction), the priors to start from. */
  priors: Float64Array;
  tolerance: number;
  maxIterations: number;
}

/** The sums of target_consensus, a column each, per target. */
export interface TargetSums {
  /** volunteers, then n_spiral … n_distorted in TARGET_COUNT_COLUMNS order. */
  counts: Int32Array[];
  /** w_spiral … w_distorted in TARGET_WEIGHT_COLUMNS order. */
  weights: Float64Array[];
  galaxyTypeEvidence: Float64Array;
  interactionEvidence: Float64Array;
}

/** target_consensus's columns in the order of VOTES (../db/vote-columns.ts), which the sums follow. */
export const TARGET_COUNT_COLUMNS = ['volunteers', ...VOTES.map((vote) => `n_${vote.option}` as const)];
export const TARGET_WEIGHT_COLUMNS = VOTES.map((vote) => `w_${vote.option}` as const);

export interface EstimateOutput {
  iterations: number;
  /** The largest change of a rate in the last iteration. */
  change: number;
  /** Four per volunteer, the estimate (DEFAULT_ACCURACY for a volunteer without answers). */
  rates: Float64Array;
  /** Per volunteer: answers with galaxy_type spiral or elliptical, with interaction yes or no, any. */
  galaxyTypeAnswers: Int32Array;
  interactionAnswers: Int32Array;
  allAnswers: Int32Array;
  priors: Float64Array;
  /** Per course: 1 where it had a target with a spiral or elliptical answer (its priors were estimated). */
  priorsEstimated: Uint8Array;
  sums: TargetSums;
}

const clampRate = (value: number) => Math.min(Math.max(value, RATE_BOUND), 1 - RATE_BOUND);

/** consensus_probability (migration 0009): P(positive class) from the prior's log-odds and the evidence. */
function probability(logOdds: number, evidence: number): number {
  return 1 / (1 + Math.exp(-Math.min(Math.max(logOdds + evidence, -700), 700)));
}

/** Each course's priors as log-odds, ln(P / (1 − P)), as consensus_probability takes them. */
function logOdds(priors: Float64Array, spiral: Float64Array, interaction: Float64Array): void {
  for (let c = 0; c < spiral.length; c += 1) {
    spiral[c] = Math.log(priors[2 * c]! / (1 - priors[2 * c]!));
    interaction[c] = Math.log(priors[2 * c + 1]! / (1 - priors[2 * c + 1]!));
  }
}

/**
 * Per volunteer (index + 1; slot 0 is a volunteer without rates) the four log-likelihood ratios:
 * spiral, elliptical, yes, no.
 */
function ratioTable(rates: Float64Array, volunteers: number, table: Float64Array): void {
  for (let v = -1; v < volunteers; v += 1) {
    const gs = v < 0 ? DEFAULT_ACCURACY : rates[4 * v]!;
    const gp = v < 0 ? DEFAULT_ACCURACY : rates[4 * v + 1]!;
    const is = v < 0 ? DEFAULT_ACCURACY : rates[4 * v + 2]!;
    const ip = v < 0 ? DEFAULT_ACCURACY : rates[4 * v + 3]!;
    const slot = 4 * (v + 1);
    table[slot] = Math.log(gs / (1 - gp));
    table[slot + 1] = Math.log((1 - gs) / gp);
    table[slot + 2] = Math.log(is / (1 - ip));
    table[slot + 3] = Math.log((1 - is) / ip);
  }
}

/** The E-step: every target's evidence of both questions under the rates in `table`. */
function evidence(columns: AnswerColumns, table: Float64Array, galaxyType: Float64Array, interaction: Float64Array) {
  const { target, volunteer, code, answers } = columns;
  galaxyType.fill(0);
  interaction.fill(0);
  for (let a = 0; a < answers; a += 1) {
    const slot = 4 * (volunteer[a]! + 1);
    const t = target[a]!;
    const c = code[a]!;
    const type = c & 3;
    if (type < 2) galaxyType[t] += table[slot + type]!;
    const decided = (c >> 2) & 3;
    if (decided < 2) interaction[t] += table[slot + 2 + decided]!;
  }
}

/** Runs the estimate to its end; the input's arrays are read, never changed. */
export function estimateDawidSkene(input: EstimateInput): EstimateOutput {
  const { target, volunteer, code, answers, targetCourse, targets, volunteers, courses } = input;
  const rates = Float64Array.from(input.rates.subarray(0, 4 * volunteers));
  const priors = Float64Array.from(input.priors.subarray(0, 2 * courses));
  const table = new Float64Array(4 * (volunteers + 1));
  const galaxyTypeEvidence = new Float64Array(targets);
  const interactionEvidence = new Float64Array(targets);

  // What does not change between iterations: which targets have a decided answer, what each
  // volunteer answered.
  const typedTargets = new Uint8Array(targets);
  const decidedTargets = new Uint8Array(targets);
  const galaxyTypeAnswers = new Int32Array(volunteers);
  const interactionAnswers = new Int32Array(volunteers);
  const allAnswers = new Int32Array(volunteers);
  for (let a = 0; a < answers; a += 1) {
    const c = code[a]!;
    const v = volunteer[a]!;
    if ((c & 3) < 2) typedTargets[target[a]!] = 1;
    if (((c >> 2) & 3) < 2) decidedTargets[target[a]!] = 1;
    if (v < 0) continue;
    allAnswers[v] += 1;
    if ((c & 3) < 2) galaxyTypeAnswers[v] += 1;
    if (((c >> 2) & 3) < 2) interactionAnswers[v] += 1;
  }

  ratioTable(rates, volunteers, table);
  evidence(input, table, galaxyTypeEvidence, interactionEvidence);

  const priorsEstimated = new Uint8Array(courses);
  const spiralSum = new Float64Array(courses);
  const spiralCount = new Float64Array(courses);
  const interactionSum = new Float64Array(courses);
  const interactionCount = new Float64Array(courses);
  // Per course the priors' log-odds; per target P(spiral) and P(interaction).
  const spiralOdds = new Float64Array(courses);
  const interactionOdds = new Float64Array(courses);
  const spiral = new Float64Array(targets);
  const interacting = new Float64Array(targets);
  // M-step sums per volunteer: agreeing and answered, for each of the four rates.
  const sums = new Float64Array(8 * volunteers);
  const previous = new Float64Array(4 * volunteers).fill(DEFAULT_ACCURACY);
  const agreeing = PRIOR_ANSWERS * DEFAULT_ACCURACY;

  let iterations = 0;
  let change = Infinity;
  while (iterations < input.maxIterations && change > input.tolerance) {
    iterations += 1;
    // Priors from the soft labels under the priors before.
    spiralSum.fill(0);
    spiralCount.fill(0);
    interactionSum.fill(0);
    interactionCount.fill(0);
    logOdds(priors, spiralOdds, interactionOdds);
    for (let t = 0; t < targets; t += 1) {
      const c = targetCourse[t]!;
      if (typedTargets[t]) {
        spiralSum[c] += probability(spiralOdds[c]!, galaxyTypeEvidence[t]!);
        spiralCount[c] += 1;
      }
      if (decidedTargets[t]) {
        interactionSum[c] += probability(interactionOdds[c]!, interactionEvidence[t]!);
        interactionCount[c] += 1;
      }
    }
    for (let c = 0; c < courses; c += 1) {
      // As the SQL did: a course with no decided galaxy_type keeps both priors as they are.
      if (spiralCount[c] === 0) continue;
      priorsEstimated[c] = 1;
      priors[2 * c] = clampRate(spiralSum[c]! / spiralCount[c]!);
      priors[2 * c + 1] = clampRate(
        interactionCount[c]! > 0 ? interactionSum[c]! / interactionCount[c]! : priors[2 * c + 1]!,
      );
    }
    // Soft labels under the new priors.
    logOdds(priors, spiralOdds, interactionOdds);
    for (let t = 0; t < targets; t += 1) {
      const c = targetCourse[t]!;
      spiral[t] = probability(spiralOdds[c]!, galaxyTypeEvidence[t]!);
      interacting[t] = probability(interactionOdds[c]!, interactionEvidence[t]!);
    }
    // M-step.
    sums.fill(0);
    for (let a = 0; a < answers; a += 1) {
      const v = volunteer[a]!;
      if (v < 0) continue;
      const t = target[a]!;
      const c = code[a]!;
      const slot = 8 * v;
      const type = c & 3;
      if (type < 2) {
        const p = spiral[t]!;
        if (type === 0) sums[slot] += p;
        else sums[slot + 2] += 1 - p;
        sums[slot + 1] += p;
        sums[slot + 3] += 1 - p;
      }
      const decided = (c >> 2) & 3;
      if (decided < 2) {
        const p = interacting[t]!;
        if (decided === 0) sums[slot + 4] += p;
        else sums[slot + 6] += 1 - p;
        sums[slot + 5] += p;
        sums[slot + 7] += 1 - p;
      }
    }
    change = 0;
    for (let v = 0; v < volunteers; v += 1) {
      if (allAnswers[v] === 0) continue;
      for (let k = 0; k < 4; k += 1) {
        const rate = clampRate((sums[8 * v + 2 * k]! + agreeing) / (sums[8 * v + 2 * k + 1]! + PRIOR_ANSWERS));
        change = Math.max(change, Math.abs(rate - previous[4 * v + k]!));
        previous[4 * v + k] = rate;
        rates[4 * v + k] = rate;
      }
    }
    // E-step with the new rates.
    ratioTable(rates, volunteers, table);
    evidence(input, table, galaxyTypeEvidence, interactionEvidence);
  }

  return {
    iterations,
    change,
    rates,
    galaxyTypeAnswers,
    interactionAnswers,
    allAnswers,
    priors,
    priorsEstimated,
    sums: { ...targetCounts(input, rates), galaxyTypeEvidence, interactionEvidence },
  };
}

/** Every target's counts and weighted counts (weight: Youden's J of the volunteer's rates). */
function targetCounts(columns: AnswerColumns, rates: Float64Array): Pick<TargetSums, 'counts' | 'weights'> {
  const { target, volunteer, code, answers, targets, volunteers } = columns;
  const counts = TARGET_COUNT_COLUMNS.map(() => new Int32Array(targets));
  const weights = TARGET_WEIGHT_COLUMNS.map(() => new Float64Array(targets));
  // Per volunteer (index + 1) the galaxy_type and the interaction weight.
  const weight = new Float64Array(2 * (volunteers + 1));
  for (let v = -1; v < volunteers; v += 1) {
    const at = (k: number) => (v < 0 ? DEFAULT_ACCURACY : rates[4 * v + k]!);
    weight[2 * (v + 1)] = Math.max(0, at(0) + at(1) - 1);
    weight[2 * (v + 1) + 1] = Math.max(0, at(2) + at(3) - 1);
  }
  const [volunteerCount, ...optionCounts] = counts as [Int32Array, ...Int32Array[]];
  for (let a = 0; a < answers; a += 1) {
    const t = target[a]!;
    const c = code[a]!;
    const slot = 2 * (volunteer[a]! + 1);
    volunteerCount[t] += 1;
    // Options 0–2 galaxy_type (spiral, elliptical, not_sure), 3–5 interaction (yes, no,
    // not_sure), 6–9 the features among the yes answers.
    const type = c & 3;
    optionCounts[type]![t] += 1;
    weights[type]![t] += weight[slot]!;
    const decided = (c >> 2) & 3;
    const interactionWeight = weight[slot + 1]!;
    optionCounts[3 + decided]![t] += 1;
    weights[3 + decided]![t] += interactionWeight;
    if (decided !== 0) continue;
    for (let feature = 0; feature < 4; feature += 1) {
      if (c & (16 << feature)) {
        optionCounts[6 + feature]![t] += 1;
        weights[6 + feature]![t] += interactionWeight;
      }
    }
  }
  return { counts, weights };
}
