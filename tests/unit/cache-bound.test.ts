// The sky caches' bound (src/service-worker/cache-bound.ts): by count and by bytes, the least
// recently used out first, a read making a file recent, and a restarted worker's book read back
// and reconciled with what the cache holds. The cache and the store are in-memory stand-ins of
// Cache Storage and IndexedDB; the service worker runs the same class over the real ones
// (tests/e2e/pwa.spec.ts: 500 targets in Chromium).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CacheBound, type BoundCache, type BoundRecord, type BoundStore } from '../../src/service-worker/cache-bound';
import { SKY_CACHE_LIMITS } from '../../src/service-worker/caches';
import { smallSky } from '../helpers/sky';

class MemoryCache implements BoundCache {
  readonly files = new Map<string, number>();
  async keys() {
    return [...this.files.keys()].map((url) => ({ url }));
  }
  async match(url: string) {
    const size = this.files.get(url);
    return size === undefined ? undefined : { blob: async () => ({ size }) };
  }
  async delete(url: string) {
    return this.files.delete(url);
  }
  /** A put as Workbox makes it: the file first, then the bound is told. */
  async put(bound: CacheBound, url: string, size: number) {
    this.files.set(url, size);
    await bound.added(url, size);
  }
  bytes() {
    return [...this.files.values()].reduce((sum, size) => sum + size, 0);
  }
}

class MemoryStore implements BoundStore {
  readonly rows = new Map<string, BoundRecord>();
  async all() {
    return [...this.rows.values()].map((row) => ({ ...row }));
  }
  async put(record: BoundRecord) {
    this.rows.set(record.url, { ...record });
  }
  async delete(urls: readonly string[]) {
    for (const url of urls) this.rows.delete(url);
  }
}

function setUp(limits: { maxEntries: number; maxBytes: number }) {
  const cache = new MemoryCache();
  const store = new MemoryStore();
  let time = 0;
  const clock = () => ++time;
  const bound = new CacheBound(limits, store, async () => cache, clock);
  return { cache, store, bound, clock };
}

