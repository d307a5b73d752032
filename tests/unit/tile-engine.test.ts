import { afterEach, describe, expect, it, vi } from 'vitest';
import { TileEngine, compareTileRequests, type TileRequest } from '../../src/globe/tiles/engine';
import { TILE_FADE_MS, TILE_LIMITS } from '../../src/globe/tiles/limits';
import { LruCache } from '../../src/globe/tiles/lru';

/** A loader whose loads the test settles by hand, recording what was asked and aborted. */
function manualLoader() {
  const pending = new Map<string, { resolve(value: string): void; reject(error: Error): void; signal: AbortSignal }>();
  const calls: string[] = [];
  const aborted: string[] = [];
  const loader = (id: string, signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      calls.push(id);
      signal.addEventListener('abort', () => aborted.push(id));
      pending.set(id, { resolve, reject, signal });
    });
  return {
    loader,
    calls,
    aborted,
    resolve: async (id: string, value = `image of ${id}`) => {
      pending.get(id)!.resolve(value);
      pending.delete(id);
      await Promise.resolve();
      await Promise.resolve();
    },
    reject: async (id: string) => {
      pending.get(id)!.reject(new Error(`${id}: 404 Not Found`));
      pending.delete(id);
      await Promise.resolve();
      await Promise.resolve();
    },
  };
}

function request(id: string, fields: Partial<TileRequest> = {}): TileRequest {
  return { id, priority: 0, fineness: 0, distance: 0, ...fields };
}

afterEach(() => vi.restoreAllMocks());

describe('tile loading order (viewer-spec §4: priority, then finer level, then distance)', () => {
  it('sorts by priority first, then the finer level, then the nearer to the view direction', () => {
    const requests = [
      request('far fine', { fineness: 2, distance: 0.3 }),
      request('coarse', { fineness: 0, distance: 0 }),
      request('urgent coarse', { priority: 1, fineness: 0, distance: 0.5 }),
      request('near fine', { fineness: 2, distance: 0.1 }),
    ];
    expect([...requests].sort(compareTileRequests).map((r) => r.id)).toEqual([
      'urgent coarse',
      'near fine',
      'far fine',
      'coarse',
    ]);
  });

  it('starts loads in that order, no more at once than the concurrency', async () => {
    const manual = manualLoader();
    const engine = new TileEngine({ loader: manual.loader, concurrency: 2, cacheSize: 10, refresh: () => {} });
    engine.want([request('c', { distance: 0.3 }), request('a', { distance: 0.1 }), request('b', { distance: 0.2 })]);
    expect(manual.calls).toEqual(['a', 'b']);
    expect(engine.state('c')).toBe('queued');
    expect(engine.loading).toBe(2);
    await manual.resolve('a');
    expect(manual.calls).toEqual(['a', 'b', 'c']);
    expect(engine.state('a')).toBe('cached');
  });

  it('is busy while a wanted tile is queued or loading, and not once all are in or dead', async () => {
    const manual = manualLoader();
    const engine = new TileEngine({ loader: manual.loader, concurrency: 1, cacheSize: 10, refresh: () => {} });
    expect(engine.busy).toBe(false);
    engine.want([request('a'), request('b')]);
    expect(engine.busy).toBe(true);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await manual.resolve('a');
    expect(engine.busy).toBe(true);
    await manual.reject('b');
    expect(engine.busy).toBe(false);
    engine.want([request('a'), request('b')]);
    expect(engine.busy).toBe(false);
  });

  it('has the concurrency and cache sizes of viewer-spec §9', () => {
    expect(TILE_LIMITS.survey).toEqual({ cacheSize: 1000, concurrency: 2 });
    expect(TILE_LIMITS.hips).toEqual({ cacheSize: 1000, concurrency: 4 });
    expect(TILE_LIMITS.decodedImages).toBe(400);
    expect(TILE_LIMITS.shiftmaps).toBe(5000);
    expect(TILE_FADE_MS).toBe(200);
  });
});

