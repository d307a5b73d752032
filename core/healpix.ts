// HEALPix (Górski et al. 2005, ApJ 622, 759) for the whole project: the checked public face of
// the wasm kernels in assembly/healpix/, reached through core/wasm.ts.
//
// nside is any power of two from 1 to 2^29 (order 0..29), so there are up to 12·4^29 ≈ 3.5e18
// pixels. Ids are JavaScript numbers while they are exact (below 2^53) and BigInt at or above
// it: a single id comes back as `number` or `bigint` by its value, a batch as a Float64Array
// when every id of the nside fits a double exactly (nside ≤ 2^24) and as a BigInt64Array beyond.
// Both kinds are accepted on input, also as decimal strings (the CLI's JSON form).
//
// Angles are radians: theta the colatitude in [0, π], phi the longitude (any finite value,
// taken modulo 2π). Batches run in one wasm call per chunk of points, so a whole tile or a
// million points costs one call from JavaScript.

import type { Core, PixelIds } from './wasm';
import { QUERY_DISC_RADIUS_ERROR } from './wasm';

export type { PixelIds } from './wasm';
export { QUERY_DISC_RADIUS_ERROR };

/** A pixel id: a number below 2^53, a bigint at or above it (both accepted on input). */
export type PixelId = number | bigint;

export type Scheme = 'ring' | 'nest';

export const MAX_ORDER = 29;
export const MAX_NSIDE = 2 ** MAX_ORDER;

const SAFE = 2n ** 53n;

/** Throws unless nside is a power of two from 1 to 2^29. */
export function checkNside(nside: number): void {
  if (!Number.isInteger(nside) || nside < 1 || nside > MAX_NSIDE || (nside & (nside - 1)) !== 0) {
    throw new Error(`nside must be a power of two from 1 to 2^29, got ${nside}`);
  }
}

/** Throws unless order is an integer from 0 to 29. */
export function checkOrder(order: number): void {
  if (!Number.isInteger(order) || order < 0 || order > MAX_ORDER) {
    throw new Error(`order must be an integer from 0 to 29, got ${order}`);
  }
}

/** 12·nside², exact. */
export function pixelCount(nside: number): bigint {
  checkNside(nside);
  return 12n * BigInt(nside) ** 2n;
}

/** Whether ids of this nside may pass 2^53 (nside ≥ 2^25), so batches are BigInt64Array. */
export function wideIds(nside: number): boolean {
  return nside > 2 ** 24;
}

/** The id as the JavaScript edge carries it: a number below 2^53, a bigint at or above. */
export function pixelId(value: bigint): PixelId {
  return value < SAFE && value > -SAFE ? Number(value) : value;
}

/**
 * Reads an id given as a number (a safe integer), a bigint or a string of decimal digits.
 * Range is checked against nside by the kernels (or by checkPixel).
 */
export function parsePixelId(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new Error(`pixel id must be an integer below 2^53 as a number (a decimal string above), got ${value}`);
    }
    return BigInt(value);
  }
  if (typeof value === 'string' && /^[0-9]{1,20}$/.test(value)) return BigInt(value);
  throw new Error(
    `pixel id must be a non-negative integer or a string of decimal digits, got ${JSON.stringify(value)}`,
  );
}

/** Throws unless 0 ≤ id < 12·nside². */
export function checkPixel(nside: number, id: bigint): void {
  const count = pixelCount(nside);
  if (id < 0n || id >= count) throw new Error(`pixel id must be in [0, ${count}) for nside ${nside}, got ${id}`);
}

/** Ids as the batch kernels take them for this nside (Float64Array or BigInt64Array), checked. */
export function pixelArray(nside: number, ids: readonly (PixelId | string)[] | PixelIds): PixelIds {
  const wide = wideIds(nside);
  if (wide && ids instanceof BigInt64Array) return ids;
  if (!wide && ids instanceof Float64Array) return ids;
  const out = wide ? new BigInt64Array(ids.length) : new Float64Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = parsePixelId(ids[i]);
    checkPixel(nside, id);
    if (out instanceof BigInt64Array) out[i] = id;
    else out[i] = Number(id);
  }
  return out;
}

