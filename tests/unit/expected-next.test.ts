// The targets the cruise screen prefetches while the answer form is up (issue 31): where submit
// takes the camera, then where N does, as useAnswerSubmission's submit and useCruiseNavigation's
// nextGalaxy choose them.
import { describe, expect, it } from 'vitest';
import type { Question } from '../../shared/api';
import { afterSubmit, expectedNext, nextInOrder } from '../../src/app/features/cruise/answerSteps';

// In the quest's order 1, 2, 3, 4; on the sky 1 and 3 are neighbours, 2 and 4 far off.
const questions: Question[] = [
  { object_id: 1, ra: 10, dec: 0 },
  { object_id: 2, ra: 12, dec: 0 },
  { object_id: 3, ra: 10.1, dec: 0 },
  { object_id: 4, ra: 14, dec: 0 },
];
const ids = (list: readonly (Question | null)[]) => list.map((question) => question?.object_id ?? null);
const question = (id: number) => questions.find((candidate) => candidate.object_id === id)!;

describe('the next targets expected from the current one', () => {
  it("are submit's nearest unanswered target first, then N's next in the quest's order", () => {
    expect(ids(expectedNext(questions, new Set(), question(1)))).toEqual([3, 2]);
    expect(ids([afterSubmit(questions, new Set(), question(1)), nextInOrder(questions, 1)])).toEqual([3, 2]);
  });

  it('count the current target as answered for submit, whether or not it was before', () => {
    // Answering 3 again: the nearest other unanswered target, never 3 itself.
    expect(ids(expectedNext(questions, new Set([3]), question(3)))).toEqual([1, 4]);
    expect(ids(expectedNext(questions, new Set(), question(3)))).toEqual([1, 4]);
  });

  it('name a target once when submit and N go to the same one', () => {
    expect(ids(expectedNext(questions, new Set([3]), question(1)))).toEqual([2]);
  });

  it("are N's alone on the area's last unanswered target (submit completes the area)", () => {
    expect(afterSubmit(questions, new Set([1, 2, 3]), question(4))).toBeNull();
    // N goes round to the quest's first target.
    expect(ids(expectedNext(questions, new Set([1, 2, 3]), question(4)))).toEqual([1]);
  });

  it('are none in a quest of one target', () => {
    expect(expectedNext([question(1)], new Set(), question(1))).toEqual([]);
  });

  it("start N at the quest's first target when the current one is not in the quest", () => {
    expect(nextInOrder(questions, null)?.object_id).toBe(1);
    expect(nextInOrder([], null)).toBeNull();
  });
});
