// The 120-ring sky map (assembly/rings.ts; the API is core/rings.ts). Ids go in as f64
// (offset-encoded ids pass 2^32 but stay below 2^53), centres come out as interleaved
// (ra, dec) f64 pairs, in chunks so that scratch stays small.

import type { CoreMemory } from '../core-memory';

const RINGS_CHUNK = 8192; // entries per wasm call: 64 KiB of ids in, 128 KiB of angles out

export function ringsKernels(memory: CoreMemory) {
  const { exports } = memory;
  return {
    /** Indices in the rings sky map (both polar caps included), and n(i) for rings 0 … 119. */
    ringsLayout(): { total: number; tractsPerRing: Int32Array } {
      const tractsPerRing = new Int32Array(120);
      for (let ring = 0; ring < tractsPerRing.length; ring++) tractsPerRing[ring] = exports.ringsTractsInRing(ring);
      return { total: exports.ringsTractTotal(), tractsPerRing };
    },

    /** Tract centres (ra, dec pairs, radians) of `ids` into `out`; NaN pairs for bad ids, counted in the result. */
    ringsIndexToAngle(ids: Float64Array, out: Float64Array): number {
      if (out.length < ids.length * 2) throw new Error(`output holds ${out.length} values, ${ids.length * 2} needed`);
      let invalid = 0;
      memory.chunks(ids.length, RINGS_CHUNK, [{ array: ids }], [{ array: out, per: 2 }], ([i, o], n) => {
        invalid += exports.ringsIndexToAngle(i, n, o);
      });
      return invalid;
    },

    /** Tract indices of (ra, dec) pairs into `out`; −1 for a pair that is not a direction, counted in the result. */
    ringsAngleToIndex(angles: Float64Array, out: Int32Array): number {
      const count = angles.length >> 1;
      if (out.length < count) throw new Error(`output holds ${out.length} values, ${count} needed`);
      let invalid = 0;
      memory.chunks(count, RINGS_CHUNK, [{ array: angles, per: 2 }], [{ array: out }], ([a, o], n) => {
        invalid += exports.ringsAngleToIndex(a, n, o);
      });
      return invalid;
    },
  };
}
