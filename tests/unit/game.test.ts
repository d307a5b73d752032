// The pure game rules of server/game/ (ARCHITECTURE.md, the game model), without HTTP or a database.
import { describe, expect, it } from 'vitest';
import { crossesMedal, inWindow } from '../../server/game/campaigns';
import {
  LEVEL_WINDOW,
  LEVELS_BEHIND,
  activeLevel,
  completesLevel,
  levelStatuses,
  levelWindow,
} from '../../server/game/levels';
import { nearestNotDoneArea } from '../../server/game/quests';
import { periodStart } from '../../server/game/rankings';
import { recommendCourse } from '../../server/game/recommend';
import { angularDistance, outlineCentre } from '../../core/sky-points';

describe('sky positions: area centres and great-circle distances', () => {
  it('measures great-circle distances in degrees', () => {
    expect(angularDistance([10, 0], [10, 0])).toBe(0);
    expect(angularDistance([0, 0], [90, 0])).toBeCloseTo(90, 10);
    expect(angularDistance([0, 90], [123, -90])).toBeCloseTo(180, 10);
    // One degree of RA at Dec 60° is half a degree on the sky.
    expect(angularDistance([100, 60], [101, 60])).toBeCloseTo(0.5, 3);
    // Across RA 0/360.
    expect(angularDistance([359.5, 0], [0.5, 0])).toBeCloseTo(1, 10);
  });

  it('centres an outline on its vertices, also across RA 0/360', () => {
    const [ra, dec] = outlineCentre([
      [
        [149, 1],
        [151, 1],
        [151, 3],
        [149, 3],
      ],
    ]);
    expect(ra).toBeCloseTo(150, 6);
    expect(dec).toBeCloseTo(2, 2);
    const [wrapRa, wrapDec] = outlineCentre([
      [
        [359, -1],
        [1, -1],
        [1, 1],
        [359, 1],
      ],
    ]);
    expect(Math.min(wrapRa, 360 - wrapRa)).toBeCloseTo(0, 6);
    expect(wrapDec).toBeCloseTo(0, 6);
    expect(() => outlineCentre([[]])).toThrow('at least one point');
  });
});

describe('level status per user: locked, active, unlocked', () => {
  const levels = [
    { id: 1, areaIds: [11, 12] },
    { id: 2, areaIds: [21] },
    { id: 3, areaIds: [31, 32] },
  ];

  it('starts with the first level active and the rest locked', () => {
    expect([...levelStatuses(levels, new Set())]).toEqual([
      [1, 'active'],
      [2, 'locked'],
      [3, 'locked'],
    ]);
  });

  it('marks a level unlocked when all its areas are done and activates the next', () => {
    expect([...levelStatuses(levels, new Set([11]))].map(([, status]) => status)).toEqual([
      'active',
      'locked',
      'locked',
    ]);
    expect([...levelStatuses(levels, new Set([11, 12]))].map(([, status]) => status)).toEqual([
      'unlocked',
      'active',
      'locked',
    ]);
    expect(activeLevel(levels, new Set([11, 12, 21]))?.id).toBe(3);
  });

  it('has no active level when the course is exhausted', () => {
    const all = new Set([11, 12, 21, 31, 32]);
    expect([...levelStatuses(levels, all).values()]).toEqual(['unlocked', 'unlocked', 'unlocked']);
    expect(activeLevel(levels, all)).toBeUndefined();
  });

  it('counts a level without playable areas as done', () => {
    expect(
      levelStatuses(
        [
          { id: 1, areaIds: [] },
          { id: 2, areaIds: [5] },
        ],
        new Set(),
      ).get(2),
    ).toBe('active');
  });

  it('knows the answer that completes a level, once', () => {
    expect(completesLevel(levels[0], new Set([11]), 12)).toBe(true);
    expect(completesLevel(levels[0], new Set(), 12)).toBe(false);
    // Already done before: finishing it again (a replay) unlocks nothing new.
    expect(completesLevel(levels[0], new Set([11, 12]), 12)).toBe(false);
    expect(completesLevel(levels[0], new Set([11]), 21)).toBe(false);
  });
});

