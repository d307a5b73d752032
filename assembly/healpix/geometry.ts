// HEALPix (Górski et al. 2005, ApJ 622, 759): the Hierarchical Equal Area isoLatitude
// Pixelisation of the sphere, for nside any power of two from 1 to 2^29 (order 0..29), with
// 64-bit pixel ids in the RING and NESTED schemes. This file is the scalar geometry: pixel ids
// ↔ face coordinates (ix, iy, face) in both schemes, pixel centres, and the pixel of a point.
//
// Geometry, as in the paper (§4) and HEALPix C++ (T_Healpix_Base):
// - 12 base faces: 0..3 around the north pole, 4..7 on the equator, 8..11 around the south
//   pole. Face f has its centre on ring jrll[f]·nside (counted from the north pole, in units of
//   nside) at longitude jpll[f]·π/4.
// - Inside a face, pixel (ix, iy) lies on ring jr = jrll·nside − ix − iy − 1; the nested id is
//   f·nside² + the bits of ix and iy interleaved (ix in the even bits).
// - The ring scheme numbers pixels ring by ring from the north pole: polar-cap ring i holds 4i
//   pixels, each of the 2·nside+1 equatorial rings holds 4·nside.
// - |z| ≤ 2/3 (z = cos θ) is the equatorial zone, where z is linear in the ring index; in the
//   polar caps 1 − |z| grows with the square of the ring index.
//
// Precision. Near the poles 1 − z is far below the spacing of doubles around 1, so z alone
// cannot place a point among the rings of nside 2^29 (their 1 − z is ~1e-18). As HEALPix C++
// does, the caps also carry sin θ ("sth"), which keeps full relative precision there:
// angle → pixel uses nside·sin θ/√((1+|z|)/3) instead of nside·√(3(1−|z|)), and pixel → angle
// computes sin θ from the ring index and returns θ = atan2(sin θ, z) instead of acos(z). The
// results then agree bit for bit with HEALPix C++ (healpy) at every order up to 29.
//
// Nothing here allocates: the multi-valued helpers leave their results in module globals
// (wasm functions return one value), which the other HEALPix files read.
//
// The rest of the HEALPix code, one idea a file: face-coordinates.ts (points anywhere inside a
// pixel, for the shiftmaps), pairs.ts (the two-lane math kernels), batch.ts (the batched entry
// points), query-disc.ts, and status.ts (the reason the last call failed).

import { HALFPI, INV_HALFPI, MAX_ORDER, PI, TWOTHIRD } from './constants';

// ---- small helpers ---------------------------------------------------------------------------

/** Ring of the centre of face f in units of nside, counted from the north pole (2, 3 or 4). */
// @ts-ignore: decorator
@inline export function jrll(face: i32): i64 {
  return <i64>((face >> 2) + 2);
}

/** Longitude index of the centre of face f in units of π/4 (1,3,5,7 / 0,2,4,6 / 1,3,5,7). */
// @ts-ignore: decorator
@inline export function jpll(face: i32): i64 {
  return <i64>(((face & 3) << 1) + (1 - ((face >> 2) & 1)));
}

/** Spreads the low 32 bits of v to the even bits of the result (bit k → bit 2k). */
// @ts-ignore: decorator
@inline function spread(v: u64): u64 {
  v = (v | (v << 16)) & 0x0000ffff0000ffff;
  v = (v | (v << 8)) & 0x00ff00ff00ff00ff;
  v = (v | (v << 4)) & 0x0f0f0f0f0f0f0f0f;
  v = (v | (v << 2)) & 0x3333333333333333;
  v = (v | (v << 1)) & 0x5555555555555555;
  return v;
}

/** Gathers the even bits of v into the low 32 bits of the result (inverse of spread). */
// @ts-ignore: decorator
@inline function compress(v: u64): u64 {
  v &= 0x5555555555555555;
  v = (v | (v >> 1)) & 0x3333333333333333;
  v = (v | (v >> 2)) & 0x0f0f0f0f0f0f0f0f;
  v = (v | (v >> 4)) & 0x00ff00ff00ff00ff;
  v = (v | (v >> 8)) & 0x0000ffff0000ffff;
  v = (v | (v >> 16)) & 0x00000000ffffffff;
  return v;
}

