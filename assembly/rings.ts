// The 120-ring sky pixelisation (application-spec §3, viewer-spec §3 "Sky pixelisation"): the
// "rings" sky map of the LSST/HSC pipelines (lsst.skymap.RingsSkyMap), which cuts the sphere
// into bands of declination and each band into tracts of roughly equal width in right ascension.
//
// Layout, for numRings = 120 and ringSize = π / (numRings + 1) (radians of declination):
//
//   index 0                 south polar cap, dec ∈ [−π/2, −π/2 + ringSize/2), centre (0, −π/2)
//   ring i = 0 … 119        dec ∈ [dec₀(i), dec₀(i) + ringSize), dec₀(i) = ringSize·(i + ½) − π/2;
//                           n(i) tracts, j = 0 … n(i) − 1, centre ra = 2πj / n(i),
//                           centre dec = ringSize·(i + 1) − π/2; tract j covers the ra within
//                           half a tract width of its centre, so tract 0 straddles ra = 0 = 2π
//   last index              north polar cap, dec ∈ (π/2 − ringSize/2, π/2], centre (0, +π/2)
//
// with n(i) = ⌊2π·max(sin θ₀, sin θ₁) / ringSize⌋ + 1, θ₀ and θ₁ the colatitudes of the ring's
// two edges: the widest edge, cut into pieces no wider than ringSize, so that no tract is wider
// than it is tall. Indices run from the south cap through the rings from south to north, each
// ring from ra = 0 eastwards, to the north cap: ring i starts at index 1 + Σ_{k<i} n(k), and
// there are 2 + Σ n(i) indices in all. The top edge of ring 119 belongs to ring 119, so each
// ring but the last holds its lower edge and not its upper one, and the caps hold neither rim.
//
// Offset encoding: ids of 9e11 and above do not number tracts directly. They are written as
// 9e11 + 1000·t + k, where t is the tract index above and k (0 … 999) a sub-division of that
// tract (an area or patch within it) that this sky map does not resolve: subtracting 9e11 and
// dividing by 1000 (the integer quotient) gives t, the tract that holds it. Every index entry
// point below accepts both forms.
//
// Angles are radians: ra any real (taken modulo 2π), dec ∈ [−π/2, π/2]. Tables live in a data
// segment (no managed objects, see memory.ts); batched entry points work on raw linear memory.

const NUM_RINGS: i32 = 120;
const RING_SIZE: f64 = Math.PI / <f64>(NUM_RINGS + 1);
const TWO_PI: f64 = 2.0 * Math.PI;
const HALF_PI: f64 = 0.5 * Math.PI;
/** Ids at or above this are offset-encoded: 9e11 + 1000·tract + sub-index. */
const ENCODED_OFFSET: i64 = 900_000_000_000;
const ENCODED_DIVISOR: i64 = 1000;

// n(i) for each ring, then the index of each ring's first tract (NUM_RINGS + 1 entries: the
// last is the north cap's index). i32: the map has under 20 000 tracts.
const RING_TRACTS: usize = memory.data(NUM_RINGS << 2, 16);
const RING_FIRST: usize = memory.data((NUM_RINGS + 1) << 2, 16);

/** Declination of the lower edge of ring i (ring NUM_RINGS: the north cap's rim). */
// @ts-ignore: decorator
@inline function ringLowerDec(ring: i32): f64 {
  return RING_SIZE * (<f64>ring + 0.5) - HALF_PI;
}

function buildTables(): void {
  let first: i32 = 1; // index 0 is the south polar cap
  for (let i: i32 = 0; i < NUM_RINGS; i++) {
    // Colatitudes of the two edges: θ = π/2 − dec.
    const theta0 = HALF_PI - ringLowerDec(i);
    const theta1 = HALF_PI - ringLowerDec(i + 1);
    const widest = Math.max(Math.sin(theta0), Math.sin(theta1));
    // 2π·w / ringSize written as 2·(numRings + 1)·w: the same number without dividing by a
    // rounded π, so that the two rings whose edge is the equator (w = 1) get exactly
    // 2·121 + 1 = 243 tracts instead of depending on the last bit of π / 121.
    const n = <i32>Math.floor(<f64>(2 * (NUM_RINGS + 1)) * widest) + 1;
    store<i32>(RING_TRACTS + (<usize>i << 2), n);
    store<i32>(RING_FIRST + (<usize>i << 2), first);
    first += n;
  }
  store<i32>(RING_FIRST + (<usize>NUM_RINGS << 2), first);
}
buildTables();

