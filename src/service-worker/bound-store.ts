// The cache bounds' books in IndexedDB (cache-bound.ts): one object store per bounded cache,
// keyed by URL, in one database of the service worker's.
import { openDB, type IDBPDatabase } from 'idb';
import type { BoundRecord, BoundStore } from './cache-bound';

const DATABASE = 'galaxy-cruise-cache-bounds';

/** The stores of the named caches; a new bounded cache is a new version with its store added. */
export function indexedDbBoundStores(cacheNames: readonly string[]): (cacheName: string) => BoundStore {
  let database: Promise<IDBPDatabase> | null = null;
  const open = () =>
    (database ??= openDB(DATABASE, 1, {
      upgrade(db) {
        for (const name of cacheNames)
          if (!db.objectStoreNames.contains(name)) db.createObjectStore(name, { keyPath: 'url' });
      },
    }));
  return (cacheName) => ({
    all: async () => (await open()).getAll(cacheName) as Promise<BoundRecord[]>,
    put: async (record) => {
      await (await open()).put(cacheName, record);
    },
    delete: async (urls) => {
      if (urls.length === 0) return;
      const transaction = (await open()).transaction(cacheName, 'readwrite');
      await Promise.all([...urls.map((url) => transaction.store.delete(url)), transaction.done]);
    },
  });
}
