// The one door to the wasm core (ARCHITECTURE.md, "Doors"): it instantiates the module
// compiled from assembly/ and is the only code that reads or writes wasm memory. Callers
// pass and receive typed arrays.

import { DEFLATE_ERRORS, DEFLATE_TOO_LARGE, GZIP_ERRORS, gzipBodyStart, isGzip } from './gzip';

/** Raw exports of build/wasm/core.wasm (see assembly/index.ts). */
interface CoreExports {
  memory: WebAssembly.Memory;
  scratch(bytes: number): number;
  crc32(pointer: number, length: number, crc: number): number;
  // inflate and FITS (assembly/inflate.ts, assembly/fits.ts)
  inflateRaw(input: number, inputLength: number, output: number, outputCapacity: number): number;
  inflateConsumed(): number;
  inflateError(): number;
  fitsDecode(
    src: number,
    dst: number,
    count: number,
    bitpix: number,
    wide: number,
    bzero: number,
    bscale: number,
    hasBlank: number,
    blank: number,
    single: number,
  ): number;
  fitsSingleIsExact(bzero: number, bscale: number): number;
  // the 120-ring sky map (assembly/rings.ts)
  ringsTractTotal(): number;
  ringsTractsInRing(ring: number): number;
  ringsIndexToAngle(ids: number, count: number, out: number): number;
  ringsAngleToIndex(angles: number, count: number, out: number): number;
  // shiftmaps (assembly/shiftmap.ts)
  shiftmapOffsets(order: number, ipix: bigint, offsets: number, texels: number, maxShift: number): number;
  shiftmapStrays(): number;
  // HEALPix (assembly/healpix.ts); i64 arguments are BigInt on this side
  healpixError(): number;
  hpAng2pix(nside: bigint, nest: number, theta: number, phi: number, out: number, n: number, f64ids: number): number;
  hpPix2ang(nside: bigint, nest: number, pix: number, f64ids: number, theta: number, phi: number, n: number): number;
  hpVec2pix(nside: bigint, nest: number, xyz: number, out: number, n: number, f64ids: number): number;
  hpPix2vec(nside: bigint, nest: number, pix: number, f64ids: number, xyz: number, n: number): number;
  hpConvert(nside: bigint, toRing: number, pix: number, f64ids: number, out: number, n: number): number;
  hpNest2loc(
    nside: bigint,
    pix: number,
    f64ids: number,
    dx: number,
    dy: number,
    theta: number,
    phi: number,
    n: number,
  ): number;
  hpAng2xyf(nside: bigint, theta: number, phi: number, face: number, x: number, y: number, n: number): number;
  hpQueryDisc(
    nside: bigint,
    nest: number,
    theta: number,
    phi: number,
    radius: number,
    fact: number,
    out: number,
    capacity: number,
  ): number;
  hpNeeded(): number;
  hpTotal(): number;
  hpMaxPixrad(nside: bigint): number;
  hpExpandRanges(ranges: number, count: number, out: number, f64ids: number): void;
}

