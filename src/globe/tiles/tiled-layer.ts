// The base of every tiled layer (the survey, the HiPS, the pretty pictures): what they share
// around the tile engine (engine.ts), so that a layer supplies only
//   - its geometry: the tiles a view wants, with their priorities, and the tiles it draws
//     (viewTiles), and a drawn tile's ancestors, nearest first (ancestors);
//   - how a tile's files are fetched and decoded (loadTile, in the decoder pool the globe gave it;
//     decoded-files.ts caches decoded files per URL) and how its value is freed (releaseTile);
//   - how one tile is drawn from a source tile, its own or an ancestor's (drawSource).
// The base
//   - asks the engine, each frame, for the tiles of the frame's view, of where a jump under way
//     ends (frame.destination) and of the views expected next (frame.ahead), in priority bands:
//     the destination's first, then the view's own, then the views ahead, the nearer first
//     (wantedTiles); a tile wanted by several views keeps its highest priority;
//   - draws each drawn tile from its own tile once cached, else from its nearest cached
//     ancestor, the own tile fading in over it by the engine's alpha (drawTiles), and asks for
//     frames while a fade is under way;
//   - holds the one engine (its LRU the tile cache) and makes a new one on a new source.
import type { DecoderPool } from '../../workers/pool';
import type { Camera } from '../camera';
import { tileAborted } from '../gl';
import type { FrameContext, LayerContext } from '../layers/layer';
import { TileEngine, type TileRequest } from './engine';

/** A view tiles are chosen for: a camera seen with `eye` on a width × height screen. */
export interface TileView {
  camera: Camera;
  eye: number;
  width: number;
  height: number;
}

/** What a layer draws at one place: `id` its own tile, wanted by the view. */
export interface DrawnTile {
  id: string;
  /** false: drawn from its ancestors only, its own tile not being wanted (an Allsky serving). */
  own?: boolean;
}

/** The tile a drawn tile is drawn from: its own (up 0) or the ancestor `up` levels above. */
export interface TileSource<T> {
  id: string;
  value: T;
  up: number;
}

/**
 * How a tile and its ancestor mix while the tile fades in. 'over': the ancestor at its own
 * alpha under the tile at the tile's (SRC_ALPHA, ONE_MINUS_SRC_ALPHA blending). 'add': light
 * added (ONE blending), the ancestor giving way as the tile comes, so the sum stays level.
 */
export type TileBlend = 'over' | 'add';

/**
 * The priorities a layer gives its own view's requests lie in [0, PRIORITY_SPAN) (1 for the
 * file every finer tile can be drawn from, the survey's coarsest tile or the HiPS's Allsky
 * image, 0 for the rest); each view's band is shifted by a multiple of it.
 */
export const PRIORITY_SPAN = 2;
/** Where a jump under way ends: ahead of the view's own, whose views on the way pass by. */
export const DESTINATION_PRIORITY = PRIORITY_SPAN;
/** The k-th view expected next (k from 0): after the view's own, by −(k + 1)·PRIORITY_SPAN. */
export function aheadPriority(k: number): number {
  return -(k + 1) * PRIORITY_SPAN;
}

/**
 * The tile level-of-detail bias at which texels are drawn no larger than screen pixels
 * (viewer-spec §3, §9: "level-of-detail bias 2", the default of the tiled layers' tileLodBias).
 */
export const SHARP_TILE_LOD_BIAS = 2;

/**
 * How many levels coarser than the sharp one (texels no larger than screen pixels) a layer loads:
 * SHARP_TILE_LOD_BIAS less its `tileLodBias` option, plus the camera's lodBias (1 while it moves,
 * fading to 0 over 200 ms after: viewer-spec §4), so that a moving view loads a level coarser.
 */
export function levelsCoarser(tileLodBias: number, camera: Pick<Camera, 'lodBias'>): number {
  return SHARP_TILE_LOD_BIAS - tileLodBias + camera.lodBias;
}

/**
 * The requests of a frame: those of its destination (raised by DESTINATION_PRIORITY), its own
 * view's (`own`), and its views ahead (lowered by aheadPriority), each id once at its highest
 * priority.
 */
export function wantedTiles(
  frame: Pick<FrameContext, 'width' | 'height' | 'destination' | 'ahead'>,
  own: readonly TileRequest[],
  requestsOf: (view: TileView) => readonly TileRequest[],
): TileRequest[] {
  const { width, height } = frame;
  const wanted = new Map<string, TileRequest>();
  const add = (requests: readonly TileRequest[], shift: number) => {
    for (const request of requests) {
      const priority = request.priority + shift;
      const before = wanted.get(request.id);
      if (before && before.priority >= priority) continue;
      wanted.set(request.id, shift === 0 ? request : { ...request, priority });
    }
  };
  if (frame.destination) add(requestsOf({ ...frame.destination, width, height }), DESTINATION_PRIORITY);
  add(own, 0);
  frame.ahead?.forEach((view, k) => add(requestsOf({ ...view, width, height }), aheadPriority(k)));
  return [...wanted.values()];
}