/** log2 of a power of two. */
// @ts-ignore: decorator
@inline export function orderOf(nside: i64): i32 {
  return <i32>ctz<i64>(nside);
}

/** Whether nside is a power of two in 1..2^29. */
// @ts-ignore: decorator
@inline export function validNside(nside: i64): bool {
  return nside >= 1 && nside <= (<i64>1 << MAX_ORDER) && (nside & (nside - 1)) == 0;
}

/** Integer square root, exact for every argument below 2^62 (HEALPix C++ isqrt). */
// @ts-ignore: decorator
@inline export function isqrt(a: i64): i64 {
  let r = <i64>Math.sqrt(<f64>a + 0.5);
  if (a < <i64>1 << 50) return r;
  if (r * r > a) r--;
  else if ((r + 1) * (r + 1) <= a) r++;
  return r;
}

/** v1 mod v2 in [0, v2) for v2 > 0 (HEALPix C++ fmodulo: C's fmod, shifted for v1 < 0). */
// @ts-ignore: decorator
@inline export function fmodulo(v1: f64, v2: f64): f64 {
  if (v1 >= 0) return v1 < v2 ? v1 : v1 % v2;
  const t = (v1 % v2) + v2;
  return t == v2 ? 0 : t;
}

/** The largest double below v (v > 0): keeps a continuous coordinate inside its pixel. */
// @ts-ignore: decorator
@inline export function below(v: f64, limit: f64): f64 {
  return v < limit ? v : reinterpret<f64>(reinterpret<i64>(limit) - 1);
}


// ---- nested index ↔ (ix, iy, face) ---------------------------------------------------------

// Outputs of the multi-valued helpers (wasm functions return one value).
export let gx: i64 = 0;
export let gy: i64 = 0;
export let gface: i32 = 0;
export let gz: f64 = 0;
export let gphi: f64 = 0;
export let gsth: f64 = 0;
export let ghave: bool = false;
export let gring: i64 = 0; // ring of the last pix2loc, counted from the north pole (1 … 4·nside − 1)

// The inverse by table too: COMPRESS_BITS interleaved bits at a time, each entry holding their
// x bits in its low half and their y bits in its high half (8 KiB; HEALPix C++'s ctab takes 8).
const COMPRESS_BITS = 10;
const COMPRESS_TABLE = memory.data(8 << COMPRESS_BITS, 16);
for (let v = 0; v < 1 << COMPRESS_BITS; v++) {
  store<u64>(COMPRESS_TABLE + (<usize>v << 3), compress(<u64>v) | (compress(<u64>v >> 1) << 32));
}

// @ts-ignore: decorator
@inline export function nest2xyf(order: i32, pix: i64): void {
  const shift = order << 1;
  gface = <i32>(pix >> <i64>shift);
  const ipf = <u64>(pix & ((<i64>1 << <i64>shift) - 1));
  let both: u64 = 0;
  for (let s = 0; s < shift; s += COMPRESS_BITS) {
    const part = <usize>(ipf >> <u64>s) & ((1 << COMPRESS_BITS) - 1);
    both |= load<u64>(COMPRESS_TABLE + (part << 3)) << <u64>(s >> 1);
  }
  gx = <i64>(both & 0xffffffff);
  gy = <i64>(both >> 32);
}

// Bit interleaving by table, as HEALPix C++ does with its 256-entry utab, but SPREAD_BITS bits
// at a time (8 KiB, which stays cached): one lookup per coordinate up to nside 2^11 and two up
// to 2^22, where spread's five rounds of 64-bit masks cost twice as much. Filled at start.
const SPREAD_BITS = 11;
const SPREAD_TABLE = memory.data(4 << SPREAD_BITS, 16);
for (let v = 0; v < 1 << SPREAD_BITS; v++) store<u32>(SPREAD_TABLE + (<usize>v << 2), <u32>spread(<u64>v));

/** spread() of the low SPREAD_BITS bits of v. */
// @ts-ignore: decorator
@inline function spreadLow(v: i64): i64 {
  return <i64>load<u32>(SPREAD_TABLE + ((<usize>v & ((1 << SPREAD_BITS) - 1)) << 2));
}