/** The typed face of the wasm core. */
export interface Core {
  /** CRC-32 of `bytes` as gzip and zlib compute it, continuing from `crc` (0 to start). */
  crc32(bytes: Uint8Array, crc?: number): number;
  // inflate and FITS (see the block at the end of this file)
  /** Decompresses a gzip file (RFC 1952, every member); errors as viewer-spec §5. */
  gunzip(bytes: Uint8Array): Uint8Array;
  /**
   * gunzip without the copy out: a view of wasm memory, valid until the next call into the
   * core. decodeFitsPixels decodes such a view where it lies.
   */
  gunzipView(bytes: Uint8Array): Uint8Array;
  /** Decompresses a raw DEFLATE stream (RFC 1951); `sizeHint` is the expected output size. */
  inflateRaw(bytes: Uint8Array, sizeHint?: number): Uint8Array;
  /** Decodes FITS pixels (big-endian, BITPIX 8/16/32/-32/-64) to physical values in `out`. */
  decodeFitsPixels(bytes: Uint8Array, layout: FitsPixelLayout, out: Float32Array | Float64Array): void;
  /** Size of the wasm memory in bytes (it only grows: a steady stream of tiles keeps it flat). */
  memoryBytes(): number;
  // the 120-ring sky map (see the block at the end of this file; the API is src/core/rings.ts)
  /** Indices in the rings sky map (both polar caps included), and n(i) for rings 0 … 119. */
  ringsLayout(): { total: number; tractsPerRing: Int32Array };
  /** Tract centres (ra, dec pairs, radians) of `ids` into `out`; NaN pairs for bad ids, counted in the result. */
  ringsIndexToAngle(ids: Float64Array, out: Float64Array): number;
  /** Tract indices of (ra, dec) pairs into `out`; −1 for a pair that is not a direction, counted in the result. */
  ringsAngleToIndex(angles: Float64Array, out: Int32Array): number;
  // shiftmaps (see the block at the end of this file; the API is src/core/shiftmap.ts)
  /** The 64 × 64 (q, p) shifts of nested tile `ipix` at `order`, unclamped f64, into `out` (8192 values). */
  shiftmapOffsets(order: number, ipix: bigint, out: Float64Array): { largest: number; strays: number };
  /** The same shifts clamped to ±maxShift as binary16 into `out` (8192 u16); returns the largest |shift| before clamping. */
  shiftmapTexture(order: number, ipix: bigint, maxShift: number, out: Uint16Array): number;
  // HEALPix (see the block at the end of this file; the API with its checks is src/core/healpix.ts).
  // Pixel ids travel as Float64Array (exact below 2^53) or BigInt64Array; `nest` picks the scheme.
  /** ang2pix: (theta[i], phi[i]) radians → out[i]. */
  healpixAng2pix(nside: number, nest: boolean, theta: Float64Array, phi: Float64Array, out: PixelIds): void;
  /** pix2ang: pix[i] → pixel centre (theta[i], phi[i]). */
  healpixPix2ang(nside: number, nest: boolean, pix: PixelIds, theta: Float64Array, phi: Float64Array): void;
  /** vec2pix: vectors (x, y, z interleaved, any non-zero length) → out[i]. */
  healpixVec2pix(nside: number, nest: boolean, xyz: Float64Array, out: PixelIds): void;
  /** pix2vec: pix[i] → unit vector of the centre (x, y, z interleaved). */
  healpixPix2vec(nside: number, nest: boolean, pix: PixelIds, xyz: Float64Array): void;
  /** nest2ring (toRing) or ring2nest: pix[i] → out[i] (out may be pix). */
  healpixConvert(nside: number, toRing: boolean, pix: PixelIds, out: PixelIds): void;
  /** nest2loc: the point at (dx[i], dy[i]) ∈ [0,1]² inside nested pixel pix[i] → (theta[i], phi[i]). */
  healpixNest2loc(
    nside: number,
    pix: PixelIds,
    dx: Float64Array,
    dy: Float64Array,
    theta: Float64Array,
    phi: Float64Array,
  ): void;
  /** ang2xyf: (theta[i], phi[i]) → base face[i] and real face coordinates x[i], y[i] (pixel units). */
  healpixAng2xyf(
    nside: number,
    theta: Float64Array,
    phi: Float64Array,
    face: Int32Array,
    x: Float64Array,
    y: Float64Array,
  ): void;
  /** query_disc as sorted half-open ranges [lo, hi) (pairs); fact 0 = exclusive, ≥ 1 = inclusive. */
  healpixQueryDiscRanges(
    nside: number,
    nest: boolean,
    theta: number,
    phi: number,
    radius: number,
    fact: number,
  ): BigInt64Array;
  /** query_disc as a sorted list of ids: Float64Array when `wide` is false, else BigInt64Array. */
  healpixQueryDiscPixels(
    nside: number,
    nest: boolean,
    theta: number,
    phi: number,
    radius: number,
    fact: number,
    wide: boolean,
  ): PixelIds;
  /** Largest angle between a pixel centre and its corners (HEALPix C++ max_pixrad). */
  healpixMaxPixrad(nside: number): number;
}

/** Where the compiled module lies; Vite rewrites this pattern into a bundled asset URL. */
export const coreWasmUrl = new URL('../../build/wasm/core.wasm', import.meta.url);

