// The mypage's cabin rank and certificates (application-spec §4, §9), in the spec's words.
import { describe, expect, it } from 'vitest';
import type { QuestRecord } from '../../shared/api';
import { cabin, certificates, completionDate, finishedAreaCount } from '../../src/app/features/mypage/rewards';

let nextId = 1;
function quest(area_id: number, finished_at: string | null): QuestRecord {
  return {
    id: nextId++,
    area_id,
    course_id: 'season2',
    level_key: 'season2-test',
    created_at: '2024-01-01T00:00:00Z',
    finished_at,
  };
}

/** `finished` distinct areas finished, one a day from 2024-01-01. */
function finishedQuests(finished: number): QuestRecord[] {
  return Array.from({ length: finished }, (_, k) => quest(k + 1, new Date(Date.UTC(2024, 0, 1 + k)).toISOString()));
}

describe('cabin rank by share of season2 areas finished: under 5% is 4, under 10% is 3, under 20% is 2, under 50% is 1, otherwise 0 (Delux); stars shown are four minus the rank', () => {
  it.each([
    [0, 4, 0],
    [4, 4, 0],
    [5, 3, 1],
    [9, 3, 1],
    [10, 2, 2],
    [19, 2, 2],
    [20, 1, 3],
    [49, 1, 3],
    [50, 0, 4],
    [100, 0, 4],
  ])('%i of 100 areas finished: rank %i, %i stars', (finished, rank, stars) => {
    expect(cabin(finishedQuests(finished), 100)).toEqual({ rank, stars });
  });

  it('counts distinct finished areas: an unfinished quest or a second quest of an area adds nothing', () => {
    const quests = [...finishedQuests(5), quest(1, '2024-03-01T00:00:00Z'), quest(6, null)];
    expect(finishedAreaCount(quests)).toBe(5);
    expect(cabin(quests, 100).rank).toBe(3);
  });

  it('a course without areas leaves the rank at 4 (no stars)', () => {
    expect(cabin([], 0)).toEqual({ rank: 4, stars: 0 });
  });
});

describe('certificates', () => {
  it('the regular-course certificate shows when the number of distinct finished areas equals the total areas of the course', () => {
    expect(certificates({ quests: finishedQuests(3), totalAreas: 4, levelStatuses: ['unlocked', 'active'] })).toEqual(
      [],
    );
    expect(certificates({ quests: finishedQuests(4), totalAreas: 4, levelStatuses: ['unlocked', 'active'] })).toEqual([
      { kind: 'course', completedAt: '2024-01-04T00:00:00.000Z' },
    ]);
  });

  it('the second certificate shows when every level of the course has status unlocked', () => {
    expect(
      certificates({ quests: finishedQuests(4), totalAreas: 4, levelStatuses: ['unlocked', 'unlocked'] }).map(
        (certificate) => certificate.kind,
      ),
    ).toEqual(['course', 'levels']);
    expect(certificates({ quests: finishedQuests(4), totalAreas: 4, levelStatuses: [] })).toHaveLength(1);
  });

  it('the completion date is the finish time of the quest that completed the last distinct area', () => {
    // Area 2 is finished twice; the later replay does not move the date, area 3 finishing does.
    const quests = [
      quest(1, '2024-02-01T10:00:00Z'),
      quest(2, '2024-02-02T10:00:00Z'),
      quest(2, '2024-02-05T10:00:00Z'),
      quest(3, '2024-02-03T10:00:00Z'),
      quest(4, null),
    ];
    expect(completionDate(quests)).toBe('2024-02-03T10:00:00Z');
    expect(certificates({ quests, totalAreas: 3, levelStatuses: ['unlocked'] })).toEqual([
      { kind: 'course', completedAt: '2024-02-03T10:00:00Z' },
      { kind: 'levels', completedAt: '2024-02-03T10:00:00Z' },
    ]);
  });

  it('no certificate without a finished quest', () => {
    expect(certificates({ quests: [], totalAreas: 0, levelStatuses: [] })).toEqual([]);
  });
});
