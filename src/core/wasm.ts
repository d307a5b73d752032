// The one door to the wasm core (ARCHITECTURE.md, "Doors"): it instantiates the module
// compiled from assembly/ and owns its memory. The typed wrappers of the kernels, one file per
// codec in src/core/kernels/, reach memory only through the CoreMemory this file gives them:
// scratch space, byte views, the one chunk loop every batched wrapper runs, and the module's
// error codes by name. Callers of the core pass and receive typed arrays.

import { inflateKernels } from './kernels/inflate';
import { fitsKernels, type FitsPixelLayout } from './kernels/fits';
import { healpixKernels, type PixelIds } from './kernels/healpix';
import { ringsKernels } from './kernels/rings';
import { shiftmapKernels } from './kernels/shiftmap';
import { wcsKernels, type PreparedWcs, type WcsNumbers } from './kernels/wcs';

export type { FitsPixelLayout, PixelIds, PreparedWcs, WcsNumbers };
export { FITS_CHUNK } from './kernels/fits';
export { QUERY_DISC_RADIUS_ERROR } from './kernels/healpix';

/**
 * The names of the error codes of assembly/errors.ts, which the module exports as constant
 * globals: the numbers are defined there alone and read from the instance by name.
 */
export type ErrorCodeName = `INFLATE_${string}` | `HP_${string}` | `WCS_${string}`;

/** Raw exports of build/wasm/core.wasm (see assembly/index.ts). */
export interface CoreExports {
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
  // HEALPix (assembly/healpix/); i64 arguments are BigInt on this side
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
  // celestial WCS (assembly/wcs.ts)
  WCS_TAN: WebAssembly.Global;
  WCS_SIN: WebAssembly.Global;
  WCS_CAR: WebAssembly.Global;
  wcsBlock(): number;
  wcsBlockSlots(): number;
  wcsPrepare(
    crpix1: number,
    crpix2: number,
    m11: number,
    m12: number,
    m21: number,
    m22: number,
    crvalLng: number,
    crvalLat: number,
    lonpole: number,
    latpole: number,
    xi: number,
    eta: number,
    projection: number,
  ): number;
  wcsLonpole(): number;
  wcsLatpole(): number;
  wcsPix2sky(x: number, y: number, lng: number, lat: number, n: number): number;
  wcsSky2pix(lng: number, lat: number, x: number, y: number, n: number): number;
}

/** The typed face of the wasm core. */
export interface Core {
  /** CRC-32 of `bytes` as gzip and zlib compute it, continuing from `crc` (0 to start). */
  crc32(bytes: Uint8Array, crc?: number): number;
  // inflate and FITS (src/core/kernels/inflate.ts, src/core/kernels/fits.ts)
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
  // the 120-ring sky map (src/core/kernels/rings.ts; the API is src/core/rings.ts)
  /** Indices in the rings sky map (both polar caps included), and n(i) for rings 0 … 119. */
  ringsLayout(): { total: number; tractsPerRing: Int32Array };
  /** Tract centres (ra, dec pairs, radians) of `ids` into `out`; NaN pairs for bad ids, counted in the result. */
  ringsIndexToAngle(ids: Float64Array, out: Float64Array): number;
  /** Tract indices of (ra, dec) pairs into `out`; −1 for a pair that is not a direction, counted in the result. */
  ringsAngleToIndex(angles: Float64Array, out: Int32Array): number;
  // shiftmaps (src/core/kernels/shiftmap.ts; the API is src/core/shiftmap.ts)
  /** The 64 × 64 (q, p) shifts of nested tile `ipix` at `order`, unclamped f64, into `out` (8192 values). */
  shiftmapOffsets(order: number, ipix: bigint, out: Float64Array): { largest: number; strays: number };
  /** The same shifts clamped to ±maxShift as binary16 into `out` (8192 u16); returns the largest |shift| before clamping. */
  shiftmapTexture(order: number, ipix: bigint, maxShift: number, out: Uint16Array): number;
  // HEALPix (src/core/kernels/healpix.ts; the API with its checks is src/core/healpix.ts).
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
  // celestial WCS (src/core/kernels/wcs.ts; the API with the header reading is src/core/wcs-celestial.ts)
  /** Checks a WCS (throws with the reason) and returns it prepared for the batches. */
  wcsPrepare(wcs: WcsNumbers): PreparedWcs;
  /** Pixels (1-based FITS) → (lng, lat) degrees; returns how many had no position (NaN). */
  wcsPix2sky(wcs: PreparedWcs, x: Float64Array, y: Float64Array, lng: Float64Array, lat: Float64Array): number;
  /** (lng, lat) degrees → pixels (1-based FITS); returns how many had no pixel (NaN). */
  wcsSky2pix(wcs: PreparedWcs, lng: Float64Array, lat: Float64Array, x: Float64Array, y: Float64Array): number;
}

/** Typed arrays the chunk loop copies: element types the kernels read and write. */
export type ChunkArray = Float64Array | BigInt64Array | Float32Array | Int32Array | Uint16Array | Uint8Array;

