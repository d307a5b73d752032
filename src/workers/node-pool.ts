// Decoder workers as Node worker_threads (CLI and tests), running the same decoder.worker.ts
// through tsx's loader from the sources, or its entry in build/node/ from the CLI's build
// (core/node-worker.ts).
import { availableParallelism } from 'node:os';
import { startNodeWorker as startWorkerOf } from '../../core/node-worker';
import { WorkerPool, defaultPoolSize, type PoolWorker } from './pool';

/** Starts a worker_threads worker from a module URL (decoder.worker.ts by default). */
export function startNodeWorker(url: URL = new URL('./decoder.worker.ts', import.meta.url)): PoolWorker {
  return startWorkerOf(url);
}

export function createNodePool(size = defaultPoolSize(availableParallelism())): WorkerPool {
  return new WorkerPool(startNodeWorker, size);
}
