// How long the disk takes to make a write durable while the load bench runs: an 8 KiB write and
// its fdatasync, every PROBE_INTERVAL_MS, in the folder the database writes to. Every acknowledged
// answer waits for such a flush (PostgreSQL's commit; PGlite's too, server/db/pglite-durable.ts),
// so a run whose disk stalled cannot have a short tail, whatever the server does. A shared or
// virtual disk may have stretches in which single writes stall, and a run may meet one or none:
// the probe says which kind of run a row came from.
import fs from 'node:fs/promises';
import path from 'node:path';
import * as Comlink from 'comlink';
import { crashGuard } from '../core/node-worker';
import { startNodeWorker } from '../src/workers/node-pool';
import type { DiskFlushProbeApi } from './disk-flush-probe-worker';

/** Often enough to catch a stall of 50 ms; 20 flushes a second are noise beside the database's. */
const PROBE_INTERVAL_MS = 50;

/** One database page (PostgreSQL's block size). */
const PROBE_BYTES = 8192;

export interface DiskFlushProbe {
  /** Starts the timed flushes: the first runs at once. */
  start(): void;
  /**
   * Stops probing and returns the flush times in ms, in the order they were measured (none if
   * never started), and removes the probe's file.
   */
  stop(): Promise<number[]>;
}

/**
 * Readies a probe in `directory` (which must exist) on a worker thread
 * (./disk-flush-probe-worker.ts): the thread started and the probe's file written and synced.
 * This is done before the load, not as its window opens: starting the thread (its modules loaded
 * and compiled) takes a core for a while, which the server and the database would lose just as
 * the window opens.
 */
export async function openDiskFlushProbe(directory: string): Promise<DiskFlushProbe> {
  const file = path.join(directory, 'disk-flush-probe');
  const worker = startNodeWorker(new URL('./disk-flush-probe-worker.ts', import.meta.url));
  const api = Comlink.wrap<DiskFlushProbeApi>(worker.endpoint);
  const guarded = crashGuard(worker);
  const close = async () => {
    worker.terminate();
    await fs.rm(file, { force: true });
  };
  try {
    await guarded(api.prepare(file, PROBE_BYTES));
  } catch (error) {
    await close();
    throw error;
  }
  const stopFlag = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  let flushes: Promise<number[]> = Promise.resolve([]);
  return {
    start() {
      flushes = guarded(api.run(file, PROBE_BYTES, PROBE_INTERVAL_MS, stopFlag));
      // A failed write or flush (a full disk) is thrown by stop(), not reported as unhandled meanwhile.
      flushes.catch(() => {});
    },
    async stop() {
      Atomics.store(stopFlag, 0, 1);
      Atomics.notify(stopFlag, 0);
      try {
        return await flushes;
      } finally {
        await close();
      }
    },
  };
}
