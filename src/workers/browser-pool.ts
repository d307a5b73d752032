// The page's decoder pool: browser module workers, sized from navigator.hardwareConcurrency.
import { WorkerPool, defaultPoolSize, type PoolWorker } from './pool';

export function startBrowserWorker(): PoolWorker {
  const worker = new Worker(new URL('./decoder.worker.ts', import.meta.url), { type: 'module' });
  return {
    endpoint: worker,
    terminate: () => worker.terminate(),
    onCrash: (listener) => worker.addEventListener('error', listener),
  };
}

let pool: WorkerPool | undefined;

/** The page-wide pool, started on first use. */
export function decoderPool(): WorkerPool {
  pool ??= new WorkerPool(startBrowserWorker, defaultPoolSize(navigator.hardwareConcurrency || 2));
  return pool;
}
