// The field tracts (issue 31): each level's survey field is one contiguous sky under and around
// its area tracts (skydata/plan.ts planFieldTract, skydata/tract.ts renderTract with binning),
// so that at the answer form's zooms the sky beyond an area's tract is survey sky, not black.
import { describe, expect, it } from 'vitest';
import { addSersic, sersicLight, Stamp } from '../../skydata/galaxy';
import {
  AREA_PADDING,
  FIELD_BINNING,
  FIELD_MARGIN,
  FIELD_MATCH_LEVEL,
  fieldTractId,
  PIXEL_SCALE,
  planSky,
  renderedArea,
  tractSize,
} from '../../skydata/plan';
import { fieldTractSurvey } from '../../skydata/surveys';
import { DEPTHS, maxTileLevel, renderTract, TILE_SIZE, type TractPlan } from '../../skydata/tract';
import { pixelToSky, skyToPixel, tanWcs } from '../../skydata/wcs';

/** fov 18′ on a 720-pixel screen: 1.5″ a screen pixel. */
const SCREEN_PIXEL_AT_18_ARCMIN = (18 * 60) / 720;

/** The median and the noise (1.4826 × the median absolute deviation) of a sample. */
function robust(values: Float32Array | number[]): { median: number; sigma: number } {
  const sorted = Float64Array.from(values).sort();
  const median = sorted[Math.floor(sorted.length / 2)];
  const deviations = Float64Array.from(sorted, (value) => Math.abs(value - median)).sort();
  return { median, sigma: 1.4826 * deviations[Math.floor(deviations.length / 2)] };
}

/** Means of binning × binning blocks: the image an area tract's tile level shows. */
function binned(image: Float32Array, size: number, binning: number): Float32Array {
  const out = new Float32Array((size / binning) ** 2);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++)
      out[Math.floor(y / binning) * (size / binning) + Math.floor(x / binning)] += image[y * size + x] / binning ** 2;
  return out;
}

