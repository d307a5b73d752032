// Shiftmaps for the globe's HiPS tiles (viewer-spec §4 and §9), computed off the main thread.
//
// - The worker: a decoder worker (DecoderApi.shiftmap) in a WorkerPool of one started on
//   demand, so it starts when the first job is queued and is terminated SHIFTMAP_WORKER_IDLE_MS
//   (5000 ms, "shiftmap worker idle") after the queue empties; a later job starts a fresh one.
// - No cache here: the HiPS layer keeps the maps it uploads (viewer-spec §9's HiPS distortion
//   cache, 5000 textures: TILE_LIMITS.shiftmaps in src/globe/tiles/limits.ts), so each map is
//   kept once. A tile that needs no map resolves to null. A map is 16 KiB; only tiles next to the
//   poles have one.
// - Transfers: the worker transfers each map's buffer to this thread (no copy), for the caller
//   to upload (RG16F, see core/shiftmap.ts); requests sharing a job share the array, which
//   they must not write to.
// - Several requests for the same tile while its job waits or runs share that job (two HiPS
//   layers over the same tiles); a request's AbortSignal rejects that request, and the job is
//   dropped when every request for it has been aborted while it waits.
import { shiftmapKey } from '../../core/shiftmap';
import { WorkerPool, type WorkerFactory } from './pool';

/** viewer-spec §9: shiftmap worker idle. */
export const SHIFTMAP_WORKER_IDLE_MS = 5000;

export interface ShiftmapServiceOptions {
  idleMs?: number;
}

interface Job {
  promise: Promise<Uint16Array | null>;
  controller: AbortController;
  /** Requests still waiting for it; at 0 the job is aborted. */
  interested: number;
}

function abortError(): Error {
  return new DOMException('The job was aborted', 'AbortError');
}

export class ShiftmapService {
  private readonly pool: WorkerPool;
  private readonly jobs = new Map<string, Job>();

  constructor(factory: WorkerFactory, options: ShiftmapServiceOptions = {}) {
    this.pool = new WorkerPool(factory, 1, { idleMs: options.idleMs ?? SHIFTMAP_WORKER_IDLE_MS });
  }

  /** Shiftmap workers running now: 0 before the first job and after the idle time. */
  get running(): number {
    return this.pool.running;
  }

  /** Jobs queued or running. */
  get pending(): number {
    return this.pool.pending;
  }

  /** The shiftmap of a tile, computed in the worker; null when the tile needs none. */
  get(order: number, ipix: number | bigint, signal?: AbortSignal): Promise<Uint16Array | null> {
    const key = shiftmapKey(order, ipix);
    if (signal?.aborted) return Promise.reject(abortError());
    let job = this.jobs.get(key);
    if (!job) {
      const controller = new AbortController();
      const promise = this.pool.run('shiftmap', [order, ipix], { signal: controller.signal }).then(
        (texels) => {
          if (this.jobs.get(key) === created) this.jobs.delete(key);
          return texels;
        },
        (error: unknown) => {
          if (this.jobs.get(key) === created) this.jobs.delete(key);
          throw error;
        },
      );
      const created: Job = { promise, controller, interested: 0 };
      job = created;
      this.jobs.set(key, job);
    }
    const shared = job;
    shared.interested++;
    if (!signal) return shared.promise;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        reject(abortError());
        if (--shared.interested === 0) {
          this.jobs.delete(key);
          shared.controller.abort();
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error as Error);
        },
      );
    });
  }

  /** Stops the worker; pending requests reject. */
  terminate(): void {
    this.pool.terminate();
    this.jobs.clear();
  }
}
