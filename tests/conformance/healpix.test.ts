// The wasm HEALPix (assembly/healpix/ through core/wasm.ts and core/healpix.ts) against
// healpy (HEALPix C++) vectors made by tests/helpers/make_healpix_references.py at every order
// 0..29: ang2pix, pix2ang, vec2pix, pix2vec, nest2ring, ring2nest, boundaries (for nest2loc) and
// query_disc exclusive and inclusive; the error messages; the HiPS helpers; and the CLI contract
// `galaxy-cruise healpix …` end to end, ids ≥ 2^53 as strings included.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Healpix,
  QUERY_DISC_RADIUS_ERROR,
  hipsTileCenters,
  hipsTileCoordinates,
  hipsTileCorners,
  hipsTilePixels,
  pixelArray,
  type PixelIds,
} from '../../core/healpix';
import { loadCore, type Core } from '../../core/wasm';
import { healpixReferences, type HealpixReferences, type OrderReferences } from '../helpers/healpix-references';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let refs: HealpixReferences;
let core: Core;

beforeAll(async () => {
  refs = healpixReferences();
  core = await loadCore();
});

const strings = (ids: ArrayLike<number | bigint>) => Array.from(ids, (id) => String(id));

function idsOf(hp: Healpix, list: string[]): PixelIds {
  return pixelArray(hp.nside, list);
}

/** Distance in units in the last place between two doubles of the same sign. */
function ulps(a: number, b: number): number {
  if (a === b) return 0;
  const view = new DataView(new ArrayBuffer(16));
  view.setFloat64(0, a);
  view.setFloat64(8, b);
  return Number(view.getBigInt64(0) - view.getBigInt64(8));
}

function vector(theta: number, phi: number): [number, number, number] {
  return [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)];
}

/** Angle between two vectors, accurate at small angles. */
function angle(a: readonly number[], b: readonly number[]): number {
  const c = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  return Math.atan2(Math.hypot(c[0], c[1], c[2]), a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
}

function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
  throw new Error('expected an error');
}

function eachOrder(run: (o: OrderReferences) => void): void {
  expect(refs.orders.map((o) => o.order)).toEqual(Array.from({ length: 30 }, (_, k) => k));
  for (const o of refs.orders) run(o);
}

