// The batched HEALPix entry points that core/wasm.ts calls: ang2pix, pix2ang, vec2pix,
// pix2vec, nest2ring/ring2nest, nest2loc and ang2xyf over n points in linear memory, one call
// per chunk. Each checks nside once, then every element: it returns -1, or the index of the
// first bad element with healpixError() set (status.ts), the elements before it done.
//
// Speed comes from the per-nside constants hoisted out of the loops, from working by blocks
// (a cheap pass two lanes at a time, then the points one by one) and from pairs.ts, whose
// two-lane cos θ and acos z replace musl's branchy scalar ones.

import { INV_HALFPI, PI, TWOPI, TWOTHIRD } from './constants';
import { ang2xyf, nest2loc } from './face-coordinates';
import {
  equatorialPixel,
  fmodulo,
  gface,
  ghave,
  gphi,
  gring,
  gsth,
  gx,
  gy,
  gz,
  isqrt,
  jpll,
  jrll,
  loc2pix,
  nearPole,
  nest2xyf,
  orderOf,
  pix2locNest,
  pix2locNestF,
  pix2locRing,
  pix2locRingF,
  polarPixel,
  ring2xyf,
  validNside,
  xyf2nest,
  xyf2ring,
} from './geometry';
import {
  COS_BOUND,
  EIGHT,
  FOUR,
  INT_ONE,
  INT_THREE,
  LOW_HALF,
  MANTISSA_MASK,
  NEAR_POLE,
  ONE,
  ONE_HALF,
  PIO2_HIGH,
  PI_PAIR,
  QUARTER_PI,
  THREE_EIGHTHS_PI,
  THREE_QUARTERS,
  TWO,
  TWO_52,
  UNSHUFFLE_1,
  UNSHUFFLE_16,
  UNSHUFFLE_2,
  UNSHUFFLE_4,
  UNSHUFFLE_8,
  acosPair,
  cosApproximatePair,
  pairAt,
} from './pairs';
import { HP_BAD_NSIDE, HP_BAD_PIX, HP_BAD_THETA, HP_BAD_VECTOR, HP_OK } from '../errors';
import { setError } from './status';

// Pixel ids in memory are i64, or f64 when `f64ids` (exact below 2^53, the JS number path).

// @ts-ignore: decorator
@inline function loadId(p: usize, f64ids: bool): i64 {
  return f64ids ? <i64>load<f64>(p) : load<i64>(p);
}

// @ts-ignore: decorator
@inline export function storeId(p: usize, id: i64, f64ids: bool): void {
  if (f64ids) store<f64>(p, <f64>id);
  else store<i64>(p, id);
}

/** Whether the id at p is a valid pixel of npix (for f64 ids: also an integer). */
// @ts-ignore: decorator
@inline function idOk(p: usize, f64ids: bool, npix: i64): bool {
  if (f64ids) {
    const v = load<f64>(p);
    return v >= 0 && v < <f64>npix && Math.floor(v) == v;
  }
  const id = load<i64>(p);
  return id >= 0 && id < npix;
}

// The batches work by blocks of BLOCK points, with one f64 per point in blockScratch.
const BLOCK = 256;
const blockScratch = memory.data(8 * BLOCK, 16);

/**
 * ang2pix over n points: theta[i], phi[i] (f64) → out[i] (i64, or f64 when f64ids).
 * Returns -1, or the index of the first point with theta outside [0, π] or a non-finite phi
 * (healpixError() = HP_BAD_THETA); earlier points are done.
 */
export function hpAng2pix(nside: i64, nest: bool, theta: usize, phi: usize, out: usize, n: i32, f64ids: bool): i32 {
  setError(HP_OK);
  if (!validNside(nside)) {
    setError(HP_BAD_NSIDE);
    return 0;
  }
  const order = orderOf(nside);
  // By blocks: the approximate cos θ of the whole block first (two lanes at a time), then the
  // points one by one; two small loops compile to tighter code than one that does both.
  for (let start = 0; start < n; start += BLOCK) {
    const m = min(BLOCK, n - start);
    const block = theta + (<usize>start << 3);
    for (let k = 0; k + 1 < m; k += 2) {
      v128.store(blockScratch + (<usize>k << 3), cosApproximatePair(v128.load(block + (<usize>k << 3))));
    }
    if (m & 1) {
      const last = f64x2.splat(load<f64>(block + (<usize>(m - 1) << 3)));
      store<f64>(blockScratch + (<usize>(m - 1) << 3), f64x2.extract_lane(cosApproximatePair(last), 0));
    }
    for (let k = 0; k < m; k++) {
      const at = <usize>(start + k) << 3;
      const t = load<f64>(theta + at);
      const p = load<f64>(phi + at);
      if (!angleOk(t, p)) {
        setError(HP_BAD_THETA);
        return start + k;
      }
      const z = load<f64>(blockScratch + (<usize>k << 3));
      storeId(out + at, ang2pixBracketed(nside, order, nest, t, p, z), f64ids);
    }
  }
  return -1;
}