// @ts-ignore: decorator
@inline export function xyf2nest(order: i32, ix: i64, iy: i64, face: i32): i64 {
  let bits = spreadLow(ix) | (spreadLow(iy) << 1);
  if (order > SPREAD_BITS) {
    bits |= (spreadLow(ix >> SPREAD_BITS) | (spreadLow(iy >> SPREAD_BITS) << 1)) << (2 * SPREAD_BITS);
    if (order > 2 * SPREAD_BITS) {
      bits |= (spreadLow(ix >> (2 * SPREAD_BITS)) | (spreadLow(iy >> (2 * SPREAD_BITS)) << 1)) << (4 * SPREAD_BITS);
    }
  }
  return (<i64>face << <i64>(order << 1)) + bits;
}

// ---- ring index ↔ (ix, iy, face) ----------------------------------------------------------

// Ring `ring` (1..4·nside−1): first pixel, pixel count and whether its pixels are shifted by
// half a pixel in longitude (HEALPix C++ get_ring_info_small). Works for any nside.
export let gstart: i64 = 0;
export let gringpix: i64 = 0;
export let gshifted: bool = false;

// @ts-ignore: decorator
@inline export function ringInfo(nside: i64, ring: i64): void {
  if (ring < nside) {
    gshifted = true;
    gringpix = ring << 2;
    gstart = (ring * (ring - 1)) << 1;
  } else if (ring < 3 * nside) {
    gshifted = ((ring - nside) & 1) == 0;
    gringpix = nside << 2;
    gstart = ((nside * (nside - 1)) << 1) + (ring - nside) * gringpix;
  } else {
    gshifted = true;
    const nr = (nside << 2) - ring;
    gringpix = nr << 2;
    gstart = 12 * nside * nside - ((nr * (nr + 1)) << 1);
  }
}

/** (ix, iy, face) → ring id; valid for any nside (also the oversampled grids of query_disc). */
export function xyf2ring(nside: i64, ix: i64, iy: i64, face: i32): i64 {
  const nl4 = nside << 2;
  const jr = jrll(face) * nside - ix - iy - 1;
  ringInfo(nside, jr);
  const nr = gringpix >> 2;
  const kshift: i64 = gshifted ? 0 : 1;
  let jp = (jpll(face) * nr + ix - iy + 1 + kshift) / 2;
  if (jp < 1) jp += nl4;
  return gstart + jp - 1;
}

/** ring id → (ix, iy, face) in gx, gy, gface, for a power-of-two nside. */
export function ring2xyf(nside: i64, order: i32, pix: i64): void {
  const ncap = (nside * (nside - 1)) << 1;
  const npix = 12 * nside * nside;
  const nl2 = nside << 1;
  let iring: i64, iphi: i64, kshift: i64, nr: i64;
  let face: i32;
  if (pix < ncap) {
    iring = (1 + isqrt(1 + 2 * pix)) >> 1;
    iphi = pix + 1 - ((iring * (iring - 1)) << 1);
    kshift = 0;
    nr = iring;
    face = <i32>((iphi - 1) / nr);
  } else if (pix < npix - ncap) {
    const ip = pix - ncap;
    const tmp = ip >> <i64>(order + 2);
    iring = tmp + nside;
    iphi = ip - tmp * (nside << 2) + 1;
    kshift = (iring + nside) & 1;
    nr = nside;
    const ire = tmp + 1;
    const irm = nl2 + 1 - tmp;
    const ifm = (iphi - (ire >> 1) + nside - 1) >> <i64>order;
    const ifp = (iphi - (irm >> 1) + nside - 1) >> <i64>order;
    face = ifp == ifm ? <i32>(ifp | 4) : ifp < ifm ? <i32>ifp : <i32>(ifm + 8);
  } else {
    const ip = npix - pix;
    iring = (1 + isqrt(2 * ip - 1)) >> 1;
    iphi = 4 * iring + 1 - (ip - ((iring * (iring - 1)) << 1));
    kshift = 0;
    nr = iring;
    iring = 2 * nl2 - iring;
    face = <i32>((iphi - 1) / nr) + 8;
  }
  const irt = iring - jrll(face) * nside + 1;
  let ipt = 2 * iphi - jpll(face) * nr - kshift - 1;
  if (ipt >= nl2) ipt -= 8 * nside;
  gx = (ipt - irt) >> 1;
  gy = (-ipt - irt) >> 1;
  gface = face;
}

// ---- pixel → location (z, phi, and sin θ near the poles) ------------------------------------

