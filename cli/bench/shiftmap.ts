// Shiftmaps: 64 × 64 distortion maps of polar HiPS tiles (assembly/shiftmap.ts) per second, at
// orders 3 to 10, ours (wasm, through src/core/shiftmap.ts, clamped and encoded as binary16)
// beside the same math in plain JavaScript written here: the same 8 × 8-cell patch over exact
// HEALPix vertices (Górski et al. 2005, xyf → direction), the same exact in-tile positions
// (direction → face coordinates) and the same encoding. No npm package computes shiftmaps; this
// is the fair peer. Inputs: for each order, the tiles of the 8 polar faces that touch a pole and
// their neighbours towards it, those that need a map (32 tiles).
import {
  SHIFTMAP_MIN_SHIFT,
  SHIFTMAP_RESOLUTION,
  SHIFTMAP_VALUES,
  computeShiftmap,
  decodeShift,
  encodeShift,
} from '../../src/core/shiftmap';
import type { Core } from '../../src/core/wasm';
import type { BenchCase } from './harness';

// Face f: top corner on ring F1·nside from the north pole, centre at longitude F2·π/4.
const F1 = [2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4];
const F2 = [1, 3, 5, 7, 0, 2, 4, 6, 1, 3, 5, 7];

function nestId(order: number, face: number, ix: number, iy: number): number {
  let id = 0;
  for (let b = 0; b < order; b++) id += (((ix >> b) & 1) + 2 * ((iy >> b) & 1)) * 4 ** b;
  return face * 4 ** order + id;
}

/** The same shiftmap in plain JavaScript: f64 arithmetic, no wasm. */
class PlainShiftmap {
  private readonly vertices = new Float64Array(81 * 3);
  readonly texels = new Uint16Array(SHIFTMAP_VALUES);

  run(order: number, ipix: number): Uint16Array | null {
    const nside = 2 ** order;
    const perFace = 4 ** order;
    const face = Math.floor(ipix / perFace);
    let rest = ipix - face * perFace;
    let ix = 0;
    let iy = 0;
    for (let b = 0; rest > 0; b++, rest = Math.floor(rest / 4)) {
      ix |= (rest & 1) << b;
      iy |= ((rest >> 1) & 1) << b;
    }
    const V = this.vertices;
    for (let b = 0; b <= 8; b++) {
      for (let a = 0; a <= 8; a++) {
        const ring = F1[face] * nside - ix - iy - (a + b) / 8;
        let nr: number;
        let z: number;
        let sth: number;
        if (ring < nside) {
          nr = ring;
          const t = (nr / nside) ** 2 / 3;
          z = 1 - t;
          sth = Math.sqrt(t * (2 - t));
        } else if (ring > 3 * nside) {
          nr = 4 * nside - ring;
          const t = (nr / nside) ** 2 / 3;
          z = t - 1;
          sth = Math.sqrt(t * (2 - t));
        } else {
          nr = nside;
          z = ((2 * nside - ring) * 2) / (3 * nside);
          sth = Math.sqrt((1 - z) * (1 + z));
        }
        let t = F2[face] * nr + (ix - iy) + (a - b) / 8;
        if (t < 0) t += 8 * nr;
        const phi = nr === 0 ? 0 : ((Math.PI / 4) * t) / nr;
        const k = (b * 9 + a) * 3;
        V[k] = sth * Math.cos(phi);
        V[k + 1] = sth * Math.sin(phi);
        V[k + 2] = z;
      }
    }
    let largest = 0;
    for (let j = 0; j < 64; j++) {
      const cb = j >> 3;
      const t = ((j & 7) + 0.5) / 8;
      for (let i = 0; i < 64; i++) {
        const ca = i >> 3;
        const s = ((i & 7) + 0.5) / 8;
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
        const r = Math.sqrt(x * x + y * y + z * z);
        const za = Math.abs(z) / r;
        let tt = Math.atan2(y, x) / (Math.PI / 2);
        if (tt < 0) tt += 4;
        let fx: number;
        let fy: number;
        if (za <= 2 / 3) {
          const jp = nside * (0.5 + tt - (0.75 * z) / r);
          const jm = nside * (0.5 + tt + (0.75 * z) / r);
          fx = jm - nside * Math.floor(jm / nside);
          fy = nside - (jp - nside * Math.floor(jp / nside));
        } else {
          const ntt = Math.min(3, Math.floor(tt));
          const tp = tt - ntt;
          const tmp = nside * Math.sqrt((3 * (x * x + y * y)) / (r * (r + Math.abs(z))));
          if (z > 0) {
            fx = nside - (1 - tp) * tmp;
            fy = nside - tp * tmp;
          } else {
            fx = tp * tmp;
            fy = (1 - tp) * tmp;
          }
        }
        const p = fx - ix - (i + 0.5) / 64;
        const q = fy - iy - (j + 0.5) / 64;
        largest = Math.max(largest, Math.abs(p), Math.abs(q));
        // Row i (face x) by column j (face y), as a HiPS tile image; (q, p) per texel.
        this.texels[(i * 64 + j) * 2] = encodeShift(q);
        this.texels[(i * 64 + j) * 2 + 1] = encodeShift(p);
      }
    }
    return largest > SHIFTMAP_MIN_SHIFT ? this.texels : null;
  }
}

function polarTiles(core: Core, order: number): number[] {
  const n = 2 ** order;
  const tiles: number[] = [];
  for (const face of [0, 1, 2, 3, 8, 9, 10, 11]) {
    for (const [dx, dy] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ]) {
      const ipix = face < 4 ? nestId(order, face, n - 1 - dx, n - 1 - dy) : nestId(order, face, dx, dy);
      if (computeShiftmap(core, order, ipix)) tiles.push(ipix);
    }
  }
  return tiles;
}

export function shiftmapCases(core: Core): BenchCase[] {
  const cases: BenchCase[] = [];
  for (let order = 3; order <= 10; order++) {
    const tiles = polarTiles(core, order);
    const texels = new Uint16Array(SHIFTMAP_VALUES);
    const plain = new PlainShiftmap();
    const each = (one: (ipix: number) => Uint16Array | null) => () => tiles.map((ipix) => one(ipix)?.slice() ?? null);
    cases.push({
      suite: 'shiftmap',
      input: `order ${order}: ${tiles.length} polar tiles, 64x64 RG16F`,
      units: tiles.length,
      unit: 'maps',
      ours: { name: 'ours (wasm)', run: () => tiles.map((ipix) => computeShiftmap(core, order, ipix, texels)) },
      peers: [{ name: 'plain JavaScript', run: () => tiles.map((ipix) => plain.run(order, ipix)) }],
      check(_ours, _peer, peerName) {
        // Compare map by map (the timed runs reuse one output buffer).
        const ours = each((ipix) => computeShiftmap(core, order, ipix))();
        const theirs = each((ipix) => plain.run(order, ipix))();
        ours.forEach((map, k) => {
          const other = theirs[k];
          if ((map === null) !== (other === null))
            throw new Error(`shiftmap: ${peerName} disagrees on tile ${tiles[k]}`);
          for (let v = 0; map && other && v < map.length; v++) {
            if (Math.abs(decodeShift(map[v]) - decodeShift(other[v])) > 2 * SHIFTMAP_RESOLUTION) {
              throw new Error(`shiftmap: ${peerName} differs on tile ${tiles[k]} at order ${order}, value ${v}`);
            }
          }
        });
      },
    });
  }
  return cases;
}
