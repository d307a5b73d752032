// HEALPix nested-scheme pixel → angle (Górski et al. 2005, ApJ 622, 759, §4 and the nest
// indexing of its Fig. 4), used to render HiPS tiles: every HiPS tile pixel is the centre of a
// nested HEALPix pixel at order (tile order + log2 tile width). A small routine of skydata's own;
// the wasm HEALPix (src/core/healpix.ts, assembly/healpix.ts) is written by another part of the
// project and may replace it.

/** Face number → ring index of its centre in units of nside (jrll) and its longitude index (jpll). */
const JRLL = [2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4];
const JPLL = [1, 3, 5, 7, 0, 2, 4, 6, 1, 3, 5, 7];

/** Splits the interleaved bits of a within-face nested index into (ix, iy): ix in even bits. */
export function nestToXy(ipf: number): [number, number] {
  let ix = 0;
  let iy = 0;
  for (let bit = 0; bit < 26; bit++) {
    ix |= ((ipf / 2 ** (2 * bit)) & 1) << bit;
    iy |= ((ipf / 2 ** (2 * bit + 1)) & 1) << bit;
  }
  return [ix, iy];
}

/** Interleaves (ix, iy) into a within-face nested index (inverse of nestToXy). */
export function xyToNest(ix: number, iy: number): number {
  let ipf = 0;
  for (let bit = 0; bit < 26; bit++) ipf += (((ix >> bit) & 1) + 2 * ((iy >> bit) & 1)) * 4 ** bit;
  return ipf;
}

/** Centre of nested pixel (face, ix, iy) at nside: [theta (colatitude), phi] in radians. */
export function xyfToAngle(nside: number, face: number, ix: number, iy: number): [number, number] {
  const jr = JRLL[face] * nside - ix - iy - 1; // ring number, 1 … 4·nside − 1
  let nr: number;
  let z: number;
  let kshift: number;
  if (jr < nside) {
    nr = jr;
    z = 1 - (nr * nr) / (3 * nside * nside);
    kshift = 0;
  } else if (jr > 3 * nside) {
    nr = 4 * nside - jr;
    z = (nr * nr) / (3 * nside * nside) - 1;
    kshift = 0;
  } else {
    nr = nside;
    z = ((2 * nside - jr) * 2) / (3 * nside);
    kshift = (jr - nside) & 1;
  }
  let jp = (JPLL[face] * nr + ix - iy + 1 + kshift) / 2;
  if (jp > 4 * nside) jp -= 4 * nside;
  if (jp < 1) jp += 4 * nside;
  const phi = (jp - (kshift + 1) * 0.5) * (Math.PI / 2 / nr);
  return [Math.acos(z), phi];
}

/** pix2ang_nest: [theta, phi] radians of nested pixel ipix at nside. */
export function pix2angNest(nside: number, ipix: number): [number, number] {
  const perFace = nside * nside;
  const face = Math.floor(ipix / perFace);
  const [ix, iy] = nestToXy(ipix - face * perFace);
  return xyfToAngle(nside, face, ix, iy);
}
