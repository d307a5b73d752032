// The math functions the HEALPix batches need, two f64 lanes at a time (v128), ported from
// musl (AssemblyScript's Math is musl's): cos θ (an approximation with a proven bound, for
// ang2pix's bracket), acos z (pix2ang) and the cos kernel (query_disc), and the scalar cos
// with musl's kernel inlined. Each gives musl's result bit for bit where it claims to, so the
// batches agree with the scalar code point for point.

import { HALFPI } from './constants';

// musl's __cos.c C1..C6.
const COS_C1 = reinterpret<f64>(0x3fa555555555554c);
const COS_C2 = reinterpret<f64>(0xbf56c16c16c15177);
const COS_C3 = reinterpret<f64>(0x3efa01a019cb1590);
const COS_C4 = reinterpret<f64>(0xbe927e4f809c52ad);
const COS_C5 = reinterpret<f64>(0x3e21ee9ebdb4b1c4);
const COS_C6 = reinterpret<f64>(0xbda8fae9be8838d4);

/**
 * Math.cos(x), with the path of musl's cos for 2^-27·√2 ≤ |x| ≲ π/4 (its kernel __cos(x, 0),
 * the same operations, so the same result) inlined: query_disc takes the cosine of small
 * longitude differences thousands of times a call, and the call cost a third of it.
 */
// @ts-ignore: decorator
@inline export function cosInline(x: f64): f64 {
  const high = <u32>(reinterpret<u64>(x) >> 32) & 0x7fffffff;
  if (high > 0x3fe921fb || high < 0x3e46a09e) return Math.cos(x);
  const z = x * x;
  const w = z * z;
  const r = z * (COS_C1 + z * (COS_C2 + z * COS_C3)) + w * w * (COS_C4 + z * (COS_C5 + z * COS_C6));
  const hz = 0.5 * z;
  const w1 = 1.0 - hz;
  return w1 + (1.0 - w1 - hz + z * r); // musl's − x·y, y = 0, cannot change the sum
}

// ---- cos θ and acos z two lanes at a time ----------------------------------------------------
// cos θ (ang2pix) and acos z (pix2ang) are a large part of a batch's work, and musl's cos and
// acos (AssemblyScript's Math.cos, Math.acos) pick a path by the size of the argument, which
// random points make unpredictable: these take every path's arithmetic without branches.

