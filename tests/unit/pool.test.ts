import fs from 'node:fs';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startNodeWorker } from '../../src/workers/node-pool';
import { WorkerPool, defaultPoolSize } from '../../src/workers/pool';

const pools: WorkerPool[] = [];
function pool(size: number, factory = () => startNodeWorker()): WorkerPool {
  const created = new WorkerPool(factory, size);
  pools.push(created);
  return created;
}
afterEach(() => {
  for (const created of pools.splice(0)) created.terminate();
  vi.restoreAllMocks();
});

describe('worker pool size', () => {
  it('is N = min(4, max(1, cores − 1))', () => {
    expect([1, 2, 3, 4, 5, 8, 64].map(defaultPoolSize)).toEqual([1, 1, 2, 3, 4, 4, 4]);
  });
});

describe('worker pool jobs', () => {
  it('runs the wasm core in real worker threads and transfers the input buffer', async () => {
    const workers = pool(2);
    const bytes = fs.readFileSync('package-lock.json');
    const expected = zlib.crc32(bytes);
    const copies = Array.from({ length: 6 }, () => new Uint8Array(bytes));
    const results = await Promise.all(copies.map((copy) => workers.run('crc32', [copy], { transfer: [copy.buffer] })));
    expect(results).toEqual(copies.map(() => expected));
    // Transferred, not copied: the caller's buffers are detached.
    expect(copies.every((copy) => copy.byteLength === 0)).toBe(true);
  });

  it('decodes a FITS image in a worker (wasm core), gzip-compressed too, pixels transferred back', async () => {
    // A 3 × 2 BITPIX -32 image with BSCALE 2 and BZERO 1: physical = 1 + 2 × raw.
    const card = (text: string) => text.padEnd(80, ' ');
    const header = [
      card('SIMPLE  =                    T'),
      card('BITPIX  =                  -32'),
      card('NAXIS   =                    2'),
      card('NAXIS1  =                    3'),
      card('NAXIS2  =                    2'),
      card('BSCALE  =                    2'),
      card('BZERO   =                    1'),
      card('END'),
    ]
      .join('')
      .padEnd(2880, ' ');
    const raw = [0, 1, 2, 3, 4, -0.5];
    const data = Buffer.alloc(2880);
    raw.forEach((value, k) => data.writeFloatBE(value, 4 * k));
    const file = new Uint8Array(Buffer.concat([Buffer.from(header, 'latin1'), data]));
    const workers = pool(1);
    for (const bytes of [file, new Uint8Array(zlib.gzipSync(file))]) {
      const image = await workers.run('decodeFits', [bytes], { transfer: [bytes.buffer] });
      expect(image.axes).toEqual([3, 2]);
      expect(Array.from(image.pixels)).toEqual(raw.map((value) => 1 + 2 * value));
      expect(bytes.byteLength).toBe(0);
    }
  });

  it('rejects a failing job with an Error carrying the worker error message', async () => {
    const workers = pool(1);
    const failure = workers.run('loadStars', ['http://127.0.0.1:9/hipparcos-catalog/none.f32.gz']);
    await expect(failure).rejects.toBeInstanceOf(Error);
    await expect(failure).rejects.toThrow(/fetch failed|ECONNREFUSED/);
    // The worker survives a failed job.
    expect(await workers.run('crc32', [new TextEncoder().encode('123456789')])).toBe(0xcbf43926);
  });

  it('drops a stale job whose signal aborts while it waits', async () => {
    const workers = pool(1);
    const big = new Uint8Array(64 << 20);
    const first = workers.run('crc32', [big]);
    const controller = new AbortController();
    const stale = workers.run('crc32', [new Uint8Array(16)], { signal: controller.signal });
    expect(workers.pending).toBe(2);
    controller.abort();
    await expect(stale).rejects.toMatchObject({ name: 'AbortError' });
    expect(await first).toBe(zlib.crc32(big));
    expect(workers.pending).toBe(0);
  });

  it('logs, terminates and replaces a crashed worker; its job rejects instead of hanging', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    let started = 0;
    const workers = pool(1, () =>
      ++started === 1 ? startNodeWorker(new URL('../fixtures/crashing.worker.ts', import.meta.url)) : startNodeWorker(),
    );
    const doomed = workers.run('crc32', [new Uint8Array(8)]);
    await expect(doomed).rejects.toThrow(/decoder worker crashed/);
    expect(errors).toHaveBeenCalledWith('decoder worker crashed; replacing it', expect.any(Error));
    expect(started).toBe(2);
    expect(await workers.run('crc32', [new TextEncoder().encode('123456789')])).toBe(0xcbf43926);
  });
});
