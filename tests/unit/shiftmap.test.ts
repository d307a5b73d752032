// Shiftmaps (viewer-spec §4, §9: distortion map size 64, maximum shift 0.015), checked against
// an independent double-precision HEALPix written from Górski et al. 2005 (§4: the polar caps
// and the equatorial zone of the 12 base faces; bench/shiftmap-reference.ts, which is also
// the bench's plain-JavaScript peer) and against healpy (HEALPix C++), which
// gives the mesh vertices (healpy.boundaries) and the exact in-tile positions (vec2pix deep
// below the tile) without any of our code.
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  SHIFTMAP_MAX_SHIFT,
  SHIFTMAP_MIN_SHIFT,
  SHIFTMAP_RESOLUTION,
  SHIFTMAP_SIZE,
  SHIFTMAP_VALUES,
  computeShiftmap,
  decodeShift,
  decodeShiftmap,
  encodeShift,
  shiftmapOffsets,
} from '../../core/shiftmap';
import { hipsTileCoordinates } from '../../core/healpix';
import { loadCore, type Core } from '../../core/wasm';
import { faceToVec, ReferenceShiftmap } from '../../bench/shiftmap-reference';

function deinterleave(bits: bigint): [number, number] {
  let x = 0n;
  let y = 0n;
  for (let b = 0n; bits > 0n; b++, bits >>= 2n) {
    x |= (bits & 1n) << b;
    y |= ((bits >> 1n) & 1n) << b;
  }
  return [Number(x), Number(y)];
}

function tileOf(order: number, ipix: bigint): { nside: number; face: number; ix: number; iy: number } {
  const nside = 2 ** order;
  const perFace = 1n << BigInt(2 * order);
  const face = Number(ipix / perFace);
  const [ix, iy] = deinterleave(ipix % perFace);
  return { nside, face, ix, iy };
}

/** The reference map: the patch and shifts as assembly/shiftmap.ts defines them. */
function referenceShifts(order: number, ipix: bigint): Float64Array {
  const { face, ix, iy } = tileOf(order, ipix);
  const reference = new ReferenceShiftmap();
  reference.compute(order, face, ix, iy);
  return reference.shifts;
}

/** The nested id of face-coordinate pixel (ix, iy) on face f. */
function nestId(order: number, face: number, ix: number, iy: number): bigint {
  let id = 0n;
  for (let b = 0; b < order; b++) {
    id |= BigInt((ix / 2 ** b) & 1) << BigInt(2 * b);
    id |= BigInt((iy / 2 ** b) & 1) << BigInt(2 * b + 1);
  }
  return (BigInt(face) << BigInt(2 * order)) | id;
}

/** Tiles touching a pole and their neighbours, on a north and a south face. */
function polarTiles(order: number): bigint[] {
  const n = 2 ** order;
  const tiles = new Set<bigint>();
  for (const [dx, dy] of [
    [0, 0],
    [1, 0],
    [0, 1],
    [2, 3],
  ]) {
    if (dx >= n || dy >= n) continue;
    tiles.add(nestId(order, 1, n - 1 - dx, n - 1 - dy)); // north face 1: pole at (n, n)
    tiles.add(nestId(order, 10, dx, dy)); // south face 10: pole at (0, 0)
  }
  return [...tiles];
}

/** Tiles the edge of the polar caps (z = ±2/3: x + y = nside) crosses, next to a face corner. */
function capEdgeTiles(order: number): bigint[] {
  const n = 2 ** order;
  if (n < 2) return [];
  return [
    nestId(order, 0, 0, n - 1),
    nestId(order, 2, n - 1, 0),
    nestId(order, 9, 0, n - 1),
    nestId(order, 11, 1, n - 2),
  ];
}

function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0;
  for (let k = 0; k < a.length; k++) worst = Math.max(worst, Math.abs(a[k] - b[k]));
  return worst;
}

let core: Core;
beforeAll(async () => {
  core = await loadCore();
});

