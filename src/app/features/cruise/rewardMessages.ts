// What an answer earns (application-spec §4): after a new record, the medal message of the
// campaign medal it reached; a souvenir puzzle-piece message when the course total after this
// answer is a multiple of the objects-per-piece constant (the cruise adds the puzzle-completed
// message when that piece completes a jigsaw, souvenirs/jigsaw.ts). And what a course without a
// galaxy left says. Pure functions: the cruise shows the messages in the order returned.
import type { CampaignEntry, CampaignMedal, NewRecordResponse } from '../../../../shared/api';
import { COURSE_IDS, type CourseId } from '../../../../shared/enums';

export type RewardMessage =
  { kind: 'medal'; campaign: CampaignEntry['meta']; medal: CampaignMedal } | { kind: 'piece' };

/** The medal a new record reached: one whose count the campaign's count now equals, else the highest reached. */
export function reachedMedal(
  campaigns: readonly CampaignEntry[],
  now: Date,
): { campaign: CampaignEntry['meta']; medal: CampaignMedal } | null {
  const open = campaigns.filter(
    (entry) =>
      Date.parse(entry.meta.period_begin) <= now.getTime() && now.getTime() <= Date.parse(entry.meta.period_end),
  );
  for (const entry of open) {
    const medal = entry.meta.medals.find((candidate) => candidate.count === entry.count);
    if (medal) return { campaign: entry.meta, medal };
  }
  let best: { campaign: CampaignEntry['meta']; medal: CampaignMedal } | null = null;
  for (const entry of open)
    for (const medal of entry.meta.medals)
      if (medal.count <= entry.count && (!best || medal.count > best.medal.count))
        best = { campaign: entry.meta, medal };
  return best;
}

export interface AnswerOutcome {
  response: NewRecordResponse;
  /** The course total this quest's previous answer brought back, if any: a re-posted answer repeats it. */
  previousCount: number | null;
  objectsPerPiece: number;
  now: Date;
}

export function answerRewards({ response, previousCount, objectsPerPiece, now }: AnswerOutcome): RewardMessage[] {
  const messages: RewardMessage[] = [];
  if (response.new_record) {
    const reached = reachedMedal(response.campaigns, now);
    if (reached) messages.push({ kind: 'medal', ...reached });
  }
  const count = response.answers_count;
  if (count > 0 && count % objectsPerPiece === 0 && count !== previousCount) messages.push({ kind: 'piece' });
  return messages;
}

/** The completion dialogs of §4, one per course. */
export type CompletionMessage = `complete.${CourseId | 'imported'}` | 'tngCompleted' | 'finalCompleted' | 'noAvailable';

/** A course's own completion dialog; a research group's imported course has one for them all. */
export function courseCompletion(course: string): CompletionMessage {
  return (COURSE_IDS as readonly string[]).includes(course) ? `complete.${course as CourseId}` : 'complete.imported';
}

/**
 * What a course without a galaxy left says when it is opened: 'no available galaxy' while the
 * volunteer has not done every area of it (nothing done yet, or the rest retired by the course's
 * rule, docs/science.md: the others classified them); otherwise the TNG completion (the
 * IllustrisTNG simulation courses), the final-campaign completion, or the course's own completion
 * dialog. `totalAreas` is unknown (undefined) until the course's levels have come.
 */
export function exhaustedMessage(course: string, doneAreas: number, totalAreas?: number): CompletionMessage {
  if (doneAreas === 0 || (totalAreas !== undefined && doneAreas < totalAreas)) return 'noAvailable';
  if (course === 'illustris' || course === 'illustris_review') return 'tngCompleted';
  if (course === 'final_campaign') return 'finalCompleted';
  return courseCompletion(course);
}
