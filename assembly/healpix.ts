// HEALPix (Górski et al. 2005, ApJ 622, 759): the Hierarchical Equal Area isoLatitude
// Pixelisation of the sphere, for nside any power of two from 1 to 2^29 (order 0..29), with
// 64-bit pixel ids in the RING and NESTED schemes.
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
// Nothing here allocates: results go to linear memory at addresses src/core/wasm.ts chooses,
// or to module globals for the multi-valued internal helpers. Errors are reported as codes
// (healpixError()) that src/core/wasm.ts turns into Error messages; batched entry points return
// the index of the first bad element, or -1.

// Error codes, read by src/core/wasm.ts through healpixError().
export const HP_OK = 0;
export const HP_BAD_NSIDE = 1; // nside not a power of two in 1..2^29
export const HP_BAD_THETA = 2; // theta outside [0, π] or not finite, or phi not finite
export const HP_BAD_PIX = 3; // pixel id outside [0, 12·nside²) or not an integer
export const HP_BAD_VECTOR = 4; // zero or non-finite vector
export const HP_BAD_RADIUS = 5; // query_disc: radius must < PI/2
export const HP_BAD_FACT = 6; // query_disc: bad oversampling factor
export const HP_OUTPUT_FULL = 7; // query_disc: more ranges than the output holds (hpNeeded())

let errorCode: i32 = 0;

/** The reason the last call failed (codes above), 0 when it did not. */
export function healpixError(): i32 {
  return errorCode;
}

// Constants to the last digit, as HEALPix C++ writes them (so that products round the same).
const PI: f64 = 3.141592653589793238462643383279502884197;
const TWOPI: f64 = 6.283185307179586476925286766559005768394;
const HALFPI: f64 = 1.570796326794896619231321691639751442099;
export const INV_HALFPI: f64 = 0.6366197723675813430755350534900574;
const INV_TWOPI: f64 = 0.1591549430918953357688837633725143620345;
const TWOTHIRD: f64 = 2.0 / 3.0;
const MAX_ORDER: i32 = 29;

// ---- small helpers ---------------------------------------------------------------------------

/** Ring of the centre of face f in units of nside, counted from the north pole (2, 3 or 4). */
// @ts-ignore: decorator
@inline function jrll(face: i32): i64 {
  return <i64>((face >> 2) + 2);
}

