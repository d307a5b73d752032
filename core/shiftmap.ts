// Shiftmaps (viewer-spec §4, §9): per-texel corrections for a HiPS tile that the globe draws as
// a smooth patch. The kernel and the definition of the patch are in assembly/shiftmap.ts:
//
//   patch   the tile of nested pixel ipix at order k cut into 8 × 8 cells whose 81 vertices are
//           exact HEALPix directions; each cell the normalised bilinear blend of its corners
//   map     64 × 64 texels at u = (i + ½)/64, v = (j + ½)/64 (u, v along the face's x, y
//           index axes): shift (p, q) = exact in-tile position of the patch point P(u, v) − (u, v)
//   use     sample the tile at (u, v) + (p, q)
//
// Layout: as a HiPS tile image, whose row r and column c lie at face x = r, y = c (Hipsgen's
// convention, skydata/hips.ts): row i (u) by column j (v), each texel the pair (q, p), the shift
// along the columns then along the rows. Uploaded in the same row order as the tile image, the
// map shares the tile's texture coordinates (s, t) = (v, u), and (R, G) = (q, p) is the shift in
// them: the shader samples the tile at st + texture(shiftmap, st).rg.
//
// Texture encoding: an RG16F texture, 64 × 64, the pairs as IEEE 754 binary16 (half floats,
// round to nearest even), clamped to ±0.015 (viewer-spec §9: maximum shift). WebGL2 uploads it
// as is, texImage2D(TEXTURE_2D, 0, RG16F, 64, 64, 0, RG, HALF_FLOAT, texels), and filters it
// linearly; 0 is no shift. Below 0.015 a half float is within 2^-18 (3.8e-6 of a tile, 0.002
// texels of a 512-pixel tile) of the shift it encodes.
//
// Which tiles get one: a tile whose largest |shift| is at most SHIFTMAP_MIN_SHIFT, half a texel of
// a 512-pixel tile, is drawn right by the patch alone and gets null. From order 2 on, those that
// need a map lie on the four polar faces of each cap: next to the pole, and along the cap's edge
// (z = ±2/3), where HEALPix's projection bends across the tile's diagonal (strongest next to the
// face corners there). At order 3 that is 120 tiles of 768; equatorial faces never need one.
import { MAX_ORDER } from './healpix';
import type { Core } from './wasm';

/** Texels along a side of a map (viewer-spec §9: distortion map size 64). */
export const SHIFTMAP_SIZE = 64;
/** Largest shift stored, in tile widths (viewer-spec §9: maximum shift 0.015). */
export const SHIFTMAP_MAX_SHIFT = 0.015;
/** Cells along a side of the patch mesh the globe draws a tile with (assembly/shiftmap.ts). */
export const SHIFTMAP_PATCH_CELLS = 8;
/** A tile gets a map when some |shift| exceeds this: half a texel of a 512-pixel HiPS tile. */
export const SHIFTMAP_MIN_SHIFT = 1 / 1024;
/** Values in one map: (q, p) for each of 64 × 64 texels. */
export const SHIFTMAP_VALUES = SHIFTMAP_SIZE * SHIFTMAP_SIZE * 2;
/** Largest |decodeShift(encodeShift(x)) − x| for |x| ≤ SHIFTMAP_MAX_SHIFT: half a binary16 ulp. */
export const SHIFTMAP_RESOLUTION = 2 ** -18;

/** A HiPS tile: nested pixel `ipix` at `order`; ids past 2^53 as BigInt. */
export interface TileId {
  order: number;
  ipix: number | bigint;
}

/** The cache key of a tile: "order/ipix". */
export function shiftmapKey(order: number, ipix: number | bigint): string {
  return `${order}/${ipix}`;
}

/** Checks a tile id and returns its pixel as a BigInt (the wasm side takes i64). */
export function tilePixel(order: number, ipix: number | bigint): bigint {
  if (!Number.isInteger(order) || order < 0 || order > MAX_ORDER) {
    throw new RangeError(`HiPS order must be an integer in 0 … ${MAX_ORDER}, got ${order}`);
  }
  if (typeof ipix === 'number' && !Number.isSafeInteger(ipix)) {
    throw new RangeError(`HEALPix pixel must be an integer (BigInt past 2^53), got ${ipix}`);
  }
  const pixel = BigInt(ipix);
  const npix = 12n << BigInt(2 * order);
  if (pixel < 0n || pixel >= npix) {
    throw new RangeError(`HEALPix pixel ${ipix} is out of range at order ${order}: 0 … ${npix - 1n}`);
  }
  return pixel;
}

/**
 * The shiftmap texture of a tile (RG16F data, see above), or null when the tile needs none.
 * `out`, when given, receives the texels and is returned (reuse it for a stream of tiles).
 */
export function computeShiftmap(
  core: Core,
  order: number,
  ipix: number | bigint,
  out = new Uint16Array(SHIFTMAP_VALUES),
): Uint16Array | null {
  const largest = core.shiftmapTexture(order, tilePixel(order, ipix), SHIFTMAP_MAX_SHIFT, out);
  return largest > SHIFTMAP_MIN_SHIFT ? out : null;
}

/** The exact, unclamped shifts of a tile as (q, p) pairs in the map's layout, and the largest |shift|. */
export function shiftmapOffsets(
  core: Core,
  order: number,
  ipix: number | bigint,
  out = new Float64Array(SHIFTMAP_VALUES),
): { offsets: Float64Array; largest: number; strays: number } {
  const { largest, strays } = core.shiftmapOffsets(order, tilePixel(order, ipix), out);
  return { offsets: out, largest, strays };
}

// binary16: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits; exponent 0 is subnormal,
// units of 2^-24. The wasm kernel gives the same bits (assembly/shiftmap.ts toHalf4, which
// leaves the rounding to one f64 addition per value; tests/unit/shiftmap.test.ts compares them).

/** binary16 bits of a shift clamped to ±SHIFTMAP_MAX_SHIFT, rounded to nearest, ties to even. */
export function encodeShift(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const clamped = Math.min(SHIFTMAP_MAX_SHIFT, Math.max(-SHIFTMAP_MAX_SHIFT, x));
  const sign = clamped < 0 || Object.is(clamped, -0) ? 0x8000 : 0;
  const a = Math.abs(clamped);
  if (a < 2 ** -14) return sign | roundHalfEven(a * 2 ** 24);
  let e = Math.floor(Math.log2(a));
  // log2 can land one off next to a power of two; settle e so that 2^e ≤ a < 2^(e+1).
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  let m = roundHalfEven(a * 2 ** (10 - e));
  if (m >= 2048) {
    m = 1024;
    e++;
  }
  return sign | ((e + 15) << 10) | (m - 1024);
}

function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** The shift a binary16 texel value holds. */
export function decodeShift(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction ? Number.NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** Decodes a whole map to (q, p) float pairs, row i (u) by column j (v). */
export function decodeShiftmap(texels: Uint16Array, out = new Float32Array(texels.length)): Float32Array {
  for (let k = 0; k < texels.length; k++) out[k] = decodeShift(texels[k]);
  return out;
}
