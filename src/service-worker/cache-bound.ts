// A bound on a Cache Storage cache by count and by bytes, least recently used out first.
// Workbox's ExpirationPlugin bounds a cache by count and age only; a volunteer's disk is bounded
// in bytes, and a survey tile weighs ten times a HiPS tile, so the bytes are counted here.
//
// The book (url → bytes, last use) is kept in memory in the order of use (a Map re-inserts an
// entry at its end on use, so its first key is the least recently used) and written through to a
// store (IndexedDB in the worker, bound-store.ts), from which a restarted worker reads it back:
// a service worker is stopped whenever it idles. The writes go in order on a chain of their own,
// not awaited by the bound's steps: the book in memory is the truth while the worker runs, and a
// cache fills a file at a time. On that first read the book and the cache are
// reconciled, so that what is counted is what is stored: a record of a file no longer in the
// cache is dropped; a file in the cache that the book does not know (its record lost when the
// worker was stopped, or a put whose record is on its way) is counted at its size as the least
// recently used, first out. Every change goes through one queue, so that concurrent puts and
// uses see each other.
//
// The store and the cache are injected: the logic is tested without a browser
// (tests/unit/cache-bound.test.ts), and the worker runs it over the real ones (tests/e2e/pwa.spec.ts).
import type { CacheLimits } from './caches';

export interface BoundRecord {
  url: string;
  /** The body's size as stored. */
  bytes: number;
  /** When the file was last put or read (ms since the epoch): the order a restarted worker restores. */
  usedAt: number;
}

export interface BoundStore {
  all(): Promise<BoundRecord[]>;
  put(record: BoundRecord): Promise<void>;
  delete(urls: readonly string[]): Promise<void>;
}

/** The part of a Cache the bound uses. */
export interface BoundCache {
  keys(): Promise<readonly { url: string }[]>;
  match(url: string): Promise<{ blob(): Promise<{ size: number }> } | undefined>;
  delete(url: string): Promise<boolean>;
}

export interface BoundUsage {
  entries: number;
  bytes: number;
}

export class CacheBound {
  private book: Map<string, BoundRecord> | null = null;
  private bytes = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    readonly limits: CacheLimits,
    private readonly store: BoundStore,
    private readonly openCache: () => Promise<BoundCache>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A file of `bytes` was put in the cache (new or replaced): it is the most recently used; then the bound is applied. */
  added(url: string, bytes: number): Promise<void> {
    return this.serially(async (book) => {
      const old = book.get(url);
      if (old) {
        book.delete(url);
        this.bytes -= old.bytes;
        if (bytes > this.limits.maxBytes) this.write(() => this.store.delete([url]));
      }
      // A file larger than the whole bound would push every other out and still not fit.
      if (bytes > this.limits.maxBytes) {
        await (await this.openCache()).delete(url);
        return;
      }
      const record = { url, bytes, usedAt: this.now() };
      book.set(url, record);
      this.bytes += bytes;
      this.write(() => this.store.put(record));
      await this.evict(book);
    });
  }

  /** A cached file was read: it becomes the most recently used. */
  used(url: string): Promise<void> {
    return this.serially(async (book) => {
      const record = book.get(url);
      if (!record) return;
      book.delete(url);
      record.usedAt = this.now();
      book.set(url, record);
      this.write(() => this.store.put(record));
    });
  }

  /** Files deleted from the cache by someone else (a folder whose metadata changed). */
  removed(urls: readonly string[]): Promise<void> {
    return this.serially(async (book) => {
      const known = urls.filter((url) => book.has(url));
      for (const url of known) {
        this.bytes -= book.get(url)!.bytes;
        book.delete(url);
      }
      if (known.length > 0) this.write(() => this.store.delete(known));
    });
  }

  /** What the cache holds now, as counted. */
  usage(): Promise<BoundUsage> {
    return this.serially(async (book) => ({ entries: book.size, bytes: this.bytes }));
  }

  /** The URLs held, least recently used first. */
  urls(): Promise<string[]> {
    return this.serially(async (book) => [...book.keys()]);
  }

  /** Resolves once every write to the store made so far is done. */
  async flushed(): Promise<void> {
    await this.queue;
    await this.writes;
  }

  private write(work: () => Promise<void>): void {
    // A failed write (the disk full) loses a record, which the next start's reconciliation mends.
    this.writes = this.writes.then(work).catch(() => undefined);
  }

  private serially<T>(work: (book: Map<string, BoundRecord>) => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => work(await this.load()));
    // A failed step (the disk full, say) fails its caller, not every later one.
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<Map<string, BoundRecord>> {
    if (this.book) return this.book;
    const records = (await this.store.all()).sort((a, b) => a.usedAt - b.usedAt);
    const cache = await this.openCache();
    const cached = new Set((await cache.keys()).map((request) => request.url));
    const known = new Set(records.map((record) => record.url));
    const book = new Map<string, BoundRecord>();
    for (const url of cached) {
      if (known.has(url)) continue;
      const response = await cache.match(url);
      if (!response) continue;
      const record = { url, bytes: (await response.blob()).size, usedAt: 0 };
      book.set(url, record);
      this.write(() => this.store.put(record));
    }
    const lost: string[] = [];
    for (const record of records) {
      if (cached.has(record.url)) book.set(record.url, record);
      else lost.push(record.url);
    }
    if (lost.length > 0) this.write(() => this.store.delete(lost));
    this.bytes = [...book.values()].reduce((sum, record) => sum + record.bytes, 0);
    this.book = book;
    await this.evict(book);
    return book;
  }

  private async evict(book: Map<string, BoundRecord>): Promise<void> {
    const { maxEntries, maxBytes } = this.limits;
    if (book.size <= maxEntries && this.bytes <= maxBytes) return;
    const evicted: string[] = [];
    for (const [url, record] of book) {
      if (book.size <= maxEntries && this.bytes <= maxBytes) break;
      book.delete(url);
      this.bytes -= record.bytes;
      evicted.push(url);
    }
    const cache = await this.openCache();
    await Promise.all(evicted.map((url) => cache.delete(url)));
    this.write(() => this.store.delete(evicted));
  }
}