/** Ids of a batch as numbers and bigints (pixelId of each). */
export function pixelList(ids: PixelIds): PixelId[] {
  const out: PixelId[] = new Array<PixelId>(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    out[i] = typeof id === 'bigint' ? pixelId(id) : id;
  }
  return out;
}

export interface QueryDiscOptions {
  /** Every pixel that overlaps the disc (HEALPix C++ query_disc_inclusive), not only centres inside. */
  inclusive?: boolean;
  /**
   * Inclusive only: the overlap is tested at nside·fact (default 4, as healpy); an integer ≥ 1
   * with nside·fact ≤ 2^29, a power of two in the nested scheme.
   */
  fact?: number;
}

/**
 * One HEALPix grid (an nside and a scheme), like HEALPix C++'s T_Healpix_Base: single-point
 * methods and batched ones (…Batch) over typed arrays.
 */
export class Healpix {
  readonly nest: boolean;
  readonly order: number;
  /** Whether batches of ids are BigInt64Array (nside ≥ 2^25) rather than Float64Array. */
  readonly wide: boolean;

  constructor(
    private readonly core: Core,
    readonly nside: number,
    readonly scheme: Scheme = 'ring',
  ) {
    checkNside(nside);
    if (scheme !== 'ring' && scheme !== 'nest')
      throw new Error(`scheme must be 'ring' or 'nest', got ${String(scheme)}`);
    this.nest = scheme === 'nest';
    this.order = Math.log2(nside);
    this.wide = wideIds(nside);
  }

  /** 12·nside². */
  get npix(): bigint {
    return pixelCount(this.nside);
  }

  /** An empty id array of the right kind for this nside. */
  ids(length: number): PixelIds {
    return this.wide ? new BigInt64Array(length) : new Float64Array(length);
  }

  private one(id: PixelId | string): PixelIds {
    const value = parsePixelId(id);
    checkPixel(this.nside, value);
    return this.wide ? BigInt64Array.of(value) : Float64Array.of(Number(value));
  }

  private first(ids: PixelIds): PixelId {
    const id = ids[0];
    return typeof id === 'bigint' ? pixelId(id) : id;
  }

  // ---- single points ----

  /** The pixel holding direction (theta, phi). */
  ang2pix(theta: number, phi: number): PixelId {
    const out = this.ids(1);
    this.core.healpixAng2pix(this.nside, this.nest, Float64Array.of(theta), Float64Array.of(phi), out);
    return this.first(out);
  }

  /** The centre of a pixel: [theta, phi]. */
  pix2ang(id: PixelId | string): [number, number] {
    const theta = new Float64Array(1);
    const phi = new Float64Array(1);
    this.core.healpixPix2ang(this.nside, this.nest, this.one(id), theta, phi);
    return [theta[0], phi[0]];
  }

  /** The pixel holding the direction of vector [x, y, z] (any non-zero length). */
  vec2pix(vector: readonly [number, number, number]): PixelId {
    const out = this.ids(1);
    this.core.healpixVec2pix(this.nside, this.nest, Float64Array.from(vector), out);
    return this.first(out);
  }

  /** The unit vector of a pixel's centre. */
  pix2vec(id: PixelId | string): [number, number, number] {
    const xyz = new Float64Array(3);
    this.core.healpixPix2vec(this.nside, this.nest, this.one(id), xyz);
    return [xyz[0], xyz[1], xyz[2]];
  }

  /** Nested id → ring id (whatever this grid's scheme). */
  nest2ring(id: PixelId | string): PixelId {
    const ids = this.one(id);
    this.core.healpixConvert(this.nside, true, ids, ids);
    return this.first(ids);
  }

