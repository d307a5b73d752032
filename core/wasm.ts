// The one door to the wasm core (ARCHITECTURE.md, "Doors"): it instantiates the module
// compiled from assembly/ and owns its memory. The typed wrappers of the kernels, one file per
// codec in core/kernels/, reach memory only through the CoreMemory this file gives them
// (./core-memory.ts): scratch space, byte views, the one chunk loop every batched wrapper runs,
// and the module's error codes by name. Callers of the core pass and receive typed arrays.

import { coreMemory, type CoreExports } from './core-memory';
import { inflateKernels } from './kernels/inflate';
import { fitsKernels, type FitsPixelLayout } from './kernels/fits';
import { healpixKernels, type PixelIds } from './kernels/healpix';
import { ringsKernels } from './kernels/rings';
import { shiftmapKernels } from './kernels/shiftmap';
import { wcsKernels, type PreparedWcs, type WcsNumbers } from './kernels/wcs';

export type { FitsPixelLayout, PixelIds, PreparedWcs, WcsNumbers };
export type { ErrorCodeName } from './core-memory';
export { FITS_CHUNK } from './kernels/fits';
export { QUERY_DISC_RADIUS_ERROR } from './kernels/healpix';

/**
 * The typed face of the wasm core: the kernels' wrappers (core/kernels/, each documented
 * there; the APIs with their checks are core/gzip.ts, fits.ts, rings.ts, shiftmap.ts,
 * healpix.ts and wcs-celestial.ts), and crc32 and memoryBytes, which need no kernel file.
 */
export type Core = {
  /** CRC-32 of `bytes` as gzip and zlib compute it, continuing from `crc` (0 to start). */
  crc32(bytes: Uint8Array, crc?: number): number;
  /** Size of the wasm memory in bytes (it only grows: a steady stream of tiles keeps it flat). */
  memoryBytes(): number;
} & ReturnType<typeof inflateKernels> &
  ReturnType<typeof fitsKernels> &
  ReturnType<typeof ringsKernels> &
  ReturnType<typeof shiftmapKernels> &
  ReturnType<typeof healpixKernels> &
  ReturnType<typeof wcsKernels>;

/** Where the compiled module lies; Vite rewrites this pattern into a bundled asset URL. */
export const coreWasmUrl = new URL('../build/wasm/core.wasm', import.meta.url);

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
