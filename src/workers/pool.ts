// The one worker pool (ARCHITECTURE.md): N decoder workers, one job at a time each, a FIFO of
// waiting jobs. Buffers are transferred (never copied); a failing job rejects with its Error;
// a job whose AbortSignal fires is dropped if still waiting and its result discarded if
// running (stale tiles after the camera moved); a worker that crashes is logged, terminated
// and replaced, and the job it held rejects instead of hanging. With `idleMs` the pool starts
// its workers only when a job is queued and terminates them `idleMs` after the last job ends
// (viewer-spec §4: the shiftmap worker starts on the first job, stops 5 s after the queue empties).
import * as Comlink from 'comlink';
import type { DecoderApi } from './decoder-api';

/** A started worker: its comlink endpoint and how to stop it. */
export interface PoolWorker {
  endpoint: Comlink.Endpoint;
  terminate(): void;
  /** Registers a callback for an uncaught error inside the worker or its unexpected exit. */
  onCrash(listener: (error: unknown) => void): void;
}

export type WorkerFactory = () => PoolWorker;

export interface PoolOptions {
  /** Start workers on demand and terminate them all this many ms after the queue empties. */
  idleMs?: number;
}

/** N = min(4, max(1, cores − 1)): leave one core to the page, never more than four decoders. */
export function defaultPoolSize(cores: number): number {
  return Math.min(4, Math.max(1, cores - 1));
}

type Method = keyof DecoderApi;
type Result<M extends Method> = Awaited<ReturnType<DecoderApi[M]>>;

export interface RunOptions {
  /** Buffers to move to the worker; unusable by the caller afterwards. */
  transfer?: Transferable[];
  /** Aborting drops a waiting job and rejects the caller's promise with an AbortError. */
  signal?: AbortSignal;
}

interface Job {
  method: Method;
  args: unknown[];
  transfer: Transferable[];
  signal?: AbortSignal;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: PoolWorker;
  api: Comlink.Remote<DecoderApi>;
  job: Job | null;
  dead: boolean;
}

function abortError(): Error {
  return new DOMException('The job was aborted', 'AbortError');
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * What a caller of the decoder pool uses: its run. The globe hands it to the layers
 * (LayerContext.decoder), so that they decode through the pool they were given.
 */
export type DecoderPool = Pick<WorkerPool, 'run'>;

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private closed = false;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly factory: WorkerFactory,
    readonly size: number,
    private readonly options: PoolOptions = {},
  ) {
    if (options.idleMs === undefined) for (let i = 0; i < size; i++) this.slots.push(this.start());
  }

  /** Workers running now (all `size` of them, unless started on demand with `idleMs`). */
  get running(): number {
    return this.slots.length;
  }

  /** Jobs waiting for a free worker (for loading-progress displays). */
  get pending(): number {
    return this.waiting.length + this.slots.filter((slot) => slot.job).length;
  }

  private start(): Slot {
    const worker = this.factory();
    const slot: Slot = { worker, api: Comlink.wrap<DecoderApi>(worker.endpoint), job: null, dead: false };
    worker.onCrash((error) => this.replace(slot, error));
    return slot;
  }

  private replace(slot: Slot, error: unknown): void {
    if (slot.dead) return;
    slot.dead = true;
    console.error('decoder worker crashed; replacing it', error);
    slot.worker.terminate();
    slot.job?.reject(new Error(`decoder worker crashed: ${asError(error).message}`));
    slot.job = null;
    const index = this.slots.indexOf(slot);
    if (index >= 0 && !this.closed) {
      // On demand, the next queued job starts a worker; otherwise replace it now.
      if (this.options.idleMs === undefined) this.slots[index] = this.start();
      else this.slots.splice(index, 1);
      this.dispatch();
    }
  }

  run<M extends Method>(method: M, args: Parameters<DecoderApi[M]>, options: RunOptions = {}): Promise<Result<M>> {
    if (this.closed) return Promise.reject(new Error('worker pool is closed'));
    if (options.signal?.aborted) return Promise.reject(abortError());
    return new Promise<Result<M>>((resolve, reject) => {
      const job: Job = {
        method,
        args,
        transfer: options.transfer ?? [],
        signal: options.signal,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      options.signal?.addEventListener(
        'abort',
        () => {
          const index = this.waiting.indexOf(job);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(abortError());
        },
        { once: true },
      );
      this.waiting.push(job);
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.job || slot.dead) continue;
      const job = this.waiting.shift();
      if (!job) break;
      void this.execute(slot, job);
    }
    if (this.options.idleMs === undefined || this.closed) return;
    while (this.waiting.length > 0 && this.slots.length < this.size) {
      let slot: Slot;
      try {
        slot = this.start();
      } catch (error) {
        // No worker can be started (no Worker support, a bad URL): fail the jobs, not the pool.
        for (const job of this.waiting.splice(0))
          job.reject(new Error(`cannot start a worker: ${asError(error).message}`));
        break;
      }
      this.slots.push(slot);
      void this.execute(slot, this.waiting.shift()!);
    }
    this.scheduleIdleStop(this.options.idleMs);
  }

  /** (Re)arms the idle timer when nothing is queued or running; any job disarms it. */
  private scheduleIdleStop(idleMs: number): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.pending > 0 || this.slots.length === 0) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.pending > 0) return;
      for (const slot of this.slots.splice(0)) {
        slot.dead = true;
        slot.api[Comlink.releaseProxy]();
        slot.worker.terminate();
      }
    }, idleMs);
  }

  private async execute(slot: Slot, job: Job): Promise<void> {
    slot.job = job;
    const call = slot.api[job.method] as unknown as (...args: unknown[]) => Promise<unknown>;
    // comlink transfers the buffers registered for the first argument that carries them.
    const args = job.transfer.length ? [Comlink.transfer(job.args[0], job.transfer), ...job.args.slice(1)] : job.args;
    try {
      const value = await call(...args);
      if (slot.job === job) job.resolve(value);
    } catch (error) {
      if (slot.job === job) job.reject(asError(error));
    } finally {
      if (slot.job === job) slot.job = null;
      this.dispatch();
    }
  }

  terminate(): void {
    this.closed = true;
    clearTimeout(this.idleTimer);
    for (const job of this.waiting.splice(0)) job.reject(new Error('worker pool is closed'));
    for (const slot of this.slots) {
      slot.dead = true;
      slot.job?.reject(new Error('worker pool is closed'));
      slot.api[Comlink.releaseProxy]();
      slot.worker.terminate();
    }
  }
}