/**
 * Centre of ring pixel `pix` into gz, gphi (and gsth, ghave in the caps). `order` = log2(nside),
 * or -1 for an nside that is not a power of two (the oversampled grids of query_disc), which
 * divides where a power of two shifts.
 */
export function pix2locRing(nside: i64, order: i32, pix: i64): void {
  const npix = 12 * nside * nside;
  const fact2 = 4.0 / <f64>npix;
  pix2locRingF(nside, order, pix, (nside * (nside - 1)) << 1, npix, <f64>(nside << 1) * fact2, fact2);
}

/**
 * pix2locRing with the per-nside constants given (the batched loops compute them once, not per
 * point): ncap = 2·nside·(nside − 1) pixels in a polar cap, npix = 12·nside², fact2 = 4/npix
 * and fact1 = 2·nside·fact2, formed exactly as HEALPix C++ forms them.
 */
// @ts-ignore: decorator
@inline export function pix2locRingF(nside: i64, order: i32, pix: i64, ncap: i64, npix: i64, fact1: f64, fact2: f64): void {
  ghave = false;
  if (pix < ncap) {
    const iring = (1 + isqrt(1 + 2 * pix)) >> 1;
    gring = iring;
    const iphi = pix + 1 - ((iring * (iring - 1)) << 1);
    const tmp = <f64>(iring * iring) * fact2;
    gz = 1.0 - tmp;
    if (gz > 0.99) {
      gsth = Math.sqrt(tmp * (2.0 - tmp));
      ghave = true;
    }
    gphi = (<f64>iphi - 0.5) * HALFPI / <f64>iring;
  } else if (pix < npix - ncap) {
    const nl4 = nside << 2;
    const ip = pix - ncap;
    const tmp = order >= 0 ? ip >> <i64>(order + 2) : ip / nl4;
    const iring = tmp + nside;
    gring = iring;
    const iphi = ip - nl4 * tmp + 1;
    const fodd: f64 = ((iring + nside) & 1) != 0 ? 1.0 : 0.5;
    gz = <f64>((nside << 1) - iring) * fact1;
    gphi = (<f64>iphi - fodd) * PI * 0.75 * fact1;
  } else {
    const ip = npix - pix;
    const iring = (1 + isqrt(2 * ip - 1)) >> 1;
    gring = (nside << 2) - iring;
    const iphi = 4 * iring + 1 - (ip - ((iring * (iring - 1)) << 1));
    const tmp = <f64>(iring * iring) * fact2;
    gz = tmp - 1.0;
    if (gz < -0.99) {
      gsth = Math.sqrt(tmp * (2.0 - tmp));
      ghave = true;
    }
    gphi = (<f64>iphi - 0.5) * HALFPI / <f64>iring;
  }
}

/** Centre of nested pixel `pix` into gz, gphi (gsth, ghave). */
export function pix2locNest(nside: i64, order: i32, pix: i64): void {
  const npix: i64 = 12 * nside * nside;
  const fact2 = 4.0 / <f64>npix;
  pix2locNestF(nside, order, pix, <f64>(nside << 1) * fact2, fact2);
}

/** pix2locNest with fact1, fact2 given (see pix2locRingF). */
// @ts-ignore: decorator
@inline export function pix2locNestF(nside: i64, order: i32, pix: i64, fact1: f64, fact2: f64): void {
  nest2xyf(order, pix);
  pix2locXyf(nside, order, gface, gx, gy, fact1, fact2);
}

/** pix2locNestF from the pixel's (face, ix, iy) (query_disc's descent carries them). */
// @ts-ignore: decorator
@inline export function pix2locXyf(nside: i64, order: i32, face: i32, ix: i64, iy: i64, fact1: f64, fact2: f64): void {
  const jr = (jrll(face) << <i64>order) - ix - iy - 1;
  gring = jr;
  let nr: i64;
  ghave = false;
  if (jr < nside) {
    nr = jr;
    const tmp = <f64>(nr * nr) * fact2;
    gz = 1.0 - tmp;
    if (gz > 0.99) {
      gsth = Math.sqrt(tmp * (2.0 - tmp));
      ghave = true;
    }
  } else if (jr > 3 * nside) {
    nr = (nside << 2) - jr;
    const tmp = <f64>(nr * nr) * fact2;
    gz = tmp - 1.0;
    if (gz < -0.99) {
      gsth = Math.sqrt(tmp * (2.0 - tmp));
      ghave = true;
    }
  } else {
    nr = nside;
    gz = <f64>((nside << 1) - jr) * fact1;
  }
  let tmp = jpll(face) * nr + ix - iy;
  if (tmp < 0) tmp += 8 * nr;
  gphi = nr == nside ? 0.75 * HALFPI * <f64>tmp * fact1 : (0.5 * HALFPI * <f64>tmp) / <f64>nr;
}