/** Longitude index of the centre of face f in units of π/4 (1,3,5,7 / 0,2,4,6 / 1,3,5,7). */
// @ts-ignore: decorator
@inline function jpll(face: i32): i64 {
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
@inline function orderOf(nside: i64): i32 {
  return <i32>ctz<i64>(nside);
}

/** Whether nside is a power of two in 1..2^29. */
// @ts-ignore: decorator
@inline function validNside(nside: i64): bool {
  return nside >= 1 && nside <= (<i64>1 << MAX_ORDER) && (nside & (nside - 1)) == 0;
}

/** Integer square root, exact for every argument below 2^62 (HEALPix C++ isqrt). */
// @ts-ignore: decorator
@inline function isqrt(a: i64): i64 {
  let r = <i64>Math.sqrt(<f64>a + 0.5);
  if (a < <i64>1 << 50) return r;
  if (r * r > a) r--;
  else if ((r + 1) * (r + 1) <= a) r++;
  return r;
}

/** v1 mod v2 in [0, v2) for v2 > 0 (HEALPix C++ fmodulo: C's fmod, shifted for v1 < 0). */
// @ts-ignore: decorator
@inline function fmodulo(v1: f64, v2: f64): f64 {
  if (v1 >= 0) return v1 < v2 ? v1 : v1 % v2;
  const t = (v1 % v2) + v2;
  return t == v2 ? 0 : t;
}

/** The largest double below v (v > 0): keeps a continuous coordinate inside its pixel. */
// @ts-ignore: decorator
@inline function below(v: f64, limit: f64): f64 {
  return v < limit ? v : reinterpret<f64>(reinterpret<i64>(limit) - 1);
}

/** Cosine of the angle between (z1, phi1) and (z2, phi2) (HEALPix C++ cosdist_zphi). */
// @ts-ignore: decorator
@inline function cosdist(z1: f64, phi1: f64, z2: f64, phi2: f64): f64 {
  return z1 * z2 + cosInline(phi1 - phi2) * Math.sqrt((1.0 - z1 * z1) * (1.0 - z2 * z2));
}

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
@inline function cosInline(x: f64): f64 {
  const high = <u32>(reinterpret<u64>(x) >> 32) & 0x7fffffff;
  if (high > 0x3fe921fb || high < 0x3e46a09e) return Math.cos(x);
  const z = x * x;
  const w = z * z;
  const r = z * (COS_C1 + z * (COS_C2 + z * COS_C3)) + w * w * (COS_C4 + z * (COS_C5 + z * COS_C6));
  const hz = 0.5 * z;
  const w1 = 1.0 - hz;
  return w1 + (1.0 - w1 - hz + z * r); // musl's − x·y, y = 0, cannot change the sum
}

// ---- nested index ↔ (ix, iy, face) ---------------------------------------------------------

// Outputs of the multi-valued helpers (wasm functions return one value).
let gx: i64 = 0;
let gy: i64 = 0;
let gface: i32 = 0;
let gz: f64 = 0;
let gphi: f64 = 0;
let gsth: f64 = 0;
let ghave: bool = false;
let gring: i64 = 0; // ring of the last pix2loc, counted from the north pole (1 … 4·nside − 1)

// The inverse by table too: COMPRESS_BITS interleaved bits at a time, each entry holding their
// x bits in its low half and their y bits in its high half (8 KiB; HEALPix C++'s ctab takes 8).
const COMPRESS_BITS = 10;
const COMPRESS_TABLE = memory.data(8 << COMPRESS_BITS, 16);
for (let v = 0; v < 1 << COMPRESS_BITS; v++) {
  store<u64>(COMPRESS_TABLE + (<usize>v << 3), compress(<u64>v) | (compress(<u64>v >> 1) << 32));
}

// @ts-ignore: decorator
@inline function nest2xyf(order: i32, pix: i64): void {
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
@inline function xyf2nest(order: i32, ix: i64, iy: i64, face: i32): i64 {
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
let gstart: i64 = 0;
let gringpix: i64 = 0;
let gshifted: bool = false;

// @ts-ignore: decorator
@inline function ringInfo(nside: i64, ring: i64): void {
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
function xyf2ring(nside: i64, ix: i64, iy: i64, face: i32): i64 {
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
function ring2xyf(nside: i64, order: i32, pix: i64): void {
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
function pix2locRing(nside: i64, order: i32, pix: i64): void {
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
@inline function pix2locRingF(nside: i64, order: i32, pix: i64, ncap: i64, npix: i64, fact1: f64, fact2: f64): void {
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
function pix2locNest(nside: i64, order: i32, pix: i64): void {
  const npix: i64 = 12 * nside * nside;
  const fact2 = 4.0 / <f64>npix;
  pix2locNestF(nside, order, pix, <f64>(nside << 1) * fact2, fact2);
}

/** pix2locNest with fact1, fact2 given (see pix2locRingF). */
// @ts-ignore: decorator
@inline function pix2locNestF(nside: i64, order: i32, pix: i64, fact1: f64, fact2: f64): void {
  nest2xyf(order, pix);
  pix2locXyf(nside, order, gface, gx, gy, fact1, fact2);
}

/** pix2locNestF from the pixel's (face, ix, iy) (query_disc's descent carries them). */
// @ts-ignore: decorator
@inline function pix2locXyf(nside: i64, order: i32, face: i32, ix: i64, iy: i64, fact1: f64, fact2: f64): void {
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
@inline function loc2pix(nside: i64, order: i32, nest: bool, z: f64, phi: f64, sth: f64, have: bool): i64 {
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
@inline function equatorialPixel(nside: i64, order: i32, nest: bool, jp: i64, jm: i64): i64 {
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
@inline function polarPixel(nside: i64, order: i32, nest: bool, north: bool, tt: f64, jp: i64, jm: i64): i64 {
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
@inline function nearPole(theta: f64): bool {
  return theta < 0.01 || theta > 3.14159 - 0.01;
}

// ---- single-point primitives (also imported by other wasm modules) ------------------------

/**
 * Direction of the point at fractional position (dx, dy) ∈ [0,1]² inside nested pixel ipix:
 * dx along the face's x index, dy along y, (0.5, 0.5) the centre (HEALPix C++ xyf2loc with
 * x = (ix + dx)/nside). Writes theta at out and phi at out+8.
 *
 * The ring coordinate jr·nside = jrll·nside − ix − iy − dx − dy is formed from its integer part
 * first, so that near a pole (where it is small) it keeps full relative precision at nside 2^29.
 */
export function nest2loc(nside: i64, ipix: i64, dx: f64, dy: f64, out: usize): void {
  const order = orderOf(nside);
  nest2xyf(order, ipix);
  const face = gface;
  const fns = <f64>nside;
  const jri = (jrll(face) << <i64>order) - gx - gy; // integer part of jr, pixel units
  const jr = <f64>jri - (dx + dy);
  let nr: f64;
  let z: f64;
  let sth: f64 = 0;
  let have = false;
  if (jr < fns) {
    nr = jr;
    const u = nr / fns;
    const tmp = (u * u) / 3.0;
    z = 1.0 - tmp;
    if (z > 0.99) {
      sth = Math.sqrt(tmp * (2.0 - tmp));
      have = true;
    }
  } else if (jr > 3.0 * fns) {
    nr = <f64>((nside << 2) - jri) + (dx + dy);
    const u = nr / fns;
    const tmp = (u * u) / 3.0;
    z = tmp - 1.0;
    if (z < -0.99) {
      sth = Math.sqrt(tmp * (2.0 - tmp));
      have = true;
    }
  } else {
    nr = fns;
    z = ((<f64>((nside << 1) - jri) + (dx + dy)) * 2.0) / (3.0 * fns);
  }
  // Longitude in units of π/4 times nr: jpll·nr + x − y, wrapped to [0, 8·nr).
  let t = <f64>jpll(face) * nr + <f64>(gx - gy) + (dx - dy);
  if (t < 0) t += 8.0 * nr;
  if (t >= 8.0 * nr) t -= 8.0 * nr;
  const phi = nr < 1e-15 * fns ? 0.0 : (0.5 * HALFPI * t) / nr;
  store<f64>(out, have ? Math.atan2(sth, z) : Math.acos(z));
  store<f64>(out, phi, 8);
}

/**
 * Inverse of nest2loc, continuous: the base face (returned, 0..11) and the real face
 * coordinates x (at out) and y (at out+8) in pixel units of nside, so that the nested pixel
 * holding the point has ix = floor(x), iy = floor(y) (a point exactly on an edge belongs to the
 * pixel ang2pix gives it, and x, y stay just below that pixel's upper edge).
 */
export function ang2xyf(nside: i64, theta: f64, phi: f64, out: usize): i32 {
  const order = orderOf(nside);
  const z = Math.cos(theta);
  const have = nearPole(theta);
  const sth = have ? Math.sin(theta) : 0.0;
  const za = Math.abs(z);
  const tt = fmodulo((phi >= 0 && phi < TWOPI ? phi : fmodulo(phi, TWOPI)) * INV_HALFPI, 4.0);
  const fns = <f64>nside;
  let x: f64, y: f64;
  let face: i32;
  if (za <= TWOTHIRD) {
    const temp1 = fns * (0.5 + tt);
    const temp2 = fns * (z * 0.75);
    const jp = temp1 - temp2;
    const jm = temp1 + temp2;
    const jpi = <i64>jp;
    const jmi = <i64>jm;
    const ifp = jpi >> <i64>order;
    const ifm = jmi >> <i64>order;
    face = ifp == ifm ? <i32>(ifp | 4) : ifp < ifm ? <i32>ifp : <i32>(ifm + 8);
    const ix = jmi & (nside - 1);
    const iy = nside - (jpi & (nside - 1)) - 1;
    x = <f64>ix + (jm - <f64>jmi);
    y = below(<f64>iy + (1.0 - (jp - <f64>jpi)), <f64>(iy + 1));
  } else {
    const ntt = min(3, <i32>tt);
    const tp = tt - <f64>ntt;
    const tmp = za < 0.99 || !have ? fns * Math.sqrt(3.0 * (1.0 - za)) : (fns * sth) / Math.sqrt((1.0 + za) / 3.0);
    const jp = min(tp * tmp, fns);
    const jm = min((1.0 - tp) * tmp, fns);
    const jpi = min(<i64>jp, nside - 1);
    const jmi = min(<i64>jm, nside - 1);
    if (z > 0) {
      face = ntt;
      const ix = nside - jmi - 1;
      const iy = nside - jpi - 1;
      x = below(max(fns - jm, <f64>ix), <f64>(ix + 1));
      y = below(max(fns - jp, <f64>iy), <f64>(iy + 1));
    } else {
      face = ntt + 8;
      x = below(jp, <f64>(jpi + 1));
      y = below(jm, <f64>(jmi + 1));
    }
  }
  store<f64>(out, x);
  store<f64>(out, y, 8);
  return face;
}

/**
 * nest2loc as a unit vector: the direction of the point at (dx, dy) ∈ [0,1]² inside nested
 * pixel ipix, (x, y, z) f64 at out. z and sin θ come from the ring coordinate as in nest2loc
 * (HEALPix C++ xyf2loc keeps sth the same way), so no acos/atan2 and no sin(θ)/cos(θ) of a
 * rounded θ are needed: only cos φ and sin φ.
 */
export function nest2vec(nside: i64, ipix: i64, dx: f64, dy: f64, out: usize): void {
  const order = orderOf(nside);
  nest2xyf(order, ipix);
  const face = gface;
  const fns = <f64>nside;
  const jri = (jrll(face) << <i64>order) - gx - gy;
  const jr = <f64>jri - (dx + dy);
  let nr: f64;
  let z: f64;
  let sth: f64;
  if (jr < fns) {
    nr = jr;
    const u = nr / fns;
    const tmp = (u * u) / 3.0;
    z = 1.0 - tmp;
    sth = Math.sqrt(tmp * (2.0 - tmp));
  } else if (jr > 3.0 * fns) {
    nr = <f64>((nside << 2) - jri) + (dx + dy);
    const u = nr / fns;
    const tmp = (u * u) / 3.0;
    z = tmp - 1.0;
    sth = Math.sqrt(tmp * (2.0 - tmp));
  } else {
    nr = fns;
    z = ((<f64>((nside << 1) - jri) + (dx + dy)) * 2.0) / (3.0 * fns);
    sth = Math.sqrt((1.0 - z) * (1.0 + z));
  }
  let t = <f64>jpll(face) * nr + <f64>(gx - gy) + (dx - dy);
  if (t < 0) t += 8.0 * nr;
  if (t >= 8.0 * nr) t -= 8.0 * nr;
  const phi = nr < 1e-15 * fns ? 0.0 : (0.5 * HALFPI * t) / nr;
  store<f64>(out, sth * Math.cos(phi));
  store<f64>(out, sth * Math.sin(phi), 8);
  store<f64>(out, z, 16);
}

/**
 * ang2xyf in vector form for two directions at once (f64x2 lanes; the shiftmap kernel's texel
 * pairs): directions (x, y, z) of any non-zero length and their longitudes as tt = φ/(π/2) in
 * [0, 4). Returns each lane's base face (as f64) and writes the real face coordinates x (f64x2
 * at out) and y (at out+16), in pixel units of nside, not clamped into a pixel as ang2xyf's.
 *
 * Górski et al. 2005 eq. 4–9 straight from the vector: |z|/r stands for |cos θ|, and in the
 * polar caps nside·√(3(1 − |z|/r)) is formed as nside·√(3ρ²/(r(r + |z|))) (ρ² = x² + y²,
 * since 1 − |z|/r = ρ²/(r(r + |z|))), which keeps full precision next to the poles as
 * HEALPix C++'s sin θ path does. So no acos, asin, sin or cos: only φ needs a transcendental,
 * and the caller brings it. The face logic is HEALPix C++'s (loc2pix): in the equatorial zone
 * the lines jp, jm of the two edge directions pick the face; in a cap the quadrant does. Both
 * zones are computed only when the lanes straddle |z| = 2/3.
 */
// @ts-ignore: decorator
@inline export function vec2xyf2(nside: i64, x: v128, y: v128, z: v128, tt: v128, out: usize): v128 {
  const fns = <f64>nside;
  const ns = f64x2.splat(fns);
  const rho2 = f64x2.add(f64x2.mul(x, x), f64x2.mul(y, y));
  const r = f64x2.sqrt(f64x2.add(rho2, f64x2.mul(z, z)));
  const za = f64x2.abs(z);
  const equatorial = f64x2.le(za, f64x2.mul(f64x2.splat(TWOTHIRD), r));
  let face = f64x2.splat(0);
  let fx = face;
  let fy = face;
  if (v128.any_true(equatorial)) {
    const zr = f64x2.mul(f64x2.splat(0.75), f64x2.div(z, r));
    const base = f64x2.add(f64x2.splat(0.5), tt);
    const jp = f64x2.mul(ns, f64x2.sub(base, zr)); // ascending edge lines
    const jm = f64x2.mul(ns, f64x2.add(base, zr)); // descending edge lines
    const inv = f64x2.splat(1.0 / fns); // a power of two: exact
    const ifp = f64x2.floor(f64x2.mul(jp, inv));
    const ifm = f64x2.floor(f64x2.mul(jm, inv));
    // ifp == ifm: equatorial face ifp | 4 (ifp = 4 is face 4 again, across φ = 0); ifp < ifm:
    // north polar face ifp; else south polar face ifm + 8.
    let same = f64x2.add(ifp, f64x2.splat(4));
    same = v128.bitselect(f64x2.splat(4), same, f64x2.eq(same, f64x2.splat(8)));
    const other = v128.bitselect(ifp, f64x2.add(ifm, f64x2.splat(8)), f64x2.lt(ifp, ifm));
    face = v128.bitselect(same, other, f64x2.eq(ifp, ifm));
    fx = f64x2.sub(jm, f64x2.mul(ifm, ns));
    fy = f64x2.sub(ns, f64x2.sub(jp, f64x2.mul(ifp, ns)));
  }
  if (!i64x2.all_true(equatorial)) {
    const ntt = f64x2.pmin(f64x2.splat(3), f64x2.floor(tt)); // tt finite: pmin is min
    const tp = f64x2.sub(tt, ntt);
    const q = f64x2.div(f64x2.mul(f64x2.splat(3), rho2), f64x2.mul(r, f64x2.add(r, za)));
    const tmp = f64x2.mul(ns, f64x2.sqrt(q));
    const jp = f64x2.mul(tp, tmp);
    const jm = f64x2.mul(f64x2.sub(f64x2.splat(1), tp), tmp);
    const north = f64x2.gt(z, f64x2.splat(0));
    const pface = v128.bitselect(ntt, f64x2.add(ntt, f64x2.splat(8)), north);
    const px = v128.bitselect(f64x2.sub(ns, jm), jp, north);
    const py = v128.bitselect(f64x2.sub(ns, jp), jm, north);
    face = v128.bitselect(face, pface, equatorial);
    fx = v128.bitselect(fx, px, equatorial);
    fy = v128.bitselect(fy, py, equatorial);
  }
  v128.store(out, fx);
  v128.store(out, fy, 16);
  return face;
}

// ---- cos θ and acos z two lanes at a time ----------------------------------------------------
// A batch spent about a third of its time in cos θ (ang2pix) or acos z (pix2ang), much of it in
// branch mispredictions: musl's cos and acos (AssemblyScript's Math.cos, Math.acos) pick a path
// by the size of the argument, which random points make unpredictable.

// Two-lane constants, loaded from memory: V8 builds an inline v128 constant anew at each use
// (three instructions), where a load is one, or none when folded into the arithmetic.
// prettier-ignore
const PAIR_CONSTANTS = memory.data<u64>([
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
const PIO2_HIGH = 10;
const PIO2_LOW = 11;
const ONE = 12;
const ONE_HALF = 13;
const TINY = 14;
const MAGNITUDE_MASK = 15;
const HEAD_MASK = 16;
const COS_C1_PAIR = 17;
const COS_C2_PAIR = 18;
const COS_C3_PAIR = 19;
const COS_C4_PAIR = 20;
const COS_C5_PAIR = 21;
const COS_C6_PAIR = 22;
const KERNEL_LOW = 23;
const KERNEL_HIGH = 24;
const TWO = 25;
const FOUR = 26;
const EIGHT = 27;
const THREE_QUARTERS = 28;
const NEAR_POLE = 29;
const PI_PAIR = 30;
const QUARTER_PI = 31;
const THREE_EIGHTHS_PI = 32;
const TWO_52 = 33;
const MANTISSA_MASK = 34;
const LOW_HALF = 35;
const INT_ONE = 36;
const INT_THREE = 37;
const UNSHUFFLE_1 = 38;
const UNSHUFFLE_2 = 39;
const UNSHUFFLE_4 = 40;
const UNSHUFFLE_8 = 41;
const UNSHUFFLE_16 = 42;

/** The two-lane constant `index` of PAIR_CONSTANTS. */
// @ts-ignore: decorator
@inline function pairAt(index: i32): v128 {
  return v128.load(PAIR_CONSTANTS + (<usize>index << 4));
}

/** constant `index` + z·x with the product rounded first (one Horner step, as scalar code does). */
// @ts-ignore: decorator
@inline function plusTimesAt(index: i32, z: v128, x: v128): v128 {
  return f64x2.add(pairAt(index), f64x2.mul(z, x));
}

// ang2pix needs cos θ only to place the point between pixel edges, so the batch takes a cheap,
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
const COS_BOUND: f64 = reinterpret<f64>(0x3d70000000000000); // 2^-40
const PIO2_TAIL: f64 = 6.123233995736766e-17; // π/2 − HALFPI

/** cos θ for two θ in [0, π] to within COS_BOUND (see above), without branches. */
// @ts-ignore: decorator
@inline function cosApproximatePair(theta: v128): v128 {
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
@inline function acosPair(x: v128): v128 {
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

// ---- batched entry points -------------------------------------------------------------------
// Pixel ids in memory are i64, or f64 when `f64ids` (exact below 2^53, the JS number path).

// @ts-ignore: decorator
@inline function loadId(p: usize, f64ids: bool): i64 {
  return f64ids ? <i64>load<f64>(p) : load<i64>(p);
}

// @ts-ignore: decorator
@inline function storeId(p: usize, id: i64, f64ids: bool): void {
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
  errorCode = HP_OK;
  if (!validNside(nside)) {
    errorCode = HP_BAD_NSIDE;
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
        errorCode = HP_BAD_THETA;
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
  errorCode = HP_OK;
  if (!validNside(nside)) {
    errorCode = HP_BAD_NSIDE;
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
        errorCode = HP_BAD_PIX;
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
        errorCode = HP_BAD_PIX;
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
      errorCode = HP_BAD_PIX;
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
        errorCode = HP_BAD_PIX;
        return k;
      }
      id = v128.load64_splat(pix + at);
      lanes = 1;
    }
    if (nest) anglesOfNestPair(order, f64ids ? smallToI64(id) : id, theta + at, phi + at, lanes);
    else anglesOfRingPair(f64ids ? id : smallToF64(id), theta + at, phi + at, lanes);
    if (lanes == 1 && k + 1 < n) {
      errorCode = HP_BAD_PIX;
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
  errorCode = HP_OK;
  if (!validNside(nside)) {
    errorCode = HP_BAD_NSIDE;
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
      errorCode = HP_BAD_VECTOR;
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
  errorCode = HP_OK;
  if (!validNside(nside)) {
    errorCode = HP_BAD_NSIDE;
    return 0;
  }
  const order = orderOf(nside);
  const npix = 12 * nside * nside;
  for (let i = 0; i < n; i++) {
    const p = pix + (<usize>i << 3);
    if (!idOk(p, f64ids, npix)) {
      errorCode = HP_BAD_PIX;
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
  errorCode = HP_OK;
  if (!validNside(nside)) {
    errorCode = HP_BAD_NSIDE;
    return 0;
  }
  const order = orderOf(nside);
  const npix = 12 * nside * nside;
  for (let i = 0; i < n; i++) {
    const p = pix + (<usize>i << 3);
    if (!idOk(p, f64ids, npix)) {
      errorCode = HP_BAD_PIX;
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
  errorCode = HP_OK;
  if (!validNside(nside)) {
    errorCode = HP_BAD_NSIDE;
    return 0;
  }
  const npix = 12 * nside * nside;
  const tmp = pairScratch;
  for (let i = 0; i < n; i++) {
    const p = pix + (<usize>i << 3);
    if (!idOk(p, f64ids, npix)) {
      errorCode = HP_BAD_PIX;
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
  errorCode = HP_OK;
  if (!validNside(nside)) {
    errorCode = HP_BAD_NSIDE;
    return 0;
  }
  const tmp = pairScratch;
  for (let i = 0; i < n; i++) {
    const t = load<f64>(theta + (<usize>i << 3));
    const p = load<f64>(phi + (<usize>i << 3));
    if (!(t >= 0 && t <= PI) || !isFinite(p)) {
      errorCode = HP_BAD_THETA;
      return i;
    }
    store<i32>(face + (<usize>i << 2), ang2xyf(nside, t, p, tmp));
    store<f64>(x + (<usize>i << 3), load<f64>(tmp));
    store<f64>(y + (<usize>i << 3), load<f64>(tmp, 8));
  }
  return -1;
}

const pairScratch = memory.data(16, 16);

// ---- query_disc ------------------------------------------------------------------------------
// The result is a sorted list of half-open ranges [lo, hi) of pixel ids (HEALPix C++'s
// rangeset), written as i64 pairs. Appends come in ascending order and touching ranges merge;
// the last range is kept in globals and written when the next one starts, so that when the
// output is too small the exact number of ranges needed is still known (hpNeeded()).

let rOut: usize = 0;
let rCap: i32 = 0;
let rCount: i32 = 0; // ranges finished (written or, past rCap, only counted)
let rOpen = false;
let rLo: i64 = 0;
let rHi: i64 = 0;
let needed: i32 = 0;

/** Ranges the last query_disc needed when it returned HP_OUTPUT_FULL. */
export function hpNeeded(): i32 {
  return needed;
}

let rTotal: i64 = 0; // pixels in the ranges finished

/** Pixels in the ranges of the last successful query_disc (as f64: exact below 2^53). */
export function hpTotal(): f64 {
  return <f64>rTotal;
}

function rangesStart(out: usize, capacity: i32): void {
  rOut = out;
  rCap = capacity;
  rCount = 0;
  rTotal = 0;
  rOpen = false;
}

function flush(): void {
  if (!rOpen) return;
  rTotal += rHi - rLo;
  if (rCount < rCap) {
    store<i64>(rOut + (<usize>rCount << 4), rLo);
    store<i64>(rOut + (<usize>rCount << 4), rHi, 8);
  }
  rCount++;
  rOpen = false;
}

// @ts-ignore: decorator
@inline function append(v1: i64, v2: i64): void {
  if (v2 <= v1) return;
  if (rOpen && v1 <= rHi) {
    if (v2 > rHi) rHi = v2;
    return;
  }
  flush();
  rOpen = true;
  rLo = v1;
  rHi = v2;
}

/** Ends the range list: its length, or -HP_OUTPUT_FULL with hpNeeded() set. */
function rangesEnd(): i32 {
  flush();
  if (rCount > rCap) {
    needed = rCount;
    errorCode = HP_OUTPUT_FULL;
    return -HP_OUTPUT_FULL;
  }
  return rCount;
}

/**
 * Largest angular distance between a pixel centre and any of its corners at this nside (HEALPix
 * C++ max_pixrad: from the pixel at z = 2/3 next to phi = 0 to its corner on the face edge).
 */
export function hpMaxPixrad(nside: i64): f64 {
  // va: (z = 2/3, phi = π/(4·nside)); vb: (z = 1 − t1/3, phi = 0) with t1 = (1 − 1/nside)².
  const za = TWOTHIRD;
  const pa = PI / <f64>(nside << 2);
  const sa = Math.sqrt((1.0 - za) * (1.0 + za));
  const ax = sa * Math.cos(pa);
  const ay = sa * Math.sin(pa);
  let t1 = 1.0 - 1.0 / <f64>nside;
  t1 *= t1;
  const zb = 1.0 - t1 / 3.0;
  const sb = Math.sqrt((1.0 - zb) * (1.0 + zb));
  const bx = sb; // cos 0 = 1
  const by = 0.0;
  // Angle between a and b as atan2(|a × b|, a · b), accurate at small angles.
  const cx = ay * zb - za * by;
  const cy = za * bx - ax * zb;
  const cz = ax * by - ay * bx;
  return Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), ax * bx + ay * by + za * zb);
}

/** Ring index just north of z: the highest ring whose z is ≥ z (HEALPix C++ ring_above). */
// @ts-ignore: decorator
@inline function ringAbove(nside: i64, z: f64): i64 {
  const az = Math.abs(z);
  if (az <= TWOTHIRD) return <i64>(<f64>nside * (2.0 - 1.5 * z));
  const iring = <i64>(<f64>nside * Math.sqrt(3.0 * (1.0 - az)));
  return z > 0 ? iring : 4 * nside - iring - 1;
}

/** z of ring `ring` (HEALPix C++ ring2z). */
// @ts-ignore: decorator
@inline function ring2z(nside: i64, ring: i64): f64 {
  const npix = 12 * nside * nside;
  const fact2 = 4.0 / <f64>npix;
  const fact1 = <f64>(nside << 1) * fact2;
  if (ring < nside) return 1.0 - <f64>(ring * ring) * fact2;
  if (ring <= 3 * nside) return <f64>((nside << 1) - ring) * fact1;
  const r = 4 * nside - ring;
  return <f64>(r * r) * fact2 - 1.0;
}

/**
 * Whether ring pixel ip (index in its ring, wrapped) lies wholly outside the disc, judged by the
 * centres of the fct×fct sub-pixels along its border at nside·fct (HEALPix C++
 * check_pixel_ring): true = no overlap found, so the pixel can be dropped.
 */
function ringPixelOutside(
  nside: i64,
  order: i32,
  ip: i64,
  nr: i64,
  ipix1: i64,
  fct: i64,
  cz: f64,
  cphi: f64,
  cosrp2: f64,
  cpix: i64,
): bool {
  let pix = ip;
  if (pix >= nr) pix -= nr;
  if (pix < 0) pix += nr;
  pix += ipix1;
  if (pix == cpix) return false; // the disc centre is in this pixel
  ring2xyf(nside, order, pix);
  const px = gx;
  const py = gy;
  const pf = gface;
  const n2 = nside * fct;
  const o2: i32 = (fct & (fct - 1)) == 0 ? order + <i32>ctz<i64>(fct) : -1;
  const ox = fct * px;
  const oy = fct * py;
  for (let i: i64 = 0; i < fct - 1; i++) {
    // Walk the four edges at once, as the reference does.
    pix2locRing(n2, o2, xyf2ring(n2, ox + i, oy, pf));
    if (cosdist(gz, gphi, cz, cphi) > cosrp2) return false;
    pix2locRing(n2, o2, xyf2ring(n2, ox + fct - 1, oy + i, pf));
    if (cosdist(gz, gphi, cz, cphi) > cosrp2) return false;
    pix2locRing(n2, o2, xyf2ring(n2, ox + fct - 1 - i, oy + fct - 1, pf));
    if (cosdist(gz, gphi, cz, cphi) > cosrp2) return false;
    pix2locRing(n2, o2, xyf2ring(n2, ox, oy + fct - 1 - i, pf));
    if (cosdist(gz, gphi, cz, cphi) > cosrp2) return false;
  }
  return true;
}

/** query_disc in the ring scheme (HEALPix C++ query_disc_internal, RING branch). */
function queryDiscRing(nside: i64, order: i32, theta: f64, phi: f64, radius: f64, fact: i32): void {
  const inclusive = fact != 0;
  const fct: i64 = inclusive ? <i64>fact : 1;
  const npix = 12 * nside * nside;
  let rsmall: f64, rbig: f64;
  if (fct > 1) {
    rsmall = radius + hpMaxPixrad(fct * nside);
    rbig = radius + hpMaxPixrad(nside);
  } else {
    rsmall = rbig = inclusive ? radius + hpMaxPixrad(nside) : radius;
  }
  if (rsmall >= PI) {
    append(0, npix);
    return;
  }
  rbig = min(PI, rbig);
  const cosrsmall = Math.cos(rsmall);
  const cosrbig = Math.cos(rbig);
  const z0 = Math.cos(theta);
  const xa = 1.0 / Math.sqrt((1.0 - z0) * (1.0 + z0));
  const cpix = loc2pix(nside, order, false, z0, phi, 0, false);
  // Where a ring lies wholly outside the rbig disc, HEALPix C++ takes the whole ring and trims
  // it pixel by pixel from both ends (O(nside·fact) for that ring). A pixel whose centre is
  // farther than rwin = rsmall + max_pixrad (with margin) has every sub-pixel centre farther than
  // rsmall, so the trimming would drop it anyway: starting from the rwin window instead gives the
  // same ranges without the scan.
  const rwin = rsmall + 1.5 * hpMaxPixrad(nside);
  const coswin = rwin < PI ? Math.cos(rwin) : -1.0;

  const rlat1 = theta - rsmall;
  const zmax = Math.cos(rlat1);
  let irmin = ringAbove(nside, zmax) + 1;
  if (rlat1 <= 0 && irmin > 1) {
    // The north pole is in the disc: every ring above irmin whole.
    ringInfo(nside, irmin - 1);
    append(0, gstart + gringpix);
  }
  if (fct > 1 && rlat1 > 0) irmin = max(<i64>1, irmin - 1);

  const rlat2 = theta + rsmall;
  const zmin = Math.cos(rlat2);
  let irmax = ringAbove(nside, zmin);
  if (fct > 1 && rlat2 < PI) irmax = min(4 * nside - 1, irmax + 1);

  for (let iz = irmin; iz <= irmax; iz++) {
    const z = ring2z(nside, iz);
    const x = (cosrbig - z * z0) * xa;
    const ysq = 1.0 - z * z - x * x;
    // No crossing of the rbig circle: the ring is wholly outside it (or, only when a pole is in
    // the disc, inside). Without oversampling the ring has nothing to give; with it, the whole
    // ring is offered to the sub-pixel test below, as HEALPix C++ does.
    if (ysq <= 0 && fct == 1) continue;
    const dphi = ysq <= 0 ? PI - 1e-15 : Math.atan2(Math.sqrt(ysq), x);
    ringInfo(nside, iz);
    const ipix1 = gstart;
    const nr = gringpix;
    const shift: f64 = gshifted ? 0.5 : 0.0;
    const ipix2 = ipix1 + nr - 1;
    let ipLo = <i64>Math.floor(<f64>nr * INV_TWOPI * (phi - dphi) - shift) + 1;
    let ipHi = <i64>Math.floor(<f64>nr * INV_TWOPI * (phi + dphi) - shift);
    if (fct > 1 && ysq <= 0 && x > 0) {
      const xw = (coswin - z * z0) * xa;
      const ysqw = 1.0 - z * z - xw * xw;
      if (ysqw <= 0 && xw > 0) continue; // the ring misses even the rwin disc
      if (ysqw > 0) {
        const dphiw = Math.atan2(Math.sqrt(ysqw), xw);
        ipLo = max(ipLo, <i64>Math.floor(<f64>nr * INV_TWOPI * (phi - dphiw) - shift) + 1);
        ipHi = min(ipHi, <i64>Math.floor(<f64>nr * INV_TWOPI * (phi + dphiw) - shift));
      }
    }
    if (fct > 1) {
      while (ipLo <= ipHi && ringPixelOutside(nside, order, ipLo, nr, ipix1, fct, z0, phi, cosrsmall, cpix)) ipLo++;
      while (ipHi > ipLo && ringPixelOutside(nside, order, ipHi, nr, ipix1, fct, z0, phi, cosrsmall, cpix)) ipHi--;
    }
    if (ipLo <= ipHi) {
      if (ipHi >= nr) {
        ipLo -= nr;
        ipHi -= nr;
      }
      if (ipLo < 0) {
        append(ipix1, ipix1 + ipHi + 1);
        append(ipix1 + ipLo + nr, ipix2 + 1);
      } else append(ipix1 + ipLo, ipix1 + ipHi + 1);
    }
  }
  if (rlat2 >= PI && irmax + 1 < 4 * nside) {
    // The south pole is in the disc.
    ringInfo(nside, irmax + 1);
    append(gstart, npix);
  }
}

// Per-order thresholds and the pixel stack of the nested search (orders 0..29, depth ≤ 4 per
// level plus the 12 base pixels: 12 + 3·30 entries suffice; room is left to spare).
const crpdr = memory.data(8 * 32, 8);
const crmdr = memory.data(8 * 32, 8);
// fact1 and fact2 of pix2locNestF per order, so that the descent does not divide per pixel.
const nestFact1 = memory.data(8 * 32, 8);
const nestFact2 = memory.data(8 * 32, 8);
const STACK_MAX = 256;
const stackPix = memory.data(8 * STACK_MAX, 8);
const stackOrder = memory.data(4 * STACK_MAX, 4);
// (ix, iy) of each stacked pixel: a child's are (2·ix + (k & 1), 2·iy + (k >> 1)) (nested bit
// interleaving), so no pixel on the stack needs its bits de-interleaved again.
const stackX = memory.data(4 * STACK_MAX, 4);
const stackY = memory.data(4 * STACK_MAX, 4);
// The zone of each stacked pixel, found as it is pushed: the four children of a pixel are
// tested together, two lanes at a time (centreZonesPair), and those of zone 0 are not pushed.
const stackZone = memory.data(4 * STACK_MAX, 4);

let lastRadius: f64 = -1.0;
let lastOmax: i32 = -1;

// hpMaxPixrad per order, computed on first use (it depends on nothing else; a descent needs it
// at every order down to order + log2(fact), four transcendentals each).
const pixradCache = memory.data(8 * 32, 8);
let pixradReady = false;

// @ts-ignore: decorator
@inline function maxPixradOfOrder(o: i32): f64 {
  if (!pixradReady) {
    for (let k = 0; k <= MAX_ORDER; k++) store<f64>(pixradCache + (<usize>k << 3), hpMaxPixrad(<i64>1 << <i64>k));
    pixradReady = true;
  }
  return load<f64>(pixradCache + (<usize>o << 3));
}

/**
 * query_disc in the nested scheme (HEALPix C++ query_disc_internal, NEST branch): a depth-first
 * descent from the 12 base pixels, children in ascending order, so the ranges come out sorted.
 * Zones: 0 = pixel surely outside, 1 = centre within the safety margin outside the disc,
 * 2 = centre inside but not surely the whole pixel, 3 = whole pixel surely inside.
 */
function queryDiscNest(nside: i64, order: i32, theta: f64, phi: f64, radius: f64, fact: i32): void {
  const inclusive = fact != 0;
  const npix = 12 * nside * nside;
  if (radius >= PI) {
    append(0, npix);
    return;
  }
  const oplus = inclusive ? <i32>ctz<i32>(fact) : 0;
  const omax = order + oplus;
  const cosrad = Math.cos(radius);
  // The thresholds depend on the radius and the order alone: kept from the last call when the
  // radius is the same (a stream of discs of one size, as a viewer or the bench asks for).
  const reuse = radius == lastRadius && omax <= lastOmax;
  const z0 = Math.cos(theta);
  for (let o = 0; o <= omax && !reuse; o++) {
    const dr = maxPixradOfOrder(o);
    store<f64>(crpdr + (<usize>o << 3), radius + dr > PI ? -1.0 : Math.cos(radius + dr));
    store<f64>(crmdr + (<usize>o << 3), radius - dr < 0.0 ? 1.0 : Math.cos(radius - dr));
    const ns: i64 = <i64>1 << <i64>o;
    const npix: i64 = 12 * ns * ns;
    const fact2 = 4.0 / <f64>npix;
    store<f64>(nestFact2 + (<usize>o << 3), fact2);
    store<f64>(nestFact1 + (<usize>o << 3), <f64>(ns << 1) * fact2);
  }
  if (!reuse) {
    lastRadius = radius;
    lastOmax = omax;
  }
  let top = 0;
  for (let i = 0; i < 12; i++) {
    top = pushZoned(top, <i64>(11 - i), 0, 0, 0, centreZone(0, 11 - i, 0, 0, z0, phi, cosrad));
  }
  let stacktop = 0;
  while (top > 0) {
    top--;
    const zone = load<i32>(stackZone + (<usize>top << 2)); // never 0: those are not pushed
    const pix = load<i64>(stackPix + (<usize>top << 3));
    const o = load<i32>(stackOrder + (<usize>top << 2));
    const px = load<i32>(stackX + (<usize>top << 2));
    const py = load<i32>(stackY + (<usize>top << 2));
    if (o < order) {
      if (zone >= 3) {
        const sdist = <i64>((order - o) << 1);
        append(pix << sdist, (pix + 1) << sdist);
      } else top = pushChildren(top, pix, o, px, py, z0, phi, cosrad);
    } else if (o > order) {
      // Only when inclusive: a sub-pixel (zone 1) of a pixel at `order` being searched.
      top = searchSubPixels(top, stacktop, pix, o, px, py, order, omax, z0, phi, cosrad);
    } else {
      if (zone >= 2) append(pix, pix + 1);
      else if (inclusive) {
        if (order < omax) {
          stacktop = top;
          top = searchSubPixels(top, stacktop, pix, o, px, py, order, omax, z0, phi, cosrad);
        } else append(pix, pix + 1);
      }
    }
  }
}

/**
 * Pushes the children of pix (order o, at (px, py) in its face) in reverse, so the smallest
 * pops first, leaving out those surely outside the disc (zone 0: popped, they would be
 * dropped). Their centres and zones are found two at a time (centreZonesPair).
 */
function pushChildren(top: i32, pix: i64, o: i32, px: i32, py: i32, z0: f64, phi0: f64, cosrad: f64): i32 {
  const face = <i32>(pix >> <i64>(o << 1));
  const x = (<i64>px) << 1;
  const y = (<i64>py) << 1;
  const xs = f64x2.replace_lane(f64x2.splat(<f64>x), 1, <f64>(x + 1));
  const low = centreZonesPair(o + 1, face, xs, f64x2.splat(<f64>y), z0, phi0, cosrad); // children 0, 1
  const high = centreZonesPair(o + 1, face, xs, f64x2.splat(<f64>(y + 1)), z0, phi0, cosrad); // 2, 3
  top = pushZoned(top, 4 * pix + 3, o + 1, x + 1, y + 1, high >> 2);
  top = pushZoned(top, 4 * pix + 2, o + 1, x, y + 1, high & 3);
  top = pushZoned(top, 4 * pix + 1, o + 1, x + 1, y, low >> 2);
  return pushZoned(top, 4 * pix, o + 1, x, y, low & 3);
}

/**
 * One level of HEALPix C++'s inclusive search under a pixel at `order`: the children of pix
 * (order o ≥ order, zone 1). HEALPix C++ pushes them and appends the parent at `order` when it
 * pops one of zone ≥ 2, or of zone ≥ 1 at omax, dropping what is left of the search (top =
 * stacktop). Nothing else is appended before the search ends, so which child it is does not
 * matter: the parent is appended here as soon as one of the first two children or of the last
 * two qualifies (the last two are not even placed when the first do). Otherwise the children
 * of zone 1 are pushed, to be searched in turn.
 */
function searchSubPixels(
  top: i32,
  stacktop: i32,
  pix: i64,
  o: i32,
  px: i32,
  py: i32,
  order: i32,
  omax: i32,
  z0: f64,
  phi0: f64,
  cosrad: f64,
): i32 {
  const face = <i32>(pix >> <i64>(o << 1));
  const x = (<i64>px) << 1;
  const y = (<i64>py) << 1;
  const xs = f64x2.replace_lane(f64x2.splat(<f64>x), 1, <f64>(x + 1));
  const least = o + 1 >= omax ? 1 : 2; // the zone that puts the parent in
  const parent = pix >> <i64>((o - order) << 1);
  const low = centreZonesPair(o + 1, face, xs, f64x2.splat(<f64>y), z0, phi0, cosrad);
  if (max(low & 3, low >> 2) >= least) {
    append(parent, parent + 1);
    return stacktop;
  }
  const high = centreZonesPair(o + 1, face, xs, f64x2.splat(<f64>(y + 1)), z0, phi0, cosrad);
  if (max(high & 3, high >> 2) >= least) {
    append(parent, parent + 1);
    return stacktop;
  }
  // Every zone is 0 or 1 here, and o + 1 < omax (at omax a zone 1 would have qualified).
  top = pushZoned(top, 4 * pix + 3, o + 1, x + 1, y + 1, high >> 2);
  top = pushZoned(top, 4 * pix + 2, o + 1, x, y + 1, high & 3);
  top = pushZoned(top, 4 * pix + 1, o + 1, x + 1, y, low >> 2);
  return pushZoned(top, 4 * pix, o + 1, x, y, low & 3);
}

/** Pushes nested pixel pix of order o at (x, y) with its zone, unless the zone is 0. */
// @ts-ignore: decorator
@inline function pushZoned(top: i32, pix: i64, o: i32, x: i64, y: i64, zone: i32): i32 {
  store<i64>(stackPix + (<usize>top << 3), pix);
  store<i32>(stackOrder + (<usize>top << 2), o);
  store<i32>(stackX + (<usize>top << 2), <i32>x);
  store<i32>(stackY + (<usize>top << 2), <i32>y);
  store<i32>(stackZone + (<usize>top << 2), zone);
  return top + <i32>(zone != 0); // overwritten by the next push when 0: no branch to mispredict
}

/**
 * The zone of the nested pixel of order o at (x, y) in face `face`, as queryDiscNest's
 * HEALPix C++ tests give it: 0 = surely outside the disc (centre (z0, phi0)), 1 = centre
 * within the safety margin outside, 2 = centre inside but not surely the whole pixel, 3 =
 * whole pixel surely inside. Without branches: random outcomes would mispredict.
 */
// @ts-ignore: decorator
@inline function centreZone(o: i32, face: i32, x: i64, y: i64, z0: f64, phi0: f64, cosrad: f64): i32 {
  const at = <usize>o << 3;
  pix2locXyf(<i64>1 << <i64>o, o, face, x, y, load<f64>(nestFact1 + at), load<f64>(nestFact2 + at));
  const cangdist = cosdist(z0, phi0, gz, gphi);
  const inside = <i32>(cangdist > load<f64>(crpdr + at));
  const beyondRadius = <i32>!(cangdist < cosrad);
  const beyondMargin = <i32>!(cangdist <= load<f64>(crmdr + at));
  return inside * (1 + beyondRadius * (1 + beyondMargin));
}

/**
 * centreZone of two pixels of order o in face `face` at once, x and y in f64 lanes: their
 * zones as zone₀ | zone₁ << 2. pix2locXyf's arithmetic lane by lane, every integer in it exact
 * in f64 (below 2^53; nr² rounds once either way) and the same IEEE operations in the same
 * order after, so the same centres and the same cosdist. cos(φ0 − φ) is musl's kernel (as
 * cosInline) when both lanes are in its range, else cosInline lane by lane.
 */
// @ts-ignore: decorator
@inline function centreZonesPair(o: i32, face: i32, x: v128, y: v128, z0: f64, phi0: f64, cosrad: f64): i32 {
  const at = <usize>o << 3;
  const nside = <f64>(<i64>1 << <i64>o);
  const ns = f64x2.splat(nside);
  const one = f64x2.splat(1.0);
  const jr = f64x2.sub(f64x2.sub(f64x2.splat(<f64>(jrll(face) << <i64>o) - 1.0), x), y);
  const north = f64x2.lt(jr, ns);
  const south = f64x2.gt(jr, f64x2.splat(3.0 * nside));
  const nr = v128.bitselect(jr, v128.bitselect(f64x2.sub(f64x2.splat(4.0 * nside), jr), ns, south), north);
  const tmp = f64x2.mul(f64x2.mul(nr, nr), f64x2.splat(load<f64>(nestFact2 + at)));
  const fact1 = f64x2.splat(load<f64>(nestFact1 + at));
  const equatorZ = f64x2.mul(f64x2.sub(f64x2.splat(2.0 * nside), jr), fact1);
  const z = v128.bitselect(f64x2.sub(one, tmp), v128.bitselect(f64x2.sub(tmp, one), equatorZ, south), north);
  let t = f64x2.sub(f64x2.add(f64x2.mul(f64x2.splat(<f64>jpll(face)), nr), x), y);
  t = v128.bitselect(f64x2.add(t, f64x2.mul(f64x2.splat(8.0), nr)), t, f64x2.lt(t, f64x2.splat(0.0)));
  let phi = f64x2.mul(f64x2.mul(f64x2.splat(0.75 * HALFPI), t), fact1);
  const cap = v128.or(north, south);
  if (v128.any_true(cap)) phi = v128.bitselect(f64x2.div(f64x2.mul(f64x2.splat(0.5 * HALFPI), t), nr), phi, cap);
  // cosdist(z0, phi0, z, phi).
  const difference = f64x2.sub(f64x2.splat(phi0), phi);
  const magnitude = v128.and(difference, pairAt(MAGNITUDE_MASK)); // as i64: ordered bits
  const kernel = v128.andnot(i64x2.lt_s(magnitude, pairAt(KERNEL_HIGH)), i64x2.lt_s(magnitude, pairAt(KERNEL_LOW)));
  let cosine: v128;
  if (i64x2.all_true(kernel)) cosine = cosKernelPair(magnitude);
  else {
    cosine = f64x2.splat(cosInline(f64x2.extract_lane(difference, 0)));
    cosine = f64x2.replace_lane(cosine, 1, cosInline(f64x2.extract_lane(difference, 1)));
  }
  const sines = f64x2.sqrt(f64x2.mul(f64x2.splat(1.0 - z0 * z0), f64x2.sub(one, f64x2.mul(z, z))));
  const cangdist = f64x2.add(f64x2.mul(f64x2.splat(z0), z), f64x2.mul(cosine, sines));
  const inside = i64x2.bitmask(f64x2.gt(cangdist, f64x2.splat(load<f64>(crpdr + at))));
  const beyondRadius = i64x2.bitmask(v128.not(f64x2.lt(cangdist, f64x2.splat(cosrad))));
  const beyondMargin = i64x2.bitmask(v128.not(f64x2.le(cangdist, f64x2.splat(load<f64>(crmdr + at)))));
  const zone0 = (inside & 1) * (1 + (beyondRadius & 1) * (1 + (beyondMargin & 1)));
  const zone1 = (inside >> 1) * (1 + (beyondRadius >> 1) * (1 + (beyondMargin >> 1)));
  return zone0 | (zone1 << 2);
}

/** musl __cos(x, 0) lane by lane (cosInline's kernel). */
// @ts-ignore: decorator
@inline function cosKernelPair(x: v128): v128 {
  const z = f64x2.mul(x, x);
  const w = f64x2.mul(z, z);
  const low = f64x2.mul(z, plusTimesAt(COS_C1_PAIR, z, plusTimesAt(COS_C2_PAIR, z, pairAt(COS_C3_PAIR))));
  const high = f64x2.mul(f64x2.mul(w, w), plusTimesAt(COS_C4_PAIR, z, plusTimesAt(COS_C5_PAIR, z, pairAt(COS_C6_PAIR))));
  const r = f64x2.add(low, high);
  const hz = f64x2.mul(pairAt(ONE_HALF), z);
  const w1 = f64x2.sub(pairAt(ONE), hz);
  return f64x2.add(w1, f64x2.add(f64x2.sub(f64x2.sub(pairAt(ONE), w1), hz), f64x2.mul(z, r)));
}

/**
 * query_disc: pixels whose centres lie within `radius` of (theta, phi) (fact = 0), or every
 * pixel that overlaps the disc, tested at nside·fact (fact ≥ 1, inclusive: may include a few
 * pixels that do not overlap, never misses one; HEALPix C++ query_disc_inclusive). Writes sorted
 * half-open ranges [lo, hi) as i64 pairs at out (room for `capacity` ranges) and returns their
 * number, or a negative error code: -HP_BAD_RADIUS for radius ≥ π/2 (or negative, or NaN),
 * -HP_BAD_FACT, -HP_BAD_THETA, -HP_OUTPUT_FULL (hpNeeded() tells how many ranges).
 */
export function hpQueryDisc(
  nside: i64,
  nest: bool,
  theta: f64,
  phi: f64,
  radius: f64,
  fact: i32,
  out: usize,
  capacity: i32,
): i32 {
  errorCode = HP_OK;
  if (!validNside(nside)) {
    errorCode = HP_BAD_NSIDE;
    return -HP_BAD_NSIDE;
  }
  if (!(radius >= 0 && radius < HALFPI)) {
    errorCode = HP_BAD_RADIUS;
    return -HP_BAD_RADIUS;
  }
  if (!isFinite(theta) || !isFinite(phi)) {
    errorCode = HP_BAD_THETA;
    return -HP_BAD_THETA;
  }
  const order = orderOf(nside);
  if (fact != 0) {
    // The oversampled grid must exist: nside·fact ≤ 2^29, and a power of two when nested.
    const limit = (<i64>1 << MAX_ORDER) / nside;
    if (fact < 1 || <i64>fact > limit || (nest && (fact & (fact - 1)) != 0)) {
      errorCode = HP_BAD_FACT;
      return -HP_BAD_FACT;
    }
  }
  // Normalise the pointing as HEALPix C++ does: theta into [0, π], phi into [0, 2π).
  let t = fmodulo(theta, TWOPI);
  let p = phi;
  if (t > PI) {
    p += PI;
    t = TWOPI - t;
  }
  p = fmodulo(p, TWOPI);
  rangesStart(out, capacity);
  if (nest) queryDiscNest(nside, order, t, p, radius, fact);
  else queryDiscRing(nside, order, t, p, radius, fact);
  return rangesEnd();
}

/** Writes every id of `count` ranges [lo, hi) at `ranges` to out (i64, or f64 when f64ids). */
export function hpExpandRanges(ranges: usize, count: i32, out: usize, f64ids: bool): void {
  let q = out;
  for (let i = 0; i < count; i++) {
    const lo = load<i64>(ranges + (<usize>i << 4));
    const hi = load<i64>(ranges + (<usize>i << 4), 8);
    for (let v = lo; v < hi; v++) {
      storeId(q, v, f64ids);
      q += 8;
    }
  }
}
