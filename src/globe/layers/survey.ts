// Survey image tiles with their area outlines (viewer-spec §3, §4, §7). A survey folder
// {baseUrl} holds meta.json (per tract a TAN wcs and tract options), area.json (outline
// polygons) and the tile pyramids {baseUrl}/{filter}/{tract}/{level}/{p}/{q}.png: level L has
// pixels of 2^L × 2^L tract pixels, tile (p, q) of level L covers tract pixels
// x ∈ [p·size·2^L, (p+1)·size·2^L), y likewise with q, PNG row 0 the tile's lowest y unless
// flipV. Each filter is one 8-bit grey PNG in the asinh encoding of the HSC tiles: byte v gives
// y = v/255 and flux 1e-4·sinh(9.903487555·(y − 1/9)).
//
// Tiles go through the shared tile engine (2 loads at once, 1000 tiles kept); each filter file
// is fetched here (so that a tile leaving the view aborts its requests) and a tile's files are
// decoded together in one worker-pool job; the decoded images (400 kept) are uploaded as
// one-channel textures and the three filters are mixed into colour on the GPU by the colour
// parameters:
//   matrix types: x = Σ_k colour_k · flux_k over the enabled colours (up to three filters);
//   the other types: red, green, blue = HSC-I, HSC-R, HSC-G fluxes;
//   then x − b0 is stretched with s(x) = asinh(β·x)/asinh(β) and scaled by a, either per
//   channel (SIMPLE_*) or, keeping the colour of each pixel, by the stretch of the mean
//   intensity I (SDSS_TRUE_COLOR*: Lupton et al. 2004), and bias is added.
// A missing fine tile is drawn from its nearest loaded ancestor; while a jump is under way the
// tiles of where it ends are asked for ahead of the views on the way. The area outlines fade in over
// 1000 ms once area.json is loaded (an empty region if it fails) and cross-fade with the tiles
// by zoom: tiles while a tract spans many screen pixels, outlines when it shrinks to a few.
import type { TanWcs } from '../../core/wcs';
import { decoderPool } from '../../../workers/browser-pool';
import { attributeLocation, compileProgram, dataTexture, tileAborted, uniformLocation } from '../gl';
import { PROJECTION_GLSL, setProjectionUniforms } from '../projection';
import { TileEngine, type TileRequest } from '../tiles/engine';
import { TILE_LIMITS } from '../tiles/limits';
import { LruCache } from '../tiles/lru';
import { TractTileMeshes } from '../tiles/tract-meshes';
import type { Camera } from '../camera';
import {
  SMALLEST_TRACT_PIXELS,
  TILE_VERTEX_GLSL,
  ancestorKey,
  surveyLevel,
  tileKeyString,
  tractOf,
  visibleTiles,
  type TileKey,
  type Tract,
  type TractOptions,
} from '../tiles/tract';
import { angleBetween, skyVector, viewCone } from '../visibility';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';
import { fetchBytes, fetchOk } from '../fetch';

/** The tract geometry's helpers, where the survey's tests and callers have found them. */
export { ancestorKey, surveyLevel, tileKeyString, type TileKey };

export enum ColorParamsType {
  SDSS_TRUE_COLOR = 'SDSS_TRUE_COLOR',
  SIMPLE_RGB = 'SIMPLE_RGB',
  SIMPLE_COLOR_MATRIX = 'SIMPLE_COLOR_MATRIX',
  SDSS_TRUE_COLOR_MATRIX = 'SDSS_TRUE_COLOR_MATRIX',
}

export interface ColorEntry {
  filterName: string;
  enabled: boolean;
  /** Weights of this filter's flux in red, green and blue. */
  value: [number, number, number];
}

export interface ColorParams {
  type: ColorParamsType;
  beta: number;
  a: number;
  bias: number;
  b0: number;
  /** The matrix types' colours; ignored by the others. */
  colors: ColorEntry[];
}