/** Whether theta is in [0, π] and phi finite. */
// @ts-ignore: decorator
@inline function angleOk(theta: f64, phi: f64): bool {
  return theta >= 0 && theta <= PI && isFinite(phi);
}

/** ang2pix of (theta, phi) with z = cos θ given. */
// @ts-ignore: decorator
@inline function ang2pixOf(nside: i64, order: i32, nest: bool, theta: f64, phi: f64, z: f64): i64 {
  const have = nearPole(theta);
  return loc2pix(nside, order, nest, z, normalPhi(phi), have ? Math.sin(theta) : 0.0, have);
}

/**
 * phi in [0, 2π): longitudes outside are first taken modulo 2π, as healpy does (multiplying
 * first and reducing modulo 4 quadrants can round across a pixel edge).
 */
// @ts-ignore: decorator
@inline function normalPhi(phi: f64): f64 {
  return phi >= 0 && phi < TWOPI ? phi : fmodulo(phi, TWOPI);
}

// θ of pixel centres by ring. θ depends on the ring alone (its z and, near the poles, sin θ),
// and below nside 2^12 a batch holds far more points than there are rings (4·nside − 1), so
// the acos/atan2 that dominates pix2ang is taken once per ring and kept, for either scheme (the
// rings are the same). The same function of the same z: identical results. Reset when nside
// changes; 0 marks a ring not yet done (no centre lies at θ = 0).
const THETA_TABLE_NSIDE: i64 = 4096;
const THETA_TABLE = memory.data(8 * 4 * <i32>THETA_TABLE_NSIDE, 16);
let thetaTableNside: i64 = 0;

/** θ of the pixel pix2loc* just placed (gz, gsth, ghave, gring), from the ring table. */
// @ts-ignore: decorator
@inline function thetaOfRing(): f64 {
  const at = THETA_TABLE + (<usize>gring << 3);
  let th = load<f64>(at);
  if (th == 0) {
    th = ghave ? Math.atan2(gsth, gz) : Math.acos(gz);
    store<f64>(at, th);
  }
  return th;
}

/** pix2ang over n ids: pix[i] → theta[i], phi[i]. Returns -1 or the first bad id's index. */
export function hpPix2ang(nside: i64, nest: bool, pix: usize, f64ids: bool, theta: usize, phi: usize, n: i32): i32 {
  setError(HP_OK);
  if (!validNside(nside)) {
    setError(HP_BAD_NSIDE);
    return 0;
  }
  const order = orderOf(nside);
  const npix = 12 * nside * nside;
  const ncap = (nside * (nside - 1)) << 1;
  const fact2 = 4.0 / <f64>npix;
  const fact1 = <f64>(nside << 1) * fact2;
  // One loop per scheme, the per-nside constants hoisted out of the per-point work.
  const table = nside <= THETA_TABLE_NSIDE;
  if (!table && order <= PAIR_MAX_ORDER) return pix2angByPairs(nside, order, nest, pix, f64ids, theta, phi, n);
  if (!table) return pix2angByBlocks(nside, order, nest, pix, f64ids, theta, phi, n);
  if (thetaTableNside != nside) {
    memory.fill(THETA_TABLE, 0, <usize>(nside << 5));
    thetaTableNside = nside;
  }
  if (nest) {
    for (let i = 0; i < n; i++) {
      const p = pix + (<usize>i << 3);
      if (!idOk(p, f64ids, npix)) {
        setError(HP_BAD_PIX);
        return i;
      }
      pix2locNestF(nside, order, loadId(p, f64ids), fact1, fact2);
      store<f64>(theta + (<usize>i << 3), thetaOfRing());
      store<f64>(phi + (<usize>i << 3), gphi);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const p = pix + (<usize>i << 3);
      if (!idOk(p, f64ids, npix)) {
        setError(HP_BAD_PIX);
        return i;
      }
      pix2locRingF(nside, order, loadId(p, f64ids), ncap, npix, fact1, fact2);
      store<f64>(theta + (<usize>i << 3), thetaOfRing());
      store<f64>(phi + (<usize>i << 3), gphi);
    }
  }
  return -1;
}

