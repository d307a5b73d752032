// The messages after an area (application-spec §4) and the cabin rank thresholds (§9).
import { describe, expect, it } from 'vitest';
import { cabinRank, levelMessages, type AreaCompletion } from '../../src/app/features/cruise/levelMessages';

describe('cabin rank', () => {
  it('is 4 under 5 %, 3 under 10 %, 2 under 20 %, 1 under 50 %, otherwise 0', () => {
    expect([0, 4, 5, 9, 10, 19, 20, 49, 50, 100].map((done) => cabinRank(done, 100))).toEqual([
      4, 4, 3, 3, 2, 2, 1, 1, 0, 0,
    ]);
  });
});

describe('messages after a completed area', () => {
  const base: AreaCompletion = {
    course: 'season2',
    before: { level_id: 1, type: 'regular', done_area_ids: [1] },
    after: { level_id: 1, type: 'regular', done_area_ids: [1, 2] },
    levelAreaIds: [1, 2, 3],
    totalAreas: 100,
  };

  it('says nothing when the volunteer stays on the level and the cabin rank', () => {
    expect(levelMessages(base)).toEqual([]);
  });

  it('adds the passport stamp when the last area of the level is done, then the level change', () => {
    expect(
      levelMessages({
        ...base,
        before: { ...base.before, done_area_ids: [1, 2] },
        after: { level_id: 2, type: 'regular', done_area_ids: [1, 2, 3] },
      }),
    ).toEqual(['stamp', 'levelChange']);
  });

  it('upgrades the cabin in season2 only', () => {
    const crossing = {
      ...base,
      before: { ...base.before, done_area_ids: [1, 2, 3, 4] },
      after: { ...base.after!, done_area_ids: [1, 2, 3, 4, 5] },
    };
    expect(levelMessages(crossing)).toEqual(['cabin']);
    expect(levelMessages({ ...crossing, course: 'training' })).toEqual([]);
  });

  it('keeps the order stamp, cabin, greed, tunnel effect', () => {
    const done = Array.from({ length: 4 }, (_, index) => index + 1);
    expect(
      levelMessages({
        ...base,
        before: { level_id: 1, type: 'regular', done_area_ids: done },
        after: { level_id: 2, type: 'greed', done_area_ids: [...done, 5] },
        levelAreaIds: [1, 2, 3, 4, 5],
      }),
    ).toEqual(['stamp', 'cabin', 'enterGreed']);
    expect(
      levelMessages({ ...base, before: { ...base.before, type: 'greed' }, after: { ...base.after!, level_id: 3 } }),
    ).toEqual(['leaveGreed']);
    expect(levelMessages({ ...base, after: { ...base.after!, level_id: 4, type: 'tunnel_effect' } })).toEqual([
      'enterTunnel',
    ]);
  });

  it('ends with the course completion dialog when the course has no galaxy left', () => {
    expect(levelMessages({ ...base, after: null })).toEqual(['courseCompleted']);
  });

  it('stamps the passport for the last level of a course too, before the completion dialog', () => {
    expect(
      levelMessages({
        ...base,
        course: 'illustris',
        before: { ...base.before, done_area_ids: [1, 2] },
        after: null,
        doneAfter: [1, 2, 3],
      }),
    ).toEqual(['stamp', 'courseCompleted']);
  });

  it('stamps only the passport’s courses (season2, final_campaign, illustris)', () => {
    const levelDone = { ...base, before: { ...base.before, done_area_ids: [1, 2] }, doneAfter: [1, 2, 3] };
    expect(levelMessages({ ...levelDone, course: 'final_campaign', after: null })).toEqual([
      'stamp',
      'courseCompleted',
    ]);
    expect(levelMessages({ ...levelDone, course: 'training', after: null })).toEqual(['courseCompleted']);
  });

  it('shows the final dialog when every season2 area rank is reached (the top cabin), after the level messages', () => {
    const done = Array.from({ length: 49 }, (_, index) => index + 1);
    expect(
      levelMessages({
        ...base,
        before: { level_id: 1, type: 'greed', done_area_ids: done },
        after: { level_id: 2, type: 'regular', done_area_ids: [...done, 50] },
        levelAreaIds: [50],
      }),
    ).toEqual(['stamp', 'cabin', 'leaveGreed', 'finalRank']);
    // Once at the top, later areas do not repeat it.
    expect(
      levelMessages({
        ...base,
        before: { ...base.before, done_area_ids: [...done, 50] },
        after: { ...base.after!, done_area_ids: [...done, 50, 51] },
      }),
    ).toEqual([]);
  });
});