// @ts-ignore: decorator
@inline function tractsIn(ring: i32): i32 {
  return load<i32>(RING_TRACTS + (<usize>ring << 2));
}
// @ts-ignore: decorator
@inline function firstOf(ring: i32): i32 {
  return load<i32>(RING_FIRST + (<usize>ring << 2));
}

/** Number of indices in the map: both polar caps and every tract of every ring. */
export function ringsTractTotal(): i32 {
  return firstOf(NUM_RINGS) + 1;
}

/** n(i), the tracts in ring i (0 … 119); 0 for any other i. */
export function ringsTractsInRing(ring: i32): i32 {
  return <u32>ring < <u32>NUM_RINGS ? tractsIn(ring) : 0;
}

/**
 * Decodes an id (plain or offset-encoded, given as f64 because ids pass 2^32) to its tract
 * index, or −1 when it names no tract: negative, not an integer, or past the last index.
 */
function tractOf(id: f64): i32 {
  if (!(id >= 0.0) || id != Math.floor(id) || id >= 9007199254740992.0) return -1;
  let index = <i64>id;
  if (index >= ENCODED_OFFSET) index = (index - ENCODED_OFFSET) / ENCODED_DIVISOR;
  return index < <i64>ringsTractTotal() ? <i32>index : -1;
}

/** The ring that holds tract `index` (1 … total − 2): the last ring whose first index ≤ it. */
function ringOf(index: i32): i32 {
  let lo: i32 = 0;
  let hi: i32 = NUM_RINGS - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (firstOf(mid) <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Centres of `count` ids (f64 at `ids`) as (ra, dec) f64 pairs at `out`. An id that names no
 * tract gets (NaN, NaN); returns how many did.
 */
export function ringsIndexToAngle(ids: usize, count: i32, out: usize): i32 {
  const total = ringsTractTotal();
  let invalid: i32 = 0;
  for (let k: i32 = 0; k < count; k++) {
    const index = tractOf(load<f64>(ids + (<usize>k << 3)));
    let ra: f64 = 0.0;
    let dec: f64;
    if (index < 0) {
      ra = NaN;
      dec = NaN;
      invalid++;
    } else if (index == 0) {
      dec = -HALF_PI;
    } else if (index == total - 1) {
      dec = HALF_PI;
    } else {
      const ring = ringOf(index);
      const j = index - firstOf(ring);
      ra = (TWO_PI * <f64>j) / <f64>tractsIn(ring);
      dec = RING_SIZE * <f64>(ring + 1) - HALF_PI;
    }
    const at = out + (<usize>k << 4);
    store<f64>(at, ra);
    store<f64>(at, dec, 8);
  }
  return invalid;
}

/** The index of the tract that holds (ra, dec), or −1 when dec is outside [−π/2, π/2] or NaN. */
function indexOf(ra: f64, dec: f64): i32 {
  if (!(dec >= -HALF_PI && dec <= HALF_PI) || !isFinite(ra)) return -1;
  if (dec < ringLowerDec(0)) return 0;
  if (dec > ringLowerDec(NUM_RINGS)) return ringsTractTotal() - 1;
  // The quotient can land one ring off next to an edge (rounding in the subtraction and the
  // division); the edges are defined by ringLowerDec, so the guess is checked against it.
  let ring = <i32>Math.floor((dec - ringLowerDec(0)) / RING_SIZE);
  if (ring > NUM_RINGS - 1) ring = NUM_RINGS - 1;
  if (ring > 0 && dec < ringLowerDec(ring)) ring--;
  if (ring < NUM_RINGS - 1 && dec >= ringLowerDec(ring + 1)) ring++;
  const n = tractsIn(ring);
  // ra in [0, 2π), then the nearest centre 2πj/n; j = n is tract 0 again (ra just below 2π).
  let turn = ra - TWO_PI * Math.floor(ra / TWO_PI);
  if (turn >= TWO_PI) turn = 0.0;
  let j = <i32>Math.floor((turn * <f64>n) / TWO_PI + 0.5);
  if (j >= n) j = 0;
  return firstOf(ring) + j;
}

/**
 * Tract indices (i32 at `out`) of `count` (ra, dec) f64 pairs at `angles`; −1 for a pair that
 * is not a direction. Returns how many were not.
 */
export function ringsAngleToIndex(angles: usize, count: i32, out: usize): i32 {
  let invalid: i32 = 0;
  for (let k: i32 = 0; k < count; k++) {
    const at = angles + (<usize>k << 4);
    const index = indexOf(load<f64>(at), load<f64>(at, 8));
    if (index < 0) invalid++;
    store<i32>(out + (<usize>k << 2), index);
  }
  return invalid;
}
