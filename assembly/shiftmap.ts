// Shiftmaps (viewer-spec §4 and §9: distortion map size 64, maximum shift 0.015): how far the
// globe's drawing of a HiPS tile puts each texel from where HEALPix says it belongs.
//
// The patch. The globe draws the tile of nested pixel ipix at order k (nside = 2^k) as a mesh
// of PATCH_CELLS × PATCH_CELLS cells whose (PATCH_CELLS + 1)² vertices are exact HEALPix
// directions, vertex (a, b) at in-tile position (a, b)/PATCH_CELLS (nest2loc). Inside a cell the
// point at in-cell fraction (s, t) is the normalised bilinear blend of the cell's four vertex
// directions, which is also what a flat quad looks like from the centre of the sphere. Texel
// coordinates (u, v) ∈ [0,1]² run along the face's x and y index axes, as nest2loc's (dx, dy).
//
// The map. For texel centres u = (i + ½)/64, v = (j + ½)/64 the exact in-tile position of the
// patch point P(u, v) is (u', v') = (x − ix, y − iy), with (x, y) its real face coordinates
// (ang2xyf) and (ix, iy) the tile's; the shift is (p, q) = (u' − u, v' − v). Sampling the tile
// image at (u, v) + shift(u, v) shows at P the texel that lies there on the sky.
//
// Layout: as a HiPS tile image (IVOA HiPS 1.0 as Hipsgen writes it, skydata/hips.ts), whose
// row r and column c hold face position x = r, y = c: map row i is u, column j is v, and each
// texel holds (q, p), the shift along the columns then along the rows. Uploaded like the tile
// image, the map's texture coordinates (s, t) are the tile's, and (R, G) is the shift in them:
// the shader samples the tile at st + texture(shiftmap, st).rg.
//
// Why 8 cells. With the tile drawn from its four corners alone the shift reaches 0.12 of a tile
// at the tiles that touch a pole, whatever the order (the polar cap is self-similar there).
// Subdividing into 8 × 8 cells scales that worst case by 1/8, to 0.0153, the spec's maximum
// shift of 0.015. The other tiles whose shifts come near it are those the edge of a polar cap
// (z = ±2/3, where the projection changes formula and bends) crosses next to a face's east or
// west corner: up to 0.0154, at every order, because those corners, where three base faces
// meet, are singular points of the projection as the poles are. Texel centres never fall on a
// cell edge (8 texels per cell), so the map never samples across the patch's own creases.
//
// One HEALPix in the project: the directions and face coordinates come from healpix/face-coordinates.ts, but
// for texel rows inside a polar cap, where the cap's formula runs here fused with the longitude
// (see "Rows inside a polar cap").

import { INV_HALFPI } from './healpix/constants';
import { ang2xyf, nest2loc, nest2vec, vec2xyf2 } from './healpix/face-coordinates';

/** Texels along each side of a map (viewer-spec §9: distortion map size 64). */
export const SHIFTMAP_SIZE: i32 = 64;
/** Cells along each side of the patch mesh (see "Why 8 cells"). */
export const PATCH_CELLS: i32 = 8;
const TEXELS_PER_CELL: i32 = SHIFTMAP_SIZE / PATCH_CELLS;
const VERTICES: i32 = PATCH_CELLS + 1;

