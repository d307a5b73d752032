// Where the camera goes for a quest's target: the view a jump there ends in, and the target a
// quest opens on. The main screen jumps with them; the login screen cuts the camera to the first
// one once the quest is in, so that its tiles load while the main screen mounts.
import type { CurrentQuestResponse, Question } from '../../../../shared/api';
import type { JumpTarget } from '../../../globe/camera';

const DEGREE = Math.PI / 180;
/** The field of view a jump to a target ends at: well inside the answer form's 1°. */
export const TARGET_FOVY = 0.02 * DEGREE;

export type Quest = Extract<CurrentQuestResponse, { no_more_available_objects: false }>;

/** The view of a target that a jump there ends in. */
export function targetView(question: Question): JumpTarget {
  return { theta: (90 - question.dec) * DEGREE, phi: question.ra * DEGREE, fovy: TARGET_FOVY };
}

/** The target a quest opens on: its first question the server has no answer to (else its first). */
export function firstUnanswered(quest: Quest): Question | undefined {
  const answered = new Set(quest.answers.map((answer) => answer.object_id));
  return quest.questions.find((question) => !answered.has(question.object_id)) ?? quest.questions[0];
}
