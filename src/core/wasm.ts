// The one door to the wasm core (ARCHITECTURE.md, "Doors"): it instantiates the module
// compiled from assembly/ and is the only code that reads or writes wasm memory. Callers
// pass and receive typed arrays.

/** Raw exports of build/wasm/core.wasm (see assembly/index.ts). */
interface CoreExports {
  memory: WebAssembly.Memory;
  scratch(bytes: number): number;
  crc32(pointer: number, length: number, crc: number): number;
}

/** The typed face of the wasm core. */
export interface Core {
  /** CRC-32 of `bytes` as gzip and zlib compute it, continuing from `crc` (0 to start). */
  crc32(bytes: Uint8Array, crc?: number): number;
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
