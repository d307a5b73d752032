// The answer form's steps (application-spec §4 Answer steps) and when it shows (§2, §9): step 1
// galaxy type, step 2 interaction, step 3 features when the interaction is yes; otherwise the
// answer is submitted straight after step 2 ("step 4"). Numbered buttons go back only.
import type { Answer, Question } from '../../../../shared/api';
import type { GalaxyType, Interaction } from '../../../../shared/enums';

export type Step = 1 | 2 | 3;

/** The answer under way; defaults not_sure and false (§3). */
export type Draft = Omit<Answer, 'object_id'>;

export const EMPTY_DRAFT: Draft = {
  galaxy_type: 'not_sure',
  interaction: 'not_sure',
  ring: false,
  fan: false,
  tail: false,
  distorted: false,
};

export const FEATURES = ['ring', 'fan', 'tail', 'distorted'] as const;
export type Feature = (typeof FEATURES)[number];

/** What follows a choice: the next step, or 'submit'. */
export type Next = { step: Step } | { submit: true };

export function afterGalaxyType(_type: GalaxyType): Next {
  return { step: 2 };
}

export function afterInteraction(interaction: Interaction): Next {
  return interaction === 'yes' ? { step: 3 } : { submit: true };
}

/** The step buttons that may be pressed from `current`: the earlier ones only. */
export function canGoBackTo(target: Step, current: Step): boolean {
  return target < current;
}

/** The draft for a target: its saved answer when there is one (§4: it is reloaded), else the defaults. */
export function draftFor(objectId: number, saved: readonly Answer[]): Draft {
  const answer = saved.find((candidate) => candidate.object_id === objectId);
  if (!answer) return { ...EMPTY_DRAFT };
  const { object_id: _objectId, ...draft } = answer;
  return draft;
}

/** Features apply only to interacting galaxies: an answer that is not 'yes' carries none. */
export function toAnswer(objectId: number, draft: Draft): Answer {
  const interacting = draft.interaction === 'yes';
  return {
    object_id: objectId,
    galaxy_type: draft.galaxy_type,
    interaction: draft.interaction,
    ring: interacting && draft.ring,
    fan: interacting && draft.fan,
    tail: interacting && draft.tail,
    distorted: interacting && draft.distorted,
  };
}

const DEGREE = Math.PI / 180;
/** §9: the answer form shows under this field of view … */
export const ANSWER_FORM_MAX_FOV = 1 * DEGREE;
/** … and within this angle of the target. */
export const ANSWER_FORM_MAX_OFFSET = 0.05 * DEGREE;

/** Angle (radians) between two sky positions in degrees. */
export function angularDistance(ra1: number, dec1: number, ra2: number, dec2: number): number {
  const [a1, d1, a2, d2] = [ra1, dec1, ra2, dec2].map((value) => value * DEGREE);
  const haversine = Math.sin((d2 - d1) / 2) ** 2 + Math.cos(d1) * Math.cos(d2) * Math.sin((a2 - a1) / 2) ** 2;
  return 2 * Math.asin(Math.min(1, Math.sqrt(haversine)));
}

/** Whether a view (centre in degrees, fovy in radians) is zoomed on `target` (§2, §9). */
export function zoomedOn(
  view: { ra: number; dec: number; fovy: number },
  target: Pick<Question, 'ra' | 'dec'>,
): boolean {
  return (
    view.fovy < ANSWER_FORM_MAX_FOV &&
    angularDistance(view.ra, view.dec, target.ra, target.dec) < ANSWER_FORM_MAX_OFFSET
  );
}

/** The unanswered question nearest to a position (§4: the camera moves to it), or null. */
export function nearestUnanswered(
  questions: readonly Question[],
  answered: ReadonlySet<number>,
  from: { ra: number; dec: number },
): Question | null {
  let best: Question | null = null;
  let bestDistance = Infinity;
  for (const question of questions) {
    if (answered.has(question.object_id)) continue;
    const distance = angularDistance(from.ra, from.dec, question.ra, question.dec);
    if (distance < bestDistance) [best, bestDistance] = [question, distance];
  }
  return best;
}

/**
 * Where submitting an answer to `question` takes the camera (§4): the unanswered target nearest
 * to it once it counts as answered, or null when it was the area's last (the area is completed
 * and the next quest is not known yet).
 */
export function afterSubmit(
  questions: readonly Question[],
  answered: ReadonlySet<number>,
  question: Question,
): Question | null {
  return nearestUnanswered(questions, new Set(answered).add(question.object_id), question);
}

/** Where 'Next galaxy' (N) takes the camera: the next target in the quest's order, answered or not, round to the first. */
export function nextInOrder(questions: readonly Question[], currentId: number | null): Question | null {
  if (questions.length === 0) return null;
  const index = questions.findIndex((question) => question.object_id === currentId);
  return questions[(index + 1) % questions.length];
}

/**
 * The targets the camera is expected to go to from `current`, likeliest first: where submit
 * takes it, then where N does; each once, never `current` itself. The cruise screen prefetches
 * their views while the answer form is up, so that the next galaxy is sharp when the jump ends.
 */
export function expectedNext(
  questions: readonly Question[],
  answered: ReadonlySet<number>,
  current: Question,
): Question[] {
  const next: Question[] = [];
  for (const candidate of [afterSubmit(questions, answered, current), nextInOrder(questions, current.object_id)])
    if (candidate && candidate.object_id !== current.object_id && !next.includes(candidate)) next.push(candidate);
  return next;
}
