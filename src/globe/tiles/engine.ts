// The tile engine shared by every tiled layer (survey, HiPS, pretty pictures), viewer-spec §4:
// a tile is requested, queued, loading, then cached, and fades in over 200 ms. Each frame the
// layer states the tiles its view wants (`want`); the engine
//   - orders the wanted tiles by priority (larger first), then finer level first, then by
//     distance from the view direction (nearer first);
//   - runs at most `concurrency` loads at once (viewer-spec §9);
//   - aborts the loads of tiles no longer wanted (they left the view) and drops them from the
//     queue;
//   - marks a tile whose load fails as dead: the error is logged, the view refreshed, and the
//     id never requested again;
//   - requests a cached tile again when its provider's revision is newer than the tile's, while
//     the stale value keeps drawing until the new one replaces it (no flicker);
//   - keeps at most `cacheSize` values in an LRU, releasing what it evicts;
//   - gives a missing tile's nearest cached ancestor (`firstCached`) so it can be drawn instead.
// The loader is injected: layers pass one that fetches and decodes in the worker pool, tests
// pass one of their own, with no GL.
import { LruCache } from './lru';
import { TILE_FADE_MS } from './limits';

export interface TileRequest {
  id: string;
  /** Larger is loaded sooner. */
  priority: number;
  /** How fine the tile is: larger is finer (a survey's −level, a HiPS order). */
  fineness: number;
  /** Angle between the tile's centre and the view direction, radians. */
  distance: number;
  /** The provider's revision; a cached tile of an older one is requested again. Default 0. */
  revision?: number;
}

export type TileLoader<T> = (id: string, signal: AbortSignal) => Promise<T>;

export interface TileEngineOptions<T> {
  loader: TileLoader<T>;
  concurrency: number;
  cacheSize: number;
  /** Frees a value that left the cache (a texture), or a load's result nobody wants any more. */
  release?: (value: T) => void;
  /** A tile arrived or died: the view should be drawn again. */
  refresh: () => void;
  /** The clock of the fades, ms (default performance.now). */
  now?: () => number;
}

export interface CachedTile<T> {
  value: T;
  revision: number;
  /** When it was cached; the fade-in runs from here. */
  loadedAt: number;
}

export type TileState = 'none' | 'queued' | 'loading' | 'cached' | 'dead';

interface Load {
  controller: AbortController;
  revision: number;
}

/** The engine's order: priority, then finer level, then distance from the view direction. */
export function compareTileRequests(a: TileRequest, b: TileRequest): number {
  return b.priority - a.priority || b.fineness - a.fineness || a.distance - b.distance;
}

export class TileEngine<T> {
  private readonly cache: LruCache<string, CachedTile<T>>;
  private readonly loads = new Map<string, Load>();
  private readonly dead = new Set<string>();
  private queue: TileRequest[] = [];
  /** The last wish, as ids, priorities and revisions in the order given (see sameWish). */
  private readonly lastIds: string[] = [];
  private readonly lastPriorities: number[] = [];
  private readonly lastRevisions: number[] = [];
  private readonly now: () => number;
  /** Loads started so far, per id (tests and the bench read it). */
  readonly started = new Map<string, number>();