// Two-lane constants, loaded from memory: V8 builds an inline v128 constant anew at each use
// (three instructions), where a load is one, or none when folded into the arithmetic.
// prettier-ignore
export const PAIR_CONSTANTS = memory.data<u64>([
  0x3fc5555555555555, 0x3fc5555555555555, // PS0: musl asin.c pS0..pS5, qS1..qS4
  0xbfd4d61203eb6f7d, 0xbfd4d61203eb6f7d, // PS1
  0x3fc9c1550e884455, 0x3fc9c1550e884455, // PS2
  0xbfa48228b5688f3b, 0xbfa48228b5688f3b, // PS3
  0x3f49efe07501b288, 0x3f49efe07501b288, // PS4
  0x3f023de10dfdf709, 0x3f023de10dfdf709, // PS5
  0xc0033a271c8a2d4b, 0xc0033a271c8a2d4b, // QS1
  0x40002ae59c598ac8, 0x40002ae59c598ac8, // QS2
  0xbfe6066c1b8d0159, 0xbfe6066c1b8d0159, // QS3
  0x3fb3b8c5b12e9282, 0x3fb3b8c5b12e9282, // QS4
  0x3ff921fb54442d18, 0x3ff921fb54442d18, // PIO2_HIGH: π/2 as musl splits it: head (= HALFPI) and tail
  0x3c91a62633145c07, 0x3c91a62633145c07, // PIO2_LOW
  0x3ff0000000000000, 0x3ff0000000000000, // ONE
  0x3fe0000000000000, 0x3fe0000000000000, // ONE_HALF
  0x3c60000100000000, 0x3c60000100000000, // TINY: above every |x| whose high word is ≤ 0x3c600000
  0x7fffffffffffffff, 0x7fffffffffffffff, // MAGNITUDE_MASK: bit masks: all but the sign; the high word
  0xffffffff00000000, 0xffffffff00000000, // HEAD_MASK
  0x3fa555555555554c, 0x3fa555555555554c, // COS_C1_PAIR: musl __cos.c C1..C6
  0xbf56c16c16c15177, 0xbf56c16c16c15177, // COS_C2_PAIR
  0x3efa01a019cb1590, 0x3efa01a019cb1590, // COS_C3_PAIR
  0xbe927e4f809c52ad, 0xbe927e4f809c52ad, // COS_C4_PAIR
  0x3e21ee9ebdb4b1c4, 0x3e21ee9ebdb4b1c4, // COS_C5_PAIR
  0xbda8fae9be8838d4, 0xbda8fae9be8838d4, // COS_C6_PAIR
  0x3e46a09e00000000, 0x3e46a09e00000000, // KERNEL_LOW: the range of musl's cos kernel: high words 0x3e46a09e..0x3fe921fb
  0x3fe921fc00000000, 0x3fe921fc00000000, // KERNEL_HIGH
  0x4000000000000000, 0x4000000000000000, // TWO: pix2ang's centres, two at a time
  0x4010000000000000, 0x4010000000000000, // FOUR
  0x4020000000000000, 0x4020000000000000, // EIGHT
  0x3fe8000000000000, 0x3fe8000000000000, // THREE_QUARTERS
  0x3fefae147ae147ae, 0x3fefae147ae147ae, // NEAR_POLE: 0.99, where pix2loc* keeps sin θ
  0x400921fb54442d18, 0x400921fb54442d18, // PI_PAIR
  0x3fe921fb54442d18, 0x3fe921fb54442d18, // QUARTER_PI: 0.5 · HALFPI
  0x3ff2d97c7f3321d2, 0x3ff2d97c7f3321d2, // THREE_EIGHTHS_PI: 0.75 · HALFPI, rounded as the scalar code's
  0x4330000000000000, 0x4330000000000000, // TWO_52: 2^52, and the bits of 2^52 as i64
  0x000fffffffffffff, 0x000fffffffffffff, // MANTISSA_MASK
  0x00000000ffffffff, 0x00000000ffffffff, // LOW_HALF
  0x0000000000000001, 0x0000000000000001, // INT_ONE
  0x0000000000000003, 0x0000000000000003, // INT_THREE
  0x2222222222222222, 0x2222222222222222, // UNSHUFFLE_1: the masks of unshuffle's steps
  0x0c0c0c0c0c0c0c0c, 0x0c0c0c0c0c0c0c0c, // UNSHUFFLE_2
  0x00f000f000f000f0, 0x00f000f000f000f0, // UNSHUFFLE_4
  0x0000ff000000ff00, 0x0000ff000000ff00, // UNSHUFFLE_8
  0x00000000ffff0000, 0x00000000ffff0000, // UNSHUFFLE_16
]);
const PS0 = 0;
const PS1 = 1;
const PS2 = 2;
const PS3 = 3;
const PS4 = 4;
const PS5 = 5;
const QS1 = 6;
const QS2 = 7;
const QS3 = 8;
const QS4 = 9;
export const PIO2_HIGH = 10;
const PIO2_LOW = 11;
export const ONE = 12;
export const ONE_HALF = 13;
const TINY = 14;
export const MAGNITUDE_MASK = 15;
const HEAD_MASK = 16;
const COS_C1_PAIR = 17;
const COS_C2_PAIR = 18;
const COS_C3_PAIR = 19;
const COS_C4_PAIR = 20;
const COS_C5_PAIR = 21;
const COS_C6_PAIR = 22;
export const KERNEL_LOW = 23;
export const KERNEL_HIGH = 24;
export const TWO = 25;
export const FOUR = 26;
export const EIGHT = 27;
export const THREE_QUARTERS = 28;
export const NEAR_POLE = 29;
export const PI_PAIR = 30;
export const QUARTER_PI = 31;
export const THREE_EIGHTHS_PI = 32;
export const TWO_52 = 33;
export const MANTISSA_MASK = 34;
export const LOW_HALF = 35;
export const INT_ONE = 36;
export const INT_THREE = 37;
export const UNSHUFFLE_1 = 38;
export const UNSHUFFLE_2 = 39;
export const UNSHUFFLE_4 = 40;
export const UNSHUFFLE_8 = 41;
export const UNSHUFFLE_16 = 42;