// Data segments (the core owns no heap, memory.ts). Per map: the unit vectors of the mesh
// vertices, (x, y, z) f64, row b (v) by column a (u); per cell, row b by column a, the centre's
// (x, y) and its φ (see "The longitude of a texel"); iy + v of every texel column; the polar cap
// of each column of vertices (+1 north, −1 south, 0 neither). Per texel row (fixed u): the
// patch lines of its 8 cells (cellLines), and one f64 array per quantity over the row's 64
// texels (see shiftmapKernel). A 32-byte slot for vec2xyf2.
const VERTEX: usize = memory.data(VERTICES * VERTICES * 24, 16);
const CENTRE: usize = memory.data(PATCH_CELLS * PATCH_CELLS * 24, 16);
const COLUMN_Y: usize = memory.data(SHIFTMAP_SIZE * 8, 16);
const ROW_CELL: usize = memory.data(PATCH_CELLS * 64, 16);
// In-cell fraction t = (k + ½)/8 of the texels along a cell row, k = 0 … 7.
const IN_CELL: usize = memory.data<f64>([0.0625, 0.1875, 0.3125, 0.4375, 0.5625, 0.6875, 0.8125, 0.9375], 16);
const ROW_X: usize = memory.data(SHIFTMAP_SIZE * 8, 16);
const ROW_Y: usize = memory.data(SHIFTMAP_SIZE * 8, 16);
const ROW_Z: usize = memory.data(SHIFTMAP_SIZE * 8, 16);
const ROW_T: usize = memory.data(SHIFTMAP_SIZE * 8, 16);
const ROW_TT: usize = memory.data(SHIFTMAP_SIZE * 8, 16);
const ROW_SIGMA: usize = memory.data(SHIFTMAP_SIZE * 8, 16);
const COLUMN_CAP: usize = memory.data(VERTICES * 4, 16);
const ROW_P: usize = memory.data(SHIFTMAP_SIZE * 8, 16);
const ROW_Q: usize = memory.data(SHIFTMAP_SIZE * 8, 16);
const SLOT: usize = memory.data(32, 16);

/** Texels of the last map whose direction fell on another base face than the tile (see below). */
let strays: i32 = 0;

/** How many texels of the last shiftmapOffsets call were strays: 0 for every tile we know of. */
export function shiftmapStrays(): i32 {
  return strays;
}

// The longitude of a texel, incrementally. φ of a patch point P is taken as φ(C) + δ, C the
// centre of P's cell (one atan2 per cell, 64 per map), and δ = atan(t), t = (C × P)_z / (C · P)_xy,
// the signed angle from C to P about the pole axis. For |t| ≤ 1/8 the Taylor series
// atan t = t − t³/3 + t⁵/5 − … stopped after t¹⁷/17 leaves out less than t¹⁹/19 ≤ 2^-57·|t|,
// below half an ulp of δ, so φ is within an ulp or two (φ(C)'s atan2, the division, the sum),
// with one division and a short polynomial per texel instead of a libm atan2 (no
// approximation: the series is taken to full double precision).
// Texels farther from C in longitude (the cells at a pole, where a cell spans a wide range of
// φ) take atan2 of P itself. Longitudes go in quadrants, tt = φ/(π/2), taken within 2 of the
// tile's home quadrant (face mod 4: the quadrant of a polar face, the centre of an equatorial
// one) rather than in [0, 4): the patch points of a tile lie within a quadrant of it, so tt
// needs no wrapping around 4 for each texel, and in a polar cap the quadrant floor(tt) is the
// tile's exactly when it is home.
const SERIES_LIMIT: f64 = 0.125;

let home: f64 = 0; // the tile's home quadrant

// Rows inside a polar cap. The points with z ≥ c·|P| (0 < c < 1) form a convex cone, so a cell
// whose four vertices lie in the cap |z| > 2/3 (with a margin far above rounding) has every
// blend of them inside it too: for a texel row whose cells all do, vec2xyf2's zone test is
// known beforehand, and the cap's formula (Górski et al. 2005 eq. 4–9, as vec2xyf2 writes it:
// nside·√(3(1 − |z|/r)) = nside·√(3ρ²/(r(r + |z|))), ρ² = x² + y²) runs alone, without
// vec2xyf2's selects between zones and hemispheres, and fused with the longitude
// (capPatchRow): one reciprocal 1/((C·P)_xy · r(r + |z|)) gives both the longitude's tangent
// and the cap's 3ρ²/(r(r + |z|)). From order 3 on the tiles that touch a pole and their
// neighbours are done this way entirely, and about half the rows of each polar face; rows that
// a cap's edge crosses, and the equatorial zone, take vec2xyf2.
const CAP_EDGE: f64 = 2.0 / 3.0 + 1e-9;

/**
 * atan(t)/(π/2) for |t| ≤ 1/8, both lanes (see above): τ − τ·u·c(u), τ = t/(π/2), u = t²,
 * c(u) = 1/3 − u/5 + u²/7 − … − u⁷/17, evaluated in pairs of terms (Estrin's scheme) so that the
 * additions do not wait on each other in one long chain; the correction τ·u·c is below τ/192,
 * so its few-ulp rounding stays far below an ulp of the result.
 */