async function fetchModule(url: URL): Promise<WebAssembly.Module> {
  if (url.protocol === 'file:') {
    // Node (CLI, server, tests): no fetch for file: URLs, so read the file. getBuiltinModule
    // keeps 'node:fs' out of the browser bundle without a dynamic import.
    const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
    const bytes = fs.readFileSync(url);
    return WebAssembly.compile(bytes);
  }
  return WebAssembly.compileStreaming(fetch(url));
}

function wrap(exports: CoreExports): Core {
  // The scratch region only grows; views are re-made after a call that may grow memory,
  // because growth detaches the old ArrayBuffer.
  function input(bytes: Uint8Array): number {
    const pointer = exports.scratch(bytes.byteLength);
    new Uint8Array(exports.memory.buffer, pointer, bytes.byteLength).set(bytes);
    return pointer;
  }
  return {
    crc32(bytes, crc = 0) {
      const pointer = input(bytes);
      return exports.crc32(pointer, bytes.byteLength, crc) >>> 0;
    },
    ...inflateAndFits(exports),
    ...rings(exports),
    ...shiftmaps(exports),
    ...healpix(exports),
  };
}

let loading: Promise<Core> | undefined;

/** Instantiates the wasm core once per realm (page, worker or Node process). */
export function loadCore(url: URL = coreWasmUrl): Promise<Core> {
  if (url !== coreWasmUrl) return instantiate(url);
  loading ??= instantiate(url);
  return loading;
}

async function instantiate(url: URL): Promise<Core> {
  const module = await fetchModule(url);
  const instance = await WebAssembly.instantiate(module, {});
  return wrap(instance.exports as unknown as CoreExports);
}

let loaded: Core | undefined;

/**
 * The core, instantiated synchronously from the file: Node only (the sky data builder's
 * synchronous renderers use it). One instance per process, apart from loadCore's.
 */
export function loadCoreSync(): Core {
  if (!loaded) {
    const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
    const module = new WebAssembly.Module(fs.readFileSync(coreWasmUrl));
    loaded = wrap(new WebAssembly.Instance(module, {}).exports as unknown as CoreExports);
  }
  return loaded;
}

// ---- inflate and FITS (issue 3, items 1 and 2) ----------------------------------------------
// Layout of the scratch region for one call: the input at its start, the output 16-byte
// aligned after it, and SLACK spare bytes past the output's capacity (the inflater's fast copy
// may write up to 15 bytes past a match). scratch() only grows, so a stream of tiles reuses
// the same pages. A trap inside the wasm code (the inflater's way of stopping on an error) is
// caught here and turned into an Error with the message for its code.

/** Where the FITS data of one HDU lies in `bytes` and how to scale it (see src/core/fits.ts). */
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

const OUTPUT_FULL = 1; // assembly/inflate.ts: the output capacity was too small
const SLACK = 64;
// DEFLATE cannot expand more than 1032:1 (a 258-byte match in 2 bits), which bounds how far an
// output is ever grown for a given input however wrong a trailer's ISIZE is.
const MAX_RATIO = 1032;

const align16 = (n: number) => (n + 15) & ~15;

/** Pixels per wasm call of decodeFitsPixels: at most 128 KiB in and 128 KiB out. */
export const FITS_CHUNK = 16384;
// Where FITS chunks start within a 4 KiB page. TypedArray.set is glibc's memmove, which copies
// these sizes with `rep movsb`; on an AMD Zen 3 (this project's machines) that runs about 9
// times slower when the destination lies 1 to 31 bytes past the source modulo 4096, a 4K
// aliasing stall (measured here: 2.9 against 25 GB/s for 64 KiB). Large ArrayBuffers are
// mmap'ed at 16 mod 4096 (glibc's chunk header; measured through that stall) and FITS data
// starts a multiple of 64 bytes into a file (2880 = 45 × 64), so chunks at 2048 mod 4096 keep
// both copies clear of the window; a chunk at a page start made a 16 MiB decode 3 times slower.
const FITS_CHUNK_PAGE_OFFSET = 2048;