// ---- location → pixel --------------------------------------------------------------------

/**
 * The pixel holding the point (z = cos θ, phi); `sth` = sin θ when `have`, used near the poles
 * for precision (HEALPix C++ loc2pix). nside a power of two.
 */
// @ts-ignore: decorator
@inline export function loc2pix(nside: i64, order: i32, nest: bool, z: f64, phi: f64, sth: f64, have: bool): i64 {
  const za = Math.abs(z);
  const tt = fmodulo(phi * INV_HALFPI, 4.0); // in [0, 4)
  const fns = <f64>nside;
  if (za <= TWOTHIRD) {
    // Equatorial zone: the pixel edges are the lines jp (ascending) and jm (descending).
    const temp1 = fns * (0.5 + tt);
    const temp2 = fns * (z * 0.75);
    return equatorialPixel(nside, order, nest, <i64>(temp1 - temp2), <i64>(temp1 + temp2));
  }
  // Polar caps.
  const tp = tt - <f64>min(3, <i32>tt);
  const tmp = za < 0.99 || !have ? fns * Math.sqrt(3.0 * (1.0 - za)) : (fns * sth) / Math.sqrt((1.0 + za) / 3.0);
  // tt < 4, so tp is also tt − floor(tt), the ring scheme's position within a quadrant.
  return polarPixel(nside, order, nest, z > 0, tt, <i64>(tp * tmp), <i64>((1.0 - tp) * tmp));
}

/** The equatorial pixel between the edge lines jp (ascending) and jm (descending). */
// @ts-ignore: decorator
@inline export function equatorialPixel(nside: i64, order: i32, nest: bool, jp: i64, jm: i64): i64 {
  if (!nest) {
    const nl4 = nside << 2;
    const ir = nside + 1 + jp - jm; // ring counted from z = 2/3, in 1..2·nside+1
    const kshift = 1 - (ir & 1);
    const t1 = jp + jm - nside + kshift + 1 + nl4 + nl4;
    const ip = (t1 >> 1) & (nl4 - 1);
    return ((nside * (nside - 1)) << 1) + (ir - 1) * nl4 + ip;
  }
  const ifp = jp >> <i64>order;
  const ifm = jm >> <i64>order;
  // Selects, not branches: random points would mispredict them.
  const face = select<i64>(ifp | 4, select<i64>(ifp, ifm + 8, ifp < ifm), ifp == ifm);
  const ix = jm & (nside - 1);
  const iy = nside - (jp & (nside - 1)) - 1;
  return xyf2nest(order, ix, iy, <i32>face);
}

/**
 * The pixel of the north (or south) polar cap between the edge lines jp (increasing) and jm
 * (decreasing), tt the longitude in quadrants, [0, 4).
 */
// @ts-ignore: decorator
@inline export function polarPixel(nside: i64, order: i32, nest: bool, north: bool, tt: f64, jp: i64, jm: i64): i64 {
  // Selects, not branches, for the hemisphere: random points would mispredict them.
  if (!nest) {
    const ir = jp + jm + 1; // ring counted from the nearer pole
    const ip = <i64>(tt * <f64>ir);
    return select<i64>(((ir * (ir - 1)) << 1) + ip, 12 * nside * nside - ((ir * (ir + 1)) << 1) + ip, north);
  }
  const ntt = min(3, <i32>tt);
  jp = min(jp, nside - 1); // points too close to a face edge
  jm = min(jm, nside - 1);
  const ix = select<i64>(nside - jm - 1, jp, north);
  const iy = select<i64>(nside - jp - 1, jm, north);
  return xyf2nest(order, ix, iy, select<i32>(ntt, ntt + 8, north));
}

// @ts-ignore: decorator
@inline export function nearPole(theta: f64): bool {
  return theta < 0.01 || theta > 3.14159 - 0.01;
}
