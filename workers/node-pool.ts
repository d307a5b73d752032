// Decoder workers as Node worker_threads (CLI and tests), running the same decoder.worker.ts
// through tsx's loader from the sources, or its entry in build/node/ from the CLI's build.
import { Worker } from 'node:worker_threads';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { WorkerPool, defaultPoolSize, type PoolWorker } from './pool';
import { availableParallelism } from 'node:os';

// Resolved here (ESM conditions), because an eval'd worker resolves bare names from the cwd.
const TSX_API = import.meta.resolve('tsx/esm/api');

/** Starts a worker_threads worker from a module URL (decoder.worker.ts by default). */
export function startNodeWorker(url: URL = new URL('./decoder.worker.ts', import.meta.url)): PoolWorker {
  // From the JavaScript build (this module is a .js file in build/node/), each worker module is
  // an entry of its own beside it, named after its source. From the sources, `--import tsx` in
  // execArgv does not reach worker threads on Node 20, so a tiny bootstrap registers tsx's
  // loader in the thread before importing the TypeScript module.
  const worker = import.meta.url.endsWith('.js')
    ? new Worker(new URL(url.href.replace(/\.ts$/, '.js')))
    : new Worker(
        `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`,
        { eval: true },
      );
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

export function createNodePool(size = defaultPoolSize(availableParallelism())): WorkerPool {
  return new WorkerPool(startNodeWorker, size);
}
