// HiPS tile distortion maps (assembly/shiftmap.ts; the API is core/shiftmap.ts). One map is
// 64 × 64 (q, p) pairs: 64 KiB of f64 shifts, or 16 KiB of binary16 texels that the kernel
// encodes in the same pass (no f64 map in between). Order and pixel are checked by
// core/shiftmap.ts; a −1 from the kernel is a bad call.

import type { CoreMemory } from '../core-memory';

const SHIFTMAP_VALUES = 64 * 64 * 2;

export function shiftmapKernels(memory: CoreMemory) {
  const { exports } = memory;
  function check(order: number, ipix: bigint, largest: number): number {
    if (largest < 0) throw new RangeError(`no HEALPix tile ${ipix} at order ${order}`);
    return largest;
  }
  function room(out: ArrayLike<number>): void {
    if (out.length < SHIFTMAP_VALUES) throw new Error(`output holds ${out.length} values, ${SHIFTMAP_VALUES} needed`);
  }
  return {
    /** The 64 × 64 (q, p) shifts of nested tile `ipix` at `order`, unclamped f64, into `out` (8192 values). */
    shiftmapOffsets(order: number, ipix: bigint, out: Float64Array): { largest: number; strays: number } {
      room(out);
      const offsets = memory.scratch(SHIFTMAP_VALUES * 8);
      const largest = check(order, ipix, exports.shiftmapOffsets(order, ipix, offsets, 0, 0));
      memory.read(offsets, out, SHIFTMAP_VALUES);
      return { largest, strays: exports.shiftmapStrays() };
    },

    /** The same shifts clamped to ±maxShift as binary16 into `out` (8192 u16); returns the largest |shift| before clamping. */
    shiftmapTexture(order: number, ipix: bigint, maxShift: number, out: Uint16Array): number {
      room(out);
      const texels = memory.scratch(SHIFTMAP_VALUES * 2);
      const largest = check(order, ipix, exports.shiftmapOffsets(order, ipix, 0, texels, maxShift));
      memory.read(texels, out, SHIFTMAP_VALUES);
      return largest;
    },
  };
}
