// The tiled-layer base (src/globe/tiles/tiled-layer.ts) without GL: a layer whose views want
// tiles named after their camera, loaded by hand.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Camera } from '../../src/globe/camera';
import type { FrameContext } from '../../src/globe/layers/layer';
import type { TileRequest } from '../../src/globe/tiles/engine';
import {
  DESTINATION_PRIORITY,
  TiledLayer,
  aheadPriority,
  wantedTiles,
  type DrawnTile,
  type TileBlend,
  type TileSource,
  type TileView,
} from '../../src/globe/tiles/tiled-layer';

function camera(theta: number): Camera {
  const made = new Camera();
  made.theta = theta;
  return made;
}

/** A view at `theta` wants its coarse tile (priority 1) and two fine ones; it draws the fine ones. */
function requestsAt(theta: number): TileRequest[] {
  return [
    { id: `${theta}/coarse`, priority: 1, fineness: 0, distance: 0 },
    { id: `${theta}/fine-a`, priority: 0, fineness: 1, distance: 0.1 },
    { id: `${theta}/fine-b`, priority: 0, fineness: 1, distance: 0.2 },
  ];
}

interface Drawn extends DrawnTile {
  theta: number;
}

class TestLayer extends TiledLayer<string, Drawn> {
  readonly pending = new Map<string, { resolve(value: string): void; signal: AbortSignal }>();
  readonly started: string[] = [];
  readonly aborted: string[] = [];
  readonly drawnSources: { tile: string; source: string; up: number; alpha: number }[] = [];
  frames = 0;

  constructor(concurrency: number) {
    super({ cacheSize: 100, concurrency });
    this.context = {
      gl: {} as WebGL2RenderingContext,
      requestFrame: () => this.frames++,
      // Its tiles are loaded by hand (loadTile below), never decoded.
      decoder: { run: () => Promise.reject(new Error('the test layer decodes nothing')) },
    };
  }

  protected viewTiles(view: TileView) {
    const theta = view.camera.theta;
    const drawn = ['fine-a', 'fine-b'].map((name) => ({ id: `${theta}/${name}`, theta }));
    return { requests: requestsAt(theta), drawn };
  }

  protected ancestors(tile: Drawn): string[] {
    return [`${tile.theta}/coarse`];
  }

  protected loadTile(id: string, signal: AbortSignal): Promise<string> {
    this.started.push(id);
    signal.addEventListener('abort', () => this.aborted.push(id));
    return new Promise((resolve) => this.pending.set(id, { resolve, signal }));
  }

  protected releaseTile(): void {}

  protected drawSource(tile: Drawn, source: TileSource<string>, alpha: number): void {
    this.drawnSources.push({ tile: tile.id, source: source.value, up: source.up, alpha });
  }

  async resolve(id: string): Promise<void> {
    this.pending.get(id)!.resolve(`image of ${id}`);
    this.pending.delete(id);
    await Promise.resolve();
    await Promise.resolve();
  }

  want(frame: FrameContext): Drawn[] {
    return this.wantTiles(frame);
  }

  drawAll(frame: FrameContext, drawn: Drawn[], blend: TileBlend): void {
    this.drawTiles(frame, drawn, blend);
  }
}

function frameAt(
  theta: number,
  fields: { destination?: number; ahead?: number[]; time?: number; requestFrame?: () => void } = {},
): FrameContext {
  return {
    camera: camera(theta),
    eye: 1,
    width: 100,
    height: 100,
    time: fields.time ?? 0,
    requestFrame: fields.requestFrame ?? (() => {}),
    destination: fields.destination === undefined ? undefined : { camera: camera(fields.destination), eye: 1 },
    ahead: fields.ahead?.map((theta) => ({ camera: camera(theta), eye: 1 })),
  } as unknown as FrameContext;
}

