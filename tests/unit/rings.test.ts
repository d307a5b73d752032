// The 120-ring sky pixelisation (viewer-spec §3 "Sky pixelisation", application-spec §3),
// checked against the layout written out from its formulas here, independently of the wasm.
import { beforeAll, describe, expect, it } from 'vitest';
import { ENCODED_INDEX_OFFSET, NUM_RINGS, RING_SIZE, RingsSkyMap, decodeRingIndex } from '../../core/rings';
import { loadCore } from '../../core/wasm';

const HALF_PI = Math.PI / 2;

// The spec's formula: ring i spans the colatitudes θ₀ … θ₁ of its edges at
// dec = ringSize·(i + ½) − π/2 and ringSize·(i + 3/2) − π/2; it holds ⌊2π·max(sin θ₀, sin θ₁)/ringSize⌋ + 1 tracts.
const lowerDec = (ring: number) => RING_SIZE * (ring + 0.5) - HALF_PI;
const expectedCounts = Array.from({ length: NUM_RINGS }, (_, ring) => {
  const theta0 = HALF_PI - lowerDec(ring);
  const theta1 = HALF_PI - lowerDec(ring + 1);
  return Math.floor((2 * Math.PI * Math.max(Math.sin(theta0), Math.sin(theta1))) / RING_SIZE) + 1;
});
const expectedTotal = expectedCounts.reduce((sum, n) => sum + n, 0) + 2;
const firstOf = (ring: number) => 1 + expectedCounts.slice(0, ring).reduce((sum, n) => sum + n, 0);

let map: RingsSkyMap;
beforeAll(async () => {
  map = new RingsSkyMap(await loadCore());
});

describe('the sphere is split into 120 rings', () => {
  it('uses ringSize = π / 121', () => {
    expect(NUM_RINGS).toBe(120);
    expect(RING_SIZE).toBe(Math.PI / 121);
  });

  it('holds ⌊2π·max(sin θ₀, sin θ₁)/ringSize⌋ + 1 tracts in each ring', () => {
    expect(Array.from(map.tractsPerRing)).toEqual(expectedCounts);
    // Rings 59 and 60 have the equator as an edge: sin θ = 1 and 2π/ringSize = 242 exactly, so
    // they hold 243. No other count sits so close to an integer that rounding could move it.
    expect(map.tractsPerRing[59]).toBe(243);
    expect(map.tractsPerRing[60]).toBe(243);
    expect(lowerDec(60)).toBeCloseTo(0, 15);
    for (let ring = 0; ring < NUM_RINGS; ring++) {
      if (ring === 59 || ring === 60) continue;
      const theta = HALF_PI - Math.min(Math.abs(lowerDec(ring)), Math.abs(lowerDec(ring + 1)));
      const exact = (2 * Math.PI * Math.sin(theta)) / RING_SIZE;
      expect(Math.abs(exact - Math.round(exact))).toBeGreaterThan(1e-6);
    }
  });

  it('is symmetric about the equator, widest there, with 2 + Σn(i) indices in all', () => {
    for (let ring = 0; ring < NUM_RINGS; ring++) expect(map.tractsPerRing[ring]).toBe(map.tractsPerRing[119 - ring]);
    expect(Math.max(...map.tractsPerRing)).toBe(map.tractsPerRing[59]);
    expect(map.numTracts).toBe(expectedTotal);
    expect(map.numTracts).toBe(18_938);
  });
});

describe('index → angle (tract centres)', () => {
  it('puts index 0 at the south pole and the last index at the north pole', () => {
    expect(map.indexToAngle(0)).toEqual({ ra: 0, dec: -HALF_PI });
    expect(map.indexToAngle(map.numTracts - 1)).toEqual({ ra: 0, dec: HALF_PI });
    expect(map.position(0)).toEqual({ ring: -1, tract: 0 });
    expect(map.position(map.numTracts - 1)).toEqual({ ring: 120, tract: 0 });
  });

  it('numbers rings from south to north, each from ra = 0: centre ra = 2πj/n, dec = ringSize·(i+1) − π/2', () => {
    const ids = Float64Array.from({ length: map.numTracts }, (_, k) => k);
    const centres = map.indicesToAngles(ids);
    let worst = 0;
    for (let ring = 0; ring < NUM_RINGS; ring++) {
      const n = expectedCounts[ring];
      for (let j = 0; j < n; j++) {
        const index = firstOf(ring) + j;
        worst = Math.max(
          worst,
          Math.abs(centres[2 * index] - (2 * Math.PI * j) / n),
          Math.abs(centres[2 * index + 1] - (RING_SIZE * (ring + 1) - HALF_PI)),
        );
      }
    }
    expect(worst).toBeLessThan(1e-14);
    expect(map.position(1)).toEqual({ ring: 0, tract: 0 });
    expect(map.position(firstOf(60) + 5)).toEqual({ ring: 60, tract: 5 });
    expect(map.index(60, 5)).toBe(firstOf(60) + 5);
  });
});