// @ts-ignore: decorator
@inline function atanQuadrants2(t: v128): v128 {
  const u = f64x2.mul(t, t);
  const u2 = f64x2.mul(u, u);
  const u4 = f64x2.mul(u2, u2);
  const p0 = f64x2.sub(v128.load(ATAN_SERIES), f64x2.mul(u, v128.load(ATAN_SERIES, 16)));
  const p1 = f64x2.sub(v128.load(ATAN_SERIES, 32), f64x2.mul(u, v128.load(ATAN_SERIES, 48)));
  const p2 = f64x2.sub(v128.load(ATAN_SERIES, 64), f64x2.mul(u, v128.load(ATAN_SERIES, 80)));
  const p3 = f64x2.sub(v128.load(ATAN_SERIES, 96), f64x2.mul(u, v128.load(ATAN_SERIES, 112)));
  const q0 = f64x2.add(p0, f64x2.mul(u2, p1));
  const q1 = f64x2.add(p2, f64x2.mul(u2, p3));
  const c = f64x2.add(q0, f64x2.mul(u4, q1));
  const tau = f64x2.mul(t, v128.load(ATAN_SERIES, 128));
  return f64x2.sub(tau, f64x2.mul(tau, f64x2.mul(u, c)));
}

// The series' coefficients 1/3, 1/5, … 1/17 and 1/(π/2), each as an f64x2, written by
// fillSeries on every map: V8 builds a v128 constant from immediates (three instructions)
// every time a loop uses it, where a load takes one, and binaryen folds loads from a data
// segment nothing writes back into constants.
const ATAN_SERIES: usize = memory.data(9 * 16, 16);

function fillSeries(): void {
  for (let k: i32 = 0; k < 8; k++) v128.store(ATAN_SERIES + (<usize>k << 4), f64x2.splat(1.0 / <f64>(2 * k + 3)));
  v128.store(ATAN_SERIES + 128, f64x2.splat(INV_HALFPI));
}

/** The longitude tt = φ/(π/2) of φ, taken within (home − 2, home + 2] (see "The longitude of a texel"). */
// @ts-ignore: decorator
@inline function nearHome(phi: f64): f64 {
  const tt = phi * INV_HALFPI;
  return tt <= home - 2.0 ? tt + 4.0 : tt > home + 2.0 ? tt - 4.0 : tt;
}

/** Both lanes of tt ∈ (−4, 8) taken into [0, 4), as vec2xyf2 wants them. */
// @ts-ignore: decorator
@inline function wrapQuadrants(tt: v128): v128 {
  const four = f64x2.splat(4.0);
  const up = f64x2.add(tt, v128.and(f64x2.lt(tt, f64x2.splat(0)), four));
  return f64x2.sub(up, v128.and(f64x2.ge(up, four), four));
}

/**
 * binary16 bits (IEEE 754, rounded to nearest, ties to even, as a GPU uploads RG16F data;
 * subnormals included) of the four values (a0, b0, a1, b1), a and b f64x2 with |a|, |b| ≤ 0.015,
 * as the four i32 lanes. The rounding is left to an f64 addition: a half float in binade
 * [2^e, 2^(e+1)), e ≥ −14, and every subnormal one (e = −14 too) is a multiple of 2^(e−10),
 * which is the ulp of M = 2^(e+42); so |x| + M, rounded once by the addition as binary16 rounds,
 * holds the half's significand m = round(|x|/2^(e−10)) (1024 … 2048, or 0 … 1024 below 2^-14) in
 * its low word and M's exponent e + 1065 in its high word, and the half is m + (e + 14)·2^10
 * (m = 2048 steps the exponent, as it should).
 */