/** Red, green and blue of the non-matrix types (viewer-spec §3: filters HSC-I, HSC-R, HSC-G). */
export const DEFAULT_FILTERS = ['HSC-I', 'HSC-R', 'HSC-G'] as const;

/** viewer-spec §3: beta e^10, a 1, bias 0.05, b0 0. */
export const DEFAULT_COLOR_PARAMS: ColorParams = {
  type: ColorParamsType.SDSS_TRUE_COLOR,
  beta: Math.exp(10),
  a: 1,
  bias: 0.05,
  b0: 0,
  colors: [
    { filterName: 'HSC-I', enabled: true, value: [1, 0, 0] },
    { filterName: 'HSC-R', enabled: true, value: [0, 1, 0] },
    { filterName: 'HSC-G', enabled: true, value: [0, 0, 1] },
  ],
};

/** The application's tile layer (viewer-spec §3, application-spec): true-colour matrix, beta 57338.67. */
export const APPLICATION_COLOR_PARAMS: ColorParams = {
  ...DEFAULT_COLOR_PARAMS,
  type: ColorParamsType.SDSS_TRUE_COLOR_MATRIX,
  beta: 57338.67,
  colors: [
    { filterName: 'HSC-I', enabled: true, value: [0.95, 0, 0] },
    { filterName: 'HSC-R', enabled: true, value: [0, 0.98, 0] },
    { filterName: 'HSC-G', enabled: true, value: [0, 0, 1.02] },
  ],
};

export interface SurveyOptions {
  /** The survey folder, e.g. {dataRepository}/wide. */
  baseUrl: string;
  colorParams: ColorParams;
  /** 2 draws tile pixels no larger than screen pixels; each unit less is one level coarser. */
  lodBias: number;
  /** Draw the area outlines (cross-fading with the tiles by zoom). */
  outline: boolean;
  /** The provider's revision: raising it requests the cached tiles again. */
  revision: number;
}

export const SURVEY_DEFAULTS: Omit<SurveyOptions, 'baseUrl'> = {
  colorParams: DEFAULT_COLOR_PARAMS,
  lodBias: 2,
  outline: true,
  revision: 0,
};

/** The application's settings: level-of-detail bias 2, outline off (viewer-spec §3). */
export const APPLICATION_SURVEY_OPTIONS: Omit<SurveyOptions, 'baseUrl'> = {
  colorParams: APPLICATION_COLOR_PARAMS,
  lodBias: 2,
  outline: false,
  revision: 0,
};

/** Area outlines fade in over this time once loaded (viewer-spec §4). */
export const OUTLINE_FADE_MS = 1000;

/** The filters a colour parameter set reads and the 3×3 weights (column k: filter k's RGB). */
export function colorMixing(params: ColorParams): { filters: string[]; weights: Float32Array } {
  const matrix =
    params.type === ColorParamsType.SIMPLE_COLOR_MATRIX || params.type === ColorParamsType.SDSS_TRUE_COLOR_MATRIX;
  const entries = matrix
    ? params.colors.filter((entry) => entry.enabled)
    : DEFAULT_FILTERS.map((filterName, k) => ({
        filterName,
        value: [k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0] as [number, number, number],
      }));
  if (entries.length > 3) throw new Error('a survey colour matrix mixes at most 3 filters');
  const weights = new Float32Array(9);
  entries.forEach((entry, k) => weights.set(entry.value, 3 * k));
  return { filters: entries.map((entry) => entry.filterName), weights };
}

function isTrueColor(type: ColorParamsType): boolean {
  return type === ColorParamsType.SDSS_TRUE_COLOR || type === ColorParamsType.SDSS_TRUE_COLOR_MATRIX;
}

interface MetaJson {
  tracts: { tract: number; wcs: TanWcs; tractOptions?: TractOptions }[];
}