describe('the shiftmap of a tile matches an independent double-precision HEALPix', () => {
  it.each([0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20])('order %i: polar and random tiles, all 64 × 64 texels', (order) => {
    const tiles = polarTiles(order);
    let state = 12345 + order;
    const npix = 12n << BigInt(2 * order);
    for (let k = 0; k < 4; k++) {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      tiles.push(BigInt(Math.floor((state / 2 ** 31) * Number(npix))) % npix);
    }
    // Both sides lose digits as face coordinates grow (2^order pixels per face side): they
    // agree to about 2e-15 · 2^order (1.9e-9 at order 20).
    const tolerance = 1e-14 * 2 ** order + 1e-14;
    for (const ipix of tiles) {
      const ours = shiftmapOffsets(core, order, ipix);
      expect(ours.strays).toBe(0);
      const reference = referenceShifts(order, ipix);
      expect(maxDifference(ours.offsets, reference)).toBeLessThan(tolerance);
      expect(ours.largest).toBeCloseTo(maxDifference(reference, new Float64Array(SHIFTMAP_VALUES)), 9);
    }
  });

  it('stays exact at order 29 next to the poles (nside 2^29, ids past 2^53)', () => {
    for (const ipix of polarTiles(29)) {
      const ours = shiftmapOffsets(core, 29, ipix);
      expect(ours.strays).toBe(0);
      // The pole tiles have the same shape at every order: compare with order 10.
      const { face, ix, iy } = tileOf(29, ipix);
      const n29 = 2 ** 29;
      const n10 = 2 ** 10;
      const twin = nestId(10, face, face < 4 ? n10 - (n29 - ix) : ix, face < 4 ? n10 - (n29 - iy) : iy);
      expect(maxDifference(ours.offsets, shiftmapOffsets(core, 10, twin).offsets)).toBeLessThan(1e-6);
    }
  });

  it('puts no texel of any tile across a base-face edge, nor any shift past 0.0155 (every tile to order 4)', () => {
    const out = new Float64Array(SHIFTMAP_VALUES);
    let strays = 0;
    let largest = 0;
    for (let order = 0; order <= 4; order++) {
      for (let ipix = 0; ipix < 12 * 4 ** order; ipix++) {
        const map = shiftmapOffsets(core, order, ipix, out);
        strays += map.strays;
        largest = Math.max(largest, map.largest);
      }
    }
    for (let order = 5; order <= 24; order++) {
      for (const ipix of [...polarTiles(order), ...capEdgeTiles(order)]) {
        const map = shiftmapOffsets(core, order, ipix, out);
        strays += map.strays;
        largest = Math.max(largest, map.largest);
      }
    }
    expect(strays).toBe(0);
    expect(largest).toBeLessThan(0.0155);
  });
});

// ---- healpy ----------------------------------------------------------------------------------
// For each tile: the 81 mesh vertices are the corners of its 64 sub-pixels at order + 3
// (healpy.boundaries, step 1), checked against healpy.boundaries(step 8) of the tile itself
// (its edges); the exact in-tile position of each patch point is the sub-pixel that holds it
// `depth` orders below the tile (healpy.vec2pix), to within half that sub-pixel.
const HEALPY = String.raw`
import json, sys
import numpy as np
import healpy as hp

def interleave(a, b):
    r = 0
    for k in range(32):
        r |= ((a >> k) & 1) << (2 * k) | ((b >> k) & 1) << (2 * k + 1)
    return r

out = []
for order, ipix in json.load(sys.stdin):
    ipix = int(ipix)
    nside = 1 << order
    V = np.zeros((9, 9, 3))
    for b in range(8):
        for a in range(8):
            c = hp.boundaries(nside * 8, ipix * 64 + interleave(a, b), step=1, nest=True)
            # corners in HEALPix C++ order: (1,1), (0,1), (0,0), (1,0) of the sub-pixel
            V[b + 1, a + 1], V[b + 1, a], V[b, a], V[b, a + 1] = c[:, 0], c[:, 1], c[:, 2], c[:, 3]
    edges = hp.boundaries(nside, ipix, step=8, nest=True)
    ring = [V[8, 8 - i] for i in range(8)] + [V[8 - i, 0] for i in range(8)] + \
           [V[0, i] for i in range(8)] + [V[i, 8] for i in range(8)]
    edge_error = float(np.max(np.abs(np.array(ring).T - edges)))
    k = (np.arange(64) + 0.5) / 8
    ca, s = np.floor(k).astype(int), k - np.floor(k)
    I, J = np.meshgrid(np.arange(64), np.arange(64), indexing="ij")  # row i (u), column j (v)
    a, b, S, T = ca[I], ca[J], s[I], s[J]
    P = ((1 - S) * (1 - T))[..., None] * V[b, a] + (S * (1 - T))[..., None] * V[b, a + 1] \
        + ((1 - S) * T)[..., None] * V[b + 1, a] + (S * T)[..., None] * V[b + 1, a + 1]
    depth = min(20, 29 - order)
    sub = hp.vec2pix(nside << depth, P[..., 0].ravel(), P[..., 1].ravel(), P[..., 2].ravel(), nest=True)
    local = sub.astype(np.int64) - (ipix << (2 * depth))
    sx = np.zeros_like(local); sy = np.zeros_like(local)
    for bit in range(depth):
        sx |= ((local >> (2 * bit)) & 1) << bit
        sy |= ((local >> (2 * bit + 1)) & 1) << bit
    u = (I.ravel() + 0.5) / 64
    v = (J.ravel() + 0.5) / 64
    p = (sx + 0.5) / (1 << depth) - u
    q = (sy + 0.5) / (1 << depth) - v
    out.append({"edge_error": edge_error, "depth": depth, "shifts": np.stack([q, p], 1).ravel().tolist()})
json.dump(out, sys.stdout)
`;