describe.each([true, false])('planFieldTract (small sky: %s)', (small) => {
  const levels = planSky({ seed: 20221101, small });

  it('gives every level one field tract of 16 × 16-binned HSC pixels, under 2 screen pixels at fov 18′', () => {
    const ids = new Set(levels.flatMap((level) => level.areas.map((area) => area.tract)));
    for (const level of levels) {
      const { wcs, tract, binning } = level.fieldTract;
      expect(tract).toBe(fieldTractId(level.id));
      expect(ids.has(tract)).toBe(false);
      expect(binning).toBe(FIELD_BINNING);
      expect(wcs.CD1_1 * -3600).toBeCloseTo(PIXEL_SCALE * FIELD_BINNING, 9);
      expect(wcs.CD2_2 * 3600).toBeCloseTo(PIXEL_SCALE * FIELD_BINNING, 9);
      expect(PIXEL_SCALE * FIELD_BINNING).toBeLessThan(2 * SCREEN_PIXEL_AT_18_ARCMIN);
      expect(wcs.NAXIS1).toBe(wcs.NAXIS2);
      expect(wcs.NAXIS1 % TILE_SIZE).toBe(0);
      expect(level.fieldTract.targets).toEqual([]);
    }
  });

  it('covers every area tract of its level with FIELD_MARGIN to spare on every side', () => {
    for (const level of levels) {
      const { wcs } = level.fieldTract;
      const margin = (FIELD_MARGIN * 3600) / (PIXEL_SCALE * FIELD_BINNING);
      for (const area of level.areas) {
        const size = area.wcs.NAXIS1;
        for (let k = 0; k <= 8; k++)
          for (const [x, y] of [
            [0.5 + (size * k) / 8, 0.5],
            [0.5 + (size * k) / 8, size + 0.5],
            [0.5, 0.5 + (size * k) / 8],
            [size + 0.5, 0.5 + (size * k) / 8],
          ]) {
            const [fx, fy] = skyToPixel(wcs, ...pixelToSky(area.wcs, x, y));
            expect(fx - 0.5).toBeGreaterThanOrEqual(margin);
            expect(fy - 0.5).toBeGreaterThanOrEqual(margin);
            expect(wcs.NAXIS1 + 0.5 - fx).toBeGreaterThanOrEqual(margin);
            expect(wcs.NAXIS2 + 0.5 - fy).toBeGreaterThanOrEqual(margin);
          }
      }
      // No wider than that margin needs, rounded up to whole tiles.
      expect(wcs.NAXIS1).toBeLessThan(
        2 * margin + (3600 * 3) / (PIXEL_SCALE * FIELD_BINNING) + TILE_SIZE, // areas lie within 1.5° of one another
      );
    }
  });

  it("has the sky noise of the area tracts' tile level drawn at fov 18′, and the level's depth otherwise", () => {
    const top = Math.min(FIELD_MATCH_LEVEL, maxTileLevel(tractSize(small) + 2 * AREA_PADDING));
    // fov 18′ on 720 pixels: 1.5″ a screen pixel, the level whose pixels are at most that.
    expect(FIELD_MATCH_LEVEL).toBe(Math.floor(Math.log2(SCREEN_PIXEL_AT_18_ARCMIN / PIXEL_SCALE)));
    for (const level of levels) {
      const depth = DEPTHS[level.field.depth];
      const { depth: field } = level.fieldTract;
      field.noise.forEach((sigma, band) => expect(sigma).toBeCloseTo(depth.noise[band] / 2 ** top, 12));
      expect(field.psf).toEqual(depth.psf);
      expect(field.backgroundGalaxies).toBe(depth.backgroundGalaxies);
      expect(field.stars).toBe(depth.stars);
    }
  });

  it('renders each area tract AREA_PADDING wider on every side, about the same centre, its targets where the catalogue puts them', () => {
    let outside = 0;
    for (const level of levels)
      for (const area of level.areas) {
        const rendered = renderedArea(area);
        expect(rendered.wcs.NAXIS1).toBe(area.wcs.NAXIS1 + 2 * AREA_PADDING);
        expect(rendered.wcs.NAXIS1 % 2 ** maxTileLevel(rendered.wcs.NAXIS1)).toBe(0);
        expect(pixelToSky(rendered.wcs, (rendered.wcs.NAXIS1 + 1) / 2, (rendered.wcs.NAXIS1 + 1) / 2)).toEqual(
          area.centre.map((value) => expect.closeTo(value, 9)),
        );
        rendered.targets.forEach((target, index) => {
          const [ra, dec] = pixelToSky(area.wcs, area.targets[index].x + 1, area.targets[index].y + 1);
          const [x, y] = skyToPixel(rendered.wcs, ra, dec);
          expect(x - 1).toBeCloseTo(target.x, 6);
          expect(y - 1).toBeCloseTo(target.y, 6);
          // The target view (fov 0.02°: 36″ above and below, 64″ either side on 16:9) inside it.
          const halfWidth = 64 / PIXEL_SCALE;
          const halfHeight = 36 / PIXEL_SCALE;
          const size = rendered.wcs.NAXIS1;
          if (x - halfWidth < 0.5 || y - halfHeight < 0.5 || x + halfWidth > size + 0.5 || y + halfHeight > size + 0.5)
            outside++;
        });
      }
    console.log(`targets whose 0.02° view reaches past their area tract: ${outside}`);
    // The small sky's 1024-pixel areas keep their targets only 13.8″ in from the edge.
    if (!small) expect(outside).toBe(0);
  });

  it('lies in the wide folder for wide and Deep/UltraDeep levels, so that it never covers an area of the layer below', () => {
    for (const level of levels)
      expect(fieldTractSurvey(level)).toBe(level.field.depth === 'simulation' ? 'simulation' : 'wide');
  });
});