describe('the tiles a frame wants: destination, then the view, then the views ahead', () => {
  it('raises the destination’s band above the view’s and lowers each view ahead below it, the nearer first', () => {
    const frame = frameAt(1, { destination: 2, ahead: [3, 4] });
    const requests = wantedTiles(frame, requestsAt(1), (view) => requestsAt(view.camera.theta));
    const priority = new Map(requests.map((request) => [request.id, request.priority]));
    expect(priority.get('2/coarse')).toBe(1 + DESTINATION_PRIORITY);
    expect(priority.get('2/fine-a')).toBe(DESTINATION_PRIORITY);
    expect(priority.get('1/coarse')).toBe(1);
    expect(priority.get('1/fine-a')).toBe(0);
    expect(priority.get('3/coarse')).toBe(1 + aheadPriority(0));
    expect(priority.get('4/coarse')).toBe(1 + aheadPriority(1));
    // Every band lies wholly above the next: destination > view > ahead > further ahead.
    expect(Math.min(...['2/coarse', '2/fine-a'].map((id) => priority.get(id)!))).toBeGreaterThan(
      priority.get('1/coarse')!,
    );
    expect(priority.get('1/fine-a')!).toBeGreaterThan(priority.get('3/coarse')!);
    expect(priority.get('3/fine-a')!).toBeGreaterThan(priority.get('4/coarse')!);
  });

  it('asks for a tile several views want once, at its highest priority', () => {
    const frame = frameAt(1, { destination: 1, ahead: [1] });
    const requests = wantedTiles(frame, requestsAt(1), (view) => requestsAt(view.camera.theta));
    expect(requests.map((request) => request.id)).toEqual(['1/coarse', '1/fine-a', '1/fine-b']);
    expect(requests.map((request) => request.priority)).toEqual([
      1 + DESTINATION_PRIORITY,
      DESTINATION_PRIORITY,
      DESTINATION_PRIORITY,
    ]);
  });

  it('loads the destination’s tiles, then the view’s, then the next view’s once the view’s own are in', async () => {
    const layer = new TestLayer(2);
    const frame = () => frameAt(1, { destination: 2, ahead: [3] });
    layer.want(frame());
    expect(layer.started).toEqual(['2/coarse', '2/fine-a']);
    await layer.resolve('2/coarse');
    await layer.resolve('2/fine-a');
    layer.want(frame());
    await layer.resolve('2/fine-b');
    expect(layer.started).toEqual(['2/coarse', '2/fine-a', '2/fine-b', '1/coarse', '1/fine-a']);
    expect(layer.tiles.state('3/coarse')).toBe('queued');
  });

  it('loads the views ahead once the view’s own tiles are in, and does not abort them while they stay wanted', async () => {
    const layer = new TestLayer(2);
    const frame = () => frameAt(1, { ahead: [3] });
    layer.want(frame());
    expect(layer.started).toEqual(['1/coarse', '1/fine-a']);
    await layer.resolve('1/coarse');
    layer.want(frame());
    expect(layer.started).toEqual(['1/coarse', '1/fine-a', '1/fine-b']);
    await layer.resolve('1/fine-a');
    await layer.resolve('1/fine-b');
    expect(layer.started).toEqual(['1/coarse', '1/fine-a', '1/fine-b', '3/coarse', '3/fine-a']);
    for (let k = 0; k < 5; k++) layer.want(frame());
    expect(layer.aborted).toEqual([]);
    await layer.resolve('3/coarse');
    await layer.resolve('3/fine-a');
    expect(layer.tiles.state('3/fine-a')).toBe('cached');
    expect(layer.loading()).toBe(true);
    await layer.resolve('3/fine-b');
    expect(layer.loading()).toBe(false);
    // The jump there finds them in: its view asks for nothing.
    layer.want(frameAt(3));
    expect(layer.started.filter((id) => id.startsWith('3/'))).toEqual(['3/coarse', '3/fine-a', '3/fine-b']);
  });

  it('aborts the loads of a view ahead once it is no longer expected', () => {
    const layer = new TestLayer(6);
    layer.want(frameAt(1, { ahead: [3] }));
    expect(layer.started).toContain('3/coarse');
    layer.want(frameAt(1));
    expect(layer.aborted.sort()).toEqual(['3/coarse', '3/fine-a', '3/fine-b']);
  });
});

describe('drawing from the own tile or the nearest cached ancestor, cross-faded', () => {
  /** The engine's clock (performance.now), ms. */
  let clock = 0;
  beforeEach(() => {
    clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
  });
  afterEach(() => vi.restoreAllMocks());

  /** A layer whose coarse tile came in at 0 ms. */
  async function layerWithCoarse(): Promise<{ layer: TestLayer; drawn: Drawn[] }> {
    const layer = new TestLayer(4);
    const drawn = layer.want(frameAt(1));
    await layer.resolve('1/coarse');
    return { layer, drawn };
  }

  it('draws a missing tile from its ancestor, at the ancestor’s fade-in, asking for frames meanwhile', async () => {
    const { layer, drawn } = await layerWithCoarse();
    let frames = 0;
    layer.drawAll(frameAt(1, { time: 100, requestFrame: () => frames++ }), drawn, 'over');
    expect(layer.drawnSources).toEqual([
      { tile: '1/fine-a', source: 'image of 1/coarse', up: 1, alpha: 0.5 },
      { tile: '1/fine-b', source: 'image of 1/coarse', up: 1, alpha: 0.5 },
    ]);
    expect(frames).toBe(1);
    layer.drawnSources.length = 0;
    frames = 0;
    layer.drawAll(frameAt(1, { time: 1000, requestFrame: () => frames++ }), drawn, 'over');
    expect(layer.drawnSources.map(({ alpha }) => alpha)).toEqual([1, 1]);
    expect(frames).toBe(0);
  });

  it("fades the own tile in over its ancestor: 'over' keeps the ancestor whole under it, 'add' gives it way", async () => {
    const { layer, drawn } = await layerWithCoarse();
    clock = 1000;
    await layer.resolve('1/fine-a');
    for (const blend of ['over', 'add'] as const) {
      layer.drawnSources.length = 0;
      layer.drawAll(frameAt(1, { time: 1100 }), [drawn[0]], blend);
      expect(layer.drawnSources.map(({ up, alpha }) => [up, alpha])).toEqual([
        [1, blend === 'over' ? 1 : 0.5],
        [0, 0.5],
      ]);
      layer.drawnSources.length = 0;
      layer.drawAll(frameAt(1, { time: 1200 }), [drawn[0]], blend);
      expect(layer.drawnSources.map(({ up, alpha }) => [up, alpha])).toEqual([[0, 1]]);
    }
  });

  it('draws a tile that is not wanted (own: false) from its ancestors only, even when it is cached', async () => {
    const { layer, drawn } = await layerWithCoarse();
    await layer.resolve('1/fine-a');
    layer.drawAll(frameAt(1, { time: 1000 }), [{ ...drawn[0], own: false }], 'add');
    expect(layer.drawnSources.map(({ source }) => source)).toEqual(['image of 1/coarse']);
  });
});
