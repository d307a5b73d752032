// HEALPix (assembly/healpix/; the API with its checks is core/healpix.ts). Batches run
// through the door's chunk loop: each chunk is copied in, done by one wasm call and copied out,
// so that scratch stays small and in cache. Pixel ids are f64 (exact below 2^53, the JavaScript
// number path) or i64 (BigInt64Array) in wasm memory alike; the kernels convert. A kernel
// returns -1, or the index of the first bad element with healpixError() set; the elements
// before it are done. query_disc writes ranges and says how many it needed when the output was
// too small, so it is called again with room for them.

import type { CoreMemory } from '../core-memory';

/** Pixel ids: exact JavaScript numbers below 2^53, BigInt64Array beyond. */
export type PixelIds = Float64Array | BigInt64Array;

/** The message for a disc radius of π/2 or more (from the original viewer's HEALPix). */
export const QUERY_DISC_RADIUS_ERROR = 'query_disc: radius must < PI/2';

const HEALPIX_CHUNK = 32768; // points per wasm call: at most 5 arrays of 256 KiB

export function healpixKernels(memory: CoreMemory) {
  const { exports } = memory;
  const flag = (value: boolean) => (value ? 1 : 0);
  const badNside = memory.errorCode('HP_BAD_NSIDE');
  const badTheta = memory.errorCode('HP_BAD_THETA');
  const badPix = memory.errorCode('HP_BAD_PIX');
  const badVector = memory.errorCode('HP_BAD_VECTOR');
  const badRadius = memory.errorCode('HP_BAD_RADIUS');
  const badFact = memory.errorCode('HP_BAD_FACT');
  const outputFull = memory.errorCode('HP_OUTPUT_FULL');

  function failure(what: string, nside: number, detail: () => string): Error {
    const code = exports.healpixError();
    switch (code) {
      case badNside:
        return new Error(`${what}: nside must be a power of two from 1 to 2^29, got ${nside}`);
      case badTheta:
        return new Error(`${what}: theta must be in [0, π] and phi finite, got ${detail()}`);
      case badPix:
        return new Error(`${what}: pixel id must be an integer in [0, 12·nside²) for nside ${nside}, got ${detail()}`);
      case badVector:
        return new Error(`${what}: vector must be finite and non-zero, got ${detail()}`);
      case badRadius:
        return new Error(QUERY_DISC_RADIUS_ERROR);
      case badFact:
        return new Error(
          `${what}: fact must be an integer from 1 to 2^29/nside (a power of two in the nested scheme), got ${detail()}`,
        );
      default:
        return new Error(`${what}: internal error ${code}`);
    }
  }

  function sizes(what: string, n: number, ...arrays: ArrayLike<unknown>[]): void {
    for (const array of arrays) {
      if (array.length < n) throw new Error(`${what}: an array holds ${array.length} values, ${n} needed`);
    }
  }

  /** Throws the failure of a kernel that returned `bad` ≥ 0 (the chunk's first bad element). */
  function check(bad: number, what: string, nside: number, detail: (index: number) => string): void {
    if (bad >= 0) throw failure(what, nside, () => detail(bad));
  }

  function queryDiscRanges(
    nside: number,
    nest: boolean,
    theta: number,
    phi: number,
    radius: number,
    fact: number,
  ): { at: number; count: number } {
    let capacity = 256;
    for (;;) {
      const at = memory.scratch(capacity * 16);
      const count = exports.hpQueryDisc(BigInt(nside), flag(nest), theta, phi, radius, fact, at, capacity);
      if (count >= 0) return { at, count };
      if (-count !== outputFull) {
        throw failure('query_disc', nside, () => (-count === badFact ? String(fact) : `theta ${theta}, phi ${phi}`));
      }
      capacity = exports.hpNeeded();
    }
  }

  return {
    /** ang2pix: (theta[i], phi[i]) radians → out[i]. */
    healpixAng2pix(nside: number, nest: boolean, theta: Float64Array, phi: Float64Array, out: PixelIds): void {
      const n = theta.length;
      sizes('ang2pix', n, phi, out);
      const f64ids = flag(!(out instanceof BigInt64Array));
      const big = BigInt(nside);
      memory.chunks(n, HEALPIX_CHUNK, [{ array: theta }, { array: phi }], [{ array: out }], ([t, p, o], m, done) =>
        check(exports.hpAng2pix(big, flag(nest), t, p, o, m, f64ids), 'ang2pix', nside, (bad) => {
          return `theta ${theta[done + bad]}, phi ${phi[done + bad]}`;
        }),
      );
    },

    /** pix2ang: pix[i] → pixel centre (theta[i], phi[i]). */
    healpixPix2ang(nside: number, nest: boolean, pix: PixelIds, theta: Float64Array, phi: Float64Array): void {
      const n = pix.length;
      sizes('pix2ang', n, theta, phi);
      const f64ids = flag(!(pix instanceof BigInt64Array));
      const big = BigInt(nside);
      memory.chunks(n, HEALPIX_CHUNK, [{ array: pix }], [{ array: theta }, { array: phi }], ([i, t, p], m, done) =>
        check(exports.hpPix2ang(big, flag(nest), i, f64ids, t, p, m), 'pix2ang', nside, (bad) => {
          return String(pix[done + bad]);
        }),
      );
    },

    /** vec2pix: vectors (x, y, z interleaved, any non-zero length) → out[i]. */
    healpixVec2pix(nside: number, nest: boolean, xyz: Float64Array, out: PixelIds): void {
      const n = Math.floor(xyz.length / 3);
      sizes('vec2pix', n, out);
      const f64ids = flag(!(out instanceof BigInt64Array));
      const big = BigInt(nside);
      memory.chunks(n, HEALPIX_CHUNK, [{ array: xyz, per: 3 }], [{ array: out }], ([v, o], m, done) =>
        check(exports.hpVec2pix(big, flag(nest), v, o, m, f64ids), 'vec2pix', nside, (bad) => {
          const k = 3 * (done + bad);
          return `(${xyz[k]}, ${xyz[k + 1]}, ${xyz[k + 2]})`;
        }),
      );
    },

    /** pix2vec: pix[i] → unit vector of the centre (x, y, z interleaved). */
    healpixPix2vec(nside: number, nest: boolean, pix: PixelIds, xyz: Float64Array): void {
      const n = pix.length;
      sizes('pix2vec', 3 * n, xyz);
      const f64ids = flag(!(pix instanceof BigInt64Array));
      const big = BigInt(nside);
      memory.chunks(n, HEALPIX_CHUNK, [{ array: pix }], [{ array: xyz, per: 3 }], ([i, v], m, done) =>
        check(exports.hpPix2vec(big, flag(nest), i, f64ids, v, m), 'pix2vec', nside, (bad) => {
          return String(pix[done + bad]);
        }),
      );
    },

    /** nest2ring (toRing) or ring2nest: pix[i] → out[i] (out may be pix). */
    healpixConvert(nside: number, toRing: boolean, pix: PixelIds, out: PixelIds): void {
      const n = pix.length;
      const what = toRing ? 'nest2ring' : 'ring2nest';
      sizes(what, n, out);
      if (pix instanceof BigInt64Array !== out instanceof BigInt64Array) {
        throw new Error(`${what}: ids in and out must both be Float64Array or both BigInt64Array`);
      }
      const f64ids = flag(!(pix instanceof BigInt64Array));
      const big = BigInt(nside);
      memory.chunks(n, HEALPIX_CHUNK, [{ array: pix }], [{ array: out }], ([i, o], m, done) =>
        check(exports.hpConvert(big, flag(toRing), i, f64ids, o, m), what, nside, (bad) => String(pix[done + bad])),
      );
    },

    /** nest2loc: the point at (dx[i], dy[i]) ∈ [0,1]² inside nested pixel pix[i] → (theta[i], phi[i]). */
    healpixNest2loc(
      nside: number,
      pix: PixelIds,
      dx: Float64Array,
      dy: Float64Array,
      theta: Float64Array,
      phi: Float64Array,
    ): void {
      const n = pix.length;
      sizes('nest2loc', n, dx, dy, theta, phi);
      const f64ids = flag(!(pix instanceof BigInt64Array));
      const big = BigInt(nside);
      const inputs = [{ array: pix }, { array: dx }, { array: dy }];
      memory.chunks(n, HEALPIX_CHUNK, inputs, [{ array: theta }, { array: phi }], ([i, x, y, t, p], m, done) =>
        check(exports.hpNest2loc(big, i, f64ids, x, y, t, p, m), 'nest2loc', nside, (bad) => String(pix[done + bad])),
      );
    },

    /** ang2xyf: (theta[i], phi[i]) → base face[i] and real face coordinates x[i], y[i] (pixel units). */
    healpixAng2xyf(
      nside: number,
      theta: Float64Array,
      phi: Float64Array,
      face: Int32Array,
      x: Float64Array,
      y: Float64Array,
    ): void {
      const n = theta.length;
      sizes('ang2xyf', n, phi, face, x, y);
      const big = BigInt(nside);
      const outputs = [{ array: face }, { array: x }, { array: y }];
      memory.chunks(n, HEALPIX_CHUNK, [{ array: theta }, { array: phi }], outputs, ([t, p, f, ox, oy], m, done) =>
        check(exports.hpAng2xyf(big, t, p, f, ox, oy, m), 'ang2xyf', nside, (bad) => {
          return `theta ${theta[done + bad]}, phi ${phi[done + bad]}`;
        }),
      );
    },

    /** query_disc as sorted half-open ranges [lo, hi) (pairs); fact 0 = exclusive, ≥ 1 = inclusive. */
    healpixQueryDiscRanges(
      nside: number,
      nest: boolean,
      theta: number,
      phi: number,
      radius: number,
      fact: number,
    ): BigInt64Array {
      const { at, count } = queryDiscRanges(nside, nest, theta, phi, radius, fact);
      const ranges = new BigInt64Array(count * 2);
      memory.read(at, ranges, count * 2);
      return ranges;
    },

    /** query_disc as a sorted list of ids: Float64Array when `wide` is false, else BigInt64Array. */
    healpixQueryDiscPixels(
      nside: number,
      nest: boolean,
      theta: number,
      phi: number,
      radius: number,
      fact: number,
      wide: boolean,
    ): PixelIds {
      const { count } = queryDiscRanges(nside, nest, theta, phi, radius, fact);
      const total = exports.hpTotal();
      if (total > 2 ** 27) {
        throw new Error(`query_disc: ${total} pixels are too many for a list; ask for ranges instead`);
      }
      // The ranges stay at the start of scratch; the ids go after them.
      const start = memory.scratch(count * 16 + total * 8);
      const out = start + count * 16;
      exports.hpExpandRanges(start, count, out, flag(!wide));
      const ids = wide ? new BigInt64Array(total) : new Float64Array(total);
      memory.read(out, ids, total);
      return ids;
    },

    /** Largest angle between a pixel centre and its corners (HEALPix C++ max_pixrad). */
    healpixMaxPixrad(nside: number): number {
      return exports.hpMaxPixrad(BigInt(nside));
    },
  };
}
