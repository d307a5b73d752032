// The wasm core's memory as the kernels reach it (core/kernels/): the module's raw exports,
// scratch space, byte views, the one chunk loop every batched wrapper runs, and the error codes
// by name. Only core/wasm.ts makes one, from the instance it owns.

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

/** What the typed wrappers of core/kernels/ may do with wasm memory. */
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

export function coreMemory(exports: CoreExports): CoreMemory {
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