describe('HEALPix against healpy at nside 1 … 2^29', () => {
  it('ang2pix gives healpy’s ring and nested ids, poles, φ = 0, φ → 2π and z = ±2/3 included', () => {
    let checked = 0;
    eachOrder((o) => {
      const theta = Float64Array.from(o.ang2pix.theta);
      const phi = Float64Array.from(o.ang2pix.phi);
      for (const scheme of ['ring', 'nest'] as const) {
        const hp = new Healpix(core, o.nside, scheme);
        const got = hp.ang2pixBatch(theta, phi);
        expect(got instanceof BigInt64Array).toBe(o.order > 24);
        expect(strings(got), `order ${o.order} ${scheme}`).toEqual(o.ang2pix[scheme]);
        // The single-point path agrees with the batch, ids past 2^53 as bigint.
        for (const i of [0, 5, theta.length - 1]) {
          expect(String(hp.ang2pix(theta[i], phi[i]))).toBe(o.ang2pix[scheme][i]);
        }
        checked += theta.length;
      }
    });
    expect(checked).toBeGreaterThan(10000);
  });

  it('pix2ang gives healpy’s centres (θ within 1 ulp: libm acos/atan2; φ exact)', () => {
    eachOrder((o) => {
      for (const scheme of ['ring', 'nest'] as const) {
        const hp = new Healpix(core, o.nside, scheme);
        const { theta, phi } = hp.pix2angBatch(idsOf(hp, o.pix.ids));
        const wantTheta = scheme === 'ring' ? o.pix.ringTheta : o.pix.nestTheta;
        const wantPhi = scheme === 'ring' ? o.pix.ringPhi : o.pix.nestPhi;
        for (let i = 0; i < theta.length; i++) {
          expect(
            Math.abs(ulps(theta[i], wantTheta[i])),
            `order ${o.order} ${scheme} ${o.pix.ids[i]}`,
          ).toBeLessThanOrEqual(1);
          expect(phi[i]).toBe(wantPhi[i]);
        }
        const [t, p] = hp.pix2ang(o.pix.ids[3]);
        expect(Math.abs(ulps(t, wantTheta[3]))).toBeLessThanOrEqual(1);
        expect(p).toBe(wantPhi[3]);
      }
    });
  });

  it('pix2vec and vec2pix agree with healpy', () => {
    eachOrder((o) => {
      for (const scheme of ['ring', 'nest'] as const) {
        const hp = new Healpix(core, o.nside, scheme);
        const xyz = hp.pix2vecBatch(idsOf(hp, o.pix.ids));
        const want = scheme === 'ring' ? o.pix.ringVec : o.pix.nestVec;
        for (let i = 0; i < xyz.length; i++) expect(Math.abs(xyz[i] - want[i])).toBeLessThanOrEqual(2.3e-16);
        expect(strings(hp.vec2pixBatch(Float64Array.from(o.vec2pix.xyz))), `order ${o.order} ${scheme}`).toEqual(
          o.vec2pix[scheme],
        );
        const v = o.vec2pix.xyz.slice(21, 24) as [number, number, number];
        expect(String(hp.vec2pix(v))).toBe(o.vec2pix[scheme][7]);
        expect(hp.pix2vec(o.pix.ids[0]).map((c, k) => Math.abs(c - want[k]) <= 2.3e-16)).toEqual([true, true, true]);
      }
    });
  });

  it('nest2ring and ring2nest give healpy’s ids and invert each other', () => {
    eachOrder((o) => {
      const hp = new Healpix(core, o.nside, 'nest');
      const ids = idsOf(hp, o.pix.ids);
      expect(strings(hp.nest2ringBatch(ids))).toEqual(o.pix.nest2ring);
      expect(strings(hp.ring2nestBatch(ids))).toEqual(o.pix.ring2nest);
      expect(strings(hp.ring2nestBatch(hp.nest2ringBatch(ids)))).toEqual(o.pix.ids);
      expect(String(hp.nest2ring(o.pix.ids[9]))).toBe(o.pix.nest2ring[9]);
      expect(String(hp.ring2nest(o.pix.ids[9]))).toBe(o.pix.ring2nest[9]);
    });
  });

  it('nest2loc lands on healpy.boundaries’ in-pixel points (within 1e-15 rad)', () => {
    let worst = 0;
    eachOrder((o) => {
      const hp = new Healpix(core, o.nside, 'nest');
      const step = o.boundaries.step;
      o.boundaries.ids.forEach((id, k) => {
        // healpy's order: north → west edge, west → south, south → east, east → north.
        const xyz = o.boundaries.xyz[k];
        for (let i = 0; i < step; i++) {
          const points = [
            [1 - i / step, 1],
            [0, 1 - i / step],
            [i / step, 0],
            [1, i / step],
          ];
          points.forEach(([dx, dy], edge) => {
            const [theta, phi] = hp.nest2loc(id, dx, dy);
            const j = 3 * (i + edge * step);
            const distance = angle(vector(theta, phi), xyz.slice(j, j + 3));
            worst = Math.max(worst, distance);
            expect(distance, `order ${o.order} pixel ${id} (${dx}, ${dy})`).toBeLessThan(1e-15);
          });
        }
      });
    });
    expect(worst).toBeGreaterThanOrEqual(0);
  });

  it('query_disc gives healpy’s pixels, exclusive and inclusive at several fact, both schemes', () => {
    let inclusive = 0;
    let nest = 0;
    let total = 0;
    eachOrder((o) => {
      for (const q of o.query_disc) {
        const hp = new Healpix(core, o.nside, q.nest ? 'nest' : 'ring');
        const options = { inclusive: q.inclusive, fact: q.inclusive ? q.fact : undefined };
        const ranges = hp.queryDiscRanges(q.theta, q.phi, q.radius, options);
        expect(strings(ranges), `order ${o.order} ${JSON.stringify({ ...q, ranges: undefined })}`).toEqual(
          q.ranges.flat(),
        );
        if (q.count < 100000) {
          const pixels = hp.queryDisc(q.theta, q.phi, q.radius, options);
          expect(pixels.length).toBe(q.count);
          const list = strings(pixels);
          if (q.count > 0) {
            expect(list[0]).toBe(q.ranges[0][0]);
            expect(BigInt(list[q.count - 1])).toBe(BigInt(q.ranges[q.ranges.length - 1][1]) - 1n);
          }
        }
        total++;
        if (q.inclusive) inclusive++;
        if (q.nest) nest++;
      }
    });
    expect(total).toBeGreaterThan(5000);
    expect(inclusive).toBeGreaterThan(3000);
    expect(nest).toBeGreaterThan(2000);
    // The facts exercised: 1, 2, 3 (ring only), 4 and 8.
    const facts = new Set(refs.orders.flatMap((o) => o.query_disc.filter((q) => q.inclusive).map((q) => q.fact)));
    expect([...facts].sort()).toEqual([1, 2, 3, 4, 8]);
  });
});