  constructor(private readonly options: TileEngineOptions<T>) {
    this.cache = new LruCache(options.cacheSize, (tile) => {
      // A tile that left the cache may be wanted again: the next wish is rebuilt.
      this.forgetWish();
      options.release?.(tile.value);
    });
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * The tiles the view wants now, replacing the previous wish: tiles no longer wanted leave the
   * queue and their loads are aborted; the rest are queued in the engine's order and started
   * up to the concurrency. A wish with the ids, priorities and revisions of the last one (a view
   * at rest, redrawn while a tile fades in) keeps the queue as it is: nothing is sorted or
   * allocated, and the small moves of the view direction since the last sort do not reorder it.
   */
  want(requests: readonly TileRequest[]): void {
    if (this.sameWish(requests)) {
      this.pump();
      return;
    }
    this.remember(requests);
    const wanted = new Set(requests.map((request) => request.id));
    for (const [id, load] of this.loads) {
      if (wanted.has(id)) continue;
      load.controller.abort();
      this.loads.delete(id);
    }
    this.queue = requests
      .filter((request) => {
        if (this.dead.has(request.id) || this.loads.has(request.id)) return false;
        const cached = this.cache.peek(request.id);
        return !cached || cached.revision < (request.revision ?? 0);
      })
      .sort(compareTileRequests);
    this.pump();
  }

  /**
   * Whether `requests` asks for what the last wish did. The queue then needs no rebuilding: what
   * left it since (started loads, which alone cache or kill a tile) left it for good, and a tile
   * that leaves the cache forgets the wish.
   */
  private sameWish(requests: readonly TileRequest[]): boolean {
    if (requests.length !== this.lastIds.length) return false;
    for (let k = 0; k < requests.length; k++) {
      const request = requests[k];
      if (
        request.id !== this.lastIds[k] ||
        request.priority !== this.lastPriorities[k] ||
        (request.revision ?? 0) !== this.lastRevisions[k]
      )
        return false;
    }
    return true;
  }

  private forgetWish(): void {
    this.lastIds.length = this.lastPriorities.length = this.lastRevisions.length = 0;
  }

  private remember(requests: readonly TileRequest[]): void {
    this.lastIds.length = this.lastPriorities.length = this.lastRevisions.length = requests.length;
    requests.forEach((request, k) => {
      this.lastIds[k] = request.id;
      this.lastPriorities[k] = request.priority;
      this.lastRevisions[k] = request.revision ?? 0;
    });
  }

  state(id: string): TileState {
    if (this.dead.has(id)) return 'dead';
    if (this.loads.has(id)) return 'loading';
    if (this.queue.some((request) => request.id === id)) return 'queued';
    return this.cache.has(id) ? 'cached' : 'none';
  }

  /** The cached tile, marked as just used. */
  get(id: string): CachedTile<T> | undefined {
    return this.cache.get(id);
  }

  /** The first of `ids` (a tile, then its ancestors, nearest first) that is cached. */
  firstCached(ids: readonly string[]): { id: string; tile: CachedTile<T> } | undefined {
    for (const id of ids) {
      const tile = this.cache.get(id);
      if (tile) return { id, tile };
    }
    return undefined;
  }

  /** Opacity of a cached tile at `time`: 0 → 1 over the fade-in after it was cached. */
  alpha(tile: CachedTile<T>, time: number = this.now()): number {
    return Math.min(1, Math.max(0, (time - tile.loadedAt) / TILE_FADE_MS));
  }

  get loading(): number {
    return this.loads.size;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Whether a wanted tile is still queued or loading. */
  get busy(): boolean {
    return this.loads.size + this.queue.length > 0;
  }

  get cached(): number {
    return this.cache.size;
  }

  isDead(id: string): boolean {
    return this.dead.has(id);
  }

  /** Drops every cached tile (a change that invalidates all of them). */
  clear(): void {
    this.cache.clear();
  }

  /** Drops the cached tiles not in `keep` (a change that only the visible tiles survive). */
  retain(keep: ReadonlySet<string>): void {
    for (const id of [...this.cache.keys()]) if (!keep.has(id)) this.cache.delete(id);
  }

  /** Aborts every load and drops every tile. */
  release(): void {
    for (const load of this.loads.values()) load.controller.abort();
    this.loads.clear();
    this.queue = [];
    this.forgetWish();
    this.cache.clear();
  }

  private pump(): void {
    while (this.loads.size < this.options.concurrency && this.queue.length > 0) {
      const request = this.queue.shift()!;
      this.start(request.id, request.revision ?? 0);
    }
  }

  private start(id: string, revision: number): void {
    const load: Load = { controller: new AbortController(), revision };
    this.loads.set(id, load);
    this.started.set(id, (this.started.get(id) ?? 0) + 1);
    const { signal } = load.controller;
    let result: Promise<T>;
    try {
      result = this.options.loader(id, signal);
    } catch (error) {
      result = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    result.then(
      (value) => {
        if (signal.aborted || this.loads.get(id) !== load) {
          this.options.release?.(value);
          return;
        }
        this.loads.delete(id);
        // A newer revision replaces the stale value without fading in again: it was drawn.
        const previous = this.cache.peek(id);
        this.cache.set(id, { value, revision, loadedAt: previous ? previous.loadedAt : this.now() });
        this.pump();
        this.options.refresh();
      },
      (error: unknown) => {
        if (signal.aborted || this.loads.get(id) !== load) return;
        this.loads.delete(id);
        this.dead.add(id);
        console.error(`tile ${id} failed to load and will not be requested again`, error);
        this.pump();
        this.options.refresh();
      },
    );
  }
}