function inflateAndFits(exports: CoreExports) {
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

  /** Copies `bytes` to the start of scratch and leaves room for `capacity` output bytes. */
  function layout(bytes: Uint8Array, capacity: number): { input: number; output: number } {
    const input = exports.scratch(align16(bytes.byteLength) + capacity + SLACK);
    new Uint8Array(exports.memory.buffer, input, bytes.byteLength).set(bytes);
    return { input, output: input + align16(bytes.byteLength) };
  }

  /**
   * Inflates bytes[start..end) into output+produced, growing the output (and so memory) when
   * it is full. Returns the new capacity, the bytes written and the input bytes used.
   */
  function inflateInto(
    bytes: Uint8Array,
    input: number,
    start: number,
    output: number,
    produced: number,
    capacity: number,
  ): { capacity: number; written: number; consumed: number } {
    const limit = Math.max(capacity, bytes.byteLength * MAX_RATIO + 1024);
    for (;;) {
      try {
        const written = exports.inflateRaw(
          input + start,
          bytes.byteLength - start,
          output + produced,
          capacity - produced,
        );
        return { capacity, written, consumed: exports.inflateConsumed() };
      } catch (error) {
        if (!(error instanceof WebAssembly.RuntimeError)) throw error;
        const code = exports.inflateError();
        if (code !== OUTPUT_FULL) {
          throw new Error(DEFLATE_ERRORS[code] ?? `Corrupt DEFLATE stream (${error.message})`, { cause: error });
        }
        if (capacity >= limit) throw new Error(DEFLATE_TOO_LARGE, { cause: error });
        capacity = Math.min(limit, Math.max(capacity * 2, capacity + 65536));
        try {
          exports.scratch(output - input + capacity + SLACK);
        } catch (cause) {
          throw new Error(`out of memory: cannot grow the output to ${capacity} bytes`, { cause });
        }
      }
    }
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
    const input = placeChunks(exports.scratch(0), FITS_CHUNK * 16);
    // Same width in and out (float32 to f32, float64 to f64): decode in place, half the cache.
    return { resident: false, input, output: bitpix === (wide ? -64 : -32) ? input : input + FITS_CHUNK * 8 };
  }

  /**
   * Reserves `bytes` of scratch at the first address past `after` that lies FITS_CHUNK_PAGE_OFFSET
   * bytes into a 4 KiB page, and returns it.
   */
  function placeChunks(after: number, bytes: number): number {
    const at = Math.ceil(after / 4096) * 4096 + FITS_CHUNK_PAGE_OFFSET;
    exports.scratch(at - exports.scratch(0) + bytes + SLACK);
    return at;
  }

  /** Inflates every member of a gzip file into scratch, where the bytes stay until the next call. */
  function gunzipToScratch(bytes: Uint8Array): { output: number; produced: number } {
    if (!isGzip(bytes)) throw new Error(GZIP_ERRORS.notGzip);
    const length = bytes.byteLength;
    const view = new DataView(bytes.buffer, bytes.byteOffset, length);
    // ISIZE of the last member sizes the output; exact for a one-member file under 4 GiB.
    const isize = length >= 18 ? view.getUint32(length - 4, true) : 0;
    let capacity = Math.min(isize, length * MAX_RATIO) + 1;
    const { input, output } = layout(bytes, capacity);
    let produced = 0;
    let position = 0;
    for (;;) {
      const body = gzipBodyStart(bytes, position, (from, to) => exports.crc32(input + from, to - from, 0) >>> 0);
      const result = inflateInto(bytes, input, body, output, produced, capacity);
      capacity = result.capacity;
      const trailer = body + result.consumed;
      if (length - trailer < 8) throw new Error(GZIP_ERRORS.truncated);
      const crc = exports.crc32(output + produced, result.written, 0) >>> 0;
      if (crc !== view.getUint32(trailer, true)) throw new Error(GZIP_ERRORS.checksum);
      if (result.written % 2 ** 32 !== view.getUint32(trailer + 4, true)) throw new Error(GZIP_ERRORS.size);
      produced += result.written;
      position = trailer + 8;
      // Members follow one another (RFC 1952 §2.2); zero bytes of padding may end the file.
      let next = position;
      while (next < length && bytes[next] === 0) next++;
      if (next >= length) break;
    }
    return { output, produced };
  }

  return {
    gunzip(bytes: Uint8Array): Uint8Array {
      const { output, produced } = gunzipToScratch(bytes);
      return new Uint8Array(exports.memory.buffer, output, produced).slice();
    },

    gunzipView(bytes: Uint8Array): Uint8Array {
      const { output, produced } = gunzipToScratch(bytes);
      return new Uint8Array(exports.memory.buffer, output, produced);
    },

    inflateRaw(bytes: Uint8Array, sizeHint = bytes.byteLength * 4): Uint8Array {
      const capacity = Math.min(Math.max(sizeHint, 0), bytes.byteLength * MAX_RATIO) + 1;
      const { input, output } = layout(bytes, capacity);
      const result = inflateInto(bytes, input, 0, output, 0, capacity);
      return new Uint8Array(exports.memory.buffer, output, result.written).slice();
    },

    memoryBytes(): number {
      return exports.memory.buffer.byteLength;
    },

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
      // Memory does not grow inside the loop, so the views are made once, not per chunk.
      const memory = exports.memory.buffer;
      const chunkIn = new Uint8Array(memory, input, resident ? 0 : FITS_CHUNK * size);
      const chunkOut = wide
        ? new Float64Array(memory, output, FITS_CHUNK)
        : new Float32Array(memory, output, FITS_CHUNK);
      for (let done = 0; done < count; done += FITS_CHUNK) {
        const n = Math.min(FITS_CHUNK, count - done);
        const from = pixels.offset + done * size;
        if (!resident) chunkIn.set(bytes.subarray(from, from + n * size));
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
        out.set(n === FITS_CHUNK ? chunkOut : chunkOut.subarray(0, n), done);
      }
    },
  };
}

