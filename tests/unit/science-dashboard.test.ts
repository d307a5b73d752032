// The research dashboard's data shaping (src/app/features/science-dashboard/shape.ts, format.ts):
// the link that flies the globe to a disputed target, the export download's address, level names
// with their language, the days, the confidence histogram's bins and the accuracy lines, and the
// numbers in English and Japanese.
import { describe, expect, it } from 'vitest';
import { viewFromHash } from '../../src/app/components/globe/viewLink';
import { dashboardFormats } from '../../src/app/features/science-dashboard/format';
import {
  accuracyRows,
  confidenceRows,
  dailyRows,
  exportPath,
  levelName,
  share,
  targetViewPath,
  TARGET_VIEW_FOV,
} from '../../src/app/features/science-dashboard/shape';
import { PROGRESS_ROWS, levelRows } from '../../server/science/dashboard';
import type { ScienceAccuracyPoint, ScienceLevelProgress } from '../../shared/science';

const DEGREE = Math.PI / 180;
const name = (courseId: string) => courseId.toUpperCase();

describe("a disputed target's link", () => {
  it('opens the main screen at the target, zoomed in to about three arcminutes', () => {
    const path = targetViewPath({ ra: 150.1163, dec: -2.2058 });
    expect(path).toBe('/?ra=150.11630&dec=-2.20580&fov=0.05000');
    const view = viewFromHash(`#${path}`);
    expect(view.phi! / DEGREE).toBeCloseTo(150.1163, 5);
    expect(90 - view.theta! / DEGREE).toBeCloseTo(-2.2058, 5);
    expect(view.fovy! / DEGREE).toBeCloseTo(TARGET_VIEW_FOV, 6);
  });
});

describe("a course's export download", () => {
  it('names the course and the format', () => {
    expect(exportPath('season2', 'csv')).toBe('/api/admin/courses/season2/export?format=csv');
    expect(exportPath('final_campaign', 'votable')).toBe('/api/admin/courses/final_campaign/export?format=votable');
    expect(exportPath('a b/c', 'fits')).toBe('/api/admin/courses/a%20b%2Fc/export?format=fits');
    expect(exportPath('season2', 'fits', 'answers')).toBe(
      '/api/admin/courses/season2/export?format=fits&table=answers',
    );
    expect(exportPath('season2', 'csv', 'volunteers')).toBe(
      '/api/admin/courses/season2/export?format=csv&table=volunteers',
    );
    expect(exportPath('season2', 'csv', 'catalogue')).toBe('/api/admin/courses/season2/export?format=csv');
  });
});

describe('level names', () => {
  const level = (name: Record<string, string>): ScienceLevelProgress => ({
    level_id: 1,
    key: 'level_1',
    name,
    targets: 10,
    answered: 4,
    retired: 1,
  });

  it("are in the page's language, else English marked as such, else the level's key", () => {
    expect(levelName(level({ en: 'Stage 1', ja: 'ステージ1' }), 'ja')).toEqual({ text: 'ステージ1' });
    expect(levelName(level({ en: 'Stage 1', ja: 'ステージ1' }), 'en')).toEqual({ text: 'Stage 1' });
    expect(levelName(level({ en: 'Stage 1' }), 'ja')).toEqual({ text: 'Stage 1', lang: 'en' });
    expect(levelName(level({}), 'ja')).toEqual({ text: 'level_1', lang: 'en' });
  });
});

describe("a course's rows in the progress table", () => {
  const level = (index: number): ScienceLevelProgress => ({
    level_id: 1000 + index,
    key: `survey/${index}`,
    name: { en: `Survey ${index}` },
    targets: 10,
    answered: index % 3,
    retired: index % 2,
  });

  it('lists a course of at most PROGRESS_ROWS levels level by level', () => {
    const levels = Array.from({ length: PROGRESS_ROWS }, (_, index) => level(index + 1));
    expect(levelRows(levels)).toEqual(levels);
  });

  it('sums a course of thousands of levels into at most PROGRESS_ROWS runs, every level in one', () => {
    const levels = Array.from({ length: 10_000 }, (_, index) => level(index + 1));
    const rows = levelRows(levels);
    expect(rows.length).toBeLessThanOrEqual(PROGRESS_ROWS);
    expect(rows[0]).toMatchObject({ level_id: 1001, key: 'survey/1', levels: { first: 1, last: 417 }, targets: 4170 });
    expect(rows.at(-1)!.levels!.last).toBe(10_000);
    for (const [index, row] of rows.entries())
      if (index > 0) expect(row.levels!.first).toBe(rows[index - 1].levels!.last + 1);
    const total = (key: 'targets' | 'answered' | 'retired', list: readonly ScienceLevelProgress[]) =>
      list.reduce((sum, entry) => sum + entry[key], 0);
    for (const key of ['targets', 'answered', 'retired'] as const) expect(total(key, rows)).toBe(total(key, levels));
  });
});