  /** Ring id → nested id (whatever this grid's scheme). */
  ring2nest(id: PixelId | string): PixelId {
    const ids = this.one(id);
    this.core.healpixConvert(this.nside, false, ids, ids);
    return this.first(ids);
  }

  /**
   * The direction of the point at (dx, dy) ∈ [0,1]² inside NESTED pixel id (dx along the face's
   * x index, dy along y; (0.5, 0.5) is the centre, (1, 1) the north corner): [theta, phi].
   */
  nest2loc(id: PixelId | string, dx: number, dy: number): [number, number] {
    const theta = new Float64Array(1);
    const phi = new Float64Array(1);
    this.core.healpixNest2loc(this.nside, this.one(id), Float64Array.of(dx), Float64Array.of(dy), theta, phi);
    return [theta[0], phi[0]];
  }

  /**
   * The base face (0..11) of a direction and its real face coordinates in pixel units: the
   * nested pixel holding it has ix = floor(x), iy = floor(y). Inverse of nest2loc.
   */
  ang2xyf(theta: number, phi: number): { face: number; x: number; y: number } {
    const face = new Int32Array(1);
    const x = new Float64Array(1);
    const y = new Float64Array(1);
    this.core.healpixAng2xyf(this.nside, Float64Array.of(theta), Float64Array.of(phi), face, x, y);
    return { face: face[0], x: x[0], y: y[0] };
  }

  /** Largest angle between a pixel's centre and its corners, radians (HEALPix C++ max_pixrad). */
  maxPixrad(): number {
    return this.core.healpixMaxPixrad(this.nside);
  }

  /**
   * Pixels whose centres lie within `radius` of (theta, phi), or with { inclusive } every pixel
   * that overlaps the disc (a few more may come, none is missed), sorted ascending. radius must
   * be below π/2 ('query_disc: radius must < PI/2').
   */
  queryDisc(theta: number, phi: number, radius: number, options: QueryDiscOptions = {}): PixelIds {
    return this.core.healpixQueryDiscPixels(
      this.nside,
      this.nest,
      theta,
      phi,
      checkRadius(radius),
      discFact(options),
      this.wide,
    );
  }

  /** query_disc as sorted half-open ranges: [lo0, hi0, lo1, hi1, …] (for discs of very many pixels). */
  queryDiscRanges(theta: number, phi: number, radius: number, options: QueryDiscOptions = {}): BigInt64Array {
    return this.core.healpixQueryDiscRanges(this.nside, this.nest, theta, phi, checkRadius(radius), discFact(options));
  }

  // ---- batches (one wasm call per chunk; outputs may be passed in and reused) ----

  ang2pixBatch(theta: Float64Array, phi: Float64Array, out: PixelIds = this.ids(theta.length)): PixelIds {
    this.core.healpixAng2pix(this.nside, this.nest, theta, phi, this.checkKind(out));
    return out;
  }

  pix2angBatch(
    ids: PixelIds,
    theta = new Float64Array(ids.length),
    phi = new Float64Array(ids.length),
  ): { theta: Float64Array; phi: Float64Array } {
    this.core.healpixPix2ang(this.nside, this.nest, ids, theta, phi);
    return { theta, phi };
  }

  /** Vectors x, y, z interleaved. */
  vec2pixBatch(xyz: Float64Array, out: PixelIds = this.ids(Math.floor(xyz.length / 3))): PixelIds {
    this.core.healpixVec2pix(this.nside, this.nest, xyz, this.checkKind(out));
    return out;
  }

  /** Unit vectors x, y, z interleaved. */
  pix2vecBatch(ids: PixelIds, xyz = new Float64Array(3 * ids.length)): Float64Array {
    this.core.healpixPix2vec(this.nside, this.nest, ids, xyz);
    return xyz;
  }

