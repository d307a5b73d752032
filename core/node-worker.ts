// Node worker_threads started from a module's URL, for every room that runs work on Node's other
// cores: the decoder pool's Node workers (src/workers/node-pool.ts), the sky builder and the import's
// HiPS writer (skydata/), the server's reliability estimate (server/science/). Node only: the
// browser starts its workers in src/workers/browser-pool.ts.
//
// From the JavaScript build (this module is then a .js file in build/node/), each worker module
// is an entry of its own beside it, named after its source (scripts/node-build.mjs). From the
// sources, `--import tsx` in execArgv does not reach worker threads on Node 20, so a tiny
// bootstrap registers tsx's loader in the thread before importing the TypeScript module.
import { Worker } from 'node:worker_threads';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { Endpoint } from 'comlink';

// Resolved here (ESM conditions), because an eval'd worker resolves bare names from the cwd.
const TSX_API = import.meta.resolve('tsx/esm/api');

/** A worker thread running the module at `url` (a .ts source; its .js entry from the build). */
export function startNodeThread(url: URL): Worker {
  return import.meta.url.endsWith('.js')
    ? new Worker(new URL(url.href.replace(/\.ts$/, '.js')))
    : new Worker(
        `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`,
        { eval: true },
      );
}

/** A started worker as comlink talks to it, and how to stop it (src/workers/pool.ts's PoolWorker). */
export interface NodeWorker {
  endpoint: Endpoint;
  terminate(): void;
  /** Registers a callback for an uncaught error inside the worker or its unexpected exit. */
  onCrash(listener: (error: unknown) => void): void;
}

/** A worker thread of the module at `url`, which exposes its API through comlink. */
export function startNodeWorker(url: URL): NodeWorker {
  const worker = startNodeThread(url);
  let stopping = false;
  return {
    endpoint: nodeEndpoint(worker),
    terminate: () => {
      stopping = true;
      void worker.terminate();
    },
    onCrash: (listener) => {
      worker.on('error', listener);
      // An exit nobody asked for (process.exit inside the worker, an abort) is a crash too.
      worker.on('exit', (code) => stopping || listener(new Error(`worker exited with code ${code}`)));
    },
  };
}

/**
 * A guard for calls to one worker: each call's promise, or a rejection when the worker crashes
 * first. A race of each call with one promise of the crash would hold every call's result for the
 * worker's life (that promise never settles, and its reactions keep each race's promise and so
 * its value): this guard keeps a call only until it settles.
 */
export function crashGuard(worker: Pick<NodeWorker, 'onCrash'>): <T>(call: Promise<T>) => Promise<T> {
  const waiting = new Set<(error: unknown) => void>();
  let crash: { error: unknown } | undefined;
  worker.onCrash((error) => {
    crash ??= { error };
    for (const reject of waiting) reject(crash.error);
    waiting.clear();
  });
  return <T>(call: Promise<T>) => {
    if (crash) return Promise.reject(crash.error as Error);
    return new Promise<T>((resolve, reject) => {
      waiting.add(reject);
      void call.then(resolve, reject).finally(() => waiting.delete(reject));
    });
  };
}