// ---- the 120-ring sky map (issue 3, item 4) -------------------------------------------------
// Ids go in as f64 (offset-encoded ids pass 2^32 but stay below 2^53), centres come out as
// interleaved (ra, dec) f64 pairs. Batches are cut into chunks so that scratch stays small.

const RINGS_CHUNK = 8192; // entries per wasm call: 64 KiB of ids in, 128 KiB of angles out

function rings(exports: CoreExports) {
  return {
    ringsLayout(): { total: number; tractsPerRing: Int32Array } {
      const tractsPerRing = new Int32Array(120);
      for (let ring = 0; ring < tractsPerRing.length; ring++) tractsPerRing[ring] = exports.ringsTractsInRing(ring);
      return { total: exports.ringsTractTotal(), tractsPerRing };
    },

    ringsIndexToAngle(ids: Float64Array, out: Float64Array): number {
      if (out.length < ids.length * 2) throw new Error(`output holds ${out.length} values, ${ids.length * 2} needed`);
      const input = exports.scratch(RINGS_CHUNK * 8 + RINGS_CHUNK * 16);
      const output = input + RINGS_CHUNK * 8;
      let invalid = 0;
      for (let done = 0; done < ids.length; done += RINGS_CHUNK) {
        const n = Math.min(RINGS_CHUNK, ids.length - done);
        new Float64Array(exports.memory.buffer, input, n).set(ids.subarray(done, done + n));
        invalid += exports.ringsIndexToAngle(input, n, output);
        out.set(new Float64Array(exports.memory.buffer, output, n * 2), done * 2);
      }
      return invalid;
    },

    ringsAngleToIndex(angles: Float64Array, out: Int32Array): number {
      const count = angles.length >> 1;
      if (out.length < count) throw new Error(`output holds ${out.length} values, ${count} needed`);
      const input = exports.scratch(RINGS_CHUNK * 16 + RINGS_CHUNK * 4);
      const output = input + RINGS_CHUNK * 16;
      let invalid = 0;
      for (let done = 0; done < count; done += RINGS_CHUNK) {
        const n = Math.min(RINGS_CHUNK, count - done);
        new Float64Array(exports.memory.buffer, input, n * 2).set(angles.subarray(done * 2, done * 2 + n * 2));
        invalid += exports.ringsAngleToIndex(input, n, output);
        out.set(new Int32Array(exports.memory.buffer, output, n), done);
      }
      return invalid;
    },
  };
}

