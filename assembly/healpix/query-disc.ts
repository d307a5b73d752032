// query_disc (HEALPix C++ query_disc and query_disc_inclusive): the pixels within a radius of
// a direction, in either scheme, written as a sorted list of half-open ranges of pixel ids.
// The ring scheme walks the rings the disc crosses; the nested scheme descends from the 12
// base pixels, testing each pixel's centre against thresholds that bound the pixel's extent.

import { HALFPI, INV_TWOPI, MAX_ORDER, PI, TWOPI, TWOTHIRD } from './constants';
import {
  fmodulo,
  gface,
  gphi,
  gringpix,
  gshifted,
  gstart,
  gx,
  gy,
  gz,
  jpll,
  jrll,
  loc2pix,
  orderOf,
  pix2locRing,
  pix2locXyf,
  ring2xyf,
  ringInfo,
  validNside,
  xyf2ring,
} from './geometry';
import { storeId } from './batch';
import { KERNEL_HIGH, KERNEL_LOW, MAGNITUDE_MASK, cosInline, cosKernelPair, pairAt } from './pairs';
import { HP_BAD_FACT, HP_BAD_NSIDE, HP_BAD_RADIUS, HP_BAD_THETA, HP_OK, HP_OUTPUT_FULL } from '../errors';
import { setError } from './status';

/** Cosine of the angle between (z1, phi1) and (z2, phi2) (HEALPix C++ cosdist_zphi). */
// @ts-ignore: decorator
@inline function cosdist(z1: f64, phi1: f64, z2: f64, phi2: f64): f64 {
  return z1 * z2 + cosInline(phi1 - phi2) * Math.sqrt((1.0 - z1 * z1) * (1.0 - z2 * z2));
}

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
    setError(HP_OUTPUT_FULL);
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
  setError(HP_OK);
  if (!validNside(nside)) {
    setError(HP_BAD_NSIDE);
    return -HP_BAD_NSIDE;
  }
  if (!(radius >= 0 && radius < HALFPI)) {
    setError(HP_BAD_RADIUS);
    return -HP_BAD_RADIUS;
  }
  if (!isFinite(theta) || !isFinite(phi)) {
    setError(HP_BAD_THETA);
    return -HP_BAD_THETA;
  }
  const order = orderOf(nside);
  if (fact != 0) {
    // The oversampled grid must exist: nside·fact ≤ 2^29, and a power of two when nested.
    const limit = (<i64>1 << MAX_ORDER) / nside;
    if (fact < 1 || <i64>fact > limit || (nest && (fact & (fact - 1)) != 0)) {
      setError(HP_BAD_FACT);
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