describe('tile cache (an LRU)', () => {
  it('keeps at most its capacity, evicting and releasing the least recently used', () => {
    const evicted: string[] = [];
    const cache = new LruCache<string, string>(3, (value) => evicted.push(value));
    cache.set('a', 'A');
    cache.set('b', 'B');
    cache.set('c', 'C');
    cache.get('a'); // a is now the most recently used
    cache.set('d', 'D');
    expect(evicted).toEqual(['B']);
    expect([...cache.keys()]).toEqual(['c', 'a', 'd']);
    expect(cache.size).toBe(3);
  });

  it('evicts the engine’s oldest tile texture past the cache size', async () => {
    const manual = manualLoader();
    const released: string[] = [];
    const engine = new TileEngine({
      loader: manual.loader,
      concurrency: 4,
      cacheSize: 2,
      release: (value: string) => released.push(value),
      refresh: () => {},
    });
    engine.want(['a', 'b', 'c'].map((id) => request(id)));
    await manual.resolve('a');
    await manual.resolve('b');
    await manual.resolve('c');
    expect(engine.cached).toBe(2);
    expect(released).toEqual(['image of a']);
    expect(engine.state('a')).toBe('none');
  });
});

describe('dead tiles (viewer-spec §4, §8: marked dead, logged, view refreshed, never retried)', () => {
  it('never requests a failed id again, logs the error and refreshes the view', async () => {
    const manual = manualLoader();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const refresh = vi.fn();
    const engine = new TileEngine({ loader: manual.loader, concurrency: 2, cacheSize: 10, refresh });
    engine.want([request('missing')]);
    await manual.reject('missing');
    expect(engine.state('missing')).toBe('dead');
    expect(errors).toHaveBeenCalledOnce();
    expect(String(errors.mock.calls[0][0])).toContain('missing');
    expect(refresh).toHaveBeenCalledOnce();
    for (let frame = 0; frame < 5; frame++) engine.want([request('missing'), request('other')]);
    expect(manual.calls.filter((id) => id === 'missing')).toHaveLength(1);
    expect(manual.calls).toContain('other');
  });
});

describe('provider revision (viewer-spec §4: re-requested when the provider is newer)', () => {
  it('requests a tile again for a newer revision and keeps drawing the stale one until it arrives', async () => {
    let now = 1000;
    const manual = manualLoader();
    const released: string[] = [];
    const engine = new TileEngine({
      loader: manual.loader,
      concurrency: 2,
      cacheSize: 10,
      release: (value: string) => released.push(value),
      refresh: () => {},
      now: () => now,
    });
    engine.want([request('t', { revision: 1 })]);
    await manual.resolve('t', 'first');
    now += 500;
    engine.want([request('t', { revision: 1 })]);
    expect(manual.calls).toEqual(['t']);
    engine.want([request('t', { revision: 2 })]);
    expect(manual.calls).toEqual(['t', 't']);
    // While the new revision loads, the stale texture is still there at full opacity.
    const stale = engine.get('t')!;
    expect(stale.value).toBe('first');
    expect(engine.alpha(stale)).toBe(1);
    await manual.resolve('t', 'second');
    const fresh = engine.get('t')!;
    expect(fresh.value).toBe('second');
    expect(fresh.revision).toBe(2);
    expect(engine.alpha(fresh)).toBe(1);
    expect(released).toEqual(['first']);
  });

  it('fades a newly cached tile in over 200 ms', async () => {
    let now = 0;
    const manual = manualLoader();
    const engine = new TileEngine({
      loader: manual.loader,
      concurrency: 1,
      cacheSize: 4,
      refresh: () => {},
      now: () => now,
    });
    engine.want([request('t')]);
    await manual.resolve('t');
    const tile = engine.get('t')!;
    expect(engine.alpha(tile)).toBe(0);
    now = 100;
    expect(engine.alpha(tile)).toBeCloseTo(0.5, 9);
    now = 200;
    expect(engine.alpha(tile)).toBe(1);
  });
});

describe('ancestor fallback (a missing fine tile drawn from its loaded ancestor)', () => {
  it('gives the nearest cached tile of the chain tile → parent → grandparent', async () => {
    const manual = manualLoader();
    const engine = new TileEngine({ loader: manual.loader, concurrency: 4, cacheSize: 10, refresh: () => {} });
    engine.want([request('L2', { priority: 1 }), request('L0', { fineness: 2 })]);
    await manual.resolve('L2');
    expect(engine.firstCached(['L0', 'L1', 'L2'])?.id).toBe('L2');
    await manual.resolve('L0');
    expect(engine.firstCached(['L0', 'L1', 'L2'])?.id).toBe('L0');
    expect(engine.firstCached(['X0', 'X1'])).toBeUndefined();
  });
});