describe('days', () => {
  it("are local midnights of the server's dates, in order", () => {
    const rows = dailyRows([
      { day: '2026-02-28', answers: 3, volunteers: 2 },
      { day: '2026-03-01', answers: 0, volunteers: 0 },
    ]);
    expect(rows.map((row) => [row.date.getFullYear(), row.date.getMonth() + 1, row.date.getDate()])).toEqual([
      [2026, 2, 28],
      [2026, 3, 1],
    ]);
    expect(rows.map((row) => row.date.getHours())).toEqual([0, 0]);
    expect(rows[0]).toMatchObject({ answers: 3, volunteers: 2 });
  });
});

describe('the confidence histogram', () => {
  it("gives each bin both edges, keeps the courses' order and leaves out courses without targets", () => {
    const rows = confidenceRows(
      [
        { course_id: 'training', lower: 0.95, targets: 4 },
        { course_id: 'season2', lower: 0.5, targets: 0 },
        { course_id: 'training', lower: 0.5, targets: 1 },
        { course_id: 'illustris', lower: 0.55, targets: 2 },
      ],
      ['season2', 'illustris', 'training'],
      name,
    );
    expect(rows).toEqual([
      { course: 'ILLUSTRIS', from: 0.55, to: 0.6, targets: 2 },
      { course: 'TRAINING', from: 0.5, to: 0.55, targets: 1 },
      { course: 'TRAINING', from: 0.95, to: 1, targets: 4 },
    ]);
  });
});

describe('the accuracy lines', () => {
  const point = (votes: number, targets: number, crowd: number, single: number): ScienceAccuracyPoint => ({
    course_id: 'season2',
    votes,
    targets,
    crowd_accuracy: crowd,
    volunteer_accuracy: single,
  });

  it("are two per course, the crowd's and a single volunteer's; the last point holds more votes", () => {
    const rows = accuracyRows([point(3, 5, 0.9, 0.8), point(1, 2, 0.5, 0.5)], ['season2'], name);
    expect(rows).toEqual([
      { course: 'SEASON2', votes: 1, orMore: false, series: 'crowd', accuracy: 0.5, targets: 2 },
      { course: 'SEASON2', votes: 1, orMore: false, series: 'volunteer', accuracy: 0.5, targets: 2 },
      { course: 'SEASON2', votes: 3, orMore: true, series: 'crowd', accuracy: 0.9, targets: 5 },
      { course: 'SEASON2', votes: 3, orMore: true, series: 'volunteer', accuracy: 0.8, targets: 5 },
    ]);
  });

  it('leave out points without targets, whose accuracy means nothing', () => {
    const rows = accuracyRows([point(1, 2, 0.5, 0.5), point(2, 0, 0, 0)], ['season2', 'training'], name);
    expect(rows.map((row) => [row.votes, row.orMore])).toEqual([
      [1, false],
      [1, false],
    ]);
  });
});

describe('numbers', () => {
  it("are written in the page's language", () => {
    const en = dashboardFormats('en');
    const ja = dashboardFormats('ja');
    expect(en.count(12345)).toBe('12,345');
    expect(en.percent(0.9653)).toBe('96.5%');
    expect(en.percent(null)).toBe('–');
    expect(en.probability(0.5)).toBe('0.50');
    expect(en.degrees(150.1163)).toBe('150.11630');
    expect(ja.shortDay(new Date(2026, 10, 27))).toBe('11/27');
    expect(ja.day(new Date(2026, 10, 27))).toBe('2026/11/27');
    expect(en.day(new Date(2026, 10, 27))).toBe('Nov 27, 2026');
  });

  it('share is 0 of nothing', () => {
    expect(share(3, 4)).toBe(0.75);
    expect(share(0, 0)).toBe(0);
  });
});