export abstract class TiledLayer<T, D extends DrawnTile> {
  protected context: LayerContext | null = null;
  protected engine: TileEngine<T>;
  /**
   * The ids the last frame wanted, in its view, at its destination and in its views ahead: the
   * visible tiles that a change keeping only those keeps (viewer-spec §4; tests read it).
   */
  protected visible: ReadonlySet<string> = new Set();

  constructor(private readonly limits: { cacheSize: number; concurrency: number }) {
    this.engine = this.createEngine();
  }

  /** The tile engine (tests and the bench read its counters). */
  get tiles(): Pick<TileEngine<unknown>, 'started' | 'loading' | 'queued' | 'cached' | 'isDead' | 'state'> {
    return this.engine;
  }

  /**
   * The decoder pool the globe gave the layer (LayerContext.decoder), for loadTile; a tile asked
   * for after the layer's release is aborted.
   */
  protected get decoder(): DecoderPool {
    if (!this.context) throw tileAborted();
    return this.context.decoder;
  }

  /** Whether a tile the last frame wanted is still queued or loading. */
  loading(): boolean {
    return this.engine.busy;
  }

  /** The tiles a view wants (priorities in [0, PRIORITY_SPAN)) and the tiles it draws. */
  protected abstract viewTiles(view: TileView): { requests: TileRequest[]; drawn: D[] };

  /** A drawn tile's ancestors, nearest first: what it is drawn from while its own is missing. */
  protected abstract ancestors(tile: D): string[];

  /** Fetches and decodes tile `id`, uploading it; rejects once `signal` aborts. */
  protected abstract loadTile(id: string, signal: AbortSignal): Promise<T>;

  /** Frees what loadTile made (textures). */
  protected abstract releaseTile(value: T, gl: WebGL2RenderingContext): void;

  /** Draws `tile` from `source` at `alpha` (the layer's program in use). */
  protected abstract drawSource(tile: D, source: TileSource<T>, alpha: number): void;

  private createEngine(): TileEngine<T> {
    return new TileEngine<T>({
      loader: (id, signal) => this.loadTile(id, signal),
      concurrency: this.limits.concurrency,
      cacheSize: this.limits.cacheSize,
      release: (value) => {
        const gl = this.context?.gl;
        if (gl) this.releaseTile(value, gl);
      },
      refresh: () => this.context?.requestFrame(),
    });
  }

  /** Asks the engine for the frame's tiles (wantedTiles); returns the tiles its own view draws. */
  protected wantTiles(frame: FrameContext): D[] {
    const { camera, eye, width, height } = frame;
    const own = this.viewTiles({ camera, eye, width, height });
    const requests = wantedTiles(frame, own.requests, (view) => this.viewTiles(view).requests);
    this.engine.want(requests);
    this.visible = new Set(requests.map((request) => request.id));
    return own.drawn;
  }

  /** Wants no tile (the layer draws nothing this frame): loads under way are aborted. */
  protected wantNoTiles(): void {
    this.engine.want([]);
    this.visible = new Set();
  }

  /**
   * Draws each tile from its own cached tile, else (or under it while it fades in) from its
   * nearest cached ancestor, and asks for the next frame while one of them fades in.
   */
  protected drawTiles(frame: FrameContext, drawn: readonly D[], blend: TileBlend): void {
    let fading = false;
    for (const tile of drawn) {
      const own = tile.own === false ? undefined : this.engine.get(tile.id);
      const ownAlpha = own ? this.engine.alpha(own, frame.time) : 0;
      if (ownAlpha < 1) {
        const chain = this.ancestors(tile);
        for (let k = 0; k < chain.length; k++) {
          const ancestor = this.engine.get(chain[k]);
          if (!ancestor) continue;
          const alpha = this.engine.alpha(ancestor, frame.time);
          if (alpha < 1) fading = true;
          const source = { id: chain[k], value: ancestor.value, up: k + 1 };
          this.drawSource(tile, source, blend === 'add' ? (1 - ownAlpha) * alpha : alpha);
          break;
        }
      }
      if (own) {
        if (ownAlpha < 1) fading = true;
        this.drawSource(tile, { id: tile.id, value: own.value, up: 0 }, ownAlpha);
      }
    }
    if (fading) frame.requestFrame();
  }

  /** A new source (base URL): every load is aborted and every tile dropped, with a new engine. */
  protected resetTiles(): void {
    this.engine.release();
    this.engine = this.createEngine();
    this.visible = new Set();
  }

  /** Aborts every load and frees every tile (the layer's release). */
  protected releaseTiles(): void {
    this.engine.release();
  }
}
