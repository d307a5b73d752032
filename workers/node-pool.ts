// Decoder workers as Node worker_threads (CLI and tests), running the same decoder.worker.ts
// through tsx's loader so that no separate build of the worker is needed.
import { Worker } from 'node:worker_threads';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { WorkerPool, defaultPoolSize, type PoolWorker } from './pool';
import { availableParallelism } from 'node:os';

export function startNodeWorker(): PoolWorker {
  const worker = new Worker(new URL('./decoder.worker.ts', import.meta.url), {
    execArgv: ['--import', 'tsx'],
  });
  return {
    endpoint: nodeEndpoint(worker),
    terminate: () => void worker.terminate(),
    onCrash: (listener) => worker.on('error', listener),
  };
}

export function createNodePool(size = defaultPoolSize(availableParallelism())): WorkerPool {
  return new WorkerPool(startNodeWorker, size);
}
