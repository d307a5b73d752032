// Survey image tiles with their area outlines (viewer-spec §3, §4, §7). A survey folder
// {baseUrl} holds meta.json (per tract a TAN wcs and tract options), area.json (outline
// polygons, survey-area.ts) and the tile pyramids {baseUrl}/{filter}/{tract}/{level}/{p}/{q}.png
// laid out as tiles/tract.ts says. Each filter is one 8-bit grey PNG, the three filters mixed
// into colour on the GPU by the colour parameters (survey-colors.ts).
//
// A tiled layer (tiles/tiled-layer.ts: 2 loads at once, 1000 tiles kept): each filter file is
// fetched here (so that a tile leaving the view aborts its requests) and a tile's files are
// decoded together in one worker-pool job; the decoded images (400 kept, tiles/decoded-files.ts)
// are uploaded as one-channel textures. A tract's coarsest tile is asked for first, since every
// finer tile can be drawn from it while it loads. The area outlines cross-fade with the tiles by
// zoom (tileWeight).
//
// Blending. 'over' (the viewer's default) lays the tiles over what is drawn before them, their
// black lifted by the colour parameters' bias. 'add' adds their light to the sky under them (the
// application's): the survey's zero flux adds nothing, so a field's sky is the sky around it, not
// a box, and only its galaxies and stars show; the bias is left out, the sky under the tiles being
// their black. Where tracts overlap (a field's tract under its area tracts, an area's padding
// over its neighbour's) the later listed one is drawn alone: the tracts are drawn last first,
// each writing its rank into the stencil buffer (cleared by the globe each frame) where it draws
// and drawing only where no tract of a higher rank has. A layer's ranks start above its
// `stencilBase`: of several survey layers, the one with the higher base, drawn first, wins where
// their tracts overlap.
import type { TanWcs } from '../../../core/wcs';
import { compileProgram, dataTexture, tileAborted, uniformLocation } from '../gl';
import { setProjectionUniforms } from '../projection';
import { DecodedFiles, fetchDecodedImages } from '../tiles/decoded-files';
import type { TileRequest } from '../tiles/engine';
import { TILE_LIMITS } from '../tiles/limits';
import { SHARP_TILE_LOD_BIAS, TiledLayer, levelsCoarser, type TileSource, type TileView } from '../tiles/tiled-layer';
import { TractTileMeshes } from '../tiles/tract-meshes';
import {
  SMALLEST_TRACT_PIXELS,
  TILE_VERTEX_GLSL,
  ancestorKey,
  surveyLevel,
  tileKeyString,
  tractOf,
  coneInside,
  pointsInside,
  visibleTiles,
  type TileKey,
  type Tract,
  type TractOptions,
} from '../tiles/tract';
import { angleBetween, viewFootprint } from '../visibility';
import { fetchOk } from '../fetch';
import type { FieldView, ImageField } from './deep-sky';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';
import { AreaOutline, areaPolygons, tileWeight } from './survey-area';
import {
  DEFAULT_COLOR_PARAMS,
  SURVEY_COLOR_GLSL,
  colorMixing,
  setSurveyColorUniforms,
  type ColorParams,
} from './survey-colors';

export interface SurveyOptions {
  /** The survey folder, e.g. {dataRepository}/wide. */
  baseUrl: string;
  colorParams: ColorParams;
  /**
   * The tile level-of-detail bias (viewer-spec §3, §9: 2): 2 draws tile pixels no larger than
   * screen pixels; each unit less is one level coarser (tiles/tiled-layer.ts, levelsCoarser).
   */
  tileLodBias: number;
  /** Draw the area outlines (cross-fading with the tiles by zoom). */
  outline: boolean;
  /** The provider's revision: raising it requests the cached tiles again. */
  revision: number;
  /** 'over' the layers before, or light 'add'ed to them (the file's header). */
  blend: SurveyBlend;
  /** With 'add': the stencil rank below this layer's tracts' (STENCIL_SPAN of them above it). */
  stencilBase: number;
}

export type SurveyBlend = 'over' | 'add';

export const SURVEY_DEFAULTS: Omit<SurveyOptions, 'baseUrl'> = {
  colorParams: DEFAULT_COLOR_PARAMS,
  tileLodBias: SHARP_TILE_LOD_BIAS,
  outline: true,
  revision: 0,
  blend: 'over',
  stencilBase: 0,
};