describe('a cache bounded by count and bytes, least recently used out first', () => {
  it('keeps at most maxEntries files: the oldest put goes first', async () => {
    const { cache, bound } = setUp({ maxEntries: 3, maxBytes: 1e9 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) await cache.put(bound, name, 10);
    expect([...cache.files.keys()]).toEqual(['c', 'd', 'e']);
    expect(await bound.usage()).toEqual({ entries: 3, bytes: 30 });
  });

  it('keeps at most maxBytes: as many of the oldest go as the new file needs', async () => {
    const { cache, bound } = setUp({ maxEntries: 100, maxBytes: 100 });
    for (const [name, size] of [
      ['a', 40],
      ['b', 30],
      ['c', 20],
    ] as const)
      await cache.put(bound, name, size);
    await cache.put(bound, 'd', 60);
    expect([...cache.files.keys()]).toEqual(['c', 'd']);
    expect(await bound.usage()).toEqual({ entries: 2, bytes: 80 });
    // A file larger than the whole bound is not kept at all.
    await cache.put(bound, 'huge', 101);
    expect(cache.files.has('huge')).toBe(false);
    expect(await bound.usage()).toEqual({ entries: 2, bytes: 80 });
  });

  it('a file read is the most recently used: it outlives files put after it', async () => {
    const { cache, bound } = setUp({ maxEntries: 3, maxBytes: 1e9 });
    for (const name of ['a', 'b', 'c']) await cache.put(bound, name, 1);
    await bound.used('a');
    await cache.put(bound, 'd', 1);
    expect([...cache.files.keys()].sort()).toEqual(['a', 'c', 'd']);
    expect(await bound.urls()).toEqual(['c', 'a', 'd']);
  });

  it('a file put again is counted once, at its new size', async () => {
    const { cache, bound } = setUp({ maxEntries: 10, maxBytes: 1000 });
    await cache.put(bound, 'a', 100);
    await cache.put(bound, 'a', 250);
    expect(await bound.usage()).toEqual({ entries: 1, bytes: 250 });
  });

  it('files deleted by someone else (a folder whose metadata changed) leave the count', async () => {
    const { cache, bound } = setUp({ maxEntries: 10, maxBytes: 1000 });
    for (const name of ['x/1', 'x/2', 'y/1']) await cache.put(bound, name, 10);
    await cache.delete('x/1');
    await cache.delete('x/2');
    await bound.removed(['x/1', 'x/2', 'not-kept']);
    expect(await bound.usage()).toEqual({ entries: 1, bytes: 10 });
  });
});

describe('a restarted worker reads its book back', () => {
  it('in the order of use, and goes on evicting the least recently used', async () => {
    const first = setUp({ maxEntries: 3, maxBytes: 1e9 });
    for (const name of ['a', 'b', 'c']) await first.cache.put(first.bound, name, 5);
    await first.bound.used('a');
    await first.bound.flushed();
    // The worker was stopped; a new one finds the same cache and store.
    const bound = new CacheBound({ maxEntries: 3, maxBytes: 1e9 }, first.store, async () => first.cache, first.clock);
    expect(await bound.urls()).toEqual(['b', 'c', 'a']);
    await first.cache.put(bound, 'd', 5);
    expect([...first.cache.files.keys()].sort()).toEqual(['a', 'c', 'd']);
  });

  it('counts a file the book lost (put as the worker stopped) as the least recently used, and drops records of files gone', async () => {
    const { cache, store, bound, clock } = setUp({ maxEntries: 3, maxBytes: 1e9 });
    for (const name of ['a', 'b']) await cache.put(bound, name, 5);
    await bound.flushed();
    cache.files.set('lost', 7);
    cache.files.delete('b');
    const restarted = new CacheBound({ maxEntries: 3, maxBytes: 1e9 }, store, async () => cache, clock);
    expect(await restarted.urls()).toEqual(['lost', 'a']);
    expect(await restarted.usage()).toEqual({ entries: 2, bytes: 12 });
    await restarted.flushed();
    expect([...store.rows.keys()].sort()).toEqual(['a', 'lost']);
    // Full, the lost file goes first.
    await cache.put(restarted, 'c', 5);
    await cache.put(restarted, 'd', 5);
    expect([...cache.files.keys()].sort()).toEqual(['a', 'c', 'd']);
  });

  it('applies a smaller bound than the one the cache was filled under', async () => {
    const first = setUp({ maxEntries: 10, maxBytes: 1e9 });
    for (const name of ['a', 'b', 'c', 'd']) await first.cache.put(first.bound, name, 5);
    await first.bound.flushed();
    const smaller = new CacheBound({ maxEntries: 2, maxBytes: 1e9 }, first.store, async () => first.cache, first.clock);
    expect(await smaller.usage()).toEqual({ entries: 2, bytes: 10 });
    expect([...first.cache.files.keys()]).toEqual(['c', 'd']);
  });
});

describe('the sky tiles cache after 500 targets', () => {
  it('stays within SKY_CACHE_LIMITS.tiles, by count with the small sky tiles and by bytes with tiles four times heavier', async () => {
    // A target's survey tiles at its view: three filters of the small sky's tracts, at their
    // real sizes (the tiles of one tract level, as a target's view and its coarser levels ask).
    const { varDirectory } = await smallSky();
    const tract = path.join(varDirectory, 'sky', 'stellar-globe', 'static', 'wide');
    const sizes = ['HSC-G', 'HSC-R', 'HSC-I'].flatMap((filter) => {
      const folder = path.join(tract, filter);
      const tract0 = fs.readdirSync(folder)[0];
      return fs
        .readdirSync(path.join(folder, tract0), { recursive: true })
        .map((file) => path.join(folder, tract0, String(file)))
        .filter((file) => file.endsWith('.png'))
        .slice(0, 8)
        .map((file) => fs.statSync(file).size);
    });
    expect(sizes.length).toBe(24);
    for (const weight of [1, 4]) {
      const { cache, bound } = setUp(SKY_CACHE_LIMITS.tiles);
      for (let target = 0; target < 500; target++)
        for (const [index, size] of sizes.entries()) await cache.put(bound, `t${target}/${index}`, size * weight);
      const { maxEntries, maxBytes } = SKY_CACHE_LIMITS.tiles;
      expect(cache.files.size).toBeLessThanOrEqual(maxEntries);
      expect(cache.bytes()).toBeLessThanOrEqual(maxBytes);
      expect(await bound.usage()).toEqual({ entries: cache.files.size, bytes: cache.bytes() });
      // The bound, not the visit, set the size: the cache is within one file of a limit.
      const full = cache.files.size === maxEntries || cache.bytes() + Math.max(...sizes) * weight > maxBytes;
      expect(full).toBe(true);
      // The last target's files are all kept, the first target's gone.
      for (let index = 0; index < sizes.length; index++) {
        expect(cache.files.has(`t499/${index}`)).toBe(true);
        expect(cache.files.has(`t0/${index}`)).toBe(false);
      }
    }
  });
});
