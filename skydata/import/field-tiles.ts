// Which of the deepest order's tiles a field's image can fill, for ./hips-from-images.ts. The
// footprint's disc (./hips-image-tiles.ts) holds every pixel of the image, but a long strip's
// disc holds many times the strip's area: each tile of the disc would be resampled only to find
// no texel on the image. So each tile of the disc is kept only when the ring of its outer texel
// centres (every RING_STEP-th along each edge, and the corners), taken into the image's pixels,
// spans a box that meets the image once widened on every side by the longest step between two
// neighbours of the ring (the bend of an edge between them). Over one tile a WCS is a smooth
// one-to-one map, so the tile's texel centres lie inside its ring's image and thus inside that
// box: a tile dropped has no texel centre on the image. A ring point the projection cannot take
// (beyond a horizon) keeps its tile.
import { Healpix, hipsTilePixels } from '../../core/healpix';
import type { Core } from '../../core/wasm';
import type { CelestialWcs } from '../../core/wcs-celestial';
import { toDegrees, toGalactic } from './texel-projection';

/** Texels between the ring's points along a tile's edge. */
export const RING_STEP = 16;
/** Tiles whose rings are taken through the projection in one call. */
const TILES_A_BATCH = 256;

/** A disc on the sky, equatorial: centre (θ, φ) and radius, in radians. */
export interface Disc {
  theta: number;
  phi: number;
  radius: number;
}

/** Texel indices (r·w + c) of a tile's ring, in order around it. */
function ringTexels(tileWidth: number): number[] {
  const along: number[] = [];
  for (let at = 0; at < tileWidth - 1; at += RING_STEP) along.push(at);
  const last = tileWidth - 1;
  const texels: number[] = [];
  for (const column of along) texels.push(column); // top row, left to right
  for (const row of along) texels.push(row * tileWidth + last); // right column, down
  for (const column of along) texels.push(last * tileWidth + last - column); // bottom row, right to left
  for (const row of along) texels.push((last - row) * tileWidth); // left column, up
  return texels;
}

/**
 * The deepest order's tiles (ascending nested ids) of `disc` that an image of `width` × `height`
 * pixels under `wcs` can fill: the disc's inclusive query_disc (every tile when it is the whole
 * sky), less the tiles whose ring shows they miss the image.
 */
export function fieldTiles(
  core: Core,
  wcs: CelestialWcs,
  width: number,
  height: number,
  disc: Disc,
  order: number,
  tileWidth: number,
): Float64Array {
  const candidates =
    disc.radius >= Math.PI / 2 - 1e-9
      ? Float64Array.from({ length: 12 * 4 ** order }, (_, k) => k)
      : Float64Array.from(
          new Healpix(core, 2 ** order, 'nest').queryDisc(disc.theta, disc.phi, disc.radius, { inclusive: true }),
          Number,
        );
  const ring = ringTexels(tileWidth);
  const inTile = hipsTilePixels(0, 0, tileWidth);
  const offsets = ring.map((texel) => inTile[texel]!);
  const points = offsets.length;
  const kept: number[] = [];
  for (let first = 0; first < candidates.length; first += TILES_A_BATCH) {
    const batch = candidates.subarray(first, first + TILES_A_BATCH);
    const ids = new Float64Array(batch.length * points);
    batch.forEach((npix, tile) => {
      const base = npix * tileWidth * tileWidth;
      for (let k = 0; k < points; k += 1) ids[tile * points + k] = base + offsets[k]!;
    });
    const theta = new Float64Array(ids.length);
    const phi = new Float64Array(ids.length);
    core.healpixPix2ang(2 ** order * tileWidth, true, ids, theta, phi);
    const equatorial = toDegrees(theta, phi);
    const { lng, lat } = wcs.frame === 'galactic' ? toGalactic(equatorial) : equatorial;
    const { x, y } = wcs.skyToPixel(lng, lat);
    batch.forEach((npix, tile) => {
      if (ringMeetsImage(x, y, tile * points, points, width, height)) kept.push(npix);
    });
  }
  return Float64Array.from(kept);
}

/** Whether the ring at x[start …], y[start …] (`points` long, closed) may hold a texel of the image. */
function ringMeetsImage(
  x: Float64Array,
  y: Float64Array,
  start: number,
  points: number,
  width: number,
  height: number,
): boolean {
  let left = Infinity;
  let right = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  let step = 0;
  for (let k = 0; k < points; k += 1) {
    const px = x[start + k]!;
    const py = y[start + k]!;
    if (!Number.isFinite(px) || !Number.isFinite(py)) return true;
    const next = start + ((k + 1) % points);
    step = Math.max(step, Math.abs(x[next]! - px), Math.abs(y[next]! - py));
    left = Math.min(left, px);
    right = Math.max(right, px);
    top = Math.min(top, py);
    bottom = Math.max(bottom, py);
  }
  // sampleBand reads a texel whose pixel coordinates lie in [0.5, size + 0.5] on both axes.
  return right + step >= 0.5 && left - step <= width + 0.5 && bottom + step >= 0.5 && top - step <= height + 0.5;
}