describe('HEALPix batches and round trips', () => {
  const random = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };

  it('maps every pixel centre back to its pixel, across chunk boundaries, at every order', () => {
    const next = random(7);
    for (let order = 0; order <= 29; order += order < 20 ? 5 : 3) {
      const nside = 2 ** order;
      for (const scheme of ['ring', 'nest'] as const) {
        const hp = new Healpix(core, nside, scheme);
        const n = 70001;
        const theta = Float64Array.from({ length: n }, () => Math.acos(2 * next() - 1));
        const phi = Float64Array.from({ length: n }, () => 2 * Math.PI * next());
        const ids = hp.ang2pixBatch(theta, phi);
        const centres = hp.pix2angBatch(ids);
        expect(strings(hp.ang2pixBatch(centres.theta, centres.phi))).toEqual(strings(ids));
        const again = hp.vec2pixBatch(hp.pix2vecBatch(ids));
        expect(strings(again)).toEqual(strings(ids));
      }
    }
  });

  it('ang2xyf inverts nest2loc and gives the nested pixel as floor(x), floor(y)', () => {
    eachOrder((o) => {
      const hp = new Healpix(core, o.nside, 'nest');
      const theta = Float64Array.from(o.ang2pix.theta);
      const phi = Float64Array.from(o.ang2pix.phi);
      const { face, x, y } = hp.ang2xyfBatch(theta, phi);
      for (let i = 0; i < theta.length; i++) {
        const ix = Math.floor(x[i]);
        const iy = Math.floor(y[i]);
        expect(ix).toBeGreaterThanOrEqual(0);
        expect(iy).toBeLessThan(o.nside);
        // The nested id from (face, ix, iy): bits of ix even, of iy odd.
        let id = BigInt(face[i]) * BigInt(o.nside) ** 2n;
        for (let bit = 0; bit < 30; bit++) {
          id += BigInt((Math.floor(ix / 2 ** bit) & 1) + 2 * (Math.floor(iy / 2 ** bit) & 1)) * 4n ** BigInt(bit);
        }
        expect(String(id), `order ${o.order} point ${i}`).toBe(o.ang2pix.nest[i]);
        const [t, p] = hp.nest2loc(id, x[i] - ix, y[i] - iy);
        const pixel = Math.sqrt(Math.PI / 3) / o.nside;
        expect(angle(vector(t, p), vector(theta[i], phi[i]))).toBeLessThan(1e-6 * pixel + 2e-15);
      }
      const single = hp.ang2xyf(theta[40], phi[40]);
      expect(single).toEqual({ face: face[40], x: x[40], y: y[40] });
    });
  });

  it('keeps ids past 2^53 exact as BigInt and accepts them as strings', () => {
    const hp = new Healpix(core, 2 ** 29, 'ring');
    expect(hp.wide).toBe(true);
    expect(hp.npix).toBe(12n * 4n ** 29n);
    const last = hp.npix - 1n;
    expect(hp.ang2pix(Math.PI, 0)).toBe(last - 3n);
    expect(typeof hp.ang2pix(0, 0)).toBe('number');
    // The south pole's last ring pixel is nested pixel (face 11, ix = iy = 0).
    expect(hp.nest2ring(String(11n * 4n ** 29n))).toBe(last);
    expect(hp.ring2nest(last)).toBe(11n * 4n ** 29n);
    expect(errorOf(() => hp.pix2ang(hp.npix)).message).toMatch(/pixel id must be in \[0, 3458764513820540928\)/);
    expect(errorOf(() => new Healpix(core, 2 ** 24, 'nest').pix2ang(2 ** 53)).message).toMatch(/pixel id/);
  });
});