// pix2angByBlocks' first pass leaves, per point, e = 2·nside − (ring counted from the north
// pole) in blockScratch and the longitude numerator in blockNumerator: both are integers below
// 2^53, exact as f64, from which the second pass forms z and φ two lanes at a time.
const blockNumerator = memory.data(8 * BLOCK, 16);

/**
 * hpPix2ang above nside 2^12, where rings outnumber the points of a batch and the θ table would
 * not pay: by blocks, first the integer part of each centre (ring and position in it) without
 * branches, as random ids make the polar/equatorial choice unpredictable; then z, φ and acos z
 * two lanes at a time (anglesOfPair). The points before a bad id are done, as hpPix2ang's.
 */
function pix2angByBlocks(nside: i64, order: i32, nest: bool, pix: usize, f64ids: bool, theta: usize, phi: usize, n: i32): i32 {
  const npix = 12 * nside * nside;
  const ncap = (nside * (nside - 1)) << 1;
  setNsidePairs(nside, order);
  for (let start = 0; start < n; start += BLOCK) {
    const m = min(BLOCK, n - start);
    let good = m;
    for (let k = 0; k < m; k++) {
      const at = <usize>(start + k) << 3;
      if (!idOk(pix + at, f64ids, npix)) {
        good = k;
        break;
      }
      const id = loadId(pix + at, f64ids);
      if (nest) nestRingAndNumerator(nside, order, id, k);
      else ringRingAndNumerator(nside, order, id, ncap, npix, k);
    }
    for (let k = 0; k < good; k += 2) {
      const at = <usize>k << 3;
      const out = (<usize>start << 3) + at;
      const e = v128.load(blockScratch + at);
      const numerator = v128.load(blockNumerator + at);
      anglesOfPair(nest, e, numerator, theta + out, phi + out, min(2, good - k));
    }
    if (good < m) {
      setError(HP_BAD_PIX);
      return start + good;
    }
  }
  return -1;
}

// Up to nside 2^24 every integer of a centre's computation (ids, isqrt's argument, ring and
// longitude indices) stays below 2^52, where f64 arithmetic on integers is exact and the i64 ↔ f64
// conversions below are a bit operation: so pix2angByPairs does all of it in two lanes.
const PAIR_MAX_ORDER = 24;

// The per-nside two-lane constants of pix2ang's pair code, set by setNsidePairs (loaded, as
// PAIR_CONSTANTS are, rather than splatted at each use).
const NSIDE_PAIRS = memory.data(16 * 10, 16);
const NSIDE_F = 0;
const TWO_NSIDE = 1;
const FOUR_NSIDE = 2;
const INV_FOUR_NSIDE = 3;
const NCAP = 4; // pixels in a polar cap, 2·nside·(nside − 1)
const NPIX = 5;
const SOUTH_CAP = 6; // the first pixel of the south cap, npix − ncap
const FACT1 = 7;
const FACT2 = 8;
const FACE_MASK = 9; // i64: the bits of a nested id below its face

/** The per-nside constant `index` of NSIDE_PAIRS. */
// @ts-ignore: decorator
@inline function nsidePair(index: i32): v128 {
  return v128.load(NSIDE_PAIRS + (<usize>index << 4));
}

/** Fills NSIDE_PAIRS for nside = 2^order, each value formed as the scalar code forms it. */
function setNsidePairs(nside: i64, order: i32): void {
  const npix = 12 * nside * nside;
  const ncap = (nside * (nside - 1)) << 1;
  const fact2 = 4.0 / <f64>npix;
  v128.store(NSIDE_PAIRS + (NSIDE_F << 4), f64x2.splat(<f64>nside));
  v128.store(NSIDE_PAIRS + (TWO_NSIDE << 4), f64x2.splat(<f64>(nside << 1)));
  v128.store(NSIDE_PAIRS + (FOUR_NSIDE << 4), f64x2.splat(<f64>(nside << 2)));
  v128.store(NSIDE_PAIRS + (INV_FOUR_NSIDE << 4), f64x2.splat(1.0 / <f64>(nside << 2)));
  v128.store(NSIDE_PAIRS + (NCAP << 4), f64x2.splat(<f64>ncap));
  v128.store(NSIDE_PAIRS + (NPIX << 4), f64x2.splat(<f64>npix));
  v128.store(NSIDE_PAIRS + (SOUTH_CAP << 4), f64x2.splat(<f64>(npix - ncap)));
  v128.store(NSIDE_PAIRS + (FACT1 << 4), f64x2.splat(<f64>(nside << 1) * fact2));
  v128.store(NSIDE_PAIRS + (FACT2 << 4), f64x2.splat(fact2));
  v128.store(NSIDE_PAIRS + (FACE_MASK << 4), i64x2.splat((<i64>1 << <i64>(order << 1)) - 1));
}

