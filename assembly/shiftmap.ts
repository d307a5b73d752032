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
// One HEALPix in the project: the directions and face coordinates come from healpix.ts.

import { INV_HALFPI, ang2xyf, nest2loc, nest2vec, vec2xyf2 } from './healpix';

/** Texels along each side of a map (viewer-spec §9: distortion map size 64). */
export const SHIFTMAP_SIZE: i32 = 64;
/** Cells along each side of the patch mesh (see "Why 8 cells"). */
export const PATCH_CELLS: i32 = 8;
const TEXELS_PER_CELL: i32 = SHIFTMAP_SIZE / PATCH_CELLS;
const VERTICES: i32 = PATCH_CELLS + 1;

// Unit vectors of the mesh vertices, (x, y, z) f64, row b (v) by column a (u); and a 64-byte
// slot for nest2loc / ang2xyf results and the shifts of the two texel pairs of a pass. Data
// segments: the core owns no heap (memory.ts).
const VERTEX: usize = memory.data(VERTICES * VERTICES * 24, 16);
const SLOT: usize = memory.data(64, 16);
// Per cell, row b by column a: the centre's (x, y) and its φ (see "The longitude of a texel").
const CENTRE: usize = memory.data(PATCH_CELLS * PATCH_CELLS * 24, 16);

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
// φ) take atan2 of P itself.
const SERIES_LIMIT: f64 = 0.125;

/**
 * atan t for |t| ≤ 1/8, both lanes (see above): t − t·u·c(u), u = t², c(u) = 1/3 − u/5 + u²/7
 * − … − u⁷/17, evaluated in pairs of terms (Estrin's scheme) so that the additions do not wait
 * on each other in one long chain; the correction t·u·c is below t/192, so its few-ulp rounding
 * stays far below an ulp of the result.
 */
// @ts-ignore: decorator
@inline function atanSmall2(t: v128): v128 {
  const u = f64x2.mul(t, t);
  const u2 = f64x2.mul(u, u);
  const u4 = f64x2.mul(u2, u2);
  const p0 = f64x2.sub(f64x2.splat(1.0 / 3.0), f64x2.mul(u, f64x2.splat(1.0 / 5.0)));
  const p1 = f64x2.sub(f64x2.splat(1.0 / 7.0), f64x2.mul(u, f64x2.splat(1.0 / 9.0)));
  const p2 = f64x2.sub(f64x2.splat(1.0 / 11.0), f64x2.mul(u, f64x2.splat(1.0 / 13.0)));
  const p3 = f64x2.sub(f64x2.splat(1.0 / 15.0), f64x2.mul(u, f64x2.splat(1.0 / 17.0)));
  const q0 = f64x2.add(p0, f64x2.mul(u2, p1));
  const q1 = f64x2.add(p2, f64x2.mul(u2, p3));
  const c = f64x2.add(q0, f64x2.mul(u4, q1));
  return f64x2.sub(t, f64x2.mul(t, f64x2.mul(u, c)));
}

/**
 * binary16 bits (toHalf below) of both lanes of x, |x| ≤ 0.015, in the low 16 bits of each i64
 * lane. Normal halves round the f64 bits as toHalf does; subnormal ones (|x| < 2^-14) are
 * |x|·2^24 rounded to an integer, ties to even, by adding 2^52 (the f64 addition rounds there).
 */
// @ts-ignore: decorator
@inline function toHalf2(x: v128): v128 {
  const a = v128.and(x, i64x2.splat(0x7fffffffffffffff));
  const sign = v128.and(i64x2.shr_u(x, 48), i64x2.splat(0x8000));
  const carry = v128.and(i64x2.shr_u(a, 42), i64x2.splat(1));
  const rounded = i64x2.add(i64x2.add(a, i64x2.splat(0x1ffffffffff)), carry);
  const normal = i64x2.sub(i64x2.shr_u(rounded, 42), i64x2.splat((1023 - 15) << 10));
  const scaled = f64x2.add(f64x2.mul(a, f64x2.splat(16777216.0)), f64x2.splat(4503599627370496.0));
  const subnormal = i64x2.sub(scaled, i64x2.splat(0x4330000000000000));
  const small = i64x2.lt_s(a, i64x2.splat(0x3f10000000000000));
  return v128.or(sign, v128.bitselect(subnormal, normal, small));
}

let lost: i32 = 0; // strays of the map being computed