describe('HEALPix errors', () => {
  it('rejects a disc radius of π/2 or more with the viewer’s message', () => {
    for (const scheme of ['ring', 'nest'] as const) {
      const hp = new Healpix(core, 16, scheme);
      for (const radius of [Math.PI / 2, 2, Math.PI, NaN]) {
        expect(errorOf(() => hp.queryDisc(1, 1, radius)).message).toBe('query_disc: radius must < PI/2');
        expect(errorOf(() => hp.queryDiscRanges(1, 1, radius, { inclusive: true })).message).toBe(
          QUERY_DISC_RADIUS_ERROR,
        );
      }
      // Just below π/2 is allowed, and the wasm kernel itself rejects π/2 with the same message.
      expect(hp.queryDisc(1, 1, Math.PI / 2 - 1e-9).length).toBeGreaterThan(1000);
      expect(errorOf(() => core.healpixQueryDiscRanges(16, false, 1, 1, Math.PI / 2, 0)).message).toBe(
        QUERY_DISC_RADIUS_ERROR,
      );
    }
  });

  it('rejects bad nside, ids, angles, vectors and oversampling factors with clear messages', () => {
    for (const nside of [0, 3, 2 ** 30, 1.5, -2]) {
      expect(errorOf(() => new Healpix(core, nside)).message).toBe(
        `nside must be a power of two from 1 to 2^29, got ${nside}`,
      );
    }
    const hp = new Healpix(core, 4, 'nest');
    expect(errorOf(() => hp.pix2ang(192)).message).toBe('pixel id must be in [0, 192) for nside 4, got 192');
    expect(errorOf(() => hp.pix2ang(-1)).message).toMatch(/non-negative integer|pixel id must be/);
    expect(errorOf(() => hp.pix2angBatch(Float64Array.of(1, 2.5))).message).toBe(
      'pix2ang: pixel id must be an integer in [0, 12·nside²) for nside 4, got 2.5',
    );
    expect(errorOf(() => hp.ang2pix(-0.1, 0)).message).toBe(
      'ang2pix: theta must be in [0, π] and phi finite, got theta -0.1, phi 0',
    );
    expect(errorOf(() => hp.ang2pixBatch(Float64Array.of(1, 1), Float64Array.of(0, Infinity))).message).toMatch(
      /phi Infinity/,
    );
    expect(errorOf(() => hp.vec2pix([0, 0, 0])).message).toBe(
      'vec2pix: vector must be finite and non-zero, got (0, 0, 0)',
    );
    expect(errorOf(() => hp.queryDisc(1, 1, 0.1, { inclusive: true, fact: 3 })).message).toMatch(
      /fact must be .* power of two in the nested scheme\), got 3/,
    );
    expect(new Healpix(core, 4, 'ring').queryDisc(1, 1, 0.1, { inclusive: true, fact: 3 }).length).toBeGreaterThan(0);
    expect(
      errorOf(() => new Healpix(core, 2 ** 28).queryDisc(1, 1, 1e-8, { inclusive: true, fact: 4 })).message,
    ).toMatch(/fact must be an integer from 1 to 2\^29\/nside/);
    expect(errorOf(() => hp.queryDisc(1, 1, -0.1)).message).toBe('query_disc: radius must be ≥ 0, got -0.1');
  });
});

describe('HiPS tile helpers', () => {
  it('gives a tile’s corners as nest2loc of its corners (N, W, S, E) and its texels in Hipsgen order', () => {
    const hp = new Healpix(core, 8, 'nest');
    const corners = hipsTileCorners(core, 3, 300);
    expect(corners).toEqual([
      hp.nest2loc(300, 1, 1),
      hp.nest2loc(300, 0, 1),
      hp.nest2loc(300, 0, 0),
      hp.nest2loc(300, 1, 0),
    ]);
    // Texel (row, column) of a w-wide tile is nested pixel (ix0·w + row, iy0·w + column).
    const ids = hipsTilePixels(3, 300, 4);
    expect(ids[0]).toBe(300 * 16);
    expect(ids[1]).toBe(300 * 16 + 2); // column → y → odd bits
    expect(ids[4]).toBe(300 * 16 + 1); // row → x → even bits
    expect(ids[15]).toBe(300 * 16 + 15);
    const { theta, phi } = hipsTileCenters(core, 3, 300, 4);
    const fine = new Healpix(core, 32, 'nest');
    expect(fine.pix2ang(ids[6])).toEqual([theta[6], phi[6]]);
    // At order 29 the tile ids pass 2^53: the tile is ang2pix's nested pixel, exactly.
    const o = refs.orders[29];
    const deep = hipsTileCoordinates(core, 29, Float64Array.from(o.ang2pix.theta), Float64Array.from(o.ang2pix.phi));
    expect(deep.tile).toBeInstanceOf(BigInt64Array);
    expect(strings(deep.tile)).toEqual(o.ang2pix.nest);
    const back = hipsTileCoordinates(core, 3, theta, phi);
    for (let k = 0; k < 16; k++) {
      expect(back.tile[k]).toBe(300);
      expect(back.x[k]).toBeCloseTo((Math.floor(k / 4) + 0.5) / 4, 9);
      expect(back.y[k]).toBeCloseTo(((k % 4) + 0.5) / 4, 9);
    }
  });
});