// @ts-ignore: decorator
@inline function toHalf4(a: v128, b: v128): v128 {
  const sumA = f64x2.add(f64x2.abs(a), halfScale(a));
  const sumB = f64x2.add(f64x2.abs(b), halfScale(b));
  const significand = v128.shuffle<i32>(sumA, sumB, 0, 4, 2, 6);
  const exponent = i32x4.shr_u(v128.shuffle<i32>(sumA, sumB, 1, 5, 3, 7), 10);
  const sign = v128.and(i32x4.shr_u(v128.shuffle<i32>(a, b, 1, 5, 3, 7), 16), i32x4.splat(0x8000));
  return v128.or(sign, i32x4.add(significand, i32x4.sub(exponent, i32x4.splat((1023 + 28) << 10))));
}

/** M = 2^(e+42) for each lane's binade [2^e, 2^(e+1)) of |x|, at least 2^28 (e = −14); see toHalf4. */
// @ts-ignore: decorator
@inline function halfScale(x: v128): v128 {
  const scale = i64x2.add(v128.and(x, i64x2.splat(0x7ff0000000000000)), i64x2.splat(<i64>42 << 52));
  return f64x2.pmax(scale, f64x2.splat(268435456.0)); // both positive: pmax is max
}

// @ts-ignore: decorator
@inline function clamp(x: v128, limit: v128): v128 {
  // pmin/pmax (b < a ? b : a, one instruction each) rather than min/max, whose NaN and −0 rules
  // cost a sequence: shifts are finite, and for them both give min(limit, max(−limit, x)).
  return f64x2.pmin(limit, f64x2.pmax(f64x2.neg(limit), x));
}

/**
 * The mesh of the tile (vertices, cell centres and their longitudes) and iy + v of every texel
 * column into the per-map tables; returns the tile's base face and leaves the face coordinates
 * of the tile's centre in SLOT.
 */
function prepareMesh(nside: i64, ipix: i64): i32 {
  // The tile's face and (ix, iy), from the face coordinates of its centre: half a pixel from
  // every edge, so no rounding can move it to a neighbour.
  nest2loc(nside, ipix, 0.5, 0.5, SLOT);
  const face = ang2xyf(nside, load<f64>(SLOT), load<f64>(SLOT, 8), SLOT);
  home = <f64>(face & 3);
  const iy = Math.floor(load<f64>(SLOT, 8));
  for (let j: i32 = 0; j < SHIFTMAP_SIZE; j++) {
    store<f64>(COLUMN_Y + (<usize>j << 3), iy + (<f64>j + 0.5) / <f64>SHIFTMAP_SIZE);
  }
  // The mesh vertices as unit vectors straight from the ring coordinate (no θ in between).
  const step = 1.0 / <f64>PATCH_CELLS;
  for (let b: i32 = 0; b < VERTICES; b++) {
    for (let a: i32 = 0; a < VERTICES; a++) {
      nest2vec(nside, ipix, <f64>a * step, <f64>b * step, VERTEX + <usize>(b * VERTICES + a) * 24);
    }
  }
  // Which polar cap each column of vertices lies in, with a margin (see "Rows inside a polar cap").
  for (let a: i32 = 0; a < VERTICES; a++) {
    let north = true;
    let south = true;
    for (let b: i32 = 0; b < VERTICES; b++) {
      const z = load<f64>(VERTEX + <usize>(b * VERTICES + a) * 24, 16);
      north = north && z > CAP_EDGE;
      south = south && z < -CAP_EDGE;
    }
    store<i32>(COLUMN_CAP + (<usize>a << 2), north ? 1 : south ? -1 : 0);
  }
  // Each cell's centre direction (sum of its corners) and φ: one atan2 per cell.
  for (let cb: i32 = 0; cb < PATCH_CELLS; cb++) {
    for (let ca: i32 = 0; ca < PATCH_CELLS; ca++) {
      const v00 = VERTEX + <usize>(cb * VERTICES + ca) * 24;
      const v10 = v00 + 24;
      const v01 = v00 + <usize>VERTICES * 24;
      const v11 = v01 + 24;
      const cx = load<f64>(v00) + load<f64>(v10) + load<f64>(v01) + load<f64>(v11);
      const cy = load<f64>(v00, 8) + load<f64>(v10, 8) + load<f64>(v01, 8) + load<f64>(v11, 8);
      const centre = CENTRE + <usize>(cb * PATCH_CELLS + ca) * 24;
      store<f64>(centre, cx);
      store<f64>(centre, cy, 8);
      store<f64>(centre, nearHome(Math.atan2(cy, cx)), 16);
    }
  }
  return face;
}

