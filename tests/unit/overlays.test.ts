// The overlay layers' pure parts: path files (viewer-spec §3, §5, §8), sprite packing (§5, §9),
// constellation lines (§3) and level outlines (§4, §9).
import { vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { CONSTELLATIONS } from '../../core/constellations';
import { LINE_VERTEX_FLOATS, LineJoin, BlendMode, NARROW_LINE_MIN_WIDTH, appendLine } from '../../src/globe/lines';
import { constellationVertices } from '../../src/globe/layers/constellations';
import { LEVEL_OUTLINE_COLORS, LEVEL_OUTLINE_WIDTH, levelOutlineVertices } from '../../src/globe/layers/level-outlines';
import { milkyWayToken } from '../../src/globe/layers/milky-way';
import { PATH_DEFAULTS, parsePathFile, pathVectors } from '../../src/globe/layers/path';
import { SPRITE_MARGIN, packSprites } from '../../src/globe/layers/sprites';
import { skyVector } from '../../src/globe/visibility';

describe('path overlay file', () => {
  it('reads a list of polylines of [ra, dec] points', () => {
    expect(parsePathFile('[[[10, 20], [11, 21], [12, 22]], [[0, 0], [1, 1]]]')).toEqual([
      [
        [10, 20],
        [11, 21],
        [12, 22],
      ],
      [
        [0, 0],
        [1, 1],
      ],
    ]);
  });
  it('unwraps an optional $any field', () => {
    expect(parsePathFile('{"$any": [[[1, 2], [3, 4]]]}')).toEqual([
      [
        [1, 2],
        [3, 4],
      ],
    ]);
  });
  it('gives an empty result for JSON that fails to parse', () => {
    expect(parsePathFile('[[[1, 2], [3, 4]')).toEqual([]);
    expect(parsePathFile('')).toEqual([]);
  });
  it("throws 'Path must include more than 2 points' for a polyline of fewer than 2 points", () => {
    expect(() => pathVectors([[1, 2]])).toThrow('Path must include more than 2 points');
    expect(() => pathVectors([])).toThrow('Path must include more than 2 points');
    expect(
      pathVectors([
        [1, 2],
        [3, 4],
      ]),
    ).toHaveLength(2);
  });
  it('defaults: colour (0.25, 0.5, 1, 0.5), ADD blend, MITER joins, 3 px minimum width', () => {
    expect(PATH_DEFAULTS.color).toEqual([0.25, 0.5, 1, 0.5]);
    expect(PATH_DEFAULTS.blend).toBe(BlendMode.ADD);
    expect(PATH_DEFAULTS.join).toBe(LineJoin.MITER);
    expect(PATH_DEFAULTS.minWidth).toBe(NARROW_LINE_MIN_WIDTH);
    expect(NARROW_LINE_MIN_WIDTH).toBe(3);
  });
});

describe('line joins', () => {
  const corner = [skyVector(0, 0), skyVector(10, 0), skyVector(10, 10)];
  it('MITER shares one offset per interior point, lengthened at the corner; NONE draws segments apart', () => {
    const miter: number[] = [];
    appendLine(miter, corner, [1, 1, 1, 1], LineJoin.MITER);
    const none: number[] = [];
    appendLine(none, corner, [1, 1, 1, 1], LineJoin.NONE);
    expect(miter.length / LINE_VERTEX_FLOATS).toBe(12);
    expect(none.length / LINE_VERTEX_FLOATS).toBe(12);
    // The offset at the corner (the second segment's first vertex): √2 long for a right angle.
    const offsetAt = (out: number[], vertex: number) =>
      vec3.length(out.slice(vertex * LINE_VERTEX_FLOATS + 3, vertex * LINE_VERTEX_FLOATS + 6) as unknown as vec3);
    expect(offsetAt(miter, 6)).toBeCloseTo(Math.SQRT2, 2);
    expect(offsetAt(none, 6)).toBeCloseTo(1, 6);
  });
});

describe('sprite packing (2 px margin)', () => {
  it('places every image with 2 px around it, never overlapping', () => {
    const sizes = new Map([
      ['a', { width: 30, height: 20 }],
      ['b', { width: 10, height: 40 }],
      ['c', { width: 25, height: 25 }],
      ['d', { width: 5, height: 5 }],
    ]);
    const packed = packSprites(sizes, 4096);
    expect(SPRITE_MARGIN).toBe(2);
    const boxes = [...packed.placements.values()];
    for (const box of boxes) {
      expect(box.x).toBeGreaterThanOrEqual(2);
      expect(box.y).toBeGreaterThanOrEqual(2);
      expect(box.x + box.width + 2).toBeLessThanOrEqual(packed.width);
      expect(box.y + box.height + 2).toBeLessThanOrEqual(packed.height);
    }
    for (const a of boxes)
      for (const b of boxes) {
        if (a === b) continue;
        const apart =
          a.x + a.width + 4 <= b.x ||
          b.x + b.width + 4 <= a.x ||
          a.y + a.height + 4 <= b.y ||
          b.y + b.height + 4 <= a.y;
        expect(apart).toBe(true);
      }
    expect(packed.placements.get('b')).toMatchObject({ width: 10, height: 40 });
  });
  it("throws 'Sprite Texture too large' beyond the largest texture size", () => {
    expect(() => packSprites(new Map([['huge', { width: 4093, height: 10 }]]), 4096)).toThrow(
      'Sprite Texture too large',
    );
    expect(packSprites(new Map([['fits', { width: 4092, height: 10 }]]), 4096).width).toBe(4096);
  });
});

describe('constellation lines', () => {
  it('every line joins two stars of its constellation; ecliptical ones in the other colour', () => {
    const orion = CONSTELLATIONS.find((constellation) => constellation.id === 'Ori')!;
    const leo = CONSTELLATIONS.find((constellation) => constellation.id === 'Leo')!;
    expect(leo.ecliptical).toBe(true);
    expect(orion.ecliptical).toBe(false);
    const blue = [0, 0, 1, 1];
    const orange = [1, 0.5, 0, 1];
    const orionColours = new Set<string>();
    const lines = constellationVertices([orion], blue, orange);
    for (let k = 0; k < lines.length; k += LINE_VERTEX_FLOATS)
      orionColours.add(Array.from(lines.slice(k + 6, k + 10)).join());
    expect([...orionColours]).toEqual([blue.join()]);
    const leoLines = constellationVertices([leo], blue, orange);
    expect(Array.from(leoLines.slice(6, 10))).toEqual(orange);
    expect(() => constellationVertices(CONSTELLATIONS, blue, orange)).not.toThrow();
  });
});

describe('level outlines', () => {
  it('are 0.01 wide and coloured by status: active orange, locked darker orange, unlocked cyan', () => {
    expect(LEVEL_OUTLINE_WIDTH).toBe(0.01);
    const [active, locked, unlocked] = [
      LEVEL_OUTLINE_COLORS.active,
      LEVEL_OUTLINE_COLORS.locked,
      LEVEL_OUTLINE_COLORS.unlocked,
    ];
    expect(active[0]).toBeGreaterThan(active[1]);
    expect(active[1]).toBeGreaterThan(active[2]);
    expect(locked[0] + locked[1] + locked[2]).toBeLessThan(active[0] + active[1] + active[2]);
    expect(unlocked[2]).toBeGreaterThan(unlocked[0]);
    expect(unlocked[1]).toBeGreaterThan(unlocked[0]);
    const square: [number, number][] = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
    const vertices = levelOutlineVertices([{ status: 'locked', outlines: [square] }]);
    // Closed: 4 segments of 6 vertices.
    expect(vertices.length / LINE_VERTEX_FLOATS).toBe(24);
    expect(Array.from(vertices.slice(6, 10))).toEqual(Array.from(new Float32Array(locked)));
    // Every corner mitred, the closing one too: the first vertex's offset is √2 long and the last
    // segment's end shares it (square ends there left a notch, a wedge at the map's corner).
    const offset = (vertex: number) =>
      Array.from(vertices.slice(vertex * LINE_VERTEX_FLOATS + 3, vertex * LINE_VERTEX_FLOATS + 6));
    expect(Math.hypot(...offset(0))).toBeCloseTo(Math.SQRT2, 2);
    offset(0).forEach((value, i) => expect(offset(23)[i]).toBeCloseTo(-value, 6));
    // An outline that repeats its first point is closed once, with no segment of no length.
    const repeated = levelOutlineVertices([{ status: 'locked', outlines: [[...square, square[0]]] }]);
    expect(repeated.length / LINE_VERTEX_FLOATS).toBe(24);
  });
});

describe('Milky Way faces', () => {
  it('Firefox gets images-512', () => {
    expect(milkyWayToken('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
      '/milkyway/images-512/',
    );
    expect(milkyWayToken('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36')).toBe(
      '/milkyway/',
    );
  });
});
