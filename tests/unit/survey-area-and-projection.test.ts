// Survey metadata checks of issue 31: each filter's area.json outline is its own (viewer-spec §3),
// and a tract whose CTYPE is not the TAN projection of viewer-spec §3 is refused with an error
// that says so.
import { describe, expect, it } from 'vitest';
import { tanWcs } from '../../core/wcs';
import { areaPolygons } from '../../src/globe/layers/survey-area';
import { tractOf } from '../../src/globe/tiles/tract';

type Polygon = [number, number][];
const square = (x: number): Polygon => [
  [x, 0],
  [x + 1, 0],
  [x + 1, 1],
];

describe('area.json per filter', () => {
  const g = square(0);
  const r = square(10);
  const any = square(20);
  const area = { 'HSC-G': [g], 'HSC-R': [r], $any: [any] };

  it("outlines only the drawn filters' polygons and $any's", () => {
    expect(areaPolygons(area, ['HSC-G'])).toEqual([any, g]);
    expect(areaPolygons(area, ['HSC-R', 'HSC-I'])).toEqual([any, r]);
    expect(areaPolygons(area, ['HSC-Z'])).toEqual([any]);
  });

  it('a plain list of polygons is every filter’s, and anything else none', () => {
    expect(areaPolygons([g, r], ['HSC-Z'])).toEqual([g, r]);
    expect(areaPolygons('not json', ['HSC-G'])).toEqual([]);
    expect(areaPolygons({ 'HSC-G': 'not a list' }, ['HSC-G'])).toEqual([]);
  });
});

describe('tract projection (CTYPE)', () => {
  const wcs = tanWcs(150, 2, 1024, 0.168);

  it('accepts RA---TAN and DEC--TAN', () => {
    expect(tractOf(3, wcs).tract).toBe(3);
  });

  it('refuses any other projection, naming the tract and the CTYPEs', () => {
    const sine = { ...wcs, CTYPE1: 'RA---SIN', CTYPE2: 'DEC--SIN' } as unknown as typeof wcs;
    expect(() => tractOf(7, sine)).toThrow(
      /tract 7: CTYPE1 "RA---SIN" and CTYPE2 "DEC--SIN" are not RA---TAN and DEC--TAN/,
    );
    const galactic = { ...wcs, CTYPE1: 'GLON-TAN', CTYPE2: 'GLAT-TAN' } as unknown as typeof wcs;
    expect(() => tractOf(8, galactic)).toThrow(/not RA---TAN and DEC--TAN/);
    const { CTYPE1: _dropped, ...bare } = wcs;
    expect(() => tractOf(9, bare as unknown as typeof wcs)).toThrow(/CTYPE1 undefined/);
  });
});
