// FITS pixels (big-endian BITPIX 8/16/32/-32/-64) to physical values, BZERO + BSCALE·raw, over
// the wasm decoder (assembly/fits.ts). The header is read by core/fits.ts; this file only
// moves the data unit through the decoder, chunk by chunk.

import type { CoreMemory } from '../core-memory';

/** Where the FITS data of one HDU lies in `bytes` and how to scale it (see core/fits.ts). */
export interface FitsPixelLayout {
  /** Byte offset of the first pixel. */
  offset: number;
  /** Number of pixels. */
  count: number;
  bitpix: 8 | 16 | 32 | -32 | -64;
  bzero: number;
  bscale: number;
  /** BLANK (integer data only); raw values equal to it become NaN. */
  blank?: number;
}

/** Pixels per wasm call of decodeFitsPixels: at most 128 KiB in and 128 KiB out. */
export const FITS_CHUNK = 16384;
// Where FITS chunks start within a 4 KiB page. TypedArray.set is glibc's memmove, which copies
// these sizes with `rep movsb`; on an AMD Zen 3 that runs several times slower when the
// destination lies 1 to 31 bytes past the source modulo 4096, a 4K aliasing stall. Large
// ArrayBuffers are mmap'ed at 16 mod 4096 (glibc's chunk header) and FITS data starts a
// multiple of 64 bytes into a file (2880 = 45 × 64), so chunks at 2048 mod 4096 keep both
// copies clear of the window; a chunk at a page start is the worst place.
const FITS_CHUNK_PAGE_OFFSET = 2048;
// Spare bytes past the chunks, as every region the core writes gets.
const SLACK = 64;

export function fitsKernels(memory: CoreMemory) {
  const { exports } = memory;
  // (BZERO, BSCALE) pairs for which the f32 loop of BITPIX 16 is proved exact, or not.
  const singleExact = new Map<string, boolean>();
  function singleIsExact(bzero: number, bscale: number): boolean {
    const key = `${bzero}/${bscale}`;
    let exact = singleExact.get(key);
    if (exact === undefined) {
      if (singleExact.size > 64) singleExact.clear();
      exact = exports.fitsSingleIsExact(bzero, bscale) !== 0;
      singleExact.set(key, exact);
    }
    return exact;
  }

  /**
   * Where decodeFitsPixels reads and writes, chunk by chunk. Chunks stay in cache (copy in,
   * decode, copy out), so that a large image costs one read and one write of main memory, as
   * a memcpy does, instead of three passes. Bytes that gunzipView left in wasm memory are
   * read where they lie (`resident`: `input` is their first pixel), with the output chunk
   * after them; other bytes are copied into an input chunk.
   */
  function fitsRegions(
    bytes: Uint8Array,
    offset: number,
    bitpix: number,
    wide: boolean,
  ): { resident: boolean; input: number; output: number } {
    if (bytes.buffer === exports.memory.buffer) {
      // Read from `bytes` before scratch() grows memory: growth detaches it (offset 0, length 0).
      const input = bytes.byteOffset + offset;
      return { resident: true, input, output: placeChunks(bytes.byteOffset + bytes.byteLength, FITS_CHUNK * 8) };
    }
    const input = placeChunks(memory.scratch(0), FITS_CHUNK * 16);
    // Same width in and out (float32 to f32, float64 to f64): decode in place, half the cache.
    return { resident: false, input, output: bitpix === (wide ? -64 : -32) ? input : input + FITS_CHUNK * 8 };
  }

  /**
   * Reserves `bytes` of scratch at the first address past `after` that lies FITS_CHUNK_PAGE_OFFSET
   * bytes into a 4 KiB page, and returns it.
   */
  function placeChunks(after: number, bytes: number): number {
    const at = Math.ceil(after / 4096) * 4096 + FITS_CHUNK_PAGE_OFFSET;
    memory.scratch(at - memory.scratch(0) + bytes + SLACK);
    return at;
  }

  return {
    /** Decodes FITS pixels (big-endian, BITPIX 8/16/32/-32/-64) to physical values in `out`. */
    decodeFitsPixels(bytes: Uint8Array, pixels: FitsPixelLayout, out: Float32Array | Float64Array): void {
      const size = Math.abs(pixels.bitpix) / 8;
      const { count, bitpix, bzero, bscale } = pixels;
      if (pixels.offset < 0 || pixels.offset + count * size > bytes.byteLength) {
        throw new Error('FITS data unit is truncated');
      }
      if (out.length < count) throw new Error(`output holds ${out.length} pixels, ${count} needed`);
      const wide = out instanceof Float64Array;
      const blank = pixels.blank ?? 0;
      const hasBlank = pixels.blank !== undefined && bitpix > 0 && Number.isInteger(blank) && Math.abs(blank) < 2 ** 31;
      const single = !wide && bitpix === 16 && singleIsExact(bzero, bscale);
      const { resident, input, output } = fitsRegions(bytes, pixels.offset, bitpix, wide);
      // Resident bytes are decoded where they lie: nothing to copy in.
      const inputs = resident ? [] : [{ array: bytes, per: size, from: pixels.offset, at: input }];
      memory.chunks(count, FITS_CHUNK, inputs, [{ array: out, at: output }], (_at, n, done) => {
        const status = exports.fitsDecode(
          resident ? input + done * size : input,
          output,
          n,
          bitpix,
          wide ? 1 : 0,
          bzero,
          bscale,
          hasBlank ? 1 : 0,
          blank,
          single ? 1 : 0,
        );
        if (status !== 0) throw new Error(`unsupported BITPIX ${bitpix}`);
      });
    },
  };
}