/** i64 lanes in [0, 2^52) as f64. */
// @ts-ignore: decorator
@inline function smallToF64(v: v128): v128 {
  return f64x2.sub(v128.or(v, pairAt(TWO_52)), pairAt(TWO_52));
}

/** f64 lanes holding integers in [0, 2^52) as i64. */
// @ts-ignore: decorator
@inline function smallToI64(v: v128): v128 {
  return v128.and(f64x2.add(v, pairAt(TWO_52)), pairAt(MANTISSA_MASK));
}

/** One step of a bit permutation: swaps the bits under mask with those `shift` above them. */
// @ts-ignore: decorator
@inline function deltaSwap(v: v128, mask: i32, shift: i32): v128 {
  const t = v128.and(v128.xor(v, i64x2.shr_u(v, shift)), pairAt(mask));
  return v128.xor(v, v128.xor(t, i64x2.shl(t, shift)));
}

/**
 * The even bits of each lane (x) gathered into its low half and the odd bits (y) into its high
 * half: nest2xyf's table lookup, as the outer unshuffle of Hacker's Delight (2nd ed.), §7-2.
 */
// @ts-ignore: decorator
@inline function unshuffle(v: v128): v128 {
  v = deltaSwap(v, UNSHUFFLE_1, 1);
  v = deltaSwap(v, UNSHUFFLE_2, 2);
  v = deltaSwap(v, UNSHUFFLE_4, 4);
  v = deltaSwap(v, UNSHUFFLE_8, 8);
  return deltaSwap(v, UNSHUFFLE_16, 16);
}

/** Whether both ids of the pair are valid pixels (idOk two lanes at a time). */
// @ts-ignore: decorator
@inline function pairOk(id: v128, f64ids: bool, npix: i64): bool {
  if (f64ids) {
    const inside = v128.and(f64x2.ge(id, f64x2.splat(0.0)), f64x2.lt(id, nsidePair(NPIX)));
    return i64x2.all_true(v128.and(inside, f64x2.eq(f64x2.floor(id), id)));
  }
  return i64x2.all_true(v128.andnot(i64x2.lt_s(id, i64x2.splat(npix)), i64x2.lt_s(id, i64x2.splat(0))));
}

/**
 * hpPix2ang for 2^12 < nside ≤ 2^PAIR_MAX_ORDER: two ids at a time from the id to θ and φ, the
 * formulas of nestRingAndNumerator and ringRingAndNumerator in f64 lanes (exact, see above),
 * then anglesOfPair. A pair with a bad id, and an odd last id, go one id at a time.
 */
function pix2angByPairs(nside: i64, order: i32, nest: bool, pix: usize, f64ids: bool, theta: usize, phi: usize, n: i32): i32 {
  const npix = 12 * nside * nside;
  setNsidePairs(nside, order);
  for (let k = 0; k < n; k += 2) {
    const at = <usize>k << 3;
    let id = v128.load(pix + at);
    let lanes = 2;
    if (k + 1 >= n || !pairOk(id, f64ids, npix)) {
      if (!idOk(pix + at, f64ids, npix)) {
        setError(HP_BAD_PIX);
        return k;
      }
      id = v128.load64_splat(pix + at);
      lanes = 1;
    }
    if (nest) anglesOfNestPair(order, f64ids ? smallToI64(id) : id, theta + at, phi + at, lanes);
    else anglesOfRingPair(f64ids ? id : smallToF64(id), theta + at, phi + at, lanes);
    if (lanes == 1 && k + 1 < n) {
      setError(HP_BAD_PIX);
      return k + 1;
    }
  }
  return -1;
}

