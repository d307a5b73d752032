// The planner of areas from positions (skydata/areas.ts), shared by the generated sky and
// `galaxy-cruise import` (issue 30).
import { describe, expect, it } from 'vitest';
import { OUTLINE_INSET, planPositions, TARGET_MARGIN, tractFootprint, type SkyPosition } from '../../skydata/areas';
import { PIXEL_SCALE, planSky, tractSize } from '../../skydata/plan';
import { separation, skyToPixel } from '../../skydata/wcs';

const options = { perArea: 8, areasPerLevel: 3, maxRadius: 0.25, arcsecPerPixel: PIXEL_SCALE, minSize: 2048 };

/** `count` positions scattered by a fixed rule within `spread` degrees of (ra, dec). */
function scatter(
  count: number,
  ra: number,
  dec: number,
  spread: number,
  firstId = 0,
): (SkyPosition & { id: number })[] {
  return Array.from({ length: count }, (_, index) => {
    const angle = index * 2.399963; // the golden angle: an even, deterministic scatter
    const radius = spread * Math.sqrt((index + 0.5) / count);
    return {
      id: firstId + index,
      ra: (ra + (radius * Math.cos(angle)) / Math.cos((dec * Math.PI) / 180) + 360) % 360,
      dec: dec + radius * Math.sin(angle),
    };
  });
}

describe('tractFootprint', () => {
  it("is the generated sky's tract and outline: planSky's areas are its footprints", () => {
    const size = tractSize(true);
    for (const level of planSky({ seed: 7, small: true }))
      for (const area of level.areas) {
        const footprint = tractFootprint(area.centre, size, PIXEL_SCALE);
        expect(area.wcs).toEqual(footprint.wcs);
        expect(area.outline).toEqual(footprint.outline);
      }
  });

  it('insets the outline by 4 % of the tract side', () => {
    const { wcs, outline } = tractFootprint([150, 2], 1000, PIXEL_SCALE);
    const corners = outline.map(([ra, dec]) => skyToPixel(wcs, ra, dec));
    const inset = 1000 * OUTLINE_INSET + 0.5;
    expect(corners.map(([x, y]) => [x, y].map((value) => Math.round(value * 1e6) / 1e6))).toEqual([
      [inset, inset],
      [1000 - inset + 1, inset],
      [1000 - inset + 1, 1000 - inset + 1],
      [inset, 1000 - inset + 1],
    ]);
  });
});

describe('planPositions', () => {
  const targets = [...scatter(45, 40, 30, 0.2), ...scatter(21, 210, -5, 0.1, 100), ...scatter(3, 359.99, 0, 0.02, 200)];
  const levels = planPositions(targets, options);
  const areas = levels.flat();

  it('places every target in exactly one area, at most 8 to an area and 3 areas to a level', () => {
    const placed = areas.flatMap((area) => area.members.map((member) => (member as { id: number }).id));
    expect(placed.sort((a, b) => a - b)).toEqual(targets.map((target) => target.id).sort((a, b) => a - b));
    for (const area of areas) expect(area.members.length).toBeLessThanOrEqual(8);
    for (const level of levels) expect(level.length).toBeLessThanOrEqual(3);
    expect(levels.slice(0, -1).every((level) => level.length === 3)).toBe(true);
  });

  it("keeps an area's targets within its radius, so far-apart fields never share an area", () => {
    for (const area of areas) {
      const [first] = area.members;
      for (const member of area.members)
        expect(separation(first.ra, first.dec, member.ra, member.dec)).toBeLessThanOrEqual(options.maxRadius);
    }
  });

  it('keeps every target inside its tract with the margin, also across ra 0', () => {
    for (const area of areas) {
      const size = area.wcs.NAXIS1;
      expect(size).toBeGreaterThanOrEqual(options.minSize);
      for (const member of area.members) {
        const [x, y] = skyToPixel(area.wcs, member.ra, member.dec);
        for (const value of [x, y]) {
          expect(value).toBeGreaterThanOrEqual(size * TARGET_MARGIN);
          expect(value).toBeLessThanOrEqual(size * (1 - TARGET_MARGIN) + 1);
        }
      }
    }
  });

  it('grows a tract to hold a wide area, and keeps a close one at the smallest side', () => {
    const wide = planPositions(scatter(8, 100, 10, 0.1), options).flat();
    expect(wide).toHaveLength(1);
    expect(wide[0].wcs.NAXIS1).toBeGreaterThan(options.minSize);
    const close = planPositions(scatter(8, 100, 10, 0.001), options).flat();
    expect(close[0].wcs.NAXIS1).toBe(options.minSize);
  });

  it('plans the same course from the same list', () => {
    expect(planPositions(targets, options)).toEqual(levels);
  });
});