describe('a field tract rendered (renderTract with binning 16)', () => {
  const size = 512;
  // No stars: their power law would make one tract's light differ from another's by far more
  // than the galaxies' many do.
  const depth = { ...DEPTHS.wide, stars: 0 };
  const areaSize = tractSize(false);
  const top = FIELD_MATCH_LEVEL;
  const field: TractPlan = {
    tract: 100,
    wcs: tanWcs(214.8, 52.7, size, PIXEL_SCALE * FIELD_BINNING),
    depth: { ...depth, noise: depth.noise.map((sigma) => sigma / 2 ** top) as [number, number, number] },
    targets: [],
    seed: 12345,
    binning: FIELD_BINNING,
  };
  // Four area tracts: a few bright galaxies carry much of one tract's faint light.
  const areas = [678, 679, 680, 681].map((seed) =>
    renderTract({
      tract: 101,
      wcs: tanWcs(214.8, 52.7, areaSize, PIXEL_SCALE),
      depth,
      targets: [],
      seed,
      binning: 1,
    }),
  );
  const areaBands = areas[0];
  const fieldBands = renderTract(field);

  it("has the sky level and noise of the area tract's coarsest level in every band (within 10 % of σ)", () => {
    for (let band = 0; band < 3; band++) {
      const coarse = robust(binned(areaBands[band], areaSize, 2 ** top));
      const sky = robust(fieldBands[band]);
      console.log(
        `band ${band}: area tract at level ${top} median ${coarse.median.toExponential(2)} σ ${coarse.sigma.toExponential(2)}; field tract median ${sky.median.toExponential(2)} σ ${sky.sigma.toExponential(2)}`,
      );
      expect(Math.abs(sky.median - coarse.median)).toBeLessThan(0.1 * coarse.sigma);
      expect(sky.sigma / coarse.sigma).toBeGreaterThan(0.9);
      expect(sky.sigma / coarse.sigma).toBeLessThan(1.1);
    }
  });

  it('holds as much faint galaxy light per square degree as an area tract (within 30 %)', () => {
    // The mean over the tract (the noise's mean is zero): the faint galaxies' light.
    for (let band = 0; band < 3; band++) {
      const mean = (image: Float32Array) => image.reduce((sum, value) => sum + value, 0) / image.length;
      const fieldLight = mean(fieldBands[band]);
      const areaLight = areas.reduce((sum, bands) => sum + mean(bands[band]), 0) / areas.length;
      console.log(`band ${band}: mean light, field ${fieldLight.toExponential(2)}, area ${areaLight.toExponential(2)}`);
      expect(fieldLight).toBeGreaterThan(0);
      expect(fieldLight / areaLight).toBeGreaterThan(0.7);
      expect(fieldLight / areaLight).toBeLessThan(1.3);
    }
  });

  it('is the same for the same seed', () => {
    expect(Buffer.from(renderTract(field)[1].buffer).equals(Buffer.from(fieldBands[1].buffer))).toBe(true);
  });
});

describe('sersicLight', () => {
  it.each([
    [1, 1.5],
    [1, 5],
    [3, 1.5],
    [3, 5],
  ])("is the light addSersic draws of a faint galaxy's law (n = %i, re = %f px), within 5 %", (n, re) => {
    // The stamp a background galaxy of an area tract has: its taper keeps 95 % or more of the law.
    const stamp = Stamp.around(100.3, 100.6, re * 6 + 6);
    addSersic(stamp, 100.3, 100.6, 1e-3, re, n, 0.6, 0.4, [1, 1, 1]);
    const summed = stamp.bands[0].reduce((sum, value) => sum + value, 0);
    expect(summed / sersicLight(1e-3, re, n, 0.6)).toBeGreaterThan(0.95);
    expect(summed / sersicLight(1e-3, re, n, 0.6)).toBeLessThan(1.05);
  });
});