/** θ and φ of two nested ids (i64 lanes): nestRingAndNumerator, then anglesOfPair. */
// @ts-ignore: decorator
@inline function anglesOfNestPair(order: i32, id: v128, theta: usize, phi: usize, lanes: i32): void {
  const both = unshuffle(v128.and(id, nsidePair(FACE_MASK)));
  const ix = smallToF64(v128.and(both, pairAt(LOW_HALF)));
  const iy = smallToF64(i64x2.shr_u(both, 32));
  const face = i64x2.shr_u(id, order << 1);
  const faceRow = i64x2.shr_u(face, 2);
  const jrll = f64x2.add(smallToF64(faceRow), pairAt(TWO));
  // jpll = 2·(face mod 4) + 1 − (faceRow mod 2)
  const twiceColumn = i64x2.shl(v128.and(face, pairAt(INT_THREE)), 1);
  const jpll = smallToF64(i64x2.sub(i64x2.add(twiceColumn, pairAt(INT_ONE)), v128.and(faceRow, pairAt(INT_ONE))));
  const fns = nsidePair(NSIDE_F);
  const jr = f64x2.sub(f64x2.sub(f64x2.sub(f64x2.mul(jrll, fns), ix), iy), pairAt(ONE));
  const e = f64x2.sub(nsidePair(TWO_NSIDE), jr);
  const nr = f64x2.min(fns, f64x2.sub(nsidePair(TWO_NSIDE), f64x2.abs(e)));
  const tmp = f64x2.sub(f64x2.add(f64x2.mul(jpll, nr), ix), iy);
  const numerator = f64x2.add(tmp, v128.and(f64x2.mul(nr, pairAt(EIGHT)), f64x2.lt(tmp, f64x2.splat(0.0))));
  anglesOfPair(true, e, numerator, theta, phi, lanes);
}

/** θ and φ of two ring ids (f64 lanes): ringRingAndNumerator, then anglesOfPair. */
// @ts-ignore: decorator
@inline function anglesOfRingPair(id: v128, theta: usize, phi: usize, lanes: i32): void {
  const one = pairAt(ONE);
  const north = f64x2.lt(id, nsidePair(NCAP));
  const fromSouth = f64x2.sub(nsidePair(NPIX), id);
  const a = v128.bitselect(f64x2.add(f64x2.add(id, id), one), f64x2.sub(f64x2.add(fromSouth, fromSouth), one), north);
  const root = f64x2.trunc(f64x2.sqrt(f64x2.add(a, pairAt(ONE_HALF)))); // isqrt, as a < 2^50
  const iring = f64x2.floor(f64x2.mul(f64x2.add(root, one), pairAt(ONE_HALF)));
  const before = f64x2.mul(f64x2.mul(iring, f64x2.sub(iring, one)), pairAt(TWO));
  const northPhi = f64x2.sub(f64x2.add(id, one), before);
  const southPhi = f64x2.sub(f64x2.add(f64x2.mul(iring, pairAt(FOUR)), one), f64x2.sub(fromSouth, before));
  const capPhi = v128.bitselect(northPhi, southPhi, north);
  const capRing = v128.bitselect(iring, f64x2.sub(nsidePair(FOUR_NSIDE), iring), north);
  const ip = f64x2.sub(id, nsidePair(NCAP));
  const tmp = f64x2.floor(f64x2.mul(ip, nsidePair(INV_FOUR_NSIDE)));
  const equatorRing = f64x2.add(tmp, nsidePair(NSIDE_F));
  const equatorPhi = f64x2.add(f64x2.sub(ip, f64x2.mul(tmp, nsidePair(FOUR_NSIDE))), one);
  // fodd = 1 when ring + nside is odd, else 1/2; twice that is 1 + (ring + nside) mod 2.
  const sum = f64x2.add(equatorRing, nsidePair(NSIDE_F));
  const twiceFodd = f64x2.sub(f64x2.add(sum, one), f64x2.mul(f64x2.floor(f64x2.mul(sum, pairAt(ONE_HALF))), pairAt(TWO)));
  const cap = v128.or(north, f64x2.ge(id, nsidePair(SOUTH_CAP)));
  const e = f64x2.sub(nsidePair(TWO_NSIDE), v128.bitselect(capRing, equatorRing, cap));
  const capNumerator = f64x2.sub(f64x2.add(capPhi, capPhi), one);
  const numerator = v128.bitselect(capNumerator, f64x2.sub(f64x2.add(equatorPhi, equatorPhi), twiceFodd), cap);
  anglesOfPair(false, e, numerator, theta, phi, lanes);
}

/**
 * Nested id → blockScratch[k], blockNumerator[k]: e and jpll·nr + ix − iy taken modulo 8·nr,
 * nr the ring's pixels per quadrant (pix2locXyf's tmp).
 */
// @ts-ignore: decorator
@inline function nestRingAndNumerator(nside: i64, order: i32, id: i64, k: i32): void {
  nest2xyf(order, id);
  const e = (nside << 1) - ((jrll(gface) << <i64>order) - gx - gy - 1);
  const magnitude = select<i64>(e, -e, e >= 0);
  const nr = select<i64>(nside, (nside << 1) - magnitude, magnitude <= nside);
  const tmp = jpll(gface) * nr + gx - gy;
  const at = <usize>k << 3;
  store<f64>(blockScratch + at, <f64>e);
  store<f64>(blockNumerator + at, <f64>(tmp + select<i64>(nr << 3, 0, tmp < 0)));
}

