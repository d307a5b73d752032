// Star points as viewer-spec §9 sizes them (size by 10^(−mag/2.5), at least 3 px, the fixed colour
// (0.75, 0.75, 1, 1)) and as issue 31 asks them to read: a magnitude-1 star's integrated light
// at least 20× a magnitude-6 star's. The light is summed over the pixels a point covers, with
// the layer's fragment profile, as a GPU rasterises a point centred on a pixel.
import { describe, expect, it } from 'vitest';
import { STAR_COLOR, STAR_MIN_SIZE, STAR_SIZE_SCALE, starPoint } from '../../src/globe/layers/stars';

const smoothstep = (edge0: number, edge1: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
};

/** The summed (r + g + b) / 3 of a star's point: pixel centres inside the point's square. */
function integratedLight(magnitude: number): number {
  const { size, brightness } = starPoint(magnitude);
  const grey = (STAR_COLOR[0] + STAR_COLOR[1] + STAR_COLOR[2]) / 3;
  const reach = Math.ceil(size / 2);
  let sum = 0;
  for (let y = -reach; y <= reach; y++)
    for (let x = -reach; x <= reach; x++) {
      if (Math.abs(x) > size / 2 || Math.abs(y) > size / 2) continue;
      const r = 2 * Math.hypot(x / size, y / size);
      sum += grey * brightness * smoothstep(1, 0.3, r);
    }
  return sum;
}

describe('star points (viewer-spec §9)', () => {
  it('are at least 3 px and grow with 10^(−mag/2.5) above that', () => {
    expect(STAR_MIN_SIZE).toBe(3);
    for (const magnitude of [3, 6, 9]) expect(starPoint(magnitude).size).toBe(3);
    const flux = (magnitude: number) => Math.pow(10, -magnitude / 2.5);
    for (const magnitude of [0, 0.5, 1])
      expect(starPoint(magnitude).size).toBeCloseTo(STAR_SIZE_SCALE * flux(magnitude), 9);
    expect(starPoint(0).size / starPoint(1).size).toBeCloseTo(flux(0) / flux(1), 9);
  });

  it('are drawn in the fixed colour (0.75, 0.75, 1, 1)', () => {
    expect([...STAR_COLOR]).toEqual([0.75, 0.75, 1, 1]);
  });

  it("give a magnitude-1 star at least 20× a magnitude-6 star's light, and fainter stars less", () => {
    const ratio = integratedLight(1) / integratedLight(6);
    console.log(`integrated light, magnitude 1 / magnitude 6: ${ratio.toFixed(1)}`);
    expect(ratio).toBeGreaterThanOrEqual(20);
    for (let magnitude = -0.5; magnitude < 9; magnitude += 0.5)
      expect(integratedLight(magnitude + 0.5)).toBeLessThan(integratedLight(magnitude));
  });
});