// Each run starts Node and tsx: allow for a loaded machine.
describe('galaxy-cruise healpix (CLI contract)', () => {
  const cli = (args: string[], input: string) =>
    spawnSync(process.execPath, [path.join(root, 'bin/galaxy-cruise.mjs'), 'healpix', ...args], {
      input,
      encoding: 'utf8',
    });

  it('ang2pix and pix2ang print healpy’s ids and centres, ids ≥ 2^53 as strings', () => {
    const o = refs.orders[29];
    const pairs = o.ang2pix.theta.slice(0, 30).map((t, i) => [t, o.ang2pix.phi[i]]);
    for (const scheme of ['ring', 'nest'] as const) {
      const run = cli(['ang2pix', '--nside', String(2 ** 29), '--scheme', scheme], JSON.stringify(pairs));
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const out = JSON.parse(run.stdout) as (number | string)[];
      out.forEach((id, i) => {
        expect(String(id)).toBe(o.ang2pix[scheme][i]);
        expect(typeof id).toBe(BigInt(String(id)) >= 2n ** 53n ? 'string' : 'number');
      });
      expect(out.some((id) => typeof id === 'string')).toBe(true);
      // The north pole's ring pixel is 0; in the nested scheme it is near 2^58.
      expect(out.some((id) => typeof id === 'number')).toBe(scheme === 'ring');
    }
    const ids = o.pix.ids.slice(0, 20).map((id) => (BigInt(id) < 2n ** 53n ? Number(id) : id));
    const run = cli(['pix2ang', '--nside', String(2 ** 29)], JSON.stringify(ids));
    expect(run.status).toBe(0);
    const angles = JSON.parse(run.stdout) as [number, number][];
    angles.forEach(([t, p], i) => {
      expect(Math.abs(ulps(t, o.pix.ringTheta[i]))).toBeLessThanOrEqual(1);
      expect(p).toBe(o.pix.ringPhi[i]);
    });
  });

  it('nest2ring, ring2nest and query_disc (sorted; inclusive with fact)', () => {
    const o = refs.orders[27];
    const run = cli(['nest2ring', '--nside', String(2 ** 27)], JSON.stringify(o.pix.ids.slice(0, 25)));
    expect(run.status).toBe(0);
    expect((JSON.parse(run.stdout) as unknown[]).map(String)).toEqual(o.pix.nest2ring.slice(0, 25));
    const back = cli(['ring2nest', '--nside', String(2 ** 27)], JSON.stringify(o.pix.ids.slice(0, 25)));
    expect((JSON.parse(back.stdout) as unknown[]).map(String)).toEqual(o.pix.ring2nest.slice(0, 25));
    const cases = refs.orders[6].query_disc.filter((q) => !q.nest && q.count > 3);
    for (const q of [cases.find((c) => !c.inclusive)!, cases.find((c) => c.inclusive && c.fact === 2)!]) {
      const args = ['query_disc', '--nside', '64', ...(q.inclusive ? ['--inclusive', '--fact', String(q.fact)] : [])];
      const disc = cli(args, JSON.stringify({ theta: q.theta, phi: q.phi, radius: q.radius }));
      expect(disc.status).toBe(0);
      const expected = q.ranges.flatMap(([lo, hi]) =>
        Array.from({ length: Number(hi) - Number(lo) }, (_, k) => Number(lo) + k),
      );
      expect(JSON.parse(disc.stdout)).toEqual(expected);
    }
  });

  it('errors exit 1 with the message on stderr; bad usage exits 2', () => {
    const disc = cli(['query_disc', '--nside', '64'], '{"theta": 1, "phi": 1, "radius": 1.6}');
    expect(disc.status).toBe(1);
    expect(disc.stderr).toContain('query_disc: radius must < PI/2');
    const bad = cli(['pix2ang', '--nside', '1'], '[12]');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('pixel id must be in [0, 12) for nside 1, got 12');
    const unsafe = cli(['nest2ring', '--nside', String(2 ** 29)], '[9007199254740993]');
    expect(unsafe.status).toBe(1);
    expect(unsafe.stderr).toContain('decimal string');
    const theta = cli(['ang2pix', '--nside', '4'], '[[4, 0]]');
    expect(theta.status).toBe(1);
    expect(theta.stderr).toContain('theta must be in [0, π]');
    for (const args of [
      ['ang2pix'],
      ['ang2pix', '--nside', '3'],
      ['spin', '--nside', '4'],
      ['query_disc', '--nside', '4', '--fact', '2'],
    ]) {
      const run = cli(args, '[]');
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toContain('Usage: galaxy-cruise healpix');
    }
  });
});