describe('a new quest: the nearest not-done area of the active level', () => {
  const areas = [
    { id: 1, centre: [214.8, 52.7] as [number, number] },
    { id: 2, centre: [150.1, 2.2] as [number, number] },
    { id: 3, centre: [217.5, 0.5] as [number, number] },
  ];

  it('starts at the first area when the ship has no position', () => {
    expect(nearestNotDoneArea(areas, new Set(), undefined)?.id).toBe(1);
    expect(nearestNotDoneArea(areas, new Set([1]), undefined)?.id).toBe(2);
  });

  it('picks the nearest open area to the ship, not the next in order', () => {
    expect(nearestNotDoneArea(areas, new Set([1]), [214.8, 52.7])?.id).toBe(3);
    expect(nearestNotDoneArea(areas, new Set([1, 3]), [217.5, 0.5])?.id).toBe(2);
    expect(nearestNotDoneArea(areas, new Set([1, 2, 3]), [0, 0])).toBeUndefined();
  });
});

describe('campaigns: new_record when an answer crosses a medal count', () => {
  const medals = [{ count: 10 }, { count: 50 }];

  it('is true only for the answer that reaches a medal count', () => {
    expect(crossesMedal(medals, 8, 9)).toBe(false);
    expect(crossesMedal(medals, 9, 10)).toBe(true);
    expect(crossesMedal(medals, 10, 11)).toBe(false);
    expect(crossesMedal(medals, 49, 50)).toBe(true);
    expect(crossesMedal([], 0, 1)).toBe(false);
  });

  it('includes both ends of the window', () => {
    const period = {
      period_begin: new Date('2026-11-01T00:00:00+09:00'),
      period_end: new Date('2027-02-28T23:59:59+09:00'),
    };
    expect(inWindow(period, new Date('2026-10-31T15:00:00Z'))).toBe(true);
    expect(inWindow(period, new Date('2026-10-31T14:59:59.999Z'))).toBe(false);
    expect(inWindow(period, new Date('2027-02-28T14:59:59Z'))).toBe(true);
    expect(inWindow(period, new Date('2027-02-28T15:00:00Z'))).toBe(false);
  });
});

