// How long the disk takes to make a write durable while the load bench runs: an 8 KiB write and
// its fdatasync, every PROBE_INTERVAL_MS, in the folder the database writes to. Every acknowledged
// answer waits for such a flush (PostgreSQL's commit; PGlite's too, server/db/pglite-durable.ts),
// so a run whose disk stalled cannot have a short tail, whatever the server does. On this
// project's virtual machines the flush usually takes well under a millisecond, but the disk has
// stretches in which single writes take 40–250 ms, and a run may meet one or none (README, "How
// the bench plays a running game"): the probe says which kind of run a row came from.
import fs from 'node:fs/promises';
import path from 'node:path';

/** Often enough to catch a stall of 50 ms; 20 flushes a second are noise beside the database's. */
const PROBE_INTERVAL_MS = 50;

/** One database page (PostgreSQL's block size). */
const PROBE_BYTES = 8192;

export interface DiskFlushProbe {
  /** Stops probing and returns the flush times in ms, in the order they were measured. */
  stop(): Promise<number[]>;
}

/** Starts probing in `directory` (which must exist); the probe's file is removed by stop(). */
export async function startDiskFlushProbe(directory: string): Promise<DiskFlushProbe> {
  const file = path.join(directory, 'disk-flush-probe');
  const handle = await fs.open(file, 'w');
  const page = Buffer.alloc(PROBE_BYTES, 0x2a);
  // The file's block is allocated and its size written before the first timed flush, so each
  // timed flush writes data only, as a commit into PostgreSQL's preallocated WAL does.
  await handle.write(page, 0, PROBE_BYTES, 0);
  await handle.sync();
  const flushMs: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await handle.write(page, 0, PROBE_BYTES, 0);
      await handle.datasync();
      flushMs.push(performance.now() - started);
      const wait = PROBE_INTERVAL_MS - (performance.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  // A failed write or flush (a full disk) is thrown by stop(), not reported as unhandled meanwhile.
  loop.catch(() => {});
  return {
    async stop() {
      running = false;
      try {
        await loop;
      } finally {
        await handle.close();
        await fs.rm(file, { force: true });
      }
      return flushMs;
    },
  };
}
