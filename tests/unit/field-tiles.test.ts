// The deepest order's tiles a field's image can fill (skydata/import/field-tiles.ts): every tile
// dropped from the footprint's disc must hold no texel centre on the image (checked texel by
// texel through HEALPix and the WCS), and the tiles kept must be close to those that hold one,
// for a long strip whose disc is many times its area, a turned image, a galactic one and an
// image smaller than one tile.
import { describe, expect, test } from 'vitest';
import { readFitsHdus } from '../../core/fits';
import { Healpix, hipsTileCenters } from '../../core/healpix';
import { rotateGalactic } from '../../core/hipsProperties';
import { loadCoreSync } from '../../core/wasm';
import { CelestialWcs } from '../../core/wcs-celestial';
import { encodeFits } from '../../skydata/fits';
import { fieldTiles, type Disc } from '../../skydata/import/field-tiles';
import { toDegrees, toGalactic } from '../../skydata/import/texel-projection';

const core = loadCoreSync();
const RAD = 180 / Math.PI;
const TILE_WIDTH = 64;
/** 1″ pixels at 64 texels a tile: order 12, tiles of 52″. */
const ORDER = 12;

/** An image of width × height pixels of 1″ centred on (lng, lat) in `frame`, turned by `angle` degrees. */
function image(
  width: number,
  height: number,
  lng: number,
  lat: number,
  angle: number,
  frame: 'equatorial' | 'galactic',
) {
  const scale = 1 / 3600;
  const cos = Math.cos(angle / RAD) * scale;
  const sin = Math.sin(angle / RAD) * scale;
  const [axis1, axis2] = frame === 'equatorial' ? ['RA---TAN', 'DEC--TAN'] : ['GLON-TAN', 'GLAT-TAN'];
  const fits = encodeFits({
    width: 4,
    height: 4,
    data: new Float32Array(16),
    keywords: [
      ['CTYPE1', axis1],
      ['CTYPE2', axis2],
      ['CRVAL1', lng],
      ['CRVAL2', lat],
      ['CRPIX1', (width + 1) / 2],
      ['CRPIX2', (height + 1) / 2],
      ['CD1_1', -cos],
      ['CD1_2', sin],
      ['CD2_1', sin],
      ['CD2_2', cos],
    ],
  });
  const wcs = CelestialWcs.fromHeader(core, readFitsHdus(fits)[0]!.header);
  return { wcs, width, height };
}

/** A disc around the image's centre holding its corners: the image's footprint, as the survey makes it. */
function discOf({ wcs, width, height }: ReturnType<typeof image>): Disc {
  const { lng, lat } = wcs.pixelToSky(Float64Array.of((width + 1) / 2), Float64Array.of((height + 1) / 2));
  const l = lng[0]! / RAD;
  const b = lat[0]! / RAD;
  let centre: [number, number, number] = [Math.cos(b) * Math.cos(l), Math.cos(b) * Math.sin(l), Math.sin(b)];
  if (wcs.frame === 'galactic') centre = rotateGalactic(centre, false);
  const radius = (Math.hypot(width, height) / 2 / 3600 / RAD) * 1.05;
  return { theta: Math.acos(centre[2]), phi: Math.atan2(centre[1], centre[0]), radius };
}

/** Whether any texel centre of tile `npix` falls on the image (as sampleBand reads it). */
function holdsTexel({ wcs, width, height }: ReturnType<typeof image>, npix: number): boolean {
  const { theta, phi } = hipsTileCenters(core, ORDER, npix, TILE_WIDTH);
  const equatorial = toDegrees(theta, phi);
  const { lng, lat } = wcs.frame === 'galactic' ? toGalactic(equatorial) : equatorial;
  const { x, y } = wcs.skyToPixel(lng, lat);
  for (let k = 0; k < x.length; k += 1)
    if (x[k]! >= 0.5 && x[k]! <= width + 0.5 && y[k]! >= 0.5 && y[k]! <= height + 0.5) return true;
  return false;
}

function check(field: ReturnType<typeof image>, disc: Disc) {
  const candidates = Array.from(
    new Healpix(core, 2 ** ORDER, 'nest').queryDisc(disc.theta, disc.phi, disc.radius, { inclusive: true }),
    Number,
  );
  const kept = Array.from(fieldTiles(core, field.wcs, field.width, field.height, disc, ORDER, TILE_WIDTH));
  const keptSet = new Set(kept);
  const lit = candidates.filter((npix) => holdsTexel(field, npix));
  // No tile with a texel on the image is dropped.
  expect(lit.filter((npix) => !keptSet.has(npix))).toEqual([]);
  expect(kept).toEqual([...kept].sort((p, q) => p - q));
  return { candidates: candidates.length, kept: kept.length, lit: lit.length };
}

describe('the tiles a field’s image can fill', () => {
  test('a long strip: every tile with a texel on it, and few more, out of a disc many times larger', () => {
    const strip = image(60, 2400, 150, 2, 0, 'equatorial');
    const { candidates, kept, lit } = check(strip, discOf(strip));
    expect(candidates).toBeGreaterThan(10 * lit);
    // The ring's box, widened by one step, keeps at most a tile's rim around the strip.
    expect(kept).toBeLessThanOrEqual(lit * 1.6);
  });

  test('a turned image and one smaller than a tile', () => {
    const turned = image(300, 900, 35, -40, 30, 'equatorial');
    const a = check(turned, discOf(turned));
    expect(a.kept).toBeLessThan(a.candidates);
    expect(a.kept).toBeLessThanOrEqual(a.lit * 1.6);
    const small = image(5, 5, 200, 60, 0, 'equatorial');
    const b = check(small, { ...discOf(small), radius: 200 / 3600 / RAD });
    expect(b.lit).toBeGreaterThanOrEqual(1);
    // The widened box may also keep the tiles beside it, never more.
    expect(b.kept).toBeLessThanOrEqual(9);
    expect(b.kept).toBeLessThan(b.candidates);
  });

  test('a galactic image keeps the tiles its pixels fall on', () => {
    const galactic = image(120, 1200, 30, 10, 20, 'galactic');
    const { candidates, kept, lit } = check(galactic, discOf(galactic));
    expect(lit).toBeGreaterThan(0);
    expect(kept).toBeLessThan(candidates);
    expect(kept).toBeLessThanOrEqual(lit * 1.6);
  });
});