  nest2ringBatch(ids: PixelIds, out: PixelIds = this.ids(ids.length)): PixelIds {
    this.core.healpixConvert(this.nside, true, ids, this.checkKind(out));
    return out;
  }

  ring2nestBatch(ids: PixelIds, out: PixelIds = this.ids(ids.length)): PixelIds {
    this.core.healpixConvert(this.nside, false, ids, this.checkKind(out));
    return out;
  }

  /** nest2loc over points: nested ids[i] at (dx[i], dy[i]) → theta[i], phi[i]. */
  nest2locBatch(
    ids: PixelIds,
    dx: Float64Array,
    dy: Float64Array,
    theta = new Float64Array(ids.length),
    phi = new Float64Array(ids.length),
  ): { theta: Float64Array; phi: Float64Array } {
    this.core.healpixNest2loc(this.nside, ids, dx, dy, theta, phi);
    return { theta, phi };
  }

  /** ang2xyf over points. */
  ang2xyfBatch(
    theta: Float64Array,
    phi: Float64Array,
    face = new Int32Array(theta.length),
    x = new Float64Array(theta.length),
    y = new Float64Array(theta.length),
  ): { face: Int32Array; x: Float64Array; y: Float64Array } {
    this.core.healpixAng2xyf(this.nside, theta, phi, face, x, y);
    return { face, x, y };
  }

  private checkKind(out: PixelIds): PixelIds {
    if (this.wide && !(out instanceof BigInt64Array)) {
      throw new Error(`ids of nside ${this.nside} may pass 2^53: the output must be a BigInt64Array`);
    }
    return out;
  }
}

function checkRadius(radius: number): number {
  if (Number.isNaN(radius) || radius >= Math.PI / 2) throw new Error(QUERY_DISC_RADIUS_ERROR);
  if (radius < 0) throw new Error(`query_disc: radius must be ≥ 0, got ${radius}`);
  return radius;
}

function discFact({ inclusive = false, fact = 4 }: QueryDiscOptions): number {
  if (!inclusive) return 0;
  if (!Number.isInteger(fact) || fact < 1) {
    throw new Error(`query_disc: fact must be an integer ≥ 1, got ${fact}`);
  }
  return fact;
}

// ---- HiPS (IVOA HiPS 1.0): tiles are nested pixels ----------------------------------------
// A tile of order k is the nested pixel `ipix` at nside 2^k. Its texel (row r, column c) of a
// tile w texels wide is the nested pixel (face, ix = ix0·w + r, iy = iy0·w + c) at order
// k + log2(w), the convention of Aladin's Hipsgen: rows run along the face's x index, columns
// along y.

/**
 * Splits a within-face nested index (below 2^52) into (ix, iy): ix from the even bits, iy from
 * the odd bits (Górski et al. 2005, Fig. 4).
 */
export function nestToXy(ipf: number): [number, number] {
  let ix = 0;
  let iy = 0;
  for (let bit = 0, rest = ipf; rest > 0; bit++, rest = Math.floor(rest / 4)) {
    ix += (rest % 2) * 2 ** bit;
    iy += (Math.floor(rest / 2) % 2) * 2 ** bit;
  }
  return [ix, iy];
}

/** Interleaves (ix, iy), each below 2^26, into a within-face nested index (inverse of nestToXy). */
export function xyToNest(ix: number, iy: number): number {
  return interleave(ix, iy);
}

/** Interleaves x (even bits) and y (odd bits) of two integers below 2^26: the in-face nested index. */
function interleave(x: number, y: number): number {
  let out = 0;
  for (let bit = 0, scale = 1; bit < 26 && (x >= 1 << bit || y >= 1 << bit); bit++, scale *= 4) {
    out += (((x >> bit) & 1) + 2 * ((y >> bit) & 1)) * scale;
  }
  return out;
}

