// A plain Dawid–Skene estimate, written as the SQL estimate it replaced ran it (one statement per
// step over answer rows: the E-step summing each target's log-likelihood ratios, the priors the
// mean soft label of the targets with a decided answer, the M-step each volunteer's soft share of
// agreeing answers with a Beta prior of 4 answers at 0.75), over plain objects and Maps, no typed
// arrays and no packing. tests/server/science-reliability-memory.test.ts holds the in-memory
// estimate (server/science/dawid-skene.ts, server/science/reliability.ts) against it.

export interface ReferenceAnswer {
  user_id: number | null;
  object_id: number;
  course_id: string;
  galaxy_type: string;
  interaction: string;
  ring: boolean;
  fan: boolean;
  tail: boolean;
  distorted: boolean;
}

export interface ReferenceRates {
  galaxy_type_sensitivity: number;
  galaxy_type_specificity: number;
  interaction_sensitivity: number;
  interaction_specificity: number;
}

export interface ReferenceResult {
  rates: Map<number, ReferenceRates>;
  priors: Map<string, { spiral: number; interaction: number }>;
  /** Per target, target_consensus's columns. */
  targets: Map<number, Record<string, number | string>>;
  iterations: number;
}

const DEFAULT = 0.75;
const BOUND = 0.01;
const clamp = (value: number) => Math.min(Math.max(value, BOUND), 1 - BOUND);
const probability = (evidence: number, prior: number) =>
  1 / (1 + Math.exp(-Math.min(Math.max(Math.log(prior / (1 - prior)) + evidence, -700), 700)));