/** The two-lane constant `index` of PAIR_CONSTANTS. */
// @ts-ignore: decorator
@inline export function pairAt(index: i32): v128 {
  return v128.load(PAIR_CONSTANTS + (<usize>index << 4));
}

/** constant `index` + z·x with the product rounded first (one Horner step, as scalar code does). */
// @ts-ignore: decorator
@inline function plusTimesAt(index: i32, z: v128, x: v128): v128 {
  return f64x2.add(pairAt(index), f64x2.mul(z, x));
}

// ang2pix needs cos θ only to place the point between pixel edges, so the batch (ang2pixBracketed
// in batch.ts) takes a cheap,
// branch-free cos θ with a proven error bound and brackets the exact value: every step from z to
// the edge-line indices (jp, jm) is monotonic in z (IEEE operations round monotonically), so
// when both ends of [z − bound, z + bound] give the same indices, Math.cos(θ) gives them too and
// the pixel is bit for bit the one loc2pix would give. Otherwise (a point within about
// 2^-39·nside of an edge line: a few in 10^6 at nside 2^20, 2 in 10^3 at 2^29) Math.cos decides.
//
// The approximation is the Taylor series of sin x at x = π/2 − θ ∈ [−π/2, π/2] up to x^17: the
// series alternates, so the truncation error is below (π/2)^19/19! < 4.5e-14; the reduction
// (exact by Sterbenz's lemma for θ ≥ π/4, one rounding of 1.1e-16 below, plus the tail of π/2),
// the rounded coefficients and the 17 rounded Horner steps add less than 1e-14 for |x| ≤ π/2
// (the series' terms sum to below 2.5). So |z − cos θ| < 6e-14, fifteen times below COS_BOUND.
export const COS_BOUND: f64 = reinterpret<f64>(0x3d70000000000000); // 2^-40
const PIO2_TAIL: f64 = 6.123233995736766e-17; // π/2 − HALFPI

/** cos θ for two θ in [0, π] to within COS_BOUND (see above), without branches. */
// @ts-ignore: decorator
@inline export function cosApproximatePair(theta: v128): v128 {
  // Inline constants here: the loop that calls this has registers to keep them in.
  const x = f64x2.add(f64x2.sub(f64x2.splat(HALFPI), theta), f64x2.splat(PIO2_TAIL));
  const y = f64x2.mul(x, x);
  let p = plusTimes(-1.0 / 1307674368000.0, y, f64x2.splat(1.0 / 355687428096000.0)); // ±1/15!, 1/17!
  p = plusTimes(1.0 / 6227020800.0, y, p);
  p = plusTimes(-1.0 / 39916800.0, y, p);
  p = plusTimes(1.0 / 362880.0, y, p);
  p = plusTimes(-1.0 / 5040.0, y, p);
  p = plusTimes(1.0 / 120.0, y, p);
  p = plusTimes(-1.0 / 6.0, y, p);
  return f64x2.mul(x, plusTimes(1.0, y, p));
}

/** c + z·x with the product rounded first, lane by lane (one Horner step, as scalar code does). */
// @ts-ignore: decorator
@inline function plusTimes(c: f64, z: v128, x: v128): v128 {
  return f64x2.add(f64x2.splat(c), f64x2.mul(z, x));
}

