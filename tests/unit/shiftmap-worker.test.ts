// The shiftmap worker (viewer-spec §4: "Shiftmap worker starts when the first job is queued and
// stops 5 s after the queue empties"; §9: shiftmap worker idle 5000 ms), with real worker
// threads. The maps are cached once, as the HiPS layer's textures (tile-engine.test.ts checks
// the 5000 of TILE_LIMITS.shiftmaps).
import { afterEach, describe, expect, it } from 'vitest';
import { computeShiftmap } from '../../core/shiftmap';
import { loadCore } from '../../core/wasm';
import { startNodeWorker } from '../../src/workers/node-pool';
import type { PoolWorker } from '../../src/workers/pool';
import {
  SHIFTMAP_WORKER_IDLE_MS,
  ShiftmapService,
  type ShiftmapServiceOptions,
} from '../../src/workers/shiftmap-service';

// The tile at the north pole of face 0 at order 3 needs a map; the centre of face 5 does not.
const POLAR = { order: 3, ipix: 63 };
const EQUATORIAL = { order: 3, ipix: 5 * 64 + 48 };

/** A service over real worker threads that records when each worker starts and is terminated. */
function service(options: ShiftmapServiceOptions = {}) {
  const events: { started: number; terminated?: number }[] = [];
  const created = new ShiftmapService(() => {
    const worker = startNodeWorker();
    const event: { started: number; terminated?: number } = { started: performance.now() };
    events.push(event);
    const tracked: PoolWorker = {
      endpoint: worker.endpoint,
      onCrash: worker.onCrash,
      terminate() {
        event.terminated = performance.now();
        worker.terminate();
      },
    };
    return tracked;
  }, options);
  services.push(created);
  return { service: created, events };
}
const services: ShiftmapService[] = [];
afterEach(() => {
  for (const created of services.splice(0)) created.terminate();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('shiftmap worker idle 5000 ms', () => {
  it('uses the spec constant by default', () => {
    expect(SHIFTMAP_WORKER_IDLE_MS).toBe(5000);
  });
});

describe('the shiftmap worker starts when the first job is queued and stops 5 s after the queue empties', () => {
  it('starts no worker before the first job, one for a burst of jobs, stops it ~5 s after the last', async () => {
    const { service: shiftmaps, events } = service();
    await sleep(200);
    expect(shiftmaps.running).toBe(0);
    expect(events).toHaveLength(0);

    const first = shiftmaps.get(POLAR.order, POLAR.ipix);
    expect(shiftmaps.running).toBe(1);
    await first;
    // More jobs while it runs or idles reuse the same worker.
    await sleep(300);
    const more = await Promise.all([0, 1, 2, 3].map((k) => shiftmaps.get(3, 60 + k)));
    expect(more.some((texels) => texels !== null)).toBe(true);
    const queueEmptied = performance.now();
    // A timer of the same length set now: on a busy machine every timer fires late, so the
    // worker's stop is measured against this one rather than against the wall clock.
    let controlFired = 0;
    setTimeout(() => (controlFired = performance.now()), SHIFTMAP_WORKER_IDLE_MS);
    expect(events).toHaveLength(1);
    expect(shiftmaps.running).toBe(1);

    await sleep(SHIFTMAP_WORKER_IDLE_MS - 600);
    expect(shiftmaps.running).toBe(1);
    expect(events[0].terminated).toBeUndefined();
    await expect.poll(() => shiftmaps.running, { timeout: 60_000, interval: 50 }).toBe(0);
    await expect.poll(() => controlFired, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
    const terminated = events[0].terminated!;
    expect(terminated - queueEmptied).toBeGreaterThanOrEqual(SHIFTMAP_WORKER_IDLE_MS - 50);
    expect(Math.abs(terminated - controlFired)).toBeLessThan(500);

    // A later job starts a fresh worker.
    const again = await shiftmaps.get(4, 255);
    expect(again).toBeInstanceOf(Uint16Array);
    expect(events).toHaveLength(2);
    expect(shiftmaps.running).toBe(1);
  });

  it('computes in the worker what the core computes here, and transfers it out', async () => {
    const { service: shiftmaps } = service({ idleMs: 100 });
    const core = await loadCore();
    const texels = await shiftmaps.get(POLAR.order, POLAR.ipix);
    expect(texels).toBeInstanceOf(Uint16Array);
    expect(Array.from(texels!)).toEqual(Array.from(computeShiftmap(core, POLAR.order, POLAR.ipix)!));
    // Its own 16 KiB buffer, moved from the worker: not a view into the worker's wasm memory.
    expect(texels!.buffer.byteLength).toBe(16384);
    expect(await shiftmaps.get(EQUATORIAL.order, EQUATORIAL.ipix)).toBeNull();
    // BigInt pixel ids travel too (ids past 2^53 at high orders).
    expect(await shiftmaps.get(29, (1n << 58n) - 1n)).toBeInstanceOf(Uint16Array);
  });

  it('rejects a failing job with an Error and keeps working', async () => {
    const { service: shiftmaps } = service({ idleMs: 100 });
    const failure = shiftmaps.get(3, 768);
    await expect(failure).rejects.toBeInstanceOf(Error);
    await expect(failure).rejects.toThrow(/pixel 768 is out of range at order 3/);
    await expect(shiftmaps.get(30, 0)).rejects.toThrow(/order must be an integer in 0 … 29/);
    expect(await shiftmaps.get(POLAR.order, POLAR.ipix)).toBeInstanceOf(Uint16Array);
    // A failure leaves the worker working: asking again asks it again.
    await expect(shiftmaps.get(3, 768)).rejects.toThrow(/out of range/);
  });

  it('rejects the queued jobs with an Error when no worker can be started, and tries again later', async () => {
    let calls = 0;
    const shiftmaps = new ShiftmapService(
      () => {
        if (++calls === 1) throw new Error('Worker is not defined');
        return startNodeWorker();
      },
      { idleMs: 100 },
    );
    services.push(shiftmaps);
    await expect(shiftmaps.get(POLAR.order, POLAR.ipix)).rejects.toThrow(
      /cannot start a worker: Worker is not defined/,
    );
    expect(shiftmaps.running).toBe(0);
    expect(await shiftmaps.get(POLAR.order, POLAR.ipix)).toBeInstanceOf(Uint16Array);
  });

  it('rejects an aborted request with an AbortError; other requests for the tile still get it', async () => {
    const { service: shiftmaps } = service({ idleMs: 100 });
    const controller = new AbortController();
    const stale = shiftmaps.get(5, 1023, controller.signal);
    const wanted = shiftmaps.get(5, 1023);
    controller.abort();
    await expect(stale).rejects.toMatchObject({ name: 'AbortError' });
    expect(await wanted).toBeInstanceOf(Uint16Array);
    const aborted = new AbortController();
    aborted.abort();
    await expect(shiftmaps.get(5, 1022, aborted.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('requests for the same tile (order, ipix) share a job', () => {
  it('computes a tile once for the requests made while its job waits or runs, and again when asked later', async () => {
    const { service: shiftmaps } = service({ idleMs: 100 });
    const [a, b] = await Promise.all([shiftmaps.get(POLAR.order, POLAR.ipix), shiftmaps.get(POLAR.order, POLAR.ipix)]);
    expect(a).toBeInstanceOf(Uint16Array);
    expect(a).toBe(b); // one job for both requests
    // Nothing is kept here (the layer keeps the texture): a later request is a new job, whose
    // map arrives in a buffer of its own.
    const again = await shiftmaps.get(POLAR.order, POLAR.ipix);
    expect(again).not.toBe(a);
    expect(Array.from(again!)).toEqual(Array.from(a!));
    expect(await shiftmaps.get(EQUATORIAL.order, EQUATORIAL.ipix)).toBeNull();
  });
});