// ---- HEALPix (issue 3, item 3) -----------------------------------------------------------------
// Batches are cut into chunks of HEALPIX_CHUNK points so that scratch stays small and in cache:
// each chunk is copied in, done by one wasm call and copied out. Pixel ids are f64 (exact below
// 2^53, the JavaScript number path) or i64 (BigInt64Array) in wasm memory alike; the kernels
// convert. A kernel returns -1, or the index of the first bad element with healpixError() set;
// the elements before it are done. query_disc writes ranges and says how many it needed when
// the output was too small, so it is called again with room for them.

/** Pixel ids: exact JavaScript numbers below 2^53, BigInt64Array beyond. */
export type PixelIds = Float64Array | BigInt64Array;

/** The message for a disc radius of π/2 or more (from the original viewer's HEALPix). */
export const QUERY_DISC_RADIUS_ERROR = 'query_disc: radius must < PI/2';

// Codes of assembly/healpix.ts.
const HP_BAD_NSIDE = 1;
const HP_BAD_THETA = 2;
const HP_BAD_PIX = 3;
const HP_BAD_VECTOR = 4;
const HP_BAD_RADIUS = 5;
const HP_BAD_FACT = 6;
const HP_OUTPUT_FULL = 7;

const HEALPIX_CHUNK = 32768; // points per wasm call: at most 5 arrays of 256 KiB