describe('abort (requests for tiles that left the view are aborted)', () => {
  it('aborts a load whose tile is no longer wanted, drops it from the queue and discards its result', async () => {
    const manual = manualLoader();
    const released: string[] = [];
    const engine = new TileEngine({
      loader: manual.loader,
      concurrency: 1,
      cacheSize: 10,
      release: (value: string) => released.push(value),
      refresh: () => {},
    });
    engine.want([request('left', { distance: 0 }), request('queued', { distance: 1 })]);
    expect(engine.state('queued')).toBe('queued');
    engine.want([request('stays')]);
    expect(manual.aborted).toEqual(['left']);
    expect(engine.state('queued')).toBe('none');
    expect(manual.calls).toEqual(['left', 'stays']);
    // A late result of the aborted load is released, not cached.
    await manual.resolve('left');
    expect(engine.state('left')).toBe('none');
    expect(released).toEqual(['image of left']);
    // An aborted tile is not dead: it loads again when it comes back into view.
    engine.want([request('stays'), request('left')]);
    await manual.resolve('stays');
    expect(manual.calls).toEqual(['left', 'stays', 'left']);
  });
});

describe('an unchanged wish (a view at rest, redrawn while tiles fade in)', () => {
  it('keeps the queue as it is: nothing sorted, the order of the last sort kept', async () => {
    const manual = manualLoader();
    const engine = new TileEngine({ loader: manual.loader, concurrency: 1, cacheSize: 10, refresh: () => {} });
    engine.want([request('x', { distance: 0.1 }), request('y', { distance: 0.2 }), request('z', { distance: 0.3 })]);
    expect(manual.calls).toEqual(['x']);
    const sort = vi.spyOn(Array.prototype, 'sort');
    // The same ids and priorities, the view direction moved a little: z is now the nearest.
    engine.want([request('x', { distance: 0.3 }), request('y', { distance: 0.2 }), request('z', { distance: 0.1 })]);
    expect(sort).not.toHaveBeenCalled();
    sort.mockRestore();
    await manual.resolve('x');
    expect(manual.calls).toEqual(['x', 'y']);
    expect(manual.aborted).toEqual([]);
  });

  it('is sorted again in the engine’s order once an id or a priority changes', async () => {
    const manual = manualLoader();
    const engine = new TileEngine({ loader: manual.loader, concurrency: 1, cacheSize: 10, refresh: () => {} });
    engine.want([request('x'), request('y', { distance: 0.1 }), request('z', { distance: 0.2 })]);
    engine.want([request('x'), request('y', { distance: 0.1 }), request('z', { priority: 1, distance: 0.2 })]);
    await manual.resolve('x');
    expect(manual.calls).toEqual(['x', 'z']);
    engine.want([
      request('x'),
      request('y', { distance: 0.1 }),
      request('z', { priority: 1 }),
      request('w', { priority: 2 }),
    ]);
    await manual.resolve('z');
    expect(manual.calls).toEqual(['x', 'z', 'w']);
  });

  it('requests again a wanted tile that left the cache', async () => {
    const manual = manualLoader();
    const engine = new TileEngine({ loader: manual.loader, concurrency: 2, cacheSize: 1, refresh: () => {} });
    const wish = [request('a'), request('b', { distance: 1 })];
    engine.want(wish);
    await manual.resolve('a');
    await manual.resolve('b');
    expect(engine.state('a')).toBe('none');
    engine.want(wish);
    expect(manual.calls).toEqual(['a', 'b', 'a']);
  });

  it('requests every wanted tile again after clear()', async () => {
    const manual = manualLoader();
    const engine = new TileEngine({ loader: manual.loader, concurrency: 2, cacheSize: 10, refresh: () => {} });
    const wish = [request('a'), request('b', { distance: 1 })];
    engine.want(wish);
    await manual.resolve('a');
    await manual.resolve('b');
    engine.want(wish);
    expect(manual.calls).toEqual(['a', 'b']);
    engine.clear();
    engine.want(wish);
    expect(manual.calls).toEqual(['a', 'b', 'a', 'b']);
  });

  it('requests a cached tile again when only its revision is newer', async () => {
    const manual = manualLoader();
    const engine = new TileEngine({ loader: manual.loader, concurrency: 1, cacheSize: 4, refresh: () => {} });
    engine.want([request('t', { revision: 1 })]);
    await manual.resolve('t');
    engine.want([request('t', { revision: 1 })]);
    engine.want([request('t', { revision: 2 })]);
    expect(manual.calls).toEqual(['t', 't']);
  });
});
