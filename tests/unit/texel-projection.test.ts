// The texel centres of a HiPS tile taken into an image's pixels (skydata/import/texel-projection.ts):
// interpolated from a coarse grid, they must agree with every texel taken through HEALPix and the
// WCS exactly to well within a hundredth of a pixel, and a tile where they would not (a coarse
// order, HEALPix's polar-cap boundary, a projection's horizon) must get the exact coordinates.
import { describe, expect, test } from 'vitest';
import { Healpix, hipsTileCenters } from '../../core/healpix';
import { readFitsHdus } from '../../core/fits';
import { loadCoreSync } from '../../core/wasm';
import { CelestialWcs } from '../../core/wcs-celestial';
import { encodeFits } from '../../skydata/fits';
import { TexelProjection } from '../../skydata/import/texel-projection';

const core = loadCoreSync();
const RAD = 180 / Math.PI;

function wcsOf(keywords: [string, string | number][]): CelestialWcs {
  const fits = encodeFits({ width: 4, height: 4, data: new Float32Array(16), keywords });
  return CelestialWcs.fromHeader(core, readFitsHdus(fits)[0]!.header);
}

/** A TAN image at `scale` degrees a pixel centred on (ra, dec), turned 30°. */
function tan(ra: number, dec: number, scale: number, ctype: [string, string] = ['RA---TAN', 'DEC--TAN']) {
  const cos = Math.cos(30 / RAD) * scale;
  const sin = Math.sin(30 / RAD) * scale;
  return wcsOf([
    ['CTYPE1', ctype[0]],
    ['CTYPE2', ctype[1]],
    ['CRVAL1', ra],
    ['CRVAL2', dec],
    ['CRPIX1', 2000.5],
    ['CRPIX2', 1000.5],
    ['CD1_1', -cos],
    ['CD1_2', sin],
    ['CD2_1', sin],
    ['CD2_2', cos],
  ]);
}

/** The tile of `order` holding (ra, dec). */
function tileAt(order: number, ra: number, dec: number): number {
  return Number(new Healpix(core, 2 ** order, 'nest').ang2pix((90 - dec) / RAD, ra / RAD));
}

/** The projection's coordinates and the exact ones of every texel; the largest difference. */
function compare(wcs: CelestialWcs, order: number, npix: number, tileWidth = 512) {
  const projection = new TexelProjection(core, tileWidth);
  const texels = tileWidth * tileWidth;
  const x = new Float64Array(texels);
  const y = new Float64Array(texels);
  projection.setTile(order, npix);
  const interpolated = projection.pixels(wcs, x, y);
  const { theta, phi } = hipsTileCenters(core, order, npix, tileWidth);
  const lng = Float64Array.from(phi, (value) => value * RAD);
  const lat = Float64Array.from(theta, (value) => 90 - value * RAD);
  if (wcs.frame === 'galactic') throw new Error('compare takes equatorial images');
  const exact = wcs.skyToPixel(lng, lat);
  let error = 0;
  for (let k = 0; k < texels; k += 1)
    error = Math.max(error, Math.abs(exact.x[k]! - x[k]!), Math.abs(exact.y[k]! - y[k]!));
  return { interpolated, error, stats: projection.stats, x, y, exact };
}

describe('texel centres of a HiPS tile in an image’s pixels', () => {
  test('HSC-scale TAN at the orders the import uses: interpolated, every texel within 5e-5 pixel', () => {
    // Order 12 at 512 texels is the deepest order of a 0.168″ image (the bench's mosaic); 10
    // and 9 are two and three orders above it, whose tiles span 4 and 8 times as much sky.
    for (const [order, ra, dec] of [
      [12, 150, 2],
      [10, 150, 2],
      [9, 35, -5],
      [12, 200, 60],
      [12, 20, -80],
    ] as const) {
      const wcs = tan(ra, dec, 0.168 / 3600);
      const { interpolated, error, stats } = compare(wcs, order, tileAt(order, ra, dec));
      expect(interpolated, `order ${order} at (${ra}, ${dec}) interpolated`).toBe(true);
      // Measured: 1.4e-7 pixel at order 12 on the equator, 1.2e-5 at order 12 at dec −80° (the
      // polar caps bend more), 2.4e-5 at order 9 (the error grows as the square of a cell's
      // size on the sky): a grid too coarse, or a bilinear fill gone wrong, fails here.
      expect(error, `order ${order} at (${ra}, ${dec})`).toBeLessThan(5e-5);
      // The cell centres it checks find the largest error of the whole tile.
      expect(stats.maxError).toBeCloseTo(error, 12);
    }
  });

  test('a tile too coarse for the grid, one across the polar caps’ edge and one at the pole are made exactly', () => {
    // Order 3 tiles span 7°: the grid's error at 1″ pixels is far beyond the tolerance.
    const coarse = compare(tan(150, 2, 1 / 3600), 3, tileAt(3, 150, 2));
    expect(coarse.interpolated).toBe(false);
    expect(coarse.error).toBe(0);
    // dec = asin(2/3) = 41.81°: the HEALPix map bends there, inside the tile.
    const edgeDec = Math.asin(2 / 3) * RAD;
    const edge = compare(tan(30, edgeDec, 0.168 / 3600), 11, tileAt(11, 30, edgeDec));
    expect(edge.interpolated).toBe(false);
    expect(edge.error).toBe(0);
    const pole = compare(tan(45, 89.9999, 0.168 / 3600), 12, tileAt(12, 45, 89.99999));
    expect(pole.interpolated).toBe(false);
    expect(pole.error).toBe(0);
    expect(pole.stats).toEqual({ interpolated: 0, exact: 1, maxError: 0 });
  });

  test('a tile partly beyond a SIN image’s horizon takes the exact coordinates, NaN beyond it', () => {
    const sin = wcsOf([
      ['CTYPE1', 'RA---SIN'],
      ['CTYPE2', 'DEC--SIN'],
      ['CRVAL1', 0],
      ['CRVAL2', 0],
      ['CRPIX1', 2.5],
      ['CRPIX2', 2.5],
      ['CDELT1', -1],
      ['CDELT2', 1],
    ]);
    // A tile at order 1 holding ra = 90°, on the horizon of a SIN image centred on (0, 0).
    const result = compare(sin, 1, tileAt(1, 90, 0), 64);
    expect(result.interpolated).toBe(false);
    expect(result.x.some(Number.isNaN)).toBe(true);
    expect(Array.from(result.x)).toEqual(Array.from(result.exact.x));
  });
});
