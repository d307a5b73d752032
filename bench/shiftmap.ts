// Shiftmaps: 64 × 64 distortion maps of polar HiPS tiles (assembly/shiftmap.ts) per second, at
// orders 3 to 10, ours (wasm, through core/shiftmap.ts, clamped and encoded as binary16)
// beside the same math in plain JavaScript (./shiftmap-reference.ts, also the tests' reference):
// the same 8 × 8-cell patch over exact HEALPix vertices (Górski et al. 2005, xyf → direction),
// the same exact in-tile positions (direction → face coordinates) and the same encoding. No npm
// package computes shiftmaps; this is the fair peer. Inputs: for each order, the tiles of the 8
// polar faces that touch a pole and their neighbours towards it, those that need a map (32 tiles).
import {
  SHIFTMAP_MIN_SHIFT,
  SHIFTMAP_RESOLUTION,
  SHIFTMAP_VALUES,
  computeShiftmap,
  decodeShift,
  encodeShift,
} from '../core/shiftmap';
import type { Core } from '../core/wasm';
import type { BenchCase } from './harness';
import { ReferenceShiftmap } from './shiftmap-reference';

function nestId(order: number, face: number, ix: number, iy: number): number {
  let id = 0;
  for (let b = 0; b < order; b++) id += (((ix >> b) & 1) + 2 * ((iy >> b) & 1)) * 4 ** b;
  return face * 4 ** order + id;
}

/** The reference shiftmap (./shiftmap-reference.ts), clamped to a map or null and encoded as ours. */
class PlainShiftmap {
  private readonly reference = new ReferenceShiftmap();
  readonly texels = new Uint16Array(SHIFTMAP_VALUES);

  run(order: number, ipix: number): Uint16Array | null {
    const perFace = 4 ** order;
    const face = Math.floor(ipix / perFace);
    let rest = ipix - face * perFace;
    let ix = 0;
    let iy = 0;
    for (let b = 0; rest > 0; b++, rest = Math.floor(rest / 4)) {
      ix |= (rest & 1) << b;
      iy |= ((rest >> 1) & 1) << b;
    }
    if (this.reference.compute(order, face, ix, iy) <= SHIFTMAP_MIN_SHIFT) return null;
    const shifts = this.reference.shifts;
    for (let k = 0; k < shifts.length; k++) this.texels[k] = encodeShift(shifts[k]);
    return this.texels;
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