describe('angle → index', () => {
  it('round-trips index → centre → index for every tract, caps included', () => {
    const ids = Float64Array.from({ length: map.numTracts }, (_, k) => k);
    const back = map.anglesToIndices(map.indicesToAngles(ids));
    expect(Array.from(back)).toEqual(Array.from(ids));
    expect(map.angleToIndex(1.234, -HALF_PI)).toBe(0);
    expect(map.angleToIndex(5.0, HALF_PI)).toBe(map.numTracts - 1);
  });

  it('gives the polar caps everything beyond half a ring from the pole', () => {
    const rim = lowerDec(0); // −π/2 + ringSize/2
    expect(map.angleToIndex(0.3, rim - 1e-12)).toBe(0);
    expect(map.angleToIndex(0.3, -rim + 1e-12)).toBe(map.numTracts - 1);
    expect(map.position(map.angleToIndex(0.3, rim)).ring).toBe(0);
    // The top edge of the last ring belongs to it, not to the cap.
    expect(map.position(map.angleToIndex(0.3, lowerDec(NUM_RINGS))).ring).toBe(119);
  });

  it('gives each ring its lower edge, the ring below everything just under it', () => {
    for (let ring = 1; ring < NUM_RINGS; ring++) {
      const edge = lowerDec(ring);
      expect(map.position(map.angleToIndex(0.1, edge)).ring).toBe(ring);
      expect(map.position(map.angleToIndex(0.1, edge - 1e-12)).ring).toBe(ring - 1);
      expect(map.position(map.angleToIndex(0.1, edge + 1e-12)).ring).toBe(ring);
    }
  });

  it('wraps ra at 0 / 2π: tract 0 straddles ra = 0', () => {
    for (const ring of [0, 30, 59, 60, 119]) {
      const dec = RING_SIZE * (ring + 1) - HALF_PI;
      const n = expectedCounts[ring];
      const first = firstOf(ring);
      const halfWidth = Math.PI / n;
      expect(map.angleToIndex(0, dec)).toBe(first);
      expect(map.angleToIndex(2 * Math.PI, dec)).toBe(first);
      expect(map.angleToIndex(2 * Math.PI - 1e-9, dec)).toBe(first);
      expect(map.angleToIndex(-1e-9, dec)).toBe(first);
      expect(map.angleToIndex(halfWidth * 0.999, dec)).toBe(first);
      expect(map.angleToIndex(halfWidth * 1.001, dec)).toBe(first + 1);
      expect(map.angleToIndex(2 * Math.PI - halfWidth * 1.001, dec)).toBe(first + n - 1);
      expect(map.angleToIndex(-halfWidth * 1.001, dec)).toBe(first + n - 1);
      // ra is taken modulo 2π, whole turns either way.
      expect(map.angleToIndex(4 * Math.PI + 1.0, dec)).toBe(map.angleToIndex(1.0, dec));
      expect(map.angleToIndex(-6 * Math.PI + 1.0, dec)).toBe(map.angleToIndex(1.0, dec));
    }
  });

  it('rejects what is not a direction with a clear Error', () => {
    expect(() => map.angleToIndex(0, HALF_PI + 1e-9)).toThrow(RangeError);
    expect(() => map.angleToIndex(0, -2)).toThrow(/not a direction/);
    expect(() => map.angleToIndex(Number.NaN, 0)).toThrow(/not a direction/);
    expect(() => map.angleToIndex(Infinity, 0)).toThrow(/not a direction/);
    expect(() => map.anglesToIndices(Float64Array.of(0, 0, 1, 3))).toThrow(/angles\[1\]/);
    expect(() => map.anglesToIndices(Float64Array.of(0, 0, 1))).toThrow(/pairs/);
  });
});

describe('indices of 9e11 and above are offset encodings: subtract 9e11, then divide by 1000', () => {
  it('decodes to the tract index, the quotient', () => {
    expect(decodeRingIndex(ENCODED_INDEX_OFFSET)).toBe(0);
    expect(decodeRingIndex(9e11 + 1000 * 1234 + 567)).toBe(1234);
    expect(decodeRingIndex(9e11 + 1000 * 1234 + 999)).toBe(1234);
    expect(decodeRingIndex(9e11 + 1000 * 1235)).toBe(1235);
    expect(decodeRingIndex(9e11 - 1)).toBe(9e11 - 1); // below the offset: a plain index
  });

  it('is accepted by index → angle, single and batched', () => {
    const plain = map.indexToAngle(4321);
    expect(map.indexToAngle(9e11 + 4321 * 1000 + 17)).toEqual(plain);
    const last = map.numTracts - 1;
    const centres = map.indicesToAngles([9e11, 9e11 + last * 1000 + 999, 4321, 9e11 + 4321 * 1000]);
    expect(Array.from(centres)).toEqual([0, -HALF_PI, 0, HALF_PI, plain.ra, plain.dec, plain.ra, plain.dec]);
    expect(map.position(9e11 + 1000 * (firstOf(10) + 3) + 42)).toEqual({ ring: 10, tract: 3 });
  });

  it('rejects an encoded index whose tract is past the map', () => {
    expect(() => map.indexToAngle(9e11 + map.numTracts * 1000)).toThrow(
      /offset-encoded: tract 18938\) is out of range/,
    );
  });
});

describe('out-of-range indices raise a clear Error', () => {
  it.each([
    [-1, /non-negative integer/],
    [1.5, /non-negative integer/],
    [Number.NaN, /non-negative integer/],
    [2 ** 53, /non-negative integer/],
    [18_938, /index 18938 is out of range: tracts are 0 … 18937/],
    [8.999e11, /out of range/],
  ])('index %s', (id, message) => {
    expect(() => map.indexToAngle(id)).toThrow(RangeError);
    expect(() => map.indexToAngle(id)).toThrow(message);
    expect(() => map.indicesToAngles([0, id])).toThrow(/ids\[1\]/);
  });

  it('rejects rings and tracts outside the layout', () => {
    expect(() => map.index(120, 1)).toThrow(/ring 120 is out of range/);
    expect(() => map.index(0, expectedCounts[0])).toThrow(/ring 0 holds tracts 0 … 9/);
    expect(map.index(-1, 0)).toBe(0);
  });
});