/**
 * Weight of the tiles against the outlines from how many levels coarser than the tract's
 * coarsest one the screen would need (k): tiles alone up to k = 1 (a tract over 128 screen
 * pixels at 256-pixel tiles), outlines alone from k = 3.
 */
export function tileWeight(screenPixel: number, tract: Pick<Tract, 'pixelAngle' | 'maxLevel'>): number {
  const k = Math.log2(screenPixel / tract.pixelAngle) - tract.maxLevel;
  return Math.min(1, Math.max(0, (3 - k) / 2));
}

interface TileTextures {
  textures: WebGLTexture[];
  width: number;
  height: number;
}

const TILE_FRAGMENT = `#version 300 es
precision highp float;
uniform sampler2D u_filter0;
uniform sampler2D u_filter1;
uniform sampler2D u_filter2;
uniform mat3 u_colors;
uniform bool u_trueColor;
uniform float u_beta;
uniform float u_a;
uniform float u_bias;
uniform float u_b0;
uniform float u_alpha;
in vec2 v_uv;
out vec4 color;
float flux(float y) { return 1e-4 * sinh(9.903487555 * (y - 1.0 / 9.0)); }
float stretch(float x) { return asinh(u_beta * x) / asinh(u_beta); }
void main() {
  vec3 f = vec3(flux(texture(u_filter0, v_uv).r), flux(texture(u_filter1, v_uv).r), flux(texture(u_filter2, v_uv).r));
  vec3 x = u_colors * f - u_b0;
  vec3 rgb;
  if (u_trueColor) {
    float intensity = (x.r + x.g + x.b) / 3.0;
    rgb = intensity > 0.0 ? x * (u_a * stretch(intensity) / intensity) : vec3(0.0);
  } else {
    rgb = u_a * vec3(stretch(x.r), stretch(x.g), stretch(x.b));
  }
  color = vec4(clamp(rgb + u_bias, 0.0, 1.0), u_alpha);
}
`;

const OUTLINE_VERTEX = `#version 300 es
in vec3 a_position;
${PROJECTION_GLSL}
void main() { gl_Position = project(a_position); }
`;

const OUTLINE_FRAGMENT = `#version 300 es
precision mediump float;
uniform vec4 u_color;
out vec4 color;
void main() { color = u_color; }
`;

const OUTLINE_COLOR = [1, 0.85, 0.45] as const;
/** Added to the priorities of the tiles where a jump ends, ahead of the view's own (0 and 1). */
const DESTINATION_PRIORITY = 2;

/**
 * The outline of `filters` in area.json (viewer-spec §3): a list of polygons is every filter's;
 * an object keys polygon lists by filter name, with $any for every filter. Each filter's outline
 * is its own: a filter not drawn adds none.
 */
export function areaPolygons(json: unknown, filters: readonly string[]): [number, number][][] {
  if (Array.isArray(json)) return json as [number, number][][];
  if (!json || typeof json !== 'object') return [];
  const lists = json as Record<string, unknown>;
  return ['$any', ...filters].flatMap((key) => {
    const list = lists[key];
    return Array.isArray(list) ? (list as [number, number][][]) : [];
  });
}

export class SurveyLayer implements Layer<SurveyOptions> {
  readonly name = 'survey';
  private options: SurveyOptions;
  private context: LayerContext | null = null;
  private tileProgram: WebGLProgram | null = null;
  private outlineProgram: WebGLProgram | null = null;
  private outline: { vertexArray: WebGLVertexArrayObject; buffer: WebGLBuffer; count: number } | null = null;
  private outlineLoadedAt = 0;
  /** area.json as read (an empty list after a failure): outlined for the filters drawn. */
  private area: unknown = [];
  private tracts = new Map<number, Tract>();
  private engine: TileEngine<TileTextures>;
  private readonly images: LruCache<string, Promise<ImageBitmap>>;
  private tileMeshes: TractTileMeshes | null = null;
  private mixing: ReturnType<typeof colorMixing>;
  private abort = new AbortController();
  /** The engine ids drawn by the last frame. */
  private visible = new Set<string>();