export function referenceEstimate(
  answers: readonly ReferenceAnswer[],
  stored: Map<number, ReferenceRates>,
  startPriors: Map<string, { spiral: number; interaction: number }>,
  { tolerance = 1e-3, maxIterations = 30 } = {},
): ReferenceResult {
  const rates = new Map(stored);
  const priors = new Map([...startPriors].map(([course, prior]) => [course, { ...prior }]));
  const ratesOf = (user: number | null): ReferenceRates =>
    (user === null ? undefined : rates.get(user)) ?? {
      galaxy_type_sensitivity: DEFAULT,
      galaxy_type_specificity: DEFAULT,
      interaction_sensitivity: DEFAULT,
      interaction_specificity: DEFAULT,
    };
  const byTarget = new Map<number, ReferenceAnswer[]>();
  for (const answer of answers) byTarget.set(answer.object_id, [...(byTarget.get(answer.object_id) ?? []), answer]);
  const courseOf = new Map<number, string>();
  for (const [objectId, list] of byTarget) courseOf.set(objectId, list.map((answer) => answer.course_id).sort()[0]!);

  const targets = new Map<number, Record<string, number | string>>();
  const sum = () => {
    for (const [objectId, list] of byTarget) {
      const row: Record<string, number | string> = { course_id: courseOf.get(objectId)!, volunteers: list.length };
      const add = (column: string, value: number) => (row[column] = ((row[column] as number | undefined) ?? 0) + value);
      let galaxyTypeEvidence = 0;
      let interactionEvidence = 0;
      for (const answer of list) {
        const r = ratesOf(answer.user_id);
        const gw = Math.max(0, r.galaxy_type_sensitivity + r.galaxy_type_specificity - 1);
        const iw = Math.max(0, r.interaction_sensitivity + r.interaction_specificity - 1);
        const type = { spiral: 'spiral', elliptical: 'elliptical' }[answer.galaxy_type] ?? 'type_not_sure';
        add(`n_${type}`, 1);
        add(`w_${type}`, gw);
        const interaction = `interaction_${answer.interaction}`;
        add(`n_${interaction}`, 1);
        add(`w_${interaction}`, iw);
        if (answer.interaction === 'yes')
          for (const feature of ['ring', 'fan', 'tail', 'distorted'] as const)
            if (answer[feature]) {
              add(`n_${feature}`, 1);
              add(`w_${feature}`, iw);
            }
        if (answer.galaxy_type === 'spiral')
          galaxyTypeEvidence += Math.log(r.galaxy_type_sensitivity / (1 - r.galaxy_type_specificity));
        if (answer.galaxy_type === 'elliptical')
          galaxyTypeEvidence += Math.log((1 - r.galaxy_type_sensitivity) / r.galaxy_type_specificity);
        if (answer.interaction === 'yes')
          interactionEvidence += Math.log(r.interaction_sensitivity / (1 - r.interaction_specificity));
        if (answer.interaction === 'no')
          interactionEvidence += Math.log((1 - r.interaction_sensitivity) / r.interaction_specificity);
      }
      row.galaxy_type_evidence = galaxyTypeEvidence;
      row.interaction_evidence = interactionEvidence;
      targets.set(objectId, row);
    }
  };

  sum();
  const previous = new Map<number, number[]>();
  let change = Infinity;
  let iterations = 0;
  while (iterations < maxIterations && change > tolerance) {
    iterations += 1;
    for (const [course, prior] of priors) {
      const inCourse = [...targets].filter(([objectId]) => courseOf.get(objectId) === course).map(([, row]) => row);
      const typed = inCourse.filter((row) => ((row.n_spiral as number) ?? 0) + ((row.n_elliptical as number) ?? 0) > 0);
      const decided = inCourse.filter(
        (row) => ((row.n_interaction_yes as number) ?? 0) + ((row.n_interaction_no as number) ?? 0) > 0,
      );
      if (typed.length === 0) continue;
      const mean = (rows: typeof inCourse, column: string, value: number) =>
        rows.reduce((total, row) => total + probability(row[column] as number, value), 0) / rows.length;
      const spiral = mean(typed, 'galaxy_type_evidence', prior.spiral);
      const interaction =
        decided.length > 0 ? mean(decided, 'interaction_evidence', prior.interaction) : prior.interaction;
      priors.set(course, { spiral: clamp(spiral), interaction: clamp(interaction) });
    }
    const byUser = new Map<number, ReferenceAnswer[]>();
    for (const answer of answers)
      if (answer.user_id !== null) byUser.set(answer.user_id, [...(byUser.get(answer.user_id) ?? []), answer]);
    change = 0;
    for (const [user, list] of byUser) {
      const totals = [0, 0, 0, 0, 0, 0, 0, 0];
      for (const answer of list) {
        const row = targets.get(answer.object_id)!;
        const prior = priors.get(row.course_id as string)!;
        const spiral = probability(row.galaxy_type_evidence as number, prior.spiral);
        const interacting = probability(row.interaction_evidence as number, prior.interaction);
        if (answer.galaxy_type === 'spiral' || answer.galaxy_type === 'elliptical') {
          if (answer.galaxy_type === 'spiral') totals[0]! += spiral;
          else totals[2]! += 1 - spiral;
          totals[1]! += spiral;
          totals[3]! += 1 - spiral;
        }
        if (answer.interaction === 'yes' || answer.interaction === 'no') {
          if (answer.interaction === 'yes') totals[4]! += interacting;
          else totals[6]! += 1 - interacting;
          totals[5]! += interacting;
          totals[7]! += 1 - interacting;
        }
      }
      const estimated = [0, 1, 2, 3].map((k) => clamp((totals[2 * k]! + 3) / (totals[2 * k + 1]! + 4)));
      const before = previous.get(user) ?? [DEFAULT, DEFAULT, DEFAULT, DEFAULT];
      estimated.forEach((rate, k) => (change = Math.max(change, Math.abs(rate - before[k]!))));
      previous.set(user, estimated);
      rates.set(user, {
        galaxy_type_sensitivity: estimated[0]!,
        galaxy_type_specificity: estimated[1]!,
        interaction_sensitivity: estimated[2]!,
        interaction_specificity: estimated[3]!,
      });
    }
    sum();
  }
  return { rates, priors, targets, iterations };
}
