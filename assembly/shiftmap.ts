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

import { ang2xyf, nest2loc } from './healpix';

/** Texels along each side of a map (viewer-spec §9: distortion map size 64). */
export const SHIFTMAP_SIZE: i32 = 64;
/** Cells along each side of the patch mesh (see "Why 8 cells"). */
export const PATCH_CELLS: i32 = 8;
const TEXELS_PER_CELL: i32 = SHIFTMAP_SIZE / PATCH_CELLS;
const VERTICES: i32 = PATCH_CELLS + 1;

// Unit vectors of the mesh vertices, (x, y, z) f64, row b (v) by column a (u); and a 16-byte
// slot for nest2loc / ang2xyf results. Data segments: the core owns no heap (memory.ts).
const VERTEX: usize = memory.data(VERTICES * VERTICES * 24, 16);
const SLOT: usize = memory.data(16, 16);

/** Texels of the last map whose direction fell on another base face than the tile (see below). */
let strays: i32 = 0;

/** How many texels of the last shiftmapOffsets call were strays: 0 for every tile we know of. */
export function shiftmapStrays(): i32 {
  return strays;
}

/**
 * Writes the 64 × 64 shifts of nested tile `ipix` at `order` to `out` as f64 pairs (q, p), row
 * i (u) by column j (v), unclamped, and returns the largest |p| or |q|; −1 for an order outside
 * 0 … 29 or a pixel outside 0 … 12·4^order − 1 (nothing written then).
 */
export function shiftmapOffsets(order: i32, ipix: i64, out: usize): f64 {
  if (<u32>order > 29) return -1.0;
  const nside: i64 = <i64>1 << <i64>order;
  if (ipix < 0 || ipix >= 12 * nside * nside) return -1.0;

  // The tile's face and (ix, iy), from the face coordinates of its centre: half a pixel from
  // every edge, so no rounding can move it to a neighbour.
  nest2loc(nside, ipix, 0.5, 0.5, SLOT);
  const face = ang2xyf(nside, load<f64>(SLOT), load<f64>(SLOT, 8), SLOT);
  const ix = Math.floor(load<f64>(SLOT));
  const iy = Math.floor(load<f64>(SLOT, 8));

  const step = 1.0 / <f64>PATCH_CELLS;
  for (let b: i32 = 0; b < VERTICES; b++) {
    for (let a: i32 = 0; a < VERTICES; a++) {
      nest2loc(nside, ipix, <f64>a * step, <f64>b * step, SLOT);
      const theta = load<f64>(SLOT);
      const phi = load<f64>(SLOT, 8);
      const sth = Math.sin(theta);
      const at = VERTEX + <usize>(b * VERTICES + a) * 24;
      store<f64>(at, sth * Math.cos(phi));
      store<f64>(at, sth * Math.sin(phi), 8);
      store<f64>(at, Math.cos(theta), 16);
    }
  }

  strays = 0;
  let largest: f64 = 0.0;
  const texel = 1.0 / <f64>SHIFTMAP_SIZE;
  const inCell = 1.0 / <f64>TEXELS_PER_CELL;
  for (let j: i32 = 0; j < SHIFTMAP_SIZE; j++) {
    const cb = j / TEXELS_PER_CELL;
    const t = (<f64>(j % TEXELS_PER_CELL) + 0.5) * inCell;
    const v = (<f64>j + 0.5) * texel;
    for (let i: i32 = 0; i < SHIFTMAP_SIZE; i++) {
      const ca = i / TEXELS_PER_CELL;
      const s = (<f64>(i % TEXELS_PER_CELL) + 0.5) * inCell;
      const u = (<f64>i + 0.5) * texel;
      const v00 = VERTEX + <usize>(cb * VERTICES + ca) * 24;
      const v10 = v00 + 24;
      const v01 = v00 + <usize>VERTICES * 24;
      const v11 = v01 + 24;
      const w00 = (1.0 - s) * (1.0 - t);
      const w10 = s * (1.0 - t);
      const w01 = (1.0 - s) * t;
      const w11 = s * t;
      const x = w00 * load<f64>(v00) + w10 * load<f64>(v10) + w01 * load<f64>(v01) + w11 * load<f64>(v11);
      const y = w00 * load<f64>(v00, 8) + w10 * load<f64>(v10, 8) + w01 * load<f64>(v01, 8) + w11 * load<f64>(v11, 8);
      const z =
        w00 * load<f64>(v00, 16) + w10 * load<f64>(v10, 16) + w01 * load<f64>(v01, 16) + w11 * load<f64>(v11, 16);
      // Angles of the blend (never normalised: only its direction counts). θ from asin of
      // ρ/r within 45° of a pole, where acos of z/r would lose digits, and from acos elsewhere
      // (a third of an atan2's time); φ lifted into [0, 2π), ang2xyf's fast path.
      const rho2 = x * x + y * y;
      const z2 = z * z;
      const r = Math.sqrt(rho2 + z2);
      let theta: f64;
      if (z2 > rho2) {
        theta = Math.asin(Math.sqrt(rho2) / r);
        if (z < 0) theta = Math.PI - theta;
      } else {
        theta = Math.acos(z / r);
      }
      let phi = Math.atan2(y, x);
      if (phi < 0) phi += 2.0 * Math.PI;
      let p: f64 = 0.0;
      let q: f64 = 0.0;
      if (ang2xyf(nside, theta, phi, SLOT) == face) {
        p = load<f64>(SLOT) - ix - u;
        q = load<f64>(SLOT, 8) - iy - v;
      } else {
        // A patch point across a face edge: the patch bulges past the tile there and the texel
        // that belongs at P is in a neighbouring tile, so no shift helps (the texel keeps 0).
        // Sampled at texel centres with 8 cells this does not happen: the tests sweep every tile
        // to order 4 and the pole and cap-edge tiles to order 24. It is counted all the same.
        strays++;
      }
      const at = out + (<usize>(i * SHIFTMAP_SIZE + j) << 4);
      store<f64>(at, q);
      store<f64>(at, p, 8);
      largest = max(largest, max(abs(p), abs(q)));
    }
  }
  return largest;
}

