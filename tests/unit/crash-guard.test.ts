// core/node-worker.ts crashGuard: a call to a worker settles with its value, or rejects when the
// worker crashes first (a real worker thread that exits), and nothing of a settled call is held
// for the worker's life: the HiPS writer makes thousands of calls to each worker, each result a
// tile's fluxes.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { crashGuard, startNodeWorker } from '../../core/node-worker';

/** V8's collector, which the tests may call once the flag is set. */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

describe('crashGuard', () => {
  it('rejects a call the worker will never answer when it exits, and every later call at once', async () => {
    const worker = startNodeWorker(new URL('../fixtures/crashing.worker.ts', import.meta.url));
    try {
      const guarded = crashGuard(worker);
      const never = new Promise<number>(() => {});
      await expect(guarded(never)).rejects.toThrow('worker exited with code 3');
      await expect(guarded(Promise.resolve(1))).rejects.toThrow('worker exited with code 3');
    } finally {
      worker.terminate();
    }
  });

  it('gives each call its value and holds none of them once settled', async () => {
    const gc = collector();
    const worker = { onCrash: () => {} };
    const guarded = crashGuard(worker);
    const refs: WeakRef<Float32Array>[] = [];
    // Each call in a function of its own, so that no frame of the test keeps its tile.
    const call = async (k: number) => {
      const tile = new Float32Array(1 << 18).fill(k);
      refs.push(new WeakRef(tile));
      return (await guarded(Promise.resolve(tile)))[0];
    };
    for (let k = 0; k < 8; k += 1) expect(await call(k)).toBe(k);
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    // A rejected call passes its error on.
    await expect(guarded(Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });
});