function checkTile(order: number, ipix: number): void {
  checkOrder(order);
  if (!Number.isSafeInteger(ipix) || ipix < 0 || ipix >= 12 * 4 ** order) {
    throw new Error(`tile must be an integer in [0, ${12 * 4 ** order}) at order ${order}, got ${ipix}`);
  }
}

function checkTileWidth(order: number, tileWidth: number): number {
  const bits = Math.log2(tileWidth);
  if (!Number.isInteger(bits) || bits < 0 || order + bits > 24) {
    throw new Error(
      `tile width must be a power of two with order + log2(width) ≤ 24, got ${tileWidth} at order ${order}`,
    );
  }
  return bits;
}

/**
 * The four corners of HiPS tile {order, ipix} as [theta, phi] pairs, in the order of HEALPix
 * C++ boundaries(): north (x, y = 1, 1), west (0, 1), south (0, 0), east (1, 0).
 */
export function hipsTileCorners(core: Core, order: number, ipix: number): [number, number][] {
  checkTile(order, ipix);
  const ids = Float64Array.of(ipix, ipix, ipix, ipix);
  const theta = new Float64Array(4);
  const phi = new Float64Array(4);
  core.healpixNest2loc(2 ** order, ids, Float64Array.of(1, 0, 0, 1), Float64Array.of(1, 1, 0, 0), theta, phi);
  return [0, 1, 2, 3].map((k) => [theta[k], phi[k]]);
}

/**
 * Nested ids (order + log2(tileWidth)) of the texels of HiPS tile {order, ipix}, row by row
 * (index r·w + c), so that pix2ang of them gives the texel centres.
 */
export function hipsTilePixels(order: number, ipix: number, tileWidth: number): Float64Array {
  checkTile(order, ipix);
  const bits = checkTileWidth(order, tileWidth);
  const ids = new Float64Array(tileWidth * tileWidth);
  const base = ipix * 4 ** bits;
  for (let row = 0; row < tileWidth; row++) {
    for (let column = 0; column < tileWidth; column++) ids[row * tileWidth + column] = base + interleave(row, column);
  }
  return ids;
}

/** Texel centres of HiPS tile {order, ipix} (index r·w + c): theta and phi. */
export function hipsTileCenters(
  core: Core,
  order: number,
  ipix: number,
  tileWidth: number,
): { theta: Float64Array; phi: Float64Array } {
  const ids = hipsTilePixels(order, ipix, tileWidth);
  const theta = new Float64Array(ids.length);
  const phi = new Float64Array(ids.length);
  core.healpixPix2ang(2 ** order * tileWidth, true, ids, theta, phi);
  return { theta, phi };
}

/**
 * In-tile coordinates of directions at HiPS order `order`: the tile (nested id at nside 2^order)
 * holding each point and the point's position inside it, x along the face's x index (texel rows)
 * and y along y (texel columns), both in [0, 1). Texel (row, column) of a w-wide tile is
 * (floor(x·w), floor(y·w)).
 */
export function hipsTileCoordinates(
  core: Core,
  order: number,
  theta: Float64Array,
  phi: Float64Array,
): { tile: PixelIds; x: Float64Array; y: Float64Array } {
  checkOrder(order);
  const nside = 2 ** order;
  const n = theta.length;
  const face = new Int32Array(n);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  core.healpixAng2xyf(nside, theta, phi, face, x, y);
  const wide = wideIds(nside);
  const tile: PixelIds = wide ? new BigInt64Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const ix = Math.floor(x[i]);
    const iy = Math.floor(y[i]);
    x[i] -= ix;
    y[i] -= iy;
    if (tile instanceof BigInt64Array) {
      tile[i] =
        BigInt(face[i]) * BigInt(nside) ** 2n +
        BigInt(interleave(ix & 0x3ffffff, iy & 0x3ffffff)) +
        (BigInt(interleave(ix >>> 26, iy >>> 26)) << 52n);
    } else tile[i] = face[i] * nside * nside + interleave(ix, iy);
  }
  return { tile, x, y };
}