/**
 * Ring id → blockScratch[k], blockNumerator[k]: e and 2·iphi − 1 in the caps, 2·iphi − 2·fodd
 * on the equator (twice pix2locRingF's iphi − 0.5 and iphi − fodd), both zones computed and one
 * selected.
 */
// @ts-ignore: decorator
@inline function ringRingAndNumerator(nside: i64, order: i32, id: i64, ncap: i64, npix: i64, k: i32): void {
  const north = id < ncap;
  const fromSouth = npix - id;
  const iring = (1 + isqrt(select<i64>(1 + 2 * id, 2 * fromSouth - 1, north))) >> 1;
  const before = (iring * (iring - 1)) << 1;
  const capPhi = select<i64>(id + 1 - before, 4 * iring + 1 - (fromSouth - before), north);
  const capRing = select<i64>(iring, (nside << 2) - iring, north);
  const ip = id - ncap;
  const tmp = ip >> <i64>(order + 2);
  const equatorRing = tmp + nside;
  const equatorPhi = ip - (tmp << <i64>(order + 2)) + 1;
  const twiceFodd = select<i64>(2, 1, ((equatorRing + nside) & 1) != 0);
  const cap = north || id >= npix - ncap;
  const at = <usize>k << 3;
  store<f64>(blockScratch + at, <f64>((nside << 1) - select<i64>(capRing, equatorRing, cap)));
  store<f64>(blockNumerator + at, <f64>select<i64>(2 * capPhi - 1, 2 * equatorPhi - twiceFodd, cap));
}

/**
 * θ and φ of one or two centres (`lanes`) from their e and longitude numerator, with
 * pix2locXyf's and pix2locRingF's formulas, both zones computed and one selected; θ = acos z
 * (acosPair), or atan2(sin θ, z) for |z| > 0.99 as those functions do. Bit for bit theirs: nr·nr
 * in f64 is the exact product rounded once, as <f64>(nr * nr) is, and halving the ring scheme's
 * doubled numerators is exact.
 */
// @ts-ignore: decorator
@inline function anglesOfPair(nest: bool, e: v128, numerator: v128, theta: usize, phi: usize, lanes: i32): void {
  const magnitude = f64x2.abs(e);
  const cap = f64x2.gt(magnitude, nsidePair(NSIDE_F));
  const nr = f64x2.sub(nsidePair(TWO_NSIDE), magnitude);
  const tmp = f64x2.mul(f64x2.mul(nr, nr), nsidePair(FACT2));
  const one = pairAt(ONE);
  const capZ = v128.bitselect(f64x2.sub(one, tmp), f64x2.sub(tmp, one), f64x2.gt(e, f64x2.splat(0.0)));
  const z = v128.bitselect(capZ, f64x2.mul(e, nsidePair(FACT1)), cap);
  let capPhi: v128, equatorPhi: v128;
  if (nest) {
    capPhi = f64x2.div(f64x2.mul(pairAt(QUARTER_PI), numerator), nr);
    equatorPhi = f64x2.mul(f64x2.mul(pairAt(THREE_EIGHTHS_PI), numerator), nsidePair(FACT1));
  } else {
    const half = f64x2.mul(numerator, pairAt(ONE_HALF));
    capPhi = f64x2.div(f64x2.mul(half, pairAt(PIO2_HIGH)), nr);
    const equatorPi = f64x2.mul(f64x2.mul(half, pairAt(PI_PAIR)), pairAt(THREE_QUARTERS));
    equatorPhi = f64x2.mul(equatorPi, nsidePair(FACT1));
  }
  const phiPair = v128.bitselect(capPhi, equatorPhi, cap);
  let thetaPair = acosPair(z);
  // NaN lanes (musl's rare acos paths) and the lanes next to a pole go one by one.
  if (v128.any_true(v128.or(f64x2.ne(thetaPair, thetaPair), f64x2.gt(f64x2.abs(z), pairAt(NEAR_POLE))))) {
    thetaPair = f64x2.replace_lane(thetaPair, 0, thetaOfCentre(f64x2.extract_lane(z, 0), f64x2.extract_lane(tmp, 0)));
    thetaPair = f64x2.replace_lane(thetaPair, 1, thetaOfCentre(f64x2.extract_lane(z, 1), f64x2.extract_lane(tmp, 1)));
  }
  if (lanes == 2) {
    v128.store(theta, thetaPair);
    v128.store(phi, phiPair);
  } else {
    store<f64>(theta, f64x2.extract_lane(thetaPair, 0));
    store<f64>(phi, f64x2.extract_lane(phiPair, 0));
  }
}