/** The ranks a layer has above its stencilBase: a tract's is its place among the shown, later higher. */
export const STENCIL_SPAN = 85;

interface MetaJson {
  tracts: { tract: number; wcs: TanWcs; tractOptions?: TractOptions }[];
}

interface TileTextures {
  textures: WebGLTexture[];
  width: number;
  height: number;
}

/** A tile drawn: its place, its weight against the outline, and its tract's stencil rank. */
interface SurveyTile {
  id: string;
  tract: Tract;
  key: TileKey;
  weight: number;
  rank: number;
}

const TILE_FRAGMENT = `#version 300 es
precision highp float;
uniform sampler2D u_filter0;
uniform sampler2D u_filter1;
uniform sampler2D u_filter2;
uniform float u_alpha;
in vec2 v_uv;
out vec4 color;
${SURVEY_COLOR_GLSL}
void main() {
  vec3 y = vec3(texture(u_filter0, v_uv).r, texture(u_filter1, v_uv).r, texture(u_filter2, v_uv).r);
  color = vec4(surveyColor(y), u_alpha);
}
`;

export class SurveyLayer extends TiledLayer<TileTextures, SurveyTile> implements Layer<SurveyOptions> {
  readonly name = 'survey';
  private options: SurveyOptions;
  private tileProgram: WebGLProgram | null = null;
  private outline: AreaOutline | null = null;
  /** area.json as read (an empty list after a failure): outlined for the filters drawn. */
  private area: unknown = [];
  private tracts = new Map<number, Tract>();
  private readonly images = new DecodedFiles<ImageBitmap>(
    TILE_LIMITS.decodedImages,
    (urls, signal) => {
      const decoded = fetchDecodedImages(this.decoder, urls, signal);
      return urls.map((_, index) => decoded.then((bitmaps) => bitmaps[index]));
    },
    (bitmap) => bitmap.close(),
  );
  private tileMeshes: TractTileMeshes | null = null;
  private mixing: ReturnType<typeof colorMixing>;
  private abort = new AbortController();
  private resolveLoaded!: () => void;
  /** meta.json read (or failed): the tracts are known. */
  readonly loaded: Promise<void> = new Promise((resolve) => (this.resolveLoaded = resolve));

  constructor(options: Partial<SurveyOptions> & { baseUrl: string }) {
    super(TILE_LIMITS.survey);
    this.options = { ...SURVEY_DEFAULTS, ...options };
    this.mixing = colorMixing(this.options.colorParams);
  }

  create(context: LayerContext): void {
    const { gl } = context;
    this.context = context;
    this.tileProgram = compileProgram(gl, TILE_VERTEX_GLSL, TILE_FRAGMENT);
    this.outline = new AreaOutline(gl);
    this.tileMeshes = new TractTileMeshes(gl, this.tileProgram, TILE_LIMITS.survey.cacheSize);
    this.load();
  }

  /**
   * A new base URL reloads everything; a new colour-parameter type rebuilds the mixing and
   * clears all tiles; other colour changes keep only the visible tiles; a newer revision makes
   * the engine request the cached tiles again as they are drawn.
   */
  update(options: Partial<SurveyOptions>): void {
    const before = this.options;
    this.options = { ...before, ...options };
    if (options.colorParams) {
      const filters = this.mixing.filters.join(',');
      this.mixing = colorMixing(this.options.colorParams);
      if (this.mixing.filters.join(',') !== filters) this.uploadOutline();
      if (options.colorParams.type !== before.colorParams.type) this.engine.clear();
      else this.engine.retain(this.visible);
    }
    if (options.baseUrl !== undefined && options.baseUrl !== before.baseUrl && this.context) {
      this.abort.abort();
      this.abort = new AbortController();
      this.resetTiles();
      this.images.clear();
      this.tracts = new Map();
      this.outline?.delete();
      this.area = [];
      this.load();
    }
    this.context?.requestFrame();
  }