/**
 * IEEE 754 binary16 bits of x, rounded to nearest, ties to even (as a GPU uploads RG16F data),
 * subnormals included; x must be finite and below 65520 in magnitude (shifts are ≤ 0.015).
 */
// @ts-ignore: decorator
@inline function toHalf(x: f64): u32 {
  if (x != x) return 0x7e00; // NaN stays NaN (never made here: shifts are finite)
  const sign = <u32>(reinterpret<u64>(x) >>> 48) & 0x8000;
  const a = abs(x);
  if (a < 6.103515625e-5) {
    // Subnormal (or zero): units of 2^-24; rounding up to 1024 gives the smallest normal.
    return sign | <u32>nearest(a * 16777216.0);
  }
  const e = <i32>((reinterpret<u64>(a) >>> 52) & 0x7ff) - 1023; // a = 1.f × 2^e, e ≥ −14
  let m = nearest(a * reinterpret<f64>(<u64>(1023 + 10 - e) << 52)); // [1024, 2048], exact scaling
  let biased = e + 15;
  if (m >= 2048.0) {
    m = 1024.0;
    biased++;
  }
  return sign | (<u32>biased << 10) | (<u32>m - 1024);
}

/**
 * Encodes `count` shifts (f64 at `src`) for the texture: each clamped to ±maxShift, then as
 * binary16 (u16 at `dst`), so a map is an RG16F texture of 64 × 64 (q, p) texels.
 */
export function shiftmapEncode(src: usize, count: i32, maxShift: f64, dst: usize): void {
  for (let k: i32 = 0; k < count; k++) {
    const x = min(maxShift, max(-maxShift, load<f64>(src + (<usize>k << 3))));
    store<u16>(dst + (<usize>k << 1), <u16>toHalf(x));
  }
}