function healpix(exports: CoreExports) {
  const flag = (value: boolean) => (value ? 1 : 0);

  function copyIn(at: number, source: Float64Array | BigInt64Array, from: number, n: number): void {
    if (source instanceof BigInt64Array) {
      new BigInt64Array(exports.memory.buffer, at, n).set(source.subarray(from, from + n));
    } else new Float64Array(exports.memory.buffer, at, n).set(source.subarray(from, from + n));
  }

  function copyOut(at: number, target: Float64Array | BigInt64Array, from: number, n: number): void {
    if (target instanceof BigInt64Array) target.set(new BigInt64Array(exports.memory.buffer, at, n), from);
    else target.set(new Float64Array(exports.memory.buffer, at, n), from);
  }

  function failure(what: string, nside: number, detail: () => string): Error {
    const code = exports.healpixError();
    switch (code) {
      case HP_BAD_NSIDE:
        return new Error(`${what}: nside must be a power of two from 1 to 2^29, got ${nside}`);
      case HP_BAD_THETA:
        return new Error(`${what}: theta must be in [0, π] and phi finite, got ${detail()}`);
      case HP_BAD_PIX:
        return new Error(`${what}: pixel id must be an integer in [0, 12·nside²) for nside ${nside}, got ${detail()}`);
      case HP_BAD_VECTOR:
        return new Error(`${what}: vector must be finite and non-zero, got ${detail()}`);
      case HP_BAD_RADIUS:
        return new Error(QUERY_DISC_RADIUS_ERROR);
      case HP_BAD_FACT:
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
      const at = exports.scratch(capacity * 16);
      const count = exports.hpQueryDisc(BigInt(nside), flag(nest), theta, phi, radius, fact, at, capacity);
      if (count >= 0) return { at, count };
      if (-count !== HP_OUTPUT_FULL) {
        throw failure('query_disc', nside, () =>
          -count === HP_BAD_FACT ? String(fact) : `theta ${theta}, phi ${phi}`,
        );
      }
      capacity = exports.hpNeeded();
    }
  }

  return {
    healpixAng2pix(nside: number, nest: boolean, theta: Float64Array, phi: Float64Array, out: PixelIds): void {
      const n = theta.length;
      sizes('ang2pix', n, phi, out);
      const base = exports.scratch(HEALPIX_CHUNK * 24);
      const t = base;
      const p = base + HEALPIX_CHUNK * 8;
      const o = base + HEALPIX_CHUNK * 16;
      const wide = out instanceof BigInt64Array;
      const big = BigInt(nside);
      for (let done = 0; done < n; done += HEALPIX_CHUNK) {
        const m = Math.min(HEALPIX_CHUNK, n - done);
        copyIn(t, theta, done, m);
        copyIn(p, phi, done, m);
        const bad = exports.hpAng2pix(big, flag(nest), t, p, o, m, flag(!wide));
        if (bad >= 0) throw failure('ang2pix', nside, () => `theta ${theta[done + bad]}, phi ${phi[done + bad]}`);
        copyOut(o, out, done, m);
      }
    },

    healpixPix2ang(nside: number, nest: boolean, pix: PixelIds, theta: Float64Array, phi: Float64Array): void {
      const n = pix.length;
      sizes('pix2ang', n, theta, phi);
      const base = exports.scratch(HEALPIX_CHUNK * 24);
      const i = base;
      const t = base + HEALPIX_CHUNK * 8;
      const p = base + HEALPIX_CHUNK * 16;
      const wide = pix instanceof BigInt64Array;
      const big = BigInt(nside);
      for (let done = 0; done < n; done += HEALPIX_CHUNK) {
        const m = Math.min(HEALPIX_CHUNK, n - done);
        copyIn(i, pix, done, m);
        const bad = exports.hpPix2ang(big, flag(nest), i, flag(!wide), t, p, m);
        if (bad >= 0) throw failure('pix2ang', nside, () => String(pix[done + bad]));
        copyOut(t, theta, done, m);
        copyOut(p, phi, done, m);
      }
    },

    healpixVec2pix(nside: number, nest: boolean, xyz: Float64Array, out: PixelIds): void {
      const n = Math.floor(xyz.length / 3);
      sizes('vec2pix', n, out);
      const base = exports.scratch(HEALPIX_CHUNK * 32);
      const v = base;
      const o = base + HEALPIX_CHUNK * 24;
      const wide = out instanceof BigInt64Array;
      const big = BigInt(nside);
      for (let done = 0; done < n; done += HEALPIX_CHUNK) {
        const m = Math.min(HEALPIX_CHUNK, n - done);
        copyIn(v, xyz, done * 3, m * 3);
        const bad = exports.hpVec2pix(big, flag(nest), v, o, m, flag(!wide));
        if (bad >= 0) {
          const k = 3 * (done + bad);
          throw failure('vec2pix', nside, () => `(${xyz[k]}, ${xyz[k + 1]}, ${xyz[k + 2]})`);
        }
        copyOut(o, out, done, m);
      }
    },

    healpixPix2vec(nside: number, nest: boolean, pix: PixelIds, xyz: Float64Array): void {
      const n = pix.length;
      sizes('pix2vec', 3 * n, xyz);
      const base = exports.scratch(HEALPIX_CHUNK * 32);
      const i = base;
      const v = base + HEALPIX_CHUNK * 8;
      const wide = pix instanceof BigInt64Array;
      const big = BigInt(nside);
      for (let done = 0; done < n; done += HEALPIX_CHUNK) {
        const m = Math.min(HEALPIX_CHUNK, n - done);
        copyIn(i, pix, done, m);
        const bad = exports.hpPix2vec(big, flag(nest), i, flag(!wide), v, m);
        if (bad >= 0) throw failure('pix2vec', nside, () => String(pix[done + bad]));
        copyOut(v, xyz, done * 3, m * 3);
      }
    },

    healpixConvert(nside: number, toRing: boolean, pix: PixelIds, out: PixelIds): void {
      const n = pix.length;
      const what = toRing ? 'nest2ring' : 'ring2nest';
      sizes(what, n, out);
      if (pix instanceof BigInt64Array !== out instanceof BigInt64Array) {
        throw new Error(`${what}: ids in and out must both be Float64Array or both BigInt64Array`);
      }
      const base = exports.scratch(HEALPIX_CHUNK * 8);
      const wide = pix instanceof BigInt64Array;
      const big = BigInt(nside);
      for (let done = 0; done < n; done += HEALPIX_CHUNK) {
        const m = Math.min(HEALPIX_CHUNK, n - done);
        copyIn(base, pix, done, m);
        const bad = exports.hpConvert(big, flag(toRing), base, flag(!wide), base, m);
        if (bad >= 0) throw failure(what, nside, () => String(pix[done + bad]));
        copyOut(base, out, done, m);
      }
    },

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
      const base = exports.scratch(HEALPIX_CHUNK * 40);
      const [i, x, y, t, p] = [0, 1, 2, 3, 4].map((k) => base + k * HEALPIX_CHUNK * 8);
      const wide = pix instanceof BigInt64Array;
      const big = BigInt(nside);
      for (let done = 0; done < n; done += HEALPIX_CHUNK) {
        const m = Math.min(HEALPIX_CHUNK, n - done);
        copyIn(i, pix, done, m);
        copyIn(x, dx, done, m);
        copyIn(y, dy, done, m);
        const bad = exports.hpNest2loc(big, i, flag(!wide), x, y, t, p, m);
        if (bad >= 0) throw failure('nest2loc', nside, () => String(pix[done + bad]));
        copyOut(t, theta, done, m);
        copyOut(p, phi, done, m);
      }
    },

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
      const base = exports.scratch(HEALPIX_CHUNK * 36);
      const [t, p, ox, oy] = [0, 1, 2, 3].map((k) => base + k * HEALPIX_CHUNK * 8);
      const f = base + HEALPIX_CHUNK * 32;
      const big = BigInt(nside);
      for (let done = 0; done < n; done += HEALPIX_CHUNK) {
        const m = Math.min(HEALPIX_CHUNK, n - done);
        copyIn(t, theta, done, m);
        copyIn(p, phi, done, m);
        const bad = exports.hpAng2xyf(big, t, p, f, ox, oy, m);
        if (bad >= 0) throw failure('ang2xyf', nside, () => `theta ${theta[done + bad]}, phi ${phi[done + bad]}`);
        face.set(new Int32Array(exports.memory.buffer, f, m), done);
        copyOut(ox, x, done, m);
        copyOut(oy, y, done, m);
      }
    },

    healpixQueryDiscRanges(
      nside: number,
      nest: boolean,
      theta: number,
      phi: number,
      radius: number,
      fact: number,
    ): BigInt64Array {
      const { at, count } = queryDiscRanges(nside, nest, theta, phi, radius, fact);
      return new BigInt64Array(exports.memory.buffer, at, count * 2).slice();
    },

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
      const start = exports.scratch(count * 16 + total * 8);
      const out = start + count * 16;
      exports.hpExpandRanges(start, count, out, flag(!wide));
      return wide
        ? new BigInt64Array(exports.memory.buffer, out, total).slice()
        : new Float64Array(exports.memory.buffer, out, total).slice();
    },

    healpixMaxPixrad(nside: number): number {
      return exports.hpMaxPixrad(BigInt(nside));
    },
  };
}