/** One array a batched call reads (input) or writes (output), chunk by chunk. */
export interface ChunkStream {
  array: ChunkArray;
  /** Elements per point (3 for interleaved x, y, z); 1 when left out. */
  per?: number;
  /** Element of `array` where point 0 lies; 0 when left out. */
  from?: number;
  /**
   * Where the stream's chunk lies in wasm memory, when the caller has placed it (FITS chunks
   * placed clear of 4K aliasing, or decoded in place); otherwise the chunk loop lays it out.
   */
  at?: number;
}

/** What the typed wrappers of src/core/kernels/ may do with wasm memory. */
export interface CoreMemory {
  exports: CoreExports;
  /** Ensures `bytes` of scratch space and returns its start (the scratch region only grows). */
  scratch(bytes: number): number;
  /** The bytes at `at` as a view: valid until the memory grows (the next scratch() that grows it). */
  bytes(at: number, length: number): Uint8Array;
  /** Copies `bytes` into memory at `at`. */
  write(at: number, bytes: Uint8Array): void;
  /** Copies the first `count` elements of `target` from memory at `at`. */
  read(at: number, target: ChunkArray, count: number): void;
  /** The value of an error code of assembly/errors.ts; throws when the module lacks it. */
  errorCode(name: ErrorCodeName): number;
  /**
   * The chunk loop of every batched wrapper: `count` points, `chunk` at most per call. For each
   * chunk the inputs' elements are copied into memory, `call(at, n, done)` runs the kernel on
   * n points starting at point `done` (`at`: the chunk address of each input, then of each
   * output), and the outputs' elements are copied back. A call that throws stops the loop; the
   * chunks before it are done. Streams without `at` are laid out in scratch, 16-byte aligned.
   */
  chunks(
    count: number,
    chunk: number,
    inputs: readonly ChunkStream[],
    outputs: readonly ChunkStream[],
    call: (at: readonly number[], n: number, done: number) => void,
  ): void;
}

const align16 = (n: number) => (n + 15) & ~15;

function coreMemory(exports: CoreExports): CoreMemory {
  const codes = exports as unknown as Record<string, unknown>;
  const bytes = (at: number, length: number) => new Uint8Array(exports.memory.buffer, at, length);
  return {
    exports,
    scratch: (size) => exports.scratch(size),
    bytes,
    write(at, source) {
      bytes(at, source.byteLength).set(source);
    },
    read(at, target, count) {
      const size = count * target.BYTES_PER_ELEMENT;
      new Uint8Array(target.buffer, target.byteOffset, size).set(bytes(at, size));
    },
    errorCode(name) {
      const global = codes[name];
      if (!(global instanceof WebAssembly.Global)) {
        throw new Error(`the wasm core has no error code ${name}: rebuild it (node scripts/build.mjs wasm)`);
      }
      return global.value as number;
    },
    chunks(count, chunk, inputs, outputs, call) {
      const streams = [...inputs, ...outputs];
      const pointBytes = streams.map((stream) => (stream.per ?? 1) * stream.array.BYTES_PER_ELEMENT);
      let next = exports.scratch(
        streams.reduce((sum, stream, k) => (stream.at === undefined ? sum + align16(chunk * pointBytes[k]) : sum), 0),
      );
      const at = streams.map((stream, k) => {
        if (stream.at !== undefined) return stream.at;
        const start = next;
        next += align16(chunk * pointBytes[k]);
        return start;
      });
      // Views made once, not per chunk: each stream's chunk in memory and its array's bytes from
      // point 0. Made again only if a call grew memory (growth detaches the old buffer).
      const chunkViewsOf = () => streams.map((_, k) => bytes(at[k], chunk * pointBytes[k]));
      let chunkViews = chunkViewsOf();
      const arrayViews = streams.map(({ array, from = 0 }) => {
        const start = from * array.BYTES_PER_ELEMENT;
        return new Uint8Array(array.buffer, array.byteOffset + start, array.byteLength - start);
      });
      for (let done = 0; done < count; done += chunk) {
        const n = Math.min(chunk, count - done);
        for (let k = 0; k < inputs.length; k++) {
          chunkViews[k].set(arrayViews[k].subarray(done * pointBytes[k], (done + n) * pointBytes[k]));
        }
        call(at, n, done);
        if (chunkViews.length > 0 && chunkViews[0].byteLength === 0) chunkViews = chunkViewsOf(); // memory grew
        for (let k = inputs.length; k < streams.length; k++) {
          const view = n === chunk ? chunkViews[k] : chunkViews[k].subarray(0, n * pointBytes[k]);
          arrayViews[k].set(view, done * pointBytes[k]);
        }
      }
    },
  };
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
  const memory = coreMemory(exports);
  return {
    crc32(bytes, crc = 0) {
      const pointer = memory.scratch(bytes.byteLength);
      memory.write(pointer, bytes);
      return exports.crc32(pointer, bytes.byteLength, crc) >>> 0;
    },
    memoryBytes(): number {
      return exports.memory.buffer.byteLength;
    },
    ...inflateKernels(memory),
    ...fitsKernels(memory),
    ...ringsKernels(memory),
    ...shiftmapKernels(memory),
    ...healpixKernels(memory),
    ...wcsKernels(memory),
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
