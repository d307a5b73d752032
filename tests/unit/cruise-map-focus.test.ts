// The cruise map's opening view: on the active level, or after a finished course on the level
// finished last, never between levels that lie far apart on the sky.
import { describe, expect, it } from 'vitest';
import type { LevelOutline } from '../../src/globe/layers/level-outlines';
import { mapFocus, mapView } from '../../src/app/features/mypage/CruiseMap';

const DEGREE = Math.PI / 180;

/** A square level outline of 2° around ra, dec. */
function level(status: LevelOutline['status'], ra: number, dec: number): LevelOutline {
  return {
    status,
    outlines: [
      [
        [ra - 1, dec - 1],
        [ra + 1, dec - 1],
        [ra + 1, dec + 1],
        [ra - 1, dec + 1],
      ],
    ],
  };
}

describe('the cruise map opens', () => {
  const season = [level('unlocked', 35, -5), level('unlocked', 150, 2), level('unlocked', 242, 55)];

  it('after a finished course on the level finished last, at a field that shows its outline', () => {
    const focus = mapFocus(season);
    expect(focus).toEqual([season[2]]);
    const view = mapView(focus);
    expect(90 - view.theta / DEGREE).toBeCloseTo(55, 0);
    expect(view.fovy).toBeLessThan(15 * DEGREE);
    // All three levels at once: centred far from every one of them, at the widest field.
    const all = mapView(season);
    expect(all.fovy).toBeGreaterThan(90 * DEGREE);
  });

  it('on the active levels while the course goes on', () => {
    const going = [level('unlocked', 35, -5), level('active', 150, 2), level('locked', 242, 55)];
    expect(mapFocus(going)).toEqual([going[1]]);
  });

  it('on every level when none is active or finished', () => {
    const locked = [level('locked', 35, -5), level('locked', 150, 2)];
    expect(mapFocus(locked)).toEqual(locked);
  });
});
