// HEALPix for the sky data builder: a synchronous adapter over the project's one HEALPix, the
// wasm core (core/healpix.ts, assembly/healpix/), loaded synchronously in Node. Kept for
// the builder's callers that work pixel by pixel; batches should use core/healpix.ts.
import { Healpix, nestToXy, xyToNest } from '../core/healpix';
import { loadCoreSync } from '../core/wasm';

export { nestToXy, xyToNest };

const grids = new Map<number, Healpix>();

function nested(nside: number): Healpix {
  let grid = grids.get(nside);
  if (!grid) {
    grid = new Healpix(loadCoreSync(), nside, 'nest');
    grids.set(nside, grid);
  }
  return grid;
}

/** Centre of nested pixel (face, ix, iy) at nside: [theta (colatitude), phi] in radians. */
export function xyfToAngle(nside: number, face: number, ix: number, iy: number): [number, number] {
  return nested(nside).pix2ang(face * nside * nside + xyToNest(ix, iy));
}

/** pix2ang_nest: [theta, phi] radians of nested pixel ipix at nside. */
export function pix2angNest(nside: number, ipix: number): [number, number] {
  return nested(nside).pix2ang(ipix);
}