// @ts-ignore: decorator
@inline function clamp(x: v128, limit: v128): v128 {
  // pmin/pmax (b < a ? b : a, one instruction each) rather than min/max, whose NaN and −0 rules
  // cost a sequence: shifts are finite, and for them both give min(limit, max(−limit, x)).
  return f64x2.pmin(limit, f64x2.pmax(f64x2.neg(limit), x));
}

/**
 * Two texels of one row, (i, j) and (i + 1, j): s and u their in-cell and in-tile positions
 * along the row, v their in-tile position across it, the row's patch line A + s·B and the cell
 * centre (cx, cy) with its φ. Writes the shifts p (f64x2) at out and q at out+16, 0 for a
 * stray, and returns max(|p|, |q|).
 */
// @ts-ignore: decorator
@inline function texelPair(
  nside: i64,
  ax: v128,
  ay: v128,
  az: v128,
  bx: v128,
  by: v128,
  bz: v128,
  s: v128,
  cx: v128,
  cy: v128,
  phiC: v128,
  u: v128,
  v: v128,
  ix: v128,
  iy: v128,
  face: v128,
  out: usize,
): v128 {
  const px = f64x2.add(ax, f64x2.mul(s, bx));
  const py = f64x2.add(ay, f64x2.mul(s, by));
  const pz = f64x2.add(az, f64x2.mul(s, bz));
  const cross = f64x2.sub(f64x2.mul(cx, py), f64x2.mul(cy, px));
  const dot = f64x2.add(f64x2.mul(cx, px), f64x2.mul(cy, py));
  let phi = f64x2.add(phiC, atanSmall2(f64x2.div(cross, dot)));
  const near = f64x2.le(f64x2.abs(cross), f64x2.mul(f64x2.splat(SERIES_LIMIT), dot));
  if (!i64x2.all_true(near)) {
    if (i64x2.extract_lane(near, 0) == 0) {
      phi = f64x2.replace_lane(phi, 0, Math.atan2(f64x2.extract_lane(py, 0), f64x2.extract_lane(px, 0)));
    }
    if (i64x2.extract_lane(near, 1) == 0) {
      phi = f64x2.replace_lane(phi, 1, Math.atan2(f64x2.extract_lane(py, 1), f64x2.extract_lane(px, 1)));
    }
  }
  const four = f64x2.splat(4.0);
  let tt = f64x2.mul(phi, f64x2.splat(INV_HALFPI));
  tt = f64x2.add(tt, v128.and(f64x2.lt(tt, f64x2.splat(0)), four));
  tt = f64x2.sub(tt, v128.and(f64x2.ge(tt, four), four));
  const onFace = f64x2.eq(vec2xyf2(nside, px, py, pz, tt, out), face);
  // A patch point across a face edge: the patch bulges past the tile there and the texel that
  // belongs at P is in a neighbouring tile, so no shift helps (the texel keeps 0). Sampled at
  // texel centres with 8 cells this does not happen: the tests sweep every tile to order 4 and
  // the pole and cap-edge tiles to order 24. It is counted all the same (strays).
  const mask = i64x2.bitmask(onFace);
  if (mask != 3) lost += 2 - <i32>popcnt<u32>(<u32>mask);
  const p = v128.and(f64x2.sub(f64x2.sub(v128.load(out), ix), u), onFace);
  const q = v128.and(f64x2.sub(f64x2.sub(v128.load(out, 16), iy), v), onFace);
  v128.store(out, p);
  v128.store(out, q, 16);
  return f64x2.pmax(f64x2.abs(p), f64x2.abs(q));
}

/**
 * Computes the 64 × 64 shifts of nested tile `ipix` at `order` and returns the largest |p| or
 * |q|; −1 for an order outside 0 … 29 or a pixel outside 0 … 12·4^order − 1 (nothing written
 * then). Each texel's (q, p), row i (u) by column j (v), goes unclamped to `offsets` as f64
 * pairs when it is not 0, and clamped to ±maxShift as binary16 pairs to `texels` when that is
 * not 0 (one pass: the texture needs no f64 map in between).
 *
 * Speed (issue 3: one map under 0.1 ms). Texels go in pairs (f64x2 lanes, neighbours along u
 * in one cell row), two rows per pass. Along a cell row the blend is linear in s: P(s) = A + s·B, A and B fixed
 * per (cell, row), so a texel's direction is three multiply-adds; its face coordinates come
 * from the unnormalised vector (vec2xyf2, Górski et al. 2005 eq. 4–9 in vector form: square
 * roots and divisions, no acos/asin, no cos θ / sin θ taken again) and φ from the cell's atan2
 * plus a short series (above).
 */