/**
 * The patch lines of texel row i (u = (i + ½)/64 along the face's x axis) into ROW_CELL. The
 * bilinear blend is separable: the row meets vertex row b at E_b = (1 − s)·V(b, ca) +
 * s·V(b, ca + 1), and inside cell row cb its points are E_cb + t·(E_cb+1 − E_cb), t the in-cell
 * fraction along v. ROW_CELL gets, per cell of the row, E_cb, E_cb+1 − E_cb and the cell
 * centre's (x, y), so that one uniform loop over the row's texel pairs can follow.
 */
function cellLines(i: i32): void {
  const ca = i / TEXELS_PER_CELL;
  const s = (<f64>(i % TEXELS_PER_CELL) + 0.5) / <f64>TEXELS_PER_CELL;
  const s1 = 1.0 - s;
  let ex = 0.0;
  let ey = 0.0;
  let ez = 0.0;
  for (let b: i32 = 0; b < VERTICES; b++) {
    const v0 = VERTEX + <usize>(b * VERTICES + ca) * 24;
    const nx = s1 * load<f64>(v0) + s * load<f64>(v0, 24);
    const ny = s1 * load<f64>(v0, 8) + s * load<f64>(v0, 32);
    const nz = s1 * load<f64>(v0, 16) + s * load<f64>(v0, 40);
    if (b > 0) {
      const cell = ROW_CELL + (<usize>(b - 1) << 6);
      const centre = CENTRE + <usize>((b - 1) * PATCH_CELLS + ca) * 24;
      store<f64>(cell, ex);
      store<f64>(cell, ey, 8);
      store<f64>(cell, ez, 16);
      store<f64>(cell, nx - ex, 24);
      store<f64>(cell, ny - ey, 32);
      store<f64>(cell, nz - ez, 40);
      store<f64>(cell, load<f64>(centre), 48);
      store<f64>(cell, load<f64>(centre, 8), 56);
    }
    ex = nx;
    ey = ny;
    ez = nz;
  }
}

/** One coordinate (byte offset 0, 8, 16: x, y, z) of a texel pair's patch points E + t·(E′ − E). */
// @ts-ignore: decorator
@inline function alongCell(cell: usize, coordinate: usize, t: v128): v128 {
  return f64x2.add(v128.load64_splat(cell + coordinate), f64x2.mul(t, v128.load64_splat(cell + coordinate + 24)));
}

/**
 * The patch points of the row (cellLines) into ROW_X, ROW_Y, ROW_Z and the tangent of their
 * longitude from their cell's centre into ROW_T; returns whether some tangent is past
 * SERIES_LIMIT.
 */
function patchRow(): bool {
  let far = i64x2.splat(0);
  for (let j: i32 = 0; j < SHIFTMAP_SIZE; j += 2) {
    const cell = ROW_CELL + (<usize>(j / TEXELS_PER_CELL) << 6);
    const t = v128.load(IN_CELL + (<usize>(j % TEXELS_PER_CELL) << 3));
    const px = alongCell(cell, 0, t);
    const py = alongCell(cell, 8, t);
    const pz = alongCell(cell, 16, t);
    const cx = v128.load64_splat(cell, 48);
    const cy = v128.load64_splat(cell, 56);
    const tangent = f64x2.div(
      f64x2.sub(f64x2.mul(cx, py), f64x2.mul(cy, px)),
      f64x2.add(f64x2.mul(cx, px), f64x2.mul(cy, py)),
    );
    far = v128.or(far, f64x2.gt(f64x2.abs(tangent), f64x2.splat(SERIES_LIMIT)));
    const at = <usize>j << 3;
    v128.store(ROW_X + at, px);
    v128.store(ROW_Y + at, py);
    v128.store(ROW_Z + at, pz);
    v128.store(ROW_T + at, tangent);
  }
  return v128.any_true(far);
}