describe('ranking periods start in the server time zone', () => {
  // 2026-11-25 (a Wednesday) 08:30 UTC is 17:30 in Tokyo.
  const now = new Date('2026-11-25T08:30:12.345Z');

  it('in Asia/Tokyo (+09:00): hour, day, ISO week (Monday) and month', () => {
    expect(periodStart('hour', now, 'Asia/Tokyo').toISOString()).toBe('2026-11-25T08:00:00.000Z');
    expect(periodStart('day', now, 'Asia/Tokyo').toISOString()).toBe('2026-11-24T15:00:00.000Z');
    expect(periodStart('week', now, 'Asia/Tokyo').toISOString()).toBe('2026-11-22T15:00:00.000Z');
    expect(periodStart('month', now, 'Asia/Tokyo').toISOString()).toBe('2026-10-31T15:00:00.000Z');
  });

  it('the Tokyo day turns at 15:00 UTC', () => {
    expect(periodStart('day', new Date('2026-11-25T14:59:59Z'), 'Asia/Tokyo').toISOString()).toBe(
      '2026-11-24T15:00:00.000Z',
    );
    expect(periodStart('day', new Date('2026-11-25T15:00:00Z'), 'Asia/Tokyo').toISOString()).toBe(
      '2026-11-25T15:00:00.000Z',
    );
    // A Sunday night in Tokyo is still the week that began on Monday the 23rd.
    expect(periodStart('week', new Date('2026-11-29T14:00:00Z'), 'Asia/Tokyo').toISOString()).toBe(
      '2026-11-22T15:00:00.000Z',
    );
  });

  it('in UTC and across a daylight-saving change (America/New_York)', () => {
    expect(periodStart('month', now, 'UTC').toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(periodStart('week', now, 'UTC').toISOString()).toBe('2026-11-23T00:00:00.000Z');
    // New York left DST on 2026-11-01: the month began at 00:00 EDT (-04:00), now is EST.
    expect(periodStart('month', now, 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(periodStart('day', now, 'America/New_York').toISOString()).toBe('2026-11-25T05:00:00.000Z');
    // India's half-hour offset: 08:30:12 UTC is 14:00:12 in Kolkata.
    expect(periodStart('hour', now, 'Asia/Kolkata').toISOString()).toBe('2026-11-25T08:30:00.000Z');
    expect(periodStart('hour', new Date('2026-11-25T08:29:59Z'), 'Asia/Kolkata').toISOString()).toBe(
      '2026-11-25T07:30:00.000Z',
    );
  });
});

describe('recommended_course', () => {
  it('is training until the user has answered, then the course of the latest unfinished quest, else none', () => {
    expect(recommendCourse(false, undefined)).toBe('training');
    expect(recommendCourse(false, 'season2')).toBe('training');
    expect(recommendCourse(true, 'illustris')).toBe('illustris');
    expect(recommendCourse(true, undefined)).toBeNull();
  });
});

describe('the levels GET /api/levels lists of a long course (levelWindow)', () => {
  // Levels of two areas each: level k has areas 10k + 1 and 10k + 2.
  const course = (count: number) =>
    Array.from({ length: count }, (_, index) => ({
      id: index + 1,
      areaIds: [10 * (index + 1) + 1, 10 * (index + 1) + 2],
    }));
  const passedThrough = (last: number) =>
    new Set(Array.from({ length: last }, (_, index) => [10 * (index + 1) + 1, 10 * (index + 1) + 2]).flat());
  const ids = (levels: readonly { id: number }[]) => levels.map((level) => level.id);
  /** The window's statuses are those levelStatuses gives the whole course. */
  const expectStatusesOfCourse = (levels: ReturnType<typeof course>, passed: Set<number>) => {
    const window = levelWindow(levels, passed);
    const whole = levelStatuses(levels, passed);
    expect([...window.statuses]).toEqual(window.levels.map((level) => [level.id, whole.get(level.id)]));
    return window;
  };

  it('lists a course of at most LEVEL_WINDOW levels whole, whatever the progress', () => {
    const levels = course(LEVEL_WINDOW);
    for (const passed of [0, 5, LEVEL_WINDOW])
      expect(ids(expectStatusesOfCourse(levels, passedThrough(passed)).levels)).toEqual(ids(levels));
  });

  it('lists LEVEL_WINDOW levels of a longer course from its start while the active level is near it', () => {
    const levels = course(5000);
    const window = expectStatusesOfCourse(levels, passedThrough(3));
    expect(ids(window.levels)).toEqual(Array.from({ length: LEVEL_WINDOW }, (_, index) => index + 1));
    expect(window.statuses.get(4)).toBe('active');
  });

  it('keeps LEVELS_BEHIND passed levels before the active one, the rest locked after it', () => {
    const levels = course(5000);
    const window = expectStatusesOfCourse(levels, passedThrough(1200));
    expect(window.levels).toHaveLength(LEVEL_WINDOW);
    expect(window.levels[0].id).toBe(1201 - LEVELS_BEHIND);
    expect([...window.statuses.values()]).toEqual([
      ...Array<string>(LEVELS_BEHIND).fill('unlocked'),
      'active',
      ...Array<string>(LEVEL_WINDOW - LEVELS_BEHIND - 1).fill('locked'),
    ]);
  });

  it('marks a level past the active one unlocked when all its areas are passed (settled by retirement)', () => {
    const levels = course(5000);
    const passed = passedThrough(1200);
    for (const id of [1211 * 10 + 1, 1211 * 10 + 2]) passed.add(id);
    expect(expectStatusesOfCourse(levels, passed).statuses.get(1211)).toBe('unlocked');
  });

  it('lists the last LEVEL_WINDOW levels once the active level is near the end, or the course is passed', () => {
    const levels = course(5000);
    const last = ids(levels.slice(-LEVEL_WINDOW));
    expect(ids(expectStatusesOfCourse(levels, passedThrough(4995)).levels)).toEqual(last);
    expect(ids(expectStatusesOfCourse(levels, passedThrough(5000)).levels)).toEqual(last);
  });
});