describe('the shiftmap of a tile matches healpy (HEALPix C++)', () => {
  it('along the tile edges (healpy.boundaries) and at every texel (vec2pix below the tile)', () => {
    const tiles: [number, bigint][] = [];
    for (const order of [3, 4, 6, 8, 10, 14])
      for (const ipix of polarTiles(order).slice(0, 4)) tiles.push([order, ipix]);
    // a polar-face tile at the equator, an equatorial one, two crossed by a cap's edge
    tiles.push([3, 0n], [5, 5000n], [6, capEdgeTiles(6)[0]], [9, capEdgeTiles(9)[3]]);
    const input = JSON.stringify(tiles.map(([order, ipix]) => [order, ipix.toString()]));
    const results = JSON.parse(
      execFileSync('/usr/bin/python3', ['-c', HEALPY], { input, maxBuffer: 1 << 28 }).toString(),
    ) as {
      edge_error: number;
      depth: number;
      shifts: number[];
    }[];
    tiles.forEach(([order, ipix], index) => {
      const healpy = results[index];
      expect(healpy.edge_error).toBeLessThan(1e-15); // the mesh's outer vertices lie on the tile's edges
      const ours = shiftmapOffsets(core, order, ipix).offsets;
      const tolerance = 2 ** -(healpy.depth + 1) + 1e-9;
      expect(maxDifference(ours, healpy.shifts)).toBeLessThan(tolerance);
      // The edge texels (outermost rows and columns) on their own, named for the failure message.
      const edge: number[] = [];
      const edgeHealpy: number[] = [];
      for (let j = 0; j < 64; j++) {
        for (let i = 0; i < 64; i++) {
          if (i !== 0 && i !== 63 && j !== 0 && j !== 63) continue;
          edge.push(ours[(j * 64 + i) * 2], ours[(j * 64 + i) * 2 + 1]);
          edgeHealpy.push(healpy.shifts[(j * 64 + i) * 2], healpy.shifts[(j * 64 + i) * 2 + 1]);
        }
      }
      expect(maxDifference(edge, edgeHealpy), `edge texels of tile ${ipix} at order ${order}`).toBeLessThan(tolerance);
    });
  });
});