/**
 * patchRow for a row inside a polar cap (see "Rows inside a polar cap"): the patch points into
 * ROW_X, ROW_Y, ROW_Z, the tangent into ROW_T and nside·√(3(1 − |cos θ|)) into ROW_SIGMA.
 */
function capPatchRow(nside: i64): bool {
  const ns = f64x2.splat(<f64>nside);
  let far = i64x2.splat(0);
  for (let j: i32 = 0; j < SHIFTMAP_SIZE; j += 2) {
    const cell = ROW_CELL + (<usize>(j / TEXELS_PER_CELL) << 6);
    const t = v128.load(IN_CELL + (<usize>(j % TEXELS_PER_CELL) << 3));
    const px = alongCell(cell, 0, t);
    const py = alongCell(cell, 8, t);
    const pz = alongCell(cell, 16, t);
    const cx = v128.load64_splat(cell, 48);
    const cy = v128.load64_splat(cell, 56);
    const cross = f64x2.sub(f64x2.mul(cx, py), f64x2.mul(cy, px));
    const dot = f64x2.add(f64x2.mul(cx, px), f64x2.mul(cy, py));
    const rho2 = f64x2.add(f64x2.mul(px, px), f64x2.mul(py, py));
    const n = f64x2.add(rho2, f64x2.mul(pz, pz));
    // r(r + |z|) = r² + |z|·r
    const d = f64x2.add(n, f64x2.mul(f64x2.abs(pz), f64x2.sqrt(n)));
    const inverse = f64x2.div(f64x2.splat(1.0), f64x2.mul(dot, d));
    const tangent = f64x2.mul(f64x2.mul(cross, d), inverse);
    // √(3ρ²/d) as √(3ρ²·d)·dot/(dot·d): the square root need not wait for the division.
    const root = f64x2.sqrt(f64x2.mul(f64x2.mul(rho2, f64x2.splat(3.0)), d));
    const sigma = f64x2.mul(f64x2.mul(root, f64x2.mul(ns, dot)), inverse);
    far = v128.or(far, f64x2.gt(f64x2.abs(tangent), f64x2.splat(SERIES_LIMIT)));
    const at = <usize>j << 3;
    v128.store(ROW_X + at, px);
    v128.store(ROW_Y + at, py);
    v128.store(ROW_T + at, tangent);
    v128.store(ROW_SIGMA + at, sigma);
  }
  return v128.any_true(far);
}

/**
 * The longitudes of texel row i's patch points (patchRow) as tt = φ/(π/2) near home into ROW_TT;
 * those whose tangent is past SERIES_LIMIT (`far`: some are) from atan2 of the point.
 */
function longitudeRow(i: i32, far: bool): void {
  const ca = i / TEXELS_PER_CELL;
  for (let j: i32 = 0; j < SHIFTMAP_SIZE; j += 2) {
    const at = <usize>j << 3;
    const reference = v128.load64_splat(CENTRE + <usize>((j / TEXELS_PER_CELL) * PATCH_CELLS + ca) * 24, 16);
    v128.store(ROW_TT + at, f64x2.add(reference, atanQuadrants2(v128.load(ROW_T + at))));
  }
  if (!far) return;
  for (let j: i32 = 0; j < SHIFTMAP_SIZE; j++) {
    const at = <usize>j << 3;
    if (Math.abs(load<f64>(ROW_T + at)) <= SERIES_LIMIT) continue;
    store<f64>(ROW_TT + at, nearHome(Math.atan2(load<f64>(ROW_Y + at), load<f64>(ROW_X + at))));
  }
}

let lost: i32 = 0; // strays of the map being computed

/**
 * The shifts of a texel pair at byte offset `at` of the row from its face coordinates (fx, fy):
 * p = fx − (ix + u) into ROW_P and q = fy − (iy + v) into ROW_Q, 0 for a stray. Returns
 * max(|p|, |q|) per lane.
 */