/** θ of a centre at z, tmp = 1 − |z| in the caps: atan2(sin θ, z) beyond |z| = 0.99, else acos z. */
function thetaOfCentre(z: f64, tmp: f64): f64 {
  return Math.abs(z) > 0.99 ? Math.atan2(Math.sqrt(tmp * (2.0 - tmp)), z) : Math.acos(z);
}

/**
 * vec2pix over n vectors, xyz interleaved (3 f64 each, any non-zero length) → out[i].
 * Returns -1 or the index of the first zero or non-finite vector (HP_BAD_VECTOR).
 */
export function hpVec2pix(nside: i64, nest: bool, xyz: usize, out: usize, n: i32, f64ids: bool): i32 {
  setError(HP_OK);
  if (!validNside(nside)) {
    setError(HP_BAD_NSIDE);
    return 0;
  }
  const order = orderOf(nside);
  for (let i = 0; i < n; i++) {
    const p = xyz + <usize>i * 24;
    const x = load<f64>(p);
    const y = load<f64>(p, 8);
    const z = load<f64>(p, 16);
    const length = Math.sqrt(x * x + y * y + z * z);
    if (!(length > 0) || !isFinite(length)) {
      setError(HP_BAD_VECTOR);
      return i;
    }
    const xl = 1.0 / length;
    const phi = x == 0 && y == 0 ? 0.0 : Math.atan2(y, x);
    const nz = z * xl;
    const pix =
      Math.abs(nz) > 0.99
        ? loc2pix(nside, order, nest, nz, phi, Math.sqrt(x * x + y * y) * xl, true)
        : loc2pix(nside, order, nest, nz, phi, 0, false);
    storeId(out + (<usize>i << 3), pix, f64ids);
  }
  return -1;
}

/** pix2vec over n ids → unit vectors, xyz interleaved. Returns -1 or the first bad id's index. */
export function hpPix2vec(nside: i64, nest: bool, pix: usize, f64ids: bool, xyz: usize, n: i32): i32 {
  setError(HP_OK);
  if (!validNside(nside)) {
    setError(HP_BAD_NSIDE);
    return 0;
  }
  const order = orderOf(nside);
  const npix = 12 * nside * nside;
  for (let i = 0; i < n; i++) {
    const p = pix + (<usize>i << 3);
    if (!idOk(p, f64ids, npix)) {
      setError(HP_BAD_PIX);
      return i;
    }
    const id = loadId(p, f64ids);
    if (nest) pix2locNest(nside, order, id);
    else pix2locRing(nside, order, id);
    const st = ghave ? gsth : Math.sqrt((1.0 - gz) * (1.0 + gz));
    const q = xyz + <usize>i * 24;
    store<f64>(q, st * Math.cos(gphi));
    store<f64>(q, st * Math.sin(gphi), 8);
    store<f64>(q, gz, 16);
  }
  return -1;
}

/**
 * nest2ring (toRing) or ring2nest over n ids, in place allowed (out may equal pix).
 * Returns -1 or the first bad id's index.
 */
export function hpConvert(nside: i64, toRing: bool, pix: usize, f64ids: bool, out: usize, n: i32): i32 {
  setError(HP_OK);
  if (!validNside(nside)) {
    setError(HP_BAD_NSIDE);
    return 0;
  }
  const order = orderOf(nside);
  const npix = 12 * nside * nside;
  for (let i = 0; i < n; i++) {
    const p = pix + (<usize>i << 3);
    if (!idOk(p, f64ids, npix)) {
      setError(HP_BAD_PIX);
      return i;
    }
    const id = loadId(p, f64ids);
    let result: i64;
    if (toRing) {
      nest2xyf(order, id);
      result = xyf2ring(nside, gx, gy, gface);
    } else {
      ring2xyf(nside, order, id);
      result = xyf2nest(order, gx, gy, gface);
    }
    storeId(out + (<usize>i << 3), result, f64ids);
  }
  return -1;
}

/**
 * nest2loc over n points: nested ids pix[i] with in-pixel offsets dx[i], dy[i] → theta[i],
 * phi[i]. Returns -1 or the first bad id's index (HEALPix tile corners and in-tile grids).
 */
