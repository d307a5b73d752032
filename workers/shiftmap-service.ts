// Shiftmaps for the globe's HiPS tiles (viewer-spec §4 and §9), computed off the main thread.
//
// - The worker: a decoder worker (DecoderApi.shiftmap) in a WorkerPool of one started on
//   demand, so it starts when the first job is queued and is terminated SHIFTMAP_WORKER_IDLE_MS
//   (5000 ms, "shiftmap worker idle") after the queue empties; a later job starts a fresh one.
// - The cache: the last SHIFTMAP_CACHE_SIZE (5000, "HiPS distortion cache") results keyed by
//   (order, ipix), least recently used first out. A tile that needs no map is cached as null,
//   so it is not asked again. A map is 16 KiB; only tiles next to the poles have one.
// - Transfers: the worker transfers each map's buffer to this thread (no copy); callers share
//   the cached Uint16Array and must not write to it (upload it: RG16F, see src/core/shiftmap.ts).
// - Several requests for the same tile share one job; a request's AbortSignal rejects that
//   request, and the job is dropped when every request for it has been aborted while it waits.
import { shiftmapKey } from '../src/core/shiftmap';
import { WorkerPool, type WorkerFactory } from './pool';

/** viewer-spec §9: shiftmap worker idle. */
export const SHIFTMAP_WORKER_IDLE_MS = 5000;
/** viewer-spec §9: HiPS distortion cache. */
export const SHIFTMAP_CACHE_SIZE = 5000;

/** A map with a size bound that forgets its least recently used entry first. */
export class LruCache<K, V> {
  // A Map iterates in insertion order: re-inserting on use keeps the oldest entry first.
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`cache capacity must be at least 1, got ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value for `key` (marking it used), or undefined. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key)!;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
  }
}

export interface ShiftmapServiceOptions {
  idleMs?: number;
  cacheSize?: number;
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
  private readonly cache: LruCache<string, Uint16Array | null>;
  private readonly jobs = new Map<string, Job>();

  constructor(factory: WorkerFactory, options: ShiftmapServiceOptions = {}) {
    this.pool = new WorkerPool(factory, 1, { idleMs: options.idleMs ?? SHIFTMAP_WORKER_IDLE_MS });
    this.cache = new LruCache(options.cacheSize ?? SHIFTMAP_CACHE_SIZE);
  }

  /** Shiftmap workers running now: 0 before the first job and after the idle time. */
  get running(): number {
    return this.pool.running;
  }

  /** Jobs queued or running. */
  get pending(): number {
    return this.pool.pending;
  }

  /** Maps (and nulls) in the cache. */
  get cached(): number {
    return this.cache.size;
  }

  /** The cached result for a tile (null: it needs no map), or undefined when not computed yet. */
  peek(order: number, ipix: number | bigint): Uint16Array | null | undefined {
    return this.cache.get(shiftmapKey(order, ipix));
  }

  /** The shiftmap of a tile, from the cache or from the worker; null when the tile needs none. */
  get(order: number, ipix: number | bigint, signal?: AbortSignal): Promise<Uint16Array | null> {
    const key = shiftmapKey(order, ipix);
    const cached = this.cache.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    if (signal?.aborted) return Promise.reject(abortError());
    let job = this.jobs.get(key);
    if (!job) {
      const controller = new AbortController();
      const promise = this.pool.run('shiftmap', [order, ipix], { signal: controller.signal }).then(
        (texels) => {
          if (this.jobs.get(key) === created) this.jobs.delete(key);
          this.cache.set(key, texels);
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

  /** Stops the worker and forgets the cache; pending requests reject. */
  terminate(): void {
    this.pool.terminate();
    this.cache.clear();
    this.jobs.clear();
  }
}