// @ts-ignore: decorator
@inline function storeShifts(at: usize, fx: v128, fy: v128, rowX: v128, onFace: v128): v128 {
  // A patch point across a face edge: the patch bulges past the tile there and the texel that
  // belongs at P is in a neighbouring tile, so no shift helps (the texel keeps 0). Sampled at
  // texel centres with 8 cells this does not happen: the tests sweep every tile to order 4 and
  // the pole and cap-edge tiles to order 24. It is counted all the same (strays).
  const mask = i64x2.bitmask(onFace);
  if (mask != 3) lost += 2 - <i32>popcnt<u32>(<u32>mask);
  const p = v128.and(f64x2.sub(fx, rowX), onFace);
  const q = v128.and(f64x2.sub(fy, v128.load(COLUMN_Y + at)), onFace);
  v128.store(ROW_P + at, p);
  v128.store(ROW_Q + at, q);
  return f64x2.pmax(f64x2.abs(p), f64x2.abs(q));
}

/**
 * The shifts of the row (storeShifts; ixu = ix + u) from its patch points and longitudes, by
 * vec2xyf2. Returns max(|p|, |q|) per lane.
 */
function shiftRow(nside: i64, ixu: f64, face: f64): v128 {
  const rowX = f64x2.splat(ixu);
  const faceV = f64x2.splat(face);
  let largest = f64x2.splat(0);
  for (let j: i32 = 0; j < SHIFTMAP_SIZE; j += 2) {
    const at = <usize>j << 3;
    const onFace = f64x2.eq(
      vec2xyf2(
        nside,
        v128.load(ROW_X + at),
        v128.load(ROW_Y + at),
        v128.load(ROW_Z + at),
        wrapQuadrants(v128.load(ROW_TT + at)),
        SLOT,
      ),
      faceV,
    );
    largest = f64x2.pmax(largest, storeShifts(at, v128.load(SLOT), v128.load(SLOT, 16), rowX, onFace));
  }
  return largest;
}

/**
 * shiftRow for a row inside a polar cap, from ROW_TT and ROW_SIGMA (capPatchRow): Górski et al.
 * 2005 eq. 4–9 in the cap, the face from the quadrant (the tile's is home) and, with tp the
 * position in it, the edge lines jp = tp·σ, jm = (1 − tp)·σ.
 */
function capShiftRow(nside: i64, ixu: f64, north: bool): v128 {
  const ns = f64x2.splat(<f64>nside);
  const rowX = f64x2.splat(ixu);
  const faceV = f64x2.splat(home);
  let largest = f64x2.splat(0);
  for (let j: i32 = 0; j < SHIFTMAP_SIZE; j += 2) {
    const at = <usize>j << 3;
    const tt = v128.load(ROW_TT + at);
    const sigma = v128.load(ROW_SIGMA + at);
    const quadrant = f64x2.floor(tt); // the tile's own is home: see "The longitude of a texel"
    const tp = f64x2.sub(tt, quadrant);
    const jp = f64x2.mul(tp, sigma);
    const jm = f64x2.mul(f64x2.sub(f64x2.splat(1), tp), sigma);
    const fx = north ? f64x2.sub(ns, jm) : jp;
    const fy = north ? f64x2.sub(ns, jp) : jm;
    largest = f64x2.pmax(largest, storeShifts(at, fx, fy, rowX, f64x2.eq(quadrant, faceV)));
  }
  return largest;
}

/** Texel row i's shifts (ROW_P, ROW_Q) as (q, p) f64 pairs at `offsets`, in the map's layout. */
function storeOffsetsRow(i: i32, offsets: usize): void {
  const out = offsets + (<usize>(i * SHIFTMAP_SIZE) << 4);
  for (let j: i32 = 0; j < SHIFTMAP_SIZE; j += 2) {
    const p = v128.load(ROW_P + (<usize>j << 3));
    const q = v128.load(ROW_Q + (<usize>j << 3));
    v128.store(out + (<usize>j << 4), v128.shuffle<f64>(q, p, 0, 2));
    v128.store(out + (<usize>j << 4), v128.shuffle<f64>(q, p, 1, 3), 16);
  }
}

