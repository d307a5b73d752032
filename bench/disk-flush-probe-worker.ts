// The disk flush probe's loop (./disk-flush-probe.ts) on a thread of its own: a synchronous write
// and fdatasync, timed where they run. Timed from the bench's event loop, which the load keeps
// busy, each flush would also count the wait for that loop to run its callback.
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';

export interface DiskFlushProbeApi {
  /**
   * Creates `file` with `bytes` bytes and syncs it, so that each timed flush writes data only, as
   * a commit into PostgreSQL's preallocated WAL does.
   */
  prepare(file: string, bytes: number): void;
  /**
   * Rewrites the file's first `bytes` and flushes them every `intervalMs` until stop[0] is set
   * (Atomics.notify ends the pause at once), and returns each flush's time in ms, in order.
   */
  run(file: string, bytes: number, intervalMs: number, stop: Int32Array): number[];
}

const api: DiskFlushProbeApi = {
  prepare(file, bytes) {
    const fd = fs.openSync(file, 'w');
    try {
      fs.writeSync(fd, Buffer.alloc(bytes, 0x2a), 0, bytes, 0);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  },
  run(file, bytes, intervalMs, stop) {
    const fd = fs.openSync(file, 'r+');
    const page = Buffer.alloc(bytes, 0x2a);
    const flushMs: number[] = [];
    try {
      while (Atomics.load(stop, 0) === 0) {
        const started = performance.now();
        fs.writeSync(fd, page, 0, bytes, 0);
        fs.fdatasyncSync(fd);
        flushMs.push(performance.now() - started);
        const wait = intervalMs - (performance.now() - started);
        if (wait > 0) Atomics.wait(stop, 0, 0, wait);
      }
    } finally {
      fs.closeSync(fd);
    }
    return flushMs;
  },
};

if (!parentPort) throw new Error('disk-flush-probe-worker must run inside a worker');
Comlink.expose(api, nodeEndpoint(parentPort));
