// The one least-recently-used cache of the globe (tile textures, decoded images, HiPS tiles,
// shiftmaps): a Map keeps insertion order, so re-inserting on use makes its first key the least
// recently used one. An evicted or deleted value is handed to `onEvict` (to free its texture).
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(
    readonly capacity: number,
    private readonly onEvict: (value: V, key: K) => void = () => {},
  ) {
    if (!(capacity >= 1)) throw new Error(`cache capacity must be at least 1, not ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value, marked as just used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The value, leaving the order alone. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Stores a value as the most recently used one, evicting the least recently used beyond capacity. */
  set(key: K, value: V): void {
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      if (previous !== value) this.onEvict(previous, key);
    }
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [K, V];
      this.entries.delete(oldestKey);
      this.onEvict(oldest, oldestKey);
    }
  }

  delete(key: K): boolean {
    const value = this.entries.get(key);
    if (value === undefined) return false;
    this.entries.delete(key);
    this.onEvict(value, key);
    return true;
  }

  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  clear(): void {
    for (const [key, value] of [...this.entries]) {
      this.entries.delete(key);
      this.onEvict(value, key);
    }
  }
}