/** musl's rational approximation of (asin(x) − x)/x³ at z = x² (asin.c R), lane by lane. */
// @ts-ignore: decorator
@inline function asinRationalPair(z: v128): v128 {
  const p = f64x2.mul(z, plusTimesAt(PS0, z, plusTimesAt(PS1, z, plusTimesAt(PS2, z, plusTimesAt(PS3, z, plusTimesAt(PS4, z, pairAt(PS5)))))));
  const q = plusTimesAt(ONE, z, plusTimesAt(QS1, z, plusTimesAt(QS2, z, plusTimesAt(QS3, z, pairAt(QS4)))));
  return f64x2.div(p, q);
}

/**
 * Math.acos of two values: |x| < 0.5 through R(x²); beyond, through s = √((1 ∓ x)/2), for
 * x > 0 with the head of s split off as musl does. NaN in lanes musl treats apart: |x| ≥ 1
 * (and NaN) and |x| ≤ 2^-57.
 */
// @ts-ignore: decorator
@inline export function acosPair(x: v128): v128 {
  const pio2High = pairAt(PIO2_HIGH);
  const pio2Low = pairAt(PIO2_LOW);
  const magnitude = v128.and(x, pairAt(MAGNITUDE_MASK));
  const small = f64x2.lt(magnitude, pairAt(ONE_HALF)); // |x| < 0.5
  const negative = f64x2.lt(x, f64x2.splat(0.0));
  const half = f64x2.mul(x, pairAt(ONE_HALF));
  const zBig = v128.bitselect(f64x2.add(pairAt(ONE_HALF), half), f64x2.sub(pairAt(ONE_HALF), half), negative);
  const z = v128.bitselect(f64x2.mul(x, x), zBig, small);
  const rational = asinRationalPair(z);
  const resultSmall = f64x2.sub(pio2High, f64x2.sub(x, f64x2.sub(pio2Low, f64x2.mul(x, rational))));
  const s = f64x2.sqrt(z);
  const wNegative = f64x2.sub(f64x2.mul(rational, s), pio2Low);
  const resultNegative = f64x2.add(f64x2.sub(pio2High, f64x2.add(s, wNegative)), f64x2.sub(pio2High, f64x2.add(s, wNegative)));
  const head = v128.and(s, pairAt(HEAD_MASK));
  const c = f64x2.div(f64x2.sub(z, f64x2.mul(head, head)), f64x2.add(s, head));
  const positive = f64x2.add(head, f64x2.add(f64x2.mul(rational, s), c));
  const resultPositive = f64x2.add(positive, positive);
  const result = v128.bitselect(resultSmall, v128.bitselect(resultNegative, resultPositive, negative), small);
  // musl's rare paths: |x| ≥ 1 (NaN too, by the negated test) and |x| ≤ 2^-57 (high word).
  const rare = v128.or(v128.not(f64x2.lt(magnitude, pairAt(ONE))), f64x2.lt(magnitude, pairAt(TINY)));
  return v128.or(result, rare); // all-ones lanes are NaN
}

/** musl __cos(x, 0) lane by lane (cosInline's kernel). */
// @ts-ignore: decorator
@inline export function cosKernelPair(x: v128): v128 {
  const z = f64x2.mul(x, x);
  const w = f64x2.mul(z, z);
  const low = f64x2.mul(z, plusTimesAt(COS_C1_PAIR, z, plusTimesAt(COS_C2_PAIR, z, pairAt(COS_C3_PAIR))));
  const high = f64x2.mul(f64x2.mul(w, w), plusTimesAt(COS_C4_PAIR, z, plusTimesAt(COS_C5_PAIR, z, pairAt(COS_C6_PAIR))));
  const r = f64x2.add(low, high);
  const hz = f64x2.mul(pairAt(ONE_HALF), z);
  const w1 = f64x2.sub(pairAt(ONE), hz);
  return f64x2.add(w1, f64x2.add(f64x2.sub(f64x2.sub(pairAt(ONE), w1), hz), f64x2.mul(z, r)));
}