  private load(): void {
    const signal = this.abort.signal;
    const { baseUrl } = this.options;
    void fetchOk(`${baseUrl}/meta.json`, signal)
      .then(async (response) => {
        const meta = (await response.json()) as MetaJson | MetaJson['tracts'];
        const entries = Array.isArray(meta) ? meta : meta.tracts;
        if (signal.aborted) return;
        // A tract refused (a projection other than TAN) is left out and said why; the rest draw.
        this.tracts = new Map();
        for (const entry of entries) {
          try {
            this.tracts.set(entry.tract, tractOf(entry.tract, entry.wcs, entry.tractOptions));
          } catch (error) {
            console.error(`survey ${baseUrl}: tract ${entry.tract} refused`, error);
          }
        }
        this.context?.requestFrame();
        this.resolveLoaded();
      })
      .catch((error: unknown) => {
        if (!signal.aborted) console.error('survey meta.json failed to load', error);
        this.resolveLoaded();
      });
    // viewer-spec §8: an area.json failure is silently replaced by empty data.
    void fetch(`${baseUrl}/area.json`, { signal })
      .then((response) => (response.ok ? response.json() : []))
      .catch(() => [])
      .then((json: unknown) => {
        if (signal.aborted) return;
        this.area = json;
        this.outline?.loaded(performance.now());
        this.uploadOutline();
      });
  }

  /** The outline of the filters drawn now, replacing the one before. */
  private uploadOutline(): void {
    if (!this.context || !this.outline) return;
    this.outline.upload(areaPolygons(this.area, this.mixing.filters));
    this.context.requestFrame();
  }

  protected async loadTile(id: string, signal: AbortSignal): Promise<TileTextures> {
    const [filterList, key] = id.split(':');
    const urls = filterList.split(',').map((filter) => `${this.options.baseUrl}/${filter}/${key}.png`);
    const bitmaps = await Promise.all(this.images.get(urls, signal));
    const gl = this.context?.gl;
    if (!gl || signal.aborted) throw tileAborted();
    // The main thread only uploads: the images arrive decoded.
    return {
      textures: bitmaps.map((bitmap) => dataTexture(gl, bitmap)),
      width: bitmaps[0].width,
      height: bitmaps[0].height,
    };
  }

  protected releaseTile(tile: TileTextures, gl: WebGL2RenderingContext): void {
    for (const texture of tile.textures) gl.deleteTexture(texture);
  }

  private tileId(key: TileKey): string {
    return `${this.mixing.filters.join(',')}:${tileKeyString(key)}`;
  }

  /**
   * Where each tract lies and how much of its tiles shows at a view (tileWeight against the
   * outline; nothing while a tract is under SMALLEST_TRACT_PIXELS): the deep-sky objects in it
   * give way to its image.
   */
  fields(): ImageField[] {
    return [...this.tracts.values()].map((tract) => ({
      centre: tract.centre,
      radius: tract.radius,
      opacity: ({ screenPixel }: FieldView) =>
        (2 * tract.radius) / screenPixel < SMALLEST_TRACT_PIXELS
          ? 0
          : this.options.outline
            ? tileWeight(screenPixel, tract)
            : 1,
    }));
  }

  /** One screen pixel at the centre of a view, radians (the projections agree there). */
  private static screenPixel(view: Pick<TileView, 'camera' | 'eye' | 'height'>): number {
    return (2 * view.camera.projectionScale(view.eye)) / view.height;
  }

