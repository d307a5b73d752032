// The answer form's steps and its zoom rule (application-spec §2, §4, §9).
import { describe, expect, it } from 'vitest';
import type { Answer, Question } from '../../shared/api';
import {
  EMPTY_DRAFT,
  afterGalaxyType,
  afterInteraction,
  angularDistance,
  canGoBackTo,
  draftFor,
  nearestUnanswered,
  toAnswer,
  zoomedOn,
} from '../../src/app/features/cruise/answerSteps';

const DEGREE = Math.PI / 180;

describe('answer steps', () => {
  it('goes from step 1 galaxy type to step 2 interaction', () => {
    for (const type of ['elliptical', 'spiral', 'not_sure'] as const)
      expect(afterGalaxyType(type)).toEqual({ step: 2 });
  });

  it('goes to step 3 features if interaction is yes; otherwise submits directly', () => {
    expect(afterInteraction('yes')).toEqual({ step: 3 });
    expect(afterInteraction('no')).toEqual({ submit: true });
    expect(afterInteraction('not_sure')).toEqual({ submit: true });
  });

  it('lets the numbered buttons go back to earlier steps only', () => {
    expect(canGoBackTo(1, 2)).toBe(true);
    expect(canGoBackTo(2, 3)).toBe(true);
    expect(canGoBackTo(1, 3)).toBe(true);
    expect(canGoBackTo(2, 2)).toBe(false);
    expect(canGoBackTo(3, 2)).toBe(false);
    expect(canGoBackTo(2, 1)).toBe(false);
  });

  it('reloads the saved answer for the object, else the defaults not_sure and false', () => {
    const saved: Answer = {
      object_id: 5,
      galaxy_type: 'spiral',
      interaction: 'yes',
      ring: true,
      fan: false,
      tail: true,
      distorted: false,
    };
    expect(draftFor(5, [saved])).toEqual({
      galaxy_type: 'spiral',
      interaction: 'yes',
      ring: true,
      fan: false,
      tail: true,
      distorted: false,
    });
    expect(draftFor(6, [saved])).toEqual(EMPTY_DRAFT);
    expect(EMPTY_DRAFT).toEqual({
      galaxy_type: 'not_sure',
      interaction: 'not_sure',
      ring: false,
      fan: false,
      tail: false,
      distorted: false,
    });
  });

  it('sends features only with an interacting answer', () => {
    const draft = { ...EMPTY_DRAFT, galaxy_type: 'elliptical' as const, interaction: 'no' as const, ring: true };
    expect(toAnswer(9, draft)).toEqual({
      object_id: 9,
      galaxy_type: 'elliptical',
      interaction: 'no',
      ring: false,
      fan: false,
      tail: false,
      distorted: false,
    });
    expect(toAnswer(9, { ...draft, interaction: 'yes' }).ring).toBe(true);
  });
});

describe('answer form zoom rule', () => {
  const target = { ra: 150, dec: 2 };
  it('shows under a field of view of 1 degree within 0.05 degree of the target', () => {
    expect(zoomedOn({ ra: 150, dec: 2, fovy: 0.9 * DEGREE }, target)).toBe(true);
    expect(zoomedOn({ ra: 150, dec: 2.04, fovy: 0.02 * DEGREE }, target)).toBe(true);
  });
  it('hides at 1 degree and wider, or 0.05 degree and farther', () => {
    expect(zoomedOn({ ra: 150, dec: 2, fovy: 1 * DEGREE }, target)).toBe(false);
    expect(zoomedOn({ ra: 150, dec: 2.06, fovy: 0.02 * DEGREE }, target)).toBe(false);
  });
  it('measures separations on the sphere (right ascension shrinks with cos dec)', () => {
    expect(angularDistance(10, 60, 10.08, 60) / DEGREE).toBeCloseTo(0.04, 3);
    expect(angularDistance(359.99, 0, 0.01, 0) / DEGREE).toBeCloseTo(0.02, 6);
  });
});

describe('nearest unanswered target', () => {
  const questions: Question[] = [
    { object_id: 1, ra: 10, dec: 0 },
    { object_id: 2, ra: 10.1, dec: 0 },
    { object_id: 3, ra: 10.5, dec: 0 },
  ];
  it('is the closest question without an answer', () => {
    expect(nearestUnanswered(questions, new Set([1]), { ra: 10, dec: 0 })?.object_id).toBe(2);
    expect(nearestUnanswered(questions, new Set([1, 2]), { ra: 10, dec: 0 })?.object_id).toBe(3);
  });
  it('is null once every question is answered', () => {
    expect(nearestUnanswered(questions, new Set([1, 2, 3]), { ra: 10, dec: 0 })).toBeNull();
  });
});
