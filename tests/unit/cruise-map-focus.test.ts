// The cruise map's opening view: the whole course, its levels round the sky in one planisphere;
// the levels where the volunteer sails (mapFocus): the active level, or after a finished course
// the level finished last.
import { describe, expect, it } from 'vitest';
import { Camera } from '../../src/globe/camera';
import type { LevelOutline } from '../../src/globe/layers/level-outlines';
import { MAP_MAX_FOVY, mapFocus, mapView } from '../../src/app/features/mypage/CruiseMap';
import { canvasPoint } from '../../src/app/features/mypage/mapLabels';

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

  it("on the whole course: season2's fields round the sky, each level's corners inside the map", () => {
    // HSC-SSP's fields (skydata/surveys.ts): XMM-LSS, COSMOS, GAMA09h, WIDE12h, GAMA15h, ELAIS-N1,
    // HECTOMAP, VVDS, DEEP2-3.
    const fields = [
      level('unlocked', 35, -5),
      level('unlocked', 150, 2),
      level('unlocked', 135, 0),
      level('unlocked', 180, 0),
      level('unlocked', 217, 0),
      level('unlocked', 242, 55),
      level('active', 245, 43),
      level('locked', 337, 0),
      level('locked', 352, -1),
    ];
    const camera = new Camera();
    camera.max_fovy = MAP_MAX_FOVY;
    Object.assign(camera, mapView(fields, 3 * DEGREE, MAP_MAX_FOVY));
    camera.normalize();
    // The voyage log's map is wider than tall (about 16:10).
    const [width, height] = [640, 400];
    for (const field of fields)
      for (const [ra, dec] of field.outlines[0]) {
        const point = canvasPoint(camera, width, height, ra, dec);
        expect(point, `${ra}, ${dec} in front`).not.toBeNull();
        expect(point!.x).toBeGreaterThan(0);
        expect(point!.x).toBeLessThan(width);
        expect(point!.y).toBeGreaterThan(0);
        expect(point!.y).toBeLessThan(height);
      }
    // At the main globe's widest field (2 radians) the same view would cut most of them off.
    camera.fovy = 2;
    const cut = fields.filter((field) => {
      const point = canvasPoint(camera, width, height, field.outlines[0][0][0], field.outlines[0][0][1]);
      return !point || point.y < 0 || point.y > height || point.x < 0 || point.x > width;
    });
    expect(cut.length).toBeGreaterThan(0);
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