/** Texel row i's shifts clamped to ±limit as binary16 (q, p) pairs at `texels` (the RG16F map). */
function storeTexelsRow(i: i32, texels: usize, limit: v128): void {
  const out = texels + (<usize>(i * SHIFTMAP_SIZE) << 2);
  for (let j: i32 = 0; j < SHIFTMAP_SIZE; j += 2) {
    const p = clamp(v128.load(ROW_P + (<usize>j << 3)), limit);
    const q = clamp(v128.load(ROW_Q + (<usize>j << 3)), limit);
    // (q, p, q, p) of texels j and j + 1: 4 little-endian u16s (all halves fit: narrow keeps them).
    const halves = toHalf4(q, p);
    v128.store64_lane(out + (<usize>j << 2), i16x8.narrow_i32x4_u(halves, halves), 0);
  }
}

/**
 * Computes the 64 × 64 shifts of nested tile `ipix` at `order` and returns the largest |p| or
 * |q|; −1 for an order outside 0 … 29 or a pixel outside 0 … 12·4^order − 1 (nothing written
 * then). Each texel's (q, p), row i (u) by column j (v), goes unclamped to `offsets` as f64
 * pairs when it is not 0, and clamped to ±maxShift as binary16 pairs to `texels` when that is
 * not 0.
 *
 * Speed (a viewer asks for thousands of maps). A map goes texel row by texel row (fixed u), each row
 * in short passes over its texel pairs (f64x2 lanes along v) with per-row arrays in between:
 * the patch points (three multiply-adds each: the blend is linear along a row inside a cell)
 * and their longitudes' tangents, the longitudes (the cell's atan2 plus a short series, above),
 * the face coordinates (vec2xyf2, Górski et al. 2005 eq. 4–9 in vector form: square roots and
 * divisions, no acos/asin, no cos θ / sin θ taken again; in a polar cap the cap's formula
 * alone, its division shared with the tangent's) and shifts, then the outputs. Each pass's
 * loop is short and its pairs independent, so the processor runs several pairs' long division
 * and square-root chains at once instead of waiting on one (one pass doing it all would spill
 * its many live values to the stack).
 */
function shiftmapKernel(order: i32, ipix: i64, offsets: usize, texels: usize, maxShift: f64): f64 {
  if (<u32>order > 29) return -1.0;
  const nside: i64 = <i64>1 << <i64>order;
  if (ipix < 0 || ipix >= 12 * nside * nside) return -1.0;
  fillSeries();
  const face = <f64>prepareMesh(nside, ipix);
  const ix = Math.floor(load<f64>(SLOT));
  lost = 0;
  let largest = f64x2.splat(0);
  const limit = f64x2.splat(maxShift);
  for (let i: i32 = 0; i < SHIFTMAP_SIZE; i++) {
    cellLines(i);
    const ixu = ix + (<f64>i + 0.5) / <f64>SHIFTMAP_SIZE; // exact: ix < 2^29, u has 7 bits
    const ca = i / TEXELS_PER_CELL;
    const cap = load<i32>(COLUMN_CAP + (<usize>ca << 2));
    if (cap != 0 && cap == load<i32>(COLUMN_CAP + (<usize>ca << 2), 4)) {
      longitudeRow(i, capPatchRow(nside));
      largest = f64x2.pmax(largest, capShiftRow(nside, ixu, cap > 0));
    } else {
      longitudeRow(i, patchRow());
      largest = f64x2.pmax(largest, shiftRow(nside, ixu, face));
    }
    if (offsets != 0) storeOffsetsRow(i, offsets);
    if (texels != 0) storeTexelsRow(i, texels, limit);
  }
  strays = lost;
  return max(f64x2.extract_lane(largest, 0), f64x2.extract_lane(largest, 1));
}

/**
 * The 64 × 64 shifts of nested tile `ipix` at `order`, (q, p) for row i (u) by column j (v):
 * unclamped as f64 pairs at `offsets` unless it is 0, and clamped to ±maxShift as binary16
 * pairs at `texels` (the RG16F texture, toHalf4's encoding, in the same pass) unless it is
 * 0. Returns the largest |p| or |q| before clamping; −1 for an order outside 0 … 29 or a pixel
 * outside 0 … 12·4^order − 1 (nothing written then).
 */
export function shiftmapOffsets(order: i32, ipix: i64, offsets: usize, texels: usize, maxShift: f64): f64 {
  return shiftmapKernel(order, ipix, offsets, texels, maxShift);
}