  protected viewTiles(view: TileView): { requests: TileRequest[]; drawn: SurveyTile[] } {
    const { camera } = view;
    const footprint = viewFootprint(camera, view.eye, view.width, view.height);
    const screenPixel = SurveyLayer.screenPixel(view);
    const coarser = levelsCoarser(this.options.tileLodBias, camera);
    const requests: TileRequest[] = [];
    const drawn: SurveyTile[] = [];
    const shown = [...this.tracts.values()].filter((tract) => {
      const weight = this.options.outline ? tileWeight(screenPixel, tract) : 1;
      return (
        weight > 0 &&
        angleBetween(footprint.centre, tract.centre) <= footprint.radius + tract.radius &&
        (2 * tract.radius) / screenPixel >= SMALLEST_TRACT_PIXELS
      );
    });
    for (const [index, tract] of shown.entries()) {
      const distance = angleBetween(footprint.centre, tract.centre);
      const weight = this.options.outline ? tileWeight(screenPixel, tract) : 1;
      // A tract listed after this one is drawn over it (a field's tract under its areas, an area's
      // padding over its neighbour's): where it holds the whole view, this one shows nowhere once
      // that one's coarsest tile is in, which comes first, so only this one's coarsest tile is
      // loaded and drawn; where it holds one of this one's tiles, that tile is neither.
      const above = shown.slice(index + 1);
      const hidden = above.some((other) => coneInside(footprint, other));
      const level = surveyLevel(screenPixel, tract.pixelAngle, coarser, tract.minLevel, tract.maxLevel);
      const top = { tract: tract.tract, level: tract.maxLevel, p: 0, q: 0 };
      // The tract's coarsest tile first: every finer tile can be drawn from it while it loads.
      requests.push({
        id: this.tileId(top),
        priority: 1,
        fineness: -top.level,
        distance,
        revision: this.options.revision,
      });
      for (const tile of visibleTiles(tract, level, footprint)) {
        const coarsest = tile.key.level === top.level;
        if (!coarsest && (hidden || above.some((other) => pointsInside(tile.border, other)))) continue;
        const id = this.tileId(tile.key);
        if (!coarsest)
          requests.push({
            id,
            priority: 0,
            fineness: -level,
            distance: tile.distance,
            revision: this.options.revision,
          });
        const rank = this.options.stencilBase + Math.min(STENCIL_SPAN, index + 1);
        drawn.push({ id, tract, key: tile.key, weight, rank: Math.min(255, rank) });
      }
    }
    return { requests, drawn };
  }

  protected ancestors({ tract, key }: SurveyTile): string[] {
    const chain: string[] = [];
    for (let level = key.level + 1; level <= tract.maxLevel; level++) chain.push(this.tileId(ancestorKey(key, level)));
    return chain;
  }

  draw(frame: FrameContext): void {
    const { gl } = frame;
    const program = this.tileProgram;
    if (!program || !this.outline) return;
    const drawn = this.wantTiles(frame);

    const add = this.options.blend === 'add';
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, add ? gl.ONE : gl.ONE_MINUS_SRC_ALPHA);
    if (drawn.length > 0) {
      gl.useProgram(program);
      setProjectionUniforms(gl, program, frame);
      const colorParams = add ? { ...this.options.colorParams, bias: 0 } : this.options.colorParams;
      setSurveyColorUniforms(gl, program, colorParams, this.mixing);
      ['u_filter0', 'u_filter1', 'u_filter2'].forEach((name, unit) =>
        gl.uniform1i(uniformLocation(gl, program, name), unit),
      );
      if (add) {
        // Later tracts first, each claiming its pixels (the later, the higher its rank).
        gl.enable(gl.STENCIL_TEST);
        gl.stencilOp(gl.KEEP, gl.KEEP, gl.REPLACE);
        this.drawTiles(frame, [...drawn].reverse(), 'add');
        gl.disable(gl.STENCIL_TEST);
      } else this.drawTiles(frame, drawn, 'over');
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    }
    if (this.options.outline) this.outline.draw(frame, this.outlineWeight(frame));
  }

  /** The outline's weight in the frame's view: that of the tract whose tiles weigh least. */
  private outlineWeight(frame: FrameContext): number {
    const screenPixel = SurveyLayer.screenPixel(frame);
    let weight = 0;
    for (const tract of this.tracts.values()) weight = Math.max(weight, 1 - tileWeight(screenPixel, tract));
    return weight;
  }

  /** Draws a tile with the textures of the tile `up` levels above it that contains it. */
  protected drawSource(tile: SurveyTile, source: TileSource<TileTextures>, alpha: number): void {
    const { textures } = source.value;
    // Drawn where no later tract has drawn (the stencil holds at most this tract's rank).
    if (this.options.blend === 'add') this.context!.gl.stencilFunc(this.context!.gl.GEQUAL, tile.rank, 0xff);
    // Three filter units; a single-filter tile shows its one filter on all three.
    const units = [0, 1, 2].map((unit) => textures[Math.min(unit, textures.length - 1)]);
    this.tileMeshes!.draw(tile.tract, tile.key, tile.key.level + source.up, tile.weight * alpha, source.value, units);
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.tileProgram) throw releasedMoreThanOnce();
    this.abort.abort();
    this.releaseTiles();
    this.images.clear();
    this.tileMeshes?.release();
    this.outline?.release();
    gl.deleteProgram(this.tileProgram);
    this.tileProgram = null;
    this.outline = null;
    this.context = null;
  }
}
