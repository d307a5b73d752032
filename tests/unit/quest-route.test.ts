// The path overlay in the application: the quest's route through its targets, each leg stopping
// short of the targets' markers (viewer-spec §1 "A path (polyline) overlay", application-spec
// §9's default colour).
import { describe, expect, it } from 'vitest';
import { PATH_DEFAULTS, gappedLegs, type PathPoint } from '../../src/globe/layers/path';
import { TARGET_STYLES } from '../../src/globe/layers/targets';
import { ROUTE_GAP, questRoute } from '../../src/app/components/globe/useQuestRoute';

const ARCSECOND = Math.PI / (180 * 3600);

/** Angle between two unit vectors, radians, stable for short arcs. */
function between(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return 2 * Math.asin(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) / 2);
}

function vector([ra, dec]: PathPoint): number[] {
  const r = (ra * Math.PI) / 180;
  const d = (dec * Math.PI) / 180;
  return [Math.cos(d) * Math.cos(r), Math.cos(d) * Math.sin(r), Math.sin(d)];
}

describe('quest route', () => {
  it('runs through the targets in the quest order, as one polyline of [ra, dec]', () => {
    const targets = [
      { ra: 150.1, dec: 2.2, object_id: 3 },
      { ra: 150.3, dec: 2.1, object_id: 1 },
      { ra: 149.9, dec: 2.5, object_id: 2 },
    ];
    expect(questRoute(targets)).toEqual([
      [
        [150.1, 2.2],
        [150.3, 2.1],
        [149.9, 2.5],
      ],
    ]);
  });

  it('draws nothing for a quest of fewer than 2 targets (a path needs 2 points)', () => {
    expect(questRoute([])).toEqual([]);
    expect(questRoute([{ ra: 1, dec: 2 }])).toEqual([]);
  });

  it('leaves the largest marker clear: the current ring, 18 px and its 3 px stroke, and 3 px more', () => {
    expect(TARGET_STYLES.current.radius + TARGET_STYLES.current.stroke).toBe(21);
    expect(ROUTE_GAP).toBe(24);
  });

  it('stops each leg the gap short of both its points, and leaves out legs shorter than both gaps', () => {
    // Quest targets arc-seconds apart, as in a survey area: 60″ and 10″ legs, a 20″ gap.
    const points: PathPoint[] = [
      [215, 51.88],
      [215 + 60 / 3600 / Math.cos((51.88 * Math.PI) / 180), 51.88],
      [215 + 60 / 3600 / Math.cos((51.88 * Math.PI) / 180), 51.88 + 10 / 3600],
    ];
    const gap = 20 * ARCSECOND;
    const legs = gappedLegs(points, gap);
    expect(legs).toHaveLength(1);
    const [start, end] = legs[0];
    expect(between(start, vector(points[0])) / ARCSECOND).toBeCloseTo(20, 1);
    expect(between(end, vector(points[1])) / ARCSECOND).toBeCloseTo(20, 1);
    expect(between(start, end) / ARCSECOND).toBeCloseTo(20, 1);
    expect(gappedLegs(points, 0)).toHaveLength(2);
  });

  it('joins the points with no gap by default, in the default colour of viewer-spec §3', () => {
    expect(PATH_DEFAULTS.vertexGap).toBe(0);
    expect(PATH_DEFAULTS.color).toEqual([0.25, 0.5, 1, 0.5]);
    expect(() => gappedLegs([[1, 2]], 0)).toThrow('Path must include more than 2 points');
  });
});