function shiftmapKernel(order: i32, ipix: i64, offsets: usize, texels: usize, maxShift: f64): f64 {
  if (<u32>order > 29) return -1.0;
  const nside: i64 = <i64>1 << <i64>order;
  if (ipix < 0 || ipix >= 12 * nside * nside) return -1.0;

  // The tile's face and (ix, iy), from the face coordinates of its centre: half a pixel from
  // every edge, so no rounding can move it to a neighbour.
  nest2loc(nside, ipix, 0.5, 0.5, SLOT);
  const face = ang2xyf(nside, load<f64>(SLOT), load<f64>(SLOT, 8), SLOT);
  const ix = f64x2.splat(Math.floor(load<f64>(SLOT)));
  const iy = f64x2.splat(Math.floor(load<f64>(SLOT, 8)));
  const faceV = f64x2.splat(<f64>face);

  // The mesh vertices as unit vectors straight from the ring coordinate (no θ in between).
  const step = 1.0 / <f64>PATCH_CELLS;
  for (let b: i32 = 0; b < VERTICES; b++) {
    for (let a: i32 = 0; a < VERTICES; a++) {
      nest2vec(nside, ipix, <f64>a * step, <f64>b * step, VERTEX + <usize>(b * VERTICES + a) * 24);
    }
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
      store<f64>(centre, Math.atan2(cy, cx), 16);
    }
  }

  lost = 0;
  let largest = f64x2.splat(0);
  const limit = f64x2.splat(maxShift);
  const texel = 1.0 / <f64>SHIFTMAP_SIZE;
  const inCell = 1.0 / <f64>TEXELS_PER_CELL;
  // Two texel rows (j, j + 1, always in the same row of cells) per pass: their texels are
  // independent, so the processor overlaps the long square-root and division chains of one
  // with the other's.
  for (let j: i32 = 0; j < SHIFTMAP_SIZE; j += 2) {
    const cb = j / TEXELS_PER_CELL;
    const t = (<f64>(j % TEXELS_PER_CELL) + 0.5) * inCell;
    const t1 = 1.0 - t;
    const w = t + inCell; // row j + 1
    const w1 = 1.0 - w;
    const v = f64x2.splat((<f64>j + 0.5) * texel);
    const v2 = f64x2.splat((<f64>j + 1.5) * texel);
    for (let ca: i32 = 0; ca < PATCH_CELLS; ca++) {
      const v00 = VERTEX + <usize>(cb * VERTICES + ca) * 24;
      const v10 = v00 + 24;
      const v01 = v00 + <usize>VERTICES * 24;
      const v11 = v01 + 24;
      // The cell centre (its direction; the length does not matter) and its longitude.
      const centre = CENTRE + <usize>(cb * PATCH_CELLS + ca) * 24;
      const cx = f64x2.splat(load<f64>(centre));
      const cy = f64x2.splat(load<f64>(centre, 8));
      const phiC = f64x2.splat(load<f64>(centre, 16));
      // P(s) = (1−s)(1−t)·V00 + s(1−t)·V10 + (1−s)t·V01 + st·V11 = A + s·B.
      const ax = t1 * load<f64>(v00) + t * load<f64>(v01);
      const ay = t1 * load<f64>(v00, 8) + t * load<f64>(v01, 8);
      const az = t1 * load<f64>(v00, 16) + t * load<f64>(v01, 16);
      const bx = f64x2.splat(t1 * load<f64>(v10) + t * load<f64>(v11) - ax);
      const by = f64x2.splat(t1 * load<f64>(v10, 8) + t * load<f64>(v11, 8) - ay);
      const bz = f64x2.splat(t1 * load<f64>(v10, 16) + t * load<f64>(v11, 16) - az);
      const ex = w1 * load<f64>(v00) + w * load<f64>(v01);
      const ey = w1 * load<f64>(v00, 8) + w * load<f64>(v01, 8);
      const ez = w1 * load<f64>(v00, 16) + w * load<f64>(v01, 16);
      const fx = f64x2.splat(w1 * load<f64>(v10) + w * load<f64>(v11) - ex);
      const fy = f64x2.splat(w1 * load<f64>(v10, 8) + w * load<f64>(v11, 8) - ey);
      const fz = f64x2.splat(w1 * load<f64>(v10, 16) + w * load<f64>(v11, 16) - ez);
      const axv = f64x2.splat(ax);
      const ayv = f64x2.splat(ay);
      const azv = f64x2.splat(az);
      const exv = f64x2.splat(ex);
      const eyv = f64x2.splat(ey);
      const ezv = f64x2.splat(ez);
      for (let k: i32 = 0; k < TEXELS_PER_CELL; k += 2) {
        const i = ca * TEXELS_PER_CELL + k;
        const s = f64x2((<f64>k + 0.5) * inCell, (<f64>k + 1.5) * inCell);
        const u = f64x2((<f64>i + 0.5) * texel, (<f64>i + 1.5) * texel);
        const m0 = texelPair(nside, axv, ayv, azv, bx, by, bz, s, cx, cy, phiC, u, v, ix, iy, faceV, SLOT);
        const m1 = texelPair(nside, exv, eyv, ezv, fx, fy, fz, s, cx, cy, phiC, u, v2, ix, iy, faceV, SLOT + 32);
        largest = f64x2.pmax(largest, f64x2.pmax(m0, m1));
        // Out: (q, p) of texels (i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1).
        const at0 = <usize>(i * SHIFTMAP_SIZE + j);
        const at1 = at0 + <usize>SHIFTMAP_SIZE;
        const p = v128.load(SLOT);
        const q = v128.load(SLOT, 16);
        const p2 = v128.load(SLOT, 32);
        const q2 = v128.load(SLOT, 48);
        if (offsets != 0) {
          v128.store(offsets + (at0 << 4), v128.shuffle<f64>(q, p, 0, 2));
          v128.store(offsets + (at1 << 4), v128.shuffle<f64>(q, p, 1, 3));
          v128.store(offsets + (at0 << 4), v128.shuffle<f64>(q2, p2, 0, 2), 16);
          v128.store(offsets + (at1 << 4), v128.shuffle<f64>(q2, p2, 1, 3), 16);
        }
        if (texels != 0) {
          const pair = v128.or(toHalf2(clamp(q, limit)), i64x2.shl(toHalf2(clamp(p, limit)), 16));
          const pair2 = v128.or(toHalf2(clamp(q2, limit)), i64x2.shl(toHalf2(clamp(p2, limit)), 16));
          // (q, p) per texel, little-endian u16s; texels (i, j) and (i, j + 1) are adjacent, so
          // the low halves of (pair[0], pair2[0]) and of (pair[1], pair2[1]) go out as 8 bytes each.
          const both = v128.shuffle<i32>(pair, pair2, 0, 4, 2, 6);
          v128.store64_lane(texels + (at0 << 2), both, 0);
          v128.store64_lane(texels + (at1 << 2), both, 1);
        }
      }
    }
  }
  strays = lost;
  return max(f64x2.extract_lane(largest, 0), f64x2.extract_lane(largest, 1));
}

