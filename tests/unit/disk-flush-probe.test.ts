// The load bench's disk probe (bench/disk-flush-probe.ts): readied before the load, it times
// one durable 8 KiB write every 50 ms from start() until stopped, and leaves nothing behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDiskFlushProbe } from '../../bench/disk-flush-probe';

describe('the disk flush probe', () => {
  const directories: string[] = [];
  afterEach(() => {
    for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
  });

  it('times a flush every 50 ms and removes its file when stopped', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-probe-'));
    directories.push(directory);
    const probe = await openDiskFlushProbe(directory);
    expect(fs.readdirSync(directory)).toEqual(['disk-flush-probe']);
    // Readied, not yet probing: nothing is timed before start().
    await new Promise((resolve) => setTimeout(resolve, 200));
    probe.start();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const flushMs = await probe.stop();
    // 400 ms hold 8 periods of 50 ms; a slow disk or a busy machine may fit fewer, never more.
    expect(flushMs.length).toBeGreaterThanOrEqual(2);
    expect(flushMs.length).toBeLessThanOrEqual(9);
    for (const ms of flushMs) {
      expect(Number.isFinite(ms)).toBe(true);
      expect(ms).toBeGreaterThan(0);
    }
    expect(fs.readdirSync(directory)).toEqual([]);
  });

  it('returns no flushes when stopped before it started, and removes its file', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-probe-'));
    directories.push(directory);
    const probe = await openDiskFlushProbe(directory);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await probe.stop()).toEqual([]);
    expect(fs.readdirSync(directory)).toEqual([]);
  });

  it('fails at once in a folder that does not exist', async () => {
    const missing = path.join(os.tmpdir(), `galaxy-cruise-probe-missing-${process.pid}`);
    await expect(openDiskFlushProbe(missing)).rejects.toThrow(/ENOENT/);
  });
});
