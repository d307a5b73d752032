// The one worker pool (ARCHITECTURE.md): N decoder workers, jobs to the least busy one,
// buffers transferred (never copied), a failing job rejects with its Error, and a worker that
// crashes is logged, terminated and replaced so the pool keeps its size.
import * as Comlink from 'comlink';
import type { DecoderApi } from './decoder-api';

/** A started worker: its comlink endpoint and how to stop it. */
export interface PoolWorker {
  endpoint: Comlink.Endpoint;
  terminate(): void;
  /** Registers a callback for an uncaught error inside the worker. */
  onCrash(listener: (error: unknown) => void): void;
}

export type WorkerFactory = () => PoolWorker;

/** N = min(4, max(1, cores − 1)): leave one core to the page, never more than four decoders. */
export function defaultPoolSize(cores: number): number {
  return Math.min(4, Math.max(1, cores - 1));
}

type Method = keyof DecoderApi;

interface Slot {
  worker: PoolWorker;
  api: Comlink.Remote<DecoderApi>;
  busy: number;
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private closed = false;

  constructor(
    private readonly factory: WorkerFactory,
    readonly size: number,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.start());
  }

  private start(): Slot {
    const worker = this.factory();
    const slot: Slot = { worker, api: Comlink.wrap<DecoderApi>(worker.endpoint), busy: 0 };
    worker.onCrash((error) => this.replace(slot, error));
    return slot;
  }

  private replace(slot: Slot, error: unknown): void {
    console.error('decoder worker crashed; replacing it', error);
    slot.worker.terminate();
    const index = this.slots.indexOf(slot);
    if (index >= 0 && !this.closed) this.slots[index] = this.start();
  }

  /**
   * Runs `method` on the least busy worker. Buffers in `transfer` move to the worker and are
   * unusable here afterwards.
   */
  async run<M extends Method>(
    method: M,
    args: Parameters<DecoderApi[M]>,
    transfer: Transferable[] = [],
  ): Promise<Awaited<ReturnType<DecoderApi[M]>>> {
    if (this.closed) throw new Error('worker pool is closed');
    const slot = this.slots.reduce((best, s) => (s.busy < best.busy ? s : best));
    slot.busy++;
    try {
      const call = slot.api[method] as unknown as (...a: unknown[]) => Promise<unknown>;
      const transferred = args.map((arg) =>
        transfer.length && arg instanceof Uint8Array ? Comlink.transfer(arg, transfer) : arg,
      );
      return (await call(...transferred)) as Awaited<ReturnType<DecoderApi[M]>>;
    } catch (error) {
      throw error instanceof Error ? error : new Error(String(error));
    } finally {
      slot.busy--;
    }
  }

  terminate(): void {
    this.closed = true;
    for (const slot of this.slots) {
      slot.api[Comlink.releaseProxy]();
      slot.worker.terminate();
    }
  }
}
