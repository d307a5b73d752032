// The shiftmap of a HiPS tile (assembly/shiftmap.ts) in plain double-precision JavaScript, written
// from Górski et al. 2005 (§4: the polar caps and the equatorial zone of the 12 base faces) and
// sharing no code with the wasm core: the bench's peer (./shiftmap.ts) and the tests' reference
// (tests/unit/shiftmap.test.ts). The same 8 × 8-cell patch over exact HEALPix vertices, and the
// exact in-tile position of every texel of the patch.
import { SHIFTMAP_VALUES } from '../core/shiftmap';

// Face f has its top corner on ring F1(f)·nside from the north pole and its centre at
// longitude F2(f)·π/4 (the paper's Table 1 / the C++ jrll, jpll).
const F1 = [2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4];
const F2 = [1, 3, 5, 7, 0, 2, 4, 6, 1, 3, 5, 7];

export type Vec = [number, number, number];

/** A face and face coordinates in pixel units. */
export interface FacePoint {
  face: number;
  fx: number;
  fy: number;
}

/** Direction of face coordinates (ix + dx, iy + dy) in pixel units on face f (eq. 4–9, inverted). */
export function faceToVec(nside: number, face: number, ix: number, iy: number, dx: number, dy: number): Vec {
  // Ring index from the north pole in pixel units; the integer part first keeps its digits.
  const ring = F1[face] * nside - ix - iy - (dx + dy);
  let nr: number;
  let z: number;
  let sinTheta: number;
  if (ring < nside) {
    nr = ring; // north cap: 1 − z = nr²/(3 nside²)
    const t = (nr / nside) ** 2 / 3;
    z = 1 - t;
    sinTheta = Math.sqrt(t * (2 - t));
  } else if (ring > 3 * nside) {
    nr = 4 * nside - ring; // south cap
    const t = (nr / nside) ** 2 / 3;
    z = t - 1;
    sinTheta = Math.sqrt(t * (2 - t));
  } else {
    nr = nside; // equatorial zone: z linear in the ring index
    z = ((2 * nside - ring) * 2) / (3 * nside);
    sinTheta = Math.sqrt((1 - z) * (1 + z));
  }
  // Longitude: pixels of a ring are spread evenly, face centre at F2·π/4.
  let t = F2[face] * nr + (ix - iy) + (dx - dy);
  if (t < 0) t += 8 * nr;
  const phi = nr === 0 ? 0 : (Math.PI / 4) * (t / nr);
  return [sinTheta * Math.cos(phi), sinTheta * Math.sin(phi), z];
}

/** Face and face coordinates of a direction (x, y, z) of any length (eq. 4–9), into `out`. */
export function vecToFace(nside: number, x: number, y: number, z: number, out: FacePoint): FacePoint {
  const r = Math.sqrt(x * x + y * y + z * z);
  const za = Math.abs(z) / r;
  let tt = Math.atan2(y, x) / (Math.PI / 2);
  if (tt < 0) tt += 4;
  if (tt >= 4) tt -= 4;
  if (za <= 2 / 3) {
    const jp = nside * (0.5 + tt - (0.75 * z) / r); // ascending edge lines
    const jm = nside * (0.5 + tt + (0.75 * z) / r); // descending edge lines
    const ifp = Math.floor(jp / nside);
    const ifm = Math.floor(jm / nside);
    out.face = ifp === ifm ? ifp | 4 : ifp < ifm ? ifp : ifm + 8;
    out.fx = jm - nside * ifm;
    out.fy = nside - (jp - nside * ifp);
    return out;
  }
  const ntt = Math.min(3, Math.floor(tt));
  const tp = tt - ntt;
  // nside·√(3(1 − |z|)) with 1 − |z| = ρ²/(r(r + |z|)), exact next to the poles.
  const tmp = nside * Math.sqrt((3 * (x * x + y * y)) / (r * (r + Math.abs(z))));
  const jp = tp * tmp;
  const jm = (1 - tp) * tmp;
  if (z > 0) {
    out.face = ntt;
    out.fx = nside - jm;
    out.fy = nside - jp;
  } else {
    out.face = ntt + 8;
    out.fx = jp;
    out.fy = jm;
  }
  return out;
}

/** One map at a time into `shifts`, (q, p) per texel as assembly/shiftmap.ts lays them out. */
export class ReferenceShiftmap {
  readonly shifts = new Float64Array(SHIFTMAP_VALUES);
  private readonly vertices = new Float64Array(81 * 3);
  private readonly point: FacePoint = { face: 0, fx: 0, fy: 0 };

  /** Fills `shifts` for tile (ix, iy) of `face` at `order`; returns the largest |shift|. */
  compute(order: number, face: number, ix: number, iy: number): number {
    const nside = 2 ** order;
    const V = this.vertices;
    for (let b = 0; b <= 8; b++)
      for (let a = 0; a <= 8; a++) V.set(faceToVec(nside, face, ix, iy, a / 8, b / 8), (b * 9 + a) * 3);
    let largest = 0;
    for (let j = 0; j < 64; j++) {
      const cb = j >> 3;
      const t = ((j & 7) + 0.5) / 8;
      for (let i = 0; i < 64; i++) {
        const ca = i >> 3;
        const s = ((i & 7) + 0.5) / 8;
        // The cell's corners (a, b), (a + 1, b), (a, b + 1), (a + 1, b + 1), mixed bilinearly.
        const k00 = (cb * 9 + ca) * 3;
        const k10 = k00 + 3;
        const k01 = k00 + 27;
        const k11 = k01 + 3;
        const w00 = (1 - s) * (1 - t);
        const w10 = s * (1 - t);
        const w01 = (1 - s) * t;
        const w11 = s * t;
        const x = w00 * V[k00] + w10 * V[k10] + w01 * V[k01] + w11 * V[k11];
        const y = w00 * V[k00 + 1] + w10 * V[k10 + 1] + w01 * V[k01 + 1] + w11 * V[k11 + 1];
        const z = w00 * V[k00 + 2] + w10 * V[k10 + 2] + w01 * V[k01 + 2] + w11 * V[k11 + 2];
        const exact = vecToFace(nside, x, y, z, this.point);
        if (exact.face !== face) throw new Error(`reference: texel (${i}, ${j}) of the tile is on face ${exact.face}`);
        const p = exact.fx - ix - (i + 0.5) / 64;
        const q = exact.fy - iy - (j + 0.5) / 64;
        largest = Math.max(largest, Math.abs(p), Math.abs(q));
        // Row i (u, face x) by column j (v, face y), as a HiPS tile image; (q, p) per texel.
        this.shifts[(i * 64 + j) * 2] = q;
        this.shifts[(i * 64 + j) * 2 + 1] = p;
      }
    }
    return largest;
  }
}