// ---- shiftmaps (issue 3, item 5) ------------------------------------------------------------
// One map is 64 × 64 (q, p) pairs: 64 KiB of f64 shifts, or 16 KiB of binary16 texels that the
// kernel encodes in the same pass (no f64 map in between). Order and pixel are checked by
// src/core/shiftmap.ts; a −1 from the kernel is a bad call.

const SHIFTMAP_VALUES = 64 * 64 * 2;

function shiftmaps(exports: CoreExports) {
  function check(order: number, ipix: bigint, largest: number): number {
    if (largest < 0) throw new RangeError(`no HEALPix tile ${ipix} at order ${order}`);
    return largest;
  }
  return {
    shiftmapOffsets(order: number, ipix: bigint, out: Float64Array): { largest: number; strays: number } {
      if (out.length < SHIFTMAP_VALUES) throw new Error(`output holds ${out.length} values, ${SHIFTMAP_VALUES} needed`);
      const offsets = exports.scratch(SHIFTMAP_VALUES * 8);
      const largest = check(order, ipix, exports.shiftmapOffsets(order, ipix, offsets, 0, 0));
      out.set(new Float64Array(exports.memory.buffer, offsets, SHIFTMAP_VALUES));
      return { largest, strays: exports.shiftmapStrays() };
    },

    shiftmapTexture(order: number, ipix: bigint, maxShift: number, out: Uint16Array): number {
      if (out.length < SHIFTMAP_VALUES) throw new Error(`output holds ${out.length} values, ${SHIFTMAP_VALUES} needed`);
      const texels = exports.scratch(SHIFTMAP_VALUES * 2);
      const largest = check(order, ipix, exports.shiftmapOffsets(order, ipix, 0, texels, maxShift));
      out.set(new Uint16Array(exports.memory.buffer, texels, SHIFTMAP_VALUES));
      return largest;
    },
  };
}