describe('only tiles that need it get a shiftmap', () => {
  it("gives null to equatorial tiles and a map to the tiles at the poles and by the caps' edges", () => {
    for (const order of [3, 5, 8, 10, 16]) {
      const n = 2 ** order;
      // Equatorial face 5, its centre and its middle row.
      for (const [ix, iy] of [
        [n / 2, n / 2],
        [0, n - 1],
        [n - 1, 0],
      ]) {
        expect(computeShiftmap(core, order, nestId(order, 5, ix, iy))).toBeNull();
      }
      for (const ipix of [...polarTiles(order).slice(0, 2), ...capEdgeTiles(order)]) {
        expect(computeShiftmap(core, order, ipix)).toBeInstanceOf(Uint16Array);
      }
    }
  });

  it(`draws the line at the largest |shift| ${SHIFTMAP_MIN_SHIFT} (half a texel of a 512-pixel tile)`, () => {
    let withMap = 0;
    for (let ipix = 0; ipix < 12 * 4 ** 3; ipix++) {
      const { largest } = shiftmapOffsets(core, 3, ipix);
      const map = computeShiftmap(core, 3, ipix);
      expect(map === null).toBe(largest <= SHIFTMAP_MIN_SHIFT);
      if (map) withMap++;
    }
    // At order 3: 15 tiles on each of the 8 polar faces, none on the equatorial ones.
    expect(withMap).toBe(120);
  });

  it('keeps every stored shift within ±0.015, the spec maximum', () => {
    let checked = 0;
    for (const order of [0, 3, 7, 11]) {
      for (const ipix of polarTiles(order)) {
        const texels = computeShiftmap(core, order, ipix);
        if (!texels) continue; // the pole tiles' neighbours at high orders need none
        checked++;
        const shifts = decodeShiftmap(texels);
        expect(Math.max(...shifts.map(Math.abs))).toBeLessThanOrEqual(SHIFTMAP_MAX_SHIFT);
        // Clamped values decode to the encoding of the clamp, anything else to itself.
        const exact = shiftmapOffsets(core, order, ipix).offsets;
        const clamped = exact.map((x) => Math.min(SHIFTMAP_MAX_SHIFT, Math.max(-SHIFTMAP_MAX_SHIFT, x)));
        expect(maxDifference(shifts, clamped)).toBeLessThanOrEqual(SHIFTMAP_RESOLUTION);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  });

  it('gives the pole tiles shifts near the spec maximum and nothing past 0.0155', () => {
    let largest = 0;
    for (let order = 0; order <= 12; order++) {
      for (const ipix of polarTiles(order)) largest = Math.max(largest, shiftmapOffsets(core, order, ipix).largest);
    }
    expect(largest).toBeGreaterThan(0.0145);
    expect(largest).toBeLessThan(0.0155);
  });

  it('rejects a tile that does not exist with a clear Error', () => {
    expect(() => computeShiftmap(core, 30, 0)).toThrow(/order must be an integer in 0 … 29/);
    expect(() => computeShiftmap(core, 3, 768)).toThrow(/pixel 768 is out of range at order 3: 0 … 767/);
    expect(() => computeShiftmap(core, 3, -1)).toThrow(RangeError);
    expect(() => computeShiftmap(core, 3, 1.5)).toThrow(/must be an integer/);
  });
});

describe('the texture encoding: RG16F, binary16 (q, p) per texel, 0 = no shift', () => {
  it('round-trips every shift within half a binary16 step', () => {
    let absolute = 0;
    let relative = 0;
    for (let k = -20000; k <= 20000; k++) {
      const x = (k / 20000) * SHIFTMAP_MAX_SHIFT * 1.0000001;
      const back = decodeShift(encodeShift(x));
      const clamped = Math.min(SHIFTMAP_MAX_SHIFT, Math.max(-SHIFTMAP_MAX_SHIFT, x));
      absolute = Math.max(absolute, Math.abs(back - clamped));
      // relatively: half an ulp of 10 fraction bits, or half a subnormal step
      relative = Math.max(relative, Math.abs(back - clamped) / Math.max(Math.abs(clamped) * 2 ** -11, 2 ** -25));
    }
    expect(absolute).toBeLessThanOrEqual(SHIFTMAP_RESOLUTION);
    expect(relative).toBeLessThanOrEqual(1);
  });

  it('encodes known binary16 values, subnormals and ties to even', () => {
    expect(encodeShift(0)).toBe(0x0000);
    expect(encodeShift(-0)).toBe(0x8000);
    expect(encodeShift(2 ** -14)).toBe(0x0400); // smallest normal
    expect(encodeShift(2 ** -24)).toBe(0x0001); // smallest subnormal
    expect(encodeShift(2 ** -25)).toBe(0x0000); // a tie: to even (0)
    expect(encodeShift(3 * 2 ** -25)).toBe(0x0002); // a tie: to even (2)
    expect(encodeShift(2 ** -7)).toBe(0x2000);
    expect(encodeShift(2 ** -7 * (1 + 2 ** -11))).toBe(0x2000); // tie, to even
    expect(encodeShift(2 ** -7 * (1 + 3 * 2 ** -11))).toBe(0x2002); // tie, to even
    expect(encodeShift(0.015)).toBe(0x23ae); // 0.01499939 (Python: np.float16(0.015).view(np.uint16))
    expect(encodeShift(1)).toBe(0x23ae); // clamped to 0.015
    expect(encodeShift(-1)).toBe(0xa3ae);
    expect(decodeShift(0x23ae)).toBe(0.0149993896484375);
    expect(decodeShift(0x0001)).toBe(2 ** -24);
    expect(decodeShift(0x7c00)).toBe(Infinity);
    expect(decodeShift(0x7e00)).toBeNaN();
  });

  it('is what the wasm kernel writes, bit for bit', () => {
    for (const [order, ipix] of [
      [3, polarTiles(3)[0]],
      [9, polarTiles(9)[1]],
      [2, 100n],
    ] as const) {
      const texels = new Uint16Array(SHIFTMAP_VALUES);
      core.shiftmapTexture(order, ipix, SHIFTMAP_MAX_SHIFT, texels);
      const exact = shiftmapOffsets(core, order, ipix).offsets;
      expect(Array.from(texels)).toEqual(Array.from(exact, encodeShift));
    }
  });

  it('is what the wasm kernel writes, bit for bit, on a seventh of the tiles at order 3 and the polar and cap-edge tiles to order 24', () => {
    // The kernel rounds by one f64 addition per value (assembly/shiftmap.ts toHalf4), encodeShift
    // by scaling: both must give the same halves, clamped, normal and subnormal alike.
    const tiles: [number, bigint][] = [];
    for (let ipix = 0n; ipix < 768n; ipix += 7n) tiles.push([3, ipix]);
    for (let order = 0; order <= 24; order++) {
      for (const ipix of [...polarTiles(order), ...capEdgeTiles(order)]) tiles.push([order, ipix]);
    }
    const texels = new Uint16Array(SHIFTMAP_VALUES);
    const offsets = new Float64Array(SHIFTMAP_VALUES);
    let mismatches = 0;
    let subnormals = 0;
    let clamped = 0;
    for (const [order, ipix] of tiles) {
      core.shiftmapTexture(order, ipix, SHIFTMAP_MAX_SHIFT, texels);
      shiftmapOffsets(core, order, ipix, offsets);
      for (let k = 0; k < SHIFTMAP_VALUES; k++) {
        if (texels[k] !== encodeShift(offsets[k])) mismatches++;
        if ((texels[k] & 0x7c00) === 0 && (texels[k] & 0x3ff) !== 0) subnormals++;
        if (Math.abs(offsets[k]) > SHIFTMAP_MAX_SHIFT) clamped++;
      }
    }
    expect(mismatches).toBe(0);
    expect(subnormals).toBeGreaterThan(1000);
    expect(clamped).toBeGreaterThan(100);
  });

  it(`is laid out as the HiPS tile image, ${SHIFTMAP_SIZE} × ${SHIFTMAP_SIZE}, (R, G) the shift in its texture coordinates`, () => {
    // A tile image's row r, column c lie at face x = r, y = c (hipsTileCoordinates: x along the
    // rows); with the map uploaded the same way, texel (row, column) sits at (s, t) = (column, row)
    // and the tile sampled at (s + R, t + G) is the texel that lies at the patch point.
    const order = 4;
    const ipix = polarTiles(order)[1];
    const texels = computeShiftmap(core, order, ipix)!;
    expect(texels.length).toBe(64 * 64 * 2);
    expect(texels.byteLength).toBe(16384);
    const { nside, face, ix, iy } = tileOf(order, ipix);
    const V = (a: number, b: number) => faceToVec(nside, face, ix, iy, a / 8, b / 8);
    for (const [row, column] of [
      [5, 60],
      [40, 2],
      [63, 63],
    ]) {
      // The patch point of that texel (cell and in-cell fraction along face x = row, y = column).
      const [a, s] = [row >> 3, ((row & 7) + 0.5) / 8];
      const [b, t] = [column >> 3, ((column & 7) + 0.5) / 8];
      const c = [V(a, b), V(a + 1, b), V(a, b + 1), V(a + 1, b + 1)];
      const w = [(1 - s) * (1 - t), s * (1 - t), (1 - s) * t, s * t];
      const [x, y, z] = [0, 1, 2].map((k) => w[0] * c[0][k] + w[1] * c[1][k] + w[2] * c[2][k] + w[3] * c[3][k]);
      const where = hipsTileCoordinates(
        core,
        order,
        Float64Array.of(Math.atan2(Math.hypot(x, y), z)),
        Float64Array.of(Math.atan2(y, x)),
      );
      expect(Number(where.tile[0])).toBe(Number(ipix));
      const R = decodeShift(texels[(row * 64 + column) * 2]);
      const G = decodeShift(texels[(row * 64 + column) * 2 + 1]);
      expect((column + 0.5) / 64 + R).toBeCloseTo(where.y[0], 5); // s: along the columns (face y)
      expect((row + 0.5) / 64 + G).toBeCloseTo(where.x[0], 5); // t: along the rows (face x)
    }
  });
});