  constructor(options: Partial<SurveyOptions> & { baseUrl: string }) {
    this.options = { ...SURVEY_DEFAULTS, ...options };
    this.mixing = colorMixing(this.options.colorParams);
    this.images = new LruCache(TILE_LIMITS.decodedImages, (image) => {
      image.then((bitmap) => bitmap.close()).catch(() => {});
    });
    this.engine = this.createEngine();
  }

  /** The tile engine (tests and the bench read its counters). */
  get tiles(): Pick<TileEngine<unknown>, 'started' | 'loading' | 'queued' | 'cached' | 'isDead' | 'state'> {
    return this.engine;
  }

  private createEngine(): TileEngine<TileTextures> {
    return new TileEngine<TileTextures>({
      loader: (id, signal) => this.loadTile(id, signal),
      concurrency: TILE_LIMITS.survey.concurrency,
      cacheSize: TILE_LIMITS.survey.cacheSize,
      release: (tile) => {
        const gl = this.context?.gl;
        if (gl) for (const texture of tile.textures) gl.deleteTexture(texture);
      },
      refresh: () => this.context?.requestFrame(),
    });
  }

  create(context: LayerContext): void {
    const { gl } = context;
    this.context = context;
    this.tileProgram = compileProgram(gl, TILE_VERTEX_GLSL, TILE_FRAGMENT);
    this.outlineProgram = compileProgram(gl, OUTLINE_VERTEX, OUTLINE_FRAGMENT);
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
      this.engine.release();
      this.engine = this.createEngine();
      this.images.clear();
      this.tracts = new Map();
      this.deleteOutline(this.context.gl);
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
      })
      .catch((error: unknown) => {
        if (!signal.aborted) console.error('survey meta.json failed to load', error);
      });
    // viewer-spec §8: an area.json failure is silently replaced by empty data.
    void fetch(`${baseUrl}/area.json`, { signal })
      .then((response) => (response.ok ? response.json() : []))
      .catch(() => [])
      .then((json: unknown) => {
        if (signal.aborted) return;
        this.area = json;
        this.outlineLoadedAt = performance.now();
        this.uploadOutline();
      });
  }

  /** The outline of the filters drawn now, replacing the one before. */
  private uploadOutline(): void {
    const context = this.context;
    if (!context || !this.outlineProgram) return;
    const { gl } = context;
    this.deleteOutline(gl);
    const vertices: number[] = [];
    for (const polygon of areaPolygons(this.area, this.mixing.filters)) {
      const points = polygon.map(([ra, dec]) => skyVector(ra, dec));
      for (let i = 0; i < points.length; i++) vertices.push(...points[i], ...points[(i + 1) % points.length]);
    }
    const vertexArray = gl.createVertexArray();
    const buffer = gl.createBuffer();
    gl.bindVertexArray(vertexArray);
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(vertices), gl.STATIC_DRAW);
    const position = attributeLocation(gl, this.outlineProgram, 'a_position');
    gl.enableVertexAttribArray(position);
    gl.vertexAttribPointer(position, 3, gl.FLOAT, false, 0, 0);
    gl.bindVertexArray(null);
    this.outline = { vertexArray, buffer, count: vertices.length / 3 };
    context.requestFrame();
  }

  /**
   * The decoded images of `urls` (a tile's filter files), cached per URL: those not cached are
   * fetched (abortably) and decoded together in one worker-pool job.
   */
  private decodedImages(urls: string[], signal: AbortSignal): Promise<ImageBitmap>[] {
    const missing = urls.filter((url) => !this.images.has(url));
    if (missing.length > 0) {
      const decoded = Promise.all(missing.map((url) => fetchBytes(url, signal))).then((files) =>
        decoderPool().run('decodeImages', [files], { transfer: files.map((bytes) => bytes.buffer), signal }),
      );
      missing.forEach((url, index) => {
        const image = decoded.then((bitmaps) => bitmaps[index]);
        this.images.set(url, image);
        // A failed or aborted image must not stay cached: the next request fetches it again.
        image.catch(() => {
          if (this.images.peek(url) === image) this.images.delete(url);
        });
      });
    }
    return urls.map((url) => this.images.get(url)!);
  }

  private async loadTile(id: string, signal: AbortSignal): Promise<TileTextures> {
    const [filterList, key] = id.split(':');
    const urls = filterList.split(',').map((filter) => `${this.options.baseUrl}/${filter}/${key}.png`);
    const bitmaps = await Promise.all(this.decodedImages(urls, signal));
    const gl = this.context?.gl;
    if (!gl || signal.aborted) throw tileAborted();
    // The main thread only uploads: the images arrive decoded.
    return {
      textures: bitmaps.map((bitmap) => dataTexture(gl, bitmap)),
      width: bitmaps[0].width,
      height: bitmaps[0].height,
    };
  }

  private tileId(key: TileKey): string {
    return `${this.mixing.filters.join(',')}:${tileKeyString(key)}`;
  }

  /**
   * The tiles a view of `camera` (seen with `eye` on a width × height screen) wants, its
   * priorities raised by `boost`, and the tiles it draws with their outline weight.
   */
  private viewTiles(camera: Camera, eye: number, width: number, height: number, boost: number) {
    const cone = viewCone(camera, eye, width, height);
    // One screen pixel at the centre, radians (the projections agree there).
    const screenPixel = (2 * camera.projectionScale(eye)) / height;
    const requests: TileRequest[] = [];
    const drawn: { tract: Tract; key: TileKey; weight: number }[] = [];
    let outlineWeight = 0;
    for (const tract of this.tracts.values()) {
      const distance = angleBetween(cone.centre, tract.centre);
      const weight = this.options.outline ? tileWeight(screenPixel, tract) : 1;
      outlineWeight = Math.max(outlineWeight, 1 - weight);
      if (distance > cone.radius + tract.radius || weight <= 0) continue;
      if ((2 * tract.radius) / screenPixel < SMALLEST_TRACT_PIXELS) continue;
      const level = surveyLevel(
        screenPixel,
        tract.pixelAngle,
        this.options.lodBias - camera.lodBias,
        tract.minLevel,
        tract.maxLevel,
      );
      const top = { tract: tract.tract, level: tract.maxLevel, p: 0, q: 0 };
      // The tract's coarsest tile first: every finer tile can be drawn from it while it loads.
      requests.push({
        id: this.tileId(top),
        priority: 1 + boost,
        fineness: -top.level,
        distance,
        revision: this.options.revision,
      });
      for (const tile of visibleTiles(tract, level, cone)) {
        if (tile.key.level !== top.level)
          requests.push({
            id: this.tileId(tile.key),
            priority: boost,
            fineness: -level,
            distance: tile.distance,
            revision: this.options.revision,
          });
        drawn.push({ tract, key: tile.key, weight });
      }
    }
    return { requests, drawn, outlineWeight };
  }

  loading(): boolean {
    return this.engine.busy;
  }

  draw(frame: FrameContext): void {
    const { gl, camera } = frame;
    const program = this.tileProgram;
    if (!program || !this.outlineProgram) return;
    const { requests, drawn, outlineWeight } = this.viewTiles(camera, frame.eye, frame.width, frame.height, 0);
    if (frame.destination) {
      // A jump under way: the tiles of where it ends come first (the views on the way are seen
      // for a moment), so that they are in, or on their way, when it arrives.
      const { camera: end, eye } = frame.destination;
      const ahead = this.viewTiles(end, eye, frame.width, frame.height, DESTINATION_PRIORITY).requests;
      const ids = new Set(ahead.map((request) => request.id));
      requests.splice(0, requests.length, ...ahead, ...requests.filter((request) => !ids.has(request.id)));
    }
    this.engine.want(requests);
    this.visible = new Set(requests.map((request) => request.id));

    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    if (drawn.length > 0) {
      gl.useProgram(program);
      setProjectionUniforms(gl, program, frame);
      const { colorParams } = this.options;
      gl.uniformMatrix3fv(uniformLocation(gl, program, 'u_colors'), false, this.mixing.weights);
      gl.uniform1i(uniformLocation(gl, program, 'u_trueColor'), isTrueColor(colorParams.type) ? 1 : 0);
      gl.uniform1f(uniformLocation(gl, program, 'u_beta'), colorParams.beta);
      gl.uniform1f(uniformLocation(gl, program, 'u_a'), colorParams.a);
      gl.uniform1f(uniformLocation(gl, program, 'u_bias'), colorParams.bias);
      gl.uniform1f(uniformLocation(gl, program, 'u_b0'), colorParams.b0);
      ['u_filter0', 'u_filter1', 'u_filter2'].forEach((name, unit) =>
        gl.uniform1i(uniformLocation(gl, program, name), unit),
      );
      let fading = false;
      for (const { tract, key, weight } of drawn) {
        const own = this.engine.get(this.tileId(key));
        const ownAlpha = own ? this.engine.alpha(own, frame.time) : 0;
        if (!own || ownAlpha < 1) {
          const chain: string[] = [];
          for (let level = key.level + 1; level <= tract.maxLevel; level++)
            chain.push(this.tileId(ancestorKey(key, level)));
          const ancestor = this.engine.firstCached(chain);
          if (ancestor) {
            const ancestorLevel = Number(ancestor.id.split('/')[1]);
            this.drawTile(tract, key, ancestor.tile.value, ancestorLevel, weight);
          }
        }
        if (own) {
          if (ownAlpha < 1) fading = true;
          this.drawTile(tract, key, own.value, key.level, weight * ownAlpha);
        }
      }
      if (fading) frame.requestFrame();
    }

    if (this.outline && this.options.outline && outlineWeight > 0) {
      const fade = Math.min(1, (frame.time - this.outlineLoadedAt) / OUTLINE_FADE_MS);
      if (fade < 1) frame.requestFrame();
      gl.useProgram(this.outlineProgram);
      setProjectionUniforms(gl, this.outlineProgram, frame);
      gl.uniform4f(uniformLocation(gl, this.outlineProgram, 'u_color'), ...OUTLINE_COLOR, outlineWeight * fade);
      gl.bindVertexArray(this.outline.vertexArray);
      gl.drawArrays(gl.LINES, 0, this.outline.count);
      gl.bindVertexArray(null);
    }
  }

  /** Draws tile `key` with the textures of the tile at `sourceLevel` that contains it. */
  private drawTile(tract: Tract, key: TileKey, source: TileTextures, sourceLevel: number, alpha: number): void {
    // Three filter units; a single-filter tile shows its one filter on all three.
    const textures = [0, 1, 2].map((unit) => source.textures[Math.min(unit, source.textures.length - 1)]);
    this.tileMeshes!.draw(tract, key, sourceLevel, alpha, source, textures);
  }

  private deleteOutline(gl: WebGL2RenderingContext): void {
    if (!this.outline) return;
    gl.deleteVertexArray(this.outline.vertexArray);
    gl.deleteBuffer(this.outline.buffer);
    this.outline = null;
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.tileProgram) throw releasedMoreThanOnce();
    this.abort.abort();
    this.engine.release();
    this.images.clear();
    this.tileMeshes?.release();
    this.deleteOutline(gl);
    gl.deleteProgram(this.tileProgram);
    gl.deleteProgram(this.outlineProgram);
    this.tileProgram = null;
    this.outlineProgram = null;
    this.context = null;
  }
}