export function hpNest2loc(
  nside: i64,
  pix: usize,
  f64ids: bool,
  dx: usize,
  dy: usize,
  theta: usize,
  phi: usize,
  n: i32,
): i32 {
  setError(HP_OK);
  if (!validNside(nside)) {
    setError(HP_BAD_NSIDE);
    return 0;
  }
  const npix = 12 * nside * nside;
  const tmp = pairScratch;
  for (let i = 0; i < n; i++) {
    const p = pix + (<usize>i << 3);
    if (!idOk(p, f64ids, npix)) {
      setError(HP_BAD_PIX);
      return i;
    }
    nest2loc(nside, loadId(p, f64ids), load<f64>(dx + (<usize>i << 3)), load<f64>(dy + (<usize>i << 3)), tmp);
    store<f64>(theta + (<usize>i << 3), load<f64>(tmp));
    store<f64>(phi + (<usize>i << 3), load<f64>(tmp, 8));
  }
  return -1;
}

/**
 * ang2xyf over n points → face[i] (i32), x[i], y[i] (f64, pixel units of nside). Returns -1 or
 * the index of the first bad point (HP_BAD_THETA).
 */
export function hpAng2xyf(nside: i64, theta: usize, phi: usize, face: usize, x: usize, y: usize, n: i32): i32 {
  setError(HP_OK);
  if (!validNside(nside)) {
    setError(HP_BAD_NSIDE);
    return 0;
  }
  const tmp = pairScratch;
  for (let i = 0; i < n; i++) {
    const t = load<f64>(theta + (<usize>i << 3));
    const p = load<f64>(phi + (<usize>i << 3));
    if (!(t >= 0 && t <= PI) || !isFinite(p)) {
      setError(HP_BAD_THETA);
      return i;
    }
    store<i32>(face + (<usize>i << 2), ang2xyf(nside, t, p, tmp));
    store<f64>(x + (<usize>i << 3), load<f64>(tmp));
    store<f64>(y + (<usize>i << 3), load<f64>(tmp, 8));
  }
  return -1;
}


/**
 * ang2pix of (theta, phi), theta in [0, π], given `z` within COS_BOUND of cos θ: the pixel
 * of loc2pix(Math.cos(theta), …), decided from the bracket around z where it can be.
 */
// @ts-ignore: decorator
@inline function ang2pixBracketed(nside: i64, order: i32, nest: bool, theta: f64, phi: f64, z: f64): i64 {
  // Next to the poles sin θ takes part (loc2pix's `have`): left to the exact path.
  if (nearPole(theta)) return ang2pixExact(nside, order, nest, theta, phi);
  const zLow = z - COS_BOUND;
  const zHigh = z + COS_BOUND;
  const tt = fmodulo(normalPhi(phi) * INV_HALFPI, 4.0);
  const fns = <f64>nside;
  if (Math.abs(zLow) <= TWOTHIRD && Math.abs(zHigh) <= TWOTHIRD) {
    // jp falls and jm rises with z (loc2pix's equatorial zone).
    const temp1 = fns * (0.5 + tt);
    const low = fns * (zLow * 0.75);
    const high = fns * (zHigh * 0.75);
    const jp = temp1 - low;
    const jm = temp1 + low;
    if (Math.floor(jp) == Math.floor(temp1 - high) && Math.floor(jm) == Math.floor(temp1 + high)) {
      return equatorialPixel(nside, order, nest, <i64>jp, <i64>jm);
    }
  } else if (zLow > TWOTHIRD || zHigh < -TWOTHIRD) {
    // One cap for the whole bracket: nside·√(3(1 − |z|)) falls as |z| rises, and jp, jm rise
    // with it.
    const north = zLow > 0;
    const nearer = north ? zHigh : -zLow; // |z| at the end nearer the pole
    const farther = north ? zLow : -zHigh;
    const tp = tt - <f64>min(3, <i32>tt);
    const small = fns * Math.sqrt(3.0 * (1.0 - nearer));
    const large = fns * Math.sqrt(3.0 * (1.0 - farther));
    const jp = tp * small;
    const jm = (1.0 - tp) * small;
    if (Math.floor(jp) == Math.floor(tp * large) && Math.floor(jm) == Math.floor((1.0 - tp) * large)) {
      return polarPixel(nside, order, nest, north, tt, <i64>jp, <i64>jm);
    }
  }
  return ang2pixExact(nside, order, nest, theta, phi);
}

/** ang2pix of (theta, phi) through Math.cos: the rare points the bracket leaves (not inlined). */
function ang2pixExact(nside: i64, order: i32, nest: bool, theta: f64, phi: f64): i64 {
  return ang2pixOf(nside, order, nest, theta, phi, Math.cos(theta));
}

const pairScratch = memory.data(16, 16);