/**
 * The 64 × 64 shifts of nested tile `ipix` at `order`, (q, p) for row i (u) by column j (v):
 * unclamped as f64 pairs at `offsets` unless it is 0, and clamped to ±maxShift as binary16
 * pairs at `texels` (the RG16F texture, toHalf's encoding, in the same pass) unless it is
 * 0. Returns the largest |p| or |q| before clamping; −1 for an order outside 0 … 29 or a pixel
 * outside 0 … 12·4^order − 1 (nothing written then).
 */
export function shiftmapOffsets(order: i32, ipix: i64, offsets: usize, texels: usize, maxShift: f64): f64 {
  return shiftmapKernel(order, ipix, offsets, texels, maxShift);
}

/**
 * IEEE 754 binary16 bits of x, rounded to nearest, ties to even (as a GPU uploads RG16F data),
 * subnormals included; x must be finite and below 65520 in magnitude (shifts are ≤ 0.015).
 */
// @ts-ignore: decorator
@inline function toHalf(x: f64): u32 {
  if (x != x) return 0x7e00; // NaN stays NaN (never made here: shifts are finite)
  const bits = reinterpret<u64>(x);
  const sign = <u32>(bits >>> 48) & 0x8000;
  const a = bits & 0x7fffffffffffffff;
  if (a < 0x3f10000000000000) {
    // Below 2^-14, subnormal (or zero): units of 2^-24; rounding up to 1024 gives the smallest normal.
    return sign | <u32>nearest(reinterpret<f64>(a) * 16777216.0);
  }
  // Normal: keep the top 10 of the 52 fraction bits, rounded to nearest, ties to even, by adding
  // just under half of the dropped unit plus the kept last bit (a carry out of the fraction
  // steps the exponent, as it should); then rebias the exponent from 1023 to 15.
  const rounded = a + 0x1ffffffffff + ((a >>> 42) & 1);
  return sign | (<u32>(rounded >>> 42) - ((1023 - 15) << 10));
}
