// Pretty-picture layers (viewer-spec §1, §3, §7): one preset object (m31, m42, m45, m101,
// perseus) drawn from {dataRepository}/pretty_picture/{which}/: meta.json (wcs, tractOptions, a
// filters list of at most 4 names, the preset with its saved view) and per filter a tile
// pyramid {filter}/{level}/{p}/{q}.fits laid out like a survey tract (tiles/tract.ts).
//
// A tiled layer (tiles/tiled-layer.ts: 2 loads at once, 1000 tiles kept). Each filter file is
// fetched here with same-origin credentials (abortable when the tile leaves the view) and
// decoded by the wasm FITS reader in a worker of the pool; the decoded images (400 kept,
// tiles/decoded-files.ts) are uploaded as one-channel float textures, so the main thread only
// uploads. A filter file that fails to load or decode is a blank channel, not an error. The
// channels are mixed into colour on the GPU by the preset's parameters (pretty-picture-mixer.ts),
// so a change of the viewer's display settings redraws without reloading. The coarsest tile is
// asked for first, since every finer tile can be drawn from it while it loads. The light is added
// to the sky under it, so the picture's black background hides nothing.
//
// With `zoomFade` (the application's normal view) a picture shows as the zoom reaches its object
// (pictureZoomOpacity) and loads nothing while it does not; without it (the viewer's default,
// and expert mode) it shows at every zoom. `field()` says where it lies and how it fades, for the
// layers that give way to it (the deep-sky objects in its field).
import type { TanWcs } from '../../../core/wcs';
import { compileProgram, linearTexture, requireFloatTextures, tileAborted, uniformLocation } from '../gl';
import { setProjectionUniforms } from '../projection';
import { DecodedFiles } from '../tiles/decoded-files';
import type { TileRequest } from '../tiles/engine';
import { TILE_LIMITS } from '../tiles/limits';
import { SHARP_TILE_LOD_BIAS, TiledLayer, levelsCoarser, type TileSource, type TileView } from '../tiles/tiled-layer';
import { TractTileMeshes } from '../tiles/tract-meshes';
import {
  SMALLEST_TRACT_PIXELS,
  TILE_VERTEX_GLSL,
  ancestorKey,
  surveyLevel,
  tractOf,
  visibleTiles,
  type TileKey,
  type Tract,
  type TractOptions,
} from '../tiles/tract';
import { angleBetween, viewFootprint } from '../visibility';
import type { ImageField } from './deep-sky';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';
import { fetchBytes, fetchOk } from '../fetch';
import {
  DEFAULT_DISPLAY,
  MAX_PRETTY_FILTERS,
  PRETTY_MIXER_GLSL,
  checkFilterCount,
  mixMatrix,
  type PrettyDisplay,
} from './pretty-picture-mixer';
import type { PrettyPicture, PrettyPreset, PrettyView } from '../../../shared/prettyPicture';

export interface PrettyPictureMeta {
  wcs: TanWcs;
  tractOptions?: TractOptions;
  filters: string[];
  preset: PrettyPreset;
}

export interface PrettyPictureOptions {
  /** {dataRepository} of viewer-spec §7. */
  dataRepository: string;
  which: PrettyPicture;
  /** The viewer's settings on top of the preset. */
  display: PrettyDisplay;
  /** Replaces parameters of meta.json's preset. */
  preset: Partial<Omit<PrettyPreset, 'view' | 'nFilters'>>;
  /**
   * The tile level-of-detail bias (viewer-spec §3, §9: 2): 2 draws tile pixels no larger than
   * screen pixels; each unit less is one level coarser (tiles/tiled-layer.ts, levelsCoarser).
   */
  tileLodBias: number;
  /** Shown only as the zoom reaches the object (pictureZoomOpacity); false: at every zoom. */
  zoomFade: boolean;
}

export const PRETTY_PICTURE_DEFAULTS: Omit<PrettyPictureOptions, 'dataRepository' | 'which'> = {
  display: DEFAULT_DISPLAY,
  preset: {},
  tileLodBias: SHARP_TILE_LOD_BIAS,
  zoomFade: false,
};

/**
 * A picture with zoomFade is drawn in full while the view is at most PICTURE_FULL_FIELDS times
 * its field's side high, and not at all from PICTURE_GONE_FIELDS times: it comes as the object
 * fills a good part of the screen, where its catalogue glow (deep-sky.ts) gives way to it.
 */
export const PICTURE_FULL_FIELDS = 2.5;
export const PICTURE_GONE_FIELDS = 4;

/** The opacity of a zoom-faded picture whose field is `side` radians across, at `fovy`. */
export function pictureZoomOpacity(fovy: number, side: number): number {
  const fields = fovy / side;
  return Math.min(1, Math.max(0, (PICTURE_GONE_FIELDS - fields) / (PICTURE_GONE_FIELDS - PICTURE_FULL_FIELDS)));
}

/** The camera of a saved view (theta from the north pole, phi the right ascension). */
export function viewTarget(view: PrettyView): { theta: number; phi: number; fovy: number; roll: number } {
  return { theta: Math.PI / 2 - view.d, phi: view.a, fovy: view.fovy, roll: view.roll };
}

/** One decoded filter file: float32 pixels, row 0 the tile's lowest y. */
interface FilterImage {
  width: number;
  height: number;
  pixels: Float32Array;
}

interface TileTextures {
  /** One per filter; null where the filter file failed (the blank channel). */
  textures: (WebGLTexture | null)[];
  width: number;
  height: number;
}

/** A tile drawn (the layer has one tract). */
interface PrettyTile {
  id: string;
  key: TileKey;
}

const FRAGMENT = `#version 300 es
precision highp float;
uniform sampler2D u_filter0;
uniform sampler2D u_filter1;
uniform sampler2D u_filter2;
uniform sampler2D u_filter3;
uniform float u_alpha;
in vec2 v_uv;
out vec4 color;
${PRETTY_MIXER_GLSL}
void main() {
  vec4 fluxes = vec4(
    texture(u_filter0, v_uv).r,
    texture(u_filter1, v_uv).r,
    texture(u_filter2, v_uv).r,
    texture(u_filter3, v_uv).r
  );
  color = vec4(prettyColor(fluxes), u_alpha);
}
`;

/** A one-channel float texture, linearly filtered (needs OES_texture_float_linear). */
function floatTexture(gl: WebGL2RenderingContext, width: number, height: number, pixels: Float32Array) {
  return linearTexture(gl, () => {
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R32F, width, height, 0, gl.RED, gl.FLOAT, pixels);
  });
}

export class PrettyPictureLayer extends TiledLayer<TileTextures, PrettyTile> implements Layer<PrettyPictureOptions> {
  readonly name: string;
  private options: PrettyPictureOptions;
  private program: WebGLProgram | null = null;
  /** The zero texture a blank channel samples. */
  private blank: WebGLTexture | null = null;
  private meta: PrettyPictureMeta | null = null;
  private tract: Tract | null = null;
  /**
   * The filter files, fetched abortably and decoded one by one in the layer's decoder pool
   * (LayerContext.decoder). A file that
   * fails is null, the blank channel (viewer-spec §7), and stays so; an aborted one is
   * forgotten, so that the next request fetches it again.
   */
  private readonly images = new DecodedFiles<FilterImage | null>(TILE_LIMITS.decodedImages, (urls, signal) => {
    const { decoder } = this;
    return urls.map((url) =>
      fetchBytes(url, signal)
        .then(async (bytes) => {
          const { axes, pixels } = await decoder.run('decodeFits', [bytes], { transfer: [bytes.buffer], signal });
          return { width: axes[0], height: axes[1] ?? 1, pixels };
        })
        .catch((error: unknown) => {
          if (signal.aborted) throw error;
          console.warn(`pretty picture: ${url} is a blank channel`, error);
          return null;
        }),
    );
  });
  private tileMeshes: TractTileMeshes | null = null;
  private readonly abort = new AbortController();
  /** The opacity of the frame being drawn (zoomFade). */
  private frameOpacity = 1;
  private resolveLoaded!: (meta: PrettyPictureMeta) => void;
  private rejectLoaded!: (error: Error) => void;
  /** meta.json, once loaded: the filters and the preset with its saved view. */
  readonly loaded: Promise<PrettyPictureMeta>;

  constructor(options: Partial<PrettyPictureOptions> & Pick<PrettyPictureOptions, 'dataRepository' | 'which'>) {
    super(TILE_LIMITS.survey);
    this.options = { ...PRETTY_PICTURE_DEFAULTS, ...options };
    this.name = `pretty-picture:${this.options.which}`;
    this.loaded = new Promise((resolve, reject) => {
      this.resolveLoaded = resolve;
      this.rejectLoaded = reject;
    });
    this.loaded.catch(() => {});
  }

  /** Where the picture lies and its opacity by zoom; null until meta.json is in. */
  field(): ImageField | null {
    const tract = this.tract;
    if (!tract) return null;
    return { centre: tract.centre, radius: tract.radius, opacity: ({ fovy }) => this.opacity(fovy) };
  }

  /** The opacity at `fovy`: by zoom with zoomFade, otherwise 1. */
  private opacity(fovy: number): number {
    const tract = this.tract;
    if (!this.options.zoomFade || !tract) return 1;
    return pictureZoomOpacity(fovy, Math.SQRT2 * tract.radius);
  }

  private get folder(): string {
    return `${this.options.dataRepository}/pretty_picture/${this.options.which}`;
  }

  /** viewer-spec §8: without float textures the layer warns and throws (gl.ts). */
  create(context: LayerContext): void {
    const { gl } = context;
    requireFloatTextures(gl);
    this.context = context;
    this.program = compileProgram(gl, TILE_VERTEX_GLSL, FRAGMENT);
    this.blank = floatTexture(gl, 1, 1, new Float32Array(1));
    this.tileMeshes = new TractTileMeshes(gl, this.program, TILE_LIMITS.survey.cacheSize);
    this.load();
  }

  /** Display and preset changes only change uniforms: the next frame shows them. */
  update(options: Partial<PrettyPictureOptions>): void {
    if (options.which !== undefined && options.which !== this.options.which)
      throw new Error('a pretty-picture layer shows one object; make a new layer for another');
    this.options = { ...this.options, ...options };
    this.context?.requestFrame();
  }

  private load(): void {
    const { signal } = this.abort;
    const url = `${this.folder}/meta.json`;
    void fetchOk(url, signal)
      .then(async (response) => {
        const meta = (await response.json()) as PrettyPictureMeta;
        checkFilterCount(meta.filters.length);
        if (signal.aborted) return;
        this.meta = meta;
        this.tract = tractOf(0, meta.wcs, meta.tractOptions);
        this.resolveLoaded(meta);
        this.context?.requestFrame();
      })
      .catch((error: unknown) => {
        if (signal.aborted) return;
        console.error(`pretty picture ${this.options.which}: meta.json failed to load`, error);
        this.rejectLoaded(error instanceof Error ? error : new Error(String(error)));
      });
  }

  protected async loadTile(id: string, signal: AbortSignal): Promise<TileTextures> {
    const meta = this.meta;
    if (!meta) throw tileAborted();
    const urls = meta.filters.map((filter) => `${this.folder}/${filter}/${id}.fits`);
    const images = await Promise.all(this.images.get(urls, signal));
    const gl = this.context?.gl;
    if (!gl || signal.aborted) throw tileAborted();
    const first = images.find((image) => image !== null);
    const size = this.tract!.tileSize;
    return {
      textures: images.map((image) => image && floatTexture(gl, image.width, image.height, image.pixels)),
      width: first?.width ?? size,
      height: first?.height ?? size,
    };
  }

  protected releaseTile(tile: TileTextures, gl: WebGL2RenderingContext): void {
    for (const texture of tile.textures) if (texture) gl.deleteTexture(texture);
  }

  /** Engine ids are the tile's level/p/q (the layer has one tract). */
  private tileId(key: TileKey): string {
    return `${key.level}/${key.p}/${key.q}`;
  }

  protected viewTiles(view: TileView): { requests: TileRequest[]; drawn: PrettyTile[] } {
    const { tract } = this;
    const { camera } = view;
    if (!tract || this.opacity(camera.fovy) <= 0) return { requests: [], drawn: [] };
    const footprint = viewFootprint(camera, view.eye, view.width, view.height);
    const screenPixel = (2 * camera.projectionScale(view.eye)) / view.height;
    const distance = angleBetween(footprint.centre, tract.centre);
    if (distance > footprint.radius + tract.radius || (2 * tract.radius) / screenPixel < SMALLEST_TRACT_PIXELS)
      return { requests: [], drawn: [] };
    const coarser = levelsCoarser(this.options.tileLodBias, camera);
    const level = surveyLevel(screenPixel, tract.pixelAngle, coarser, tract.minLevel, tract.maxLevel);
    const top: TileKey = { tract: 0, level: tract.maxLevel, p: 0, q: 0 };
    // The coarsest tile first: every finer tile can be drawn from it while it loads.
    const requests: TileRequest[] = [{ id: this.tileId(top), priority: 1, fineness: -top.level, distance }];
    const drawn: PrettyTile[] = [];
    for (const tile of visibleTiles(tract, level, footprint)) {
      const id = this.tileId(tile.key);
      if (tile.key.level !== top.level) requests.push({ id, priority: 0, fineness: -level, distance: tile.distance });
      drawn.push({ id, key: tile.key });
    }
    return { requests, drawn };
  }

  protected ancestors({ key }: PrettyTile): string[] {
    const chain: string[] = [];
    for (let up = key.level + 1; up <= this.tract!.maxLevel; up++) chain.push(this.tileId(ancestorKey(key, up)));
    return chain;
  }

  draw(frame: FrameContext): void {
    const { gl } = frame;
    const { program, tract, meta } = this;
    if (!program || !tract || !meta) return;
    this.frameOpacity = this.opacity(frame.camera.fovy);
    if (this.frameOpacity <= 0) {
      this.wantNoTiles();
      return;
    }
    const drawn = this.wantTiles(frame);
    if (drawn.length === 0) return;

    const preset = { ...meta.preset, ...this.options.preset };
    const { display } = this.options;
    gl.useProgram(program);
    setProjectionUniforms(gl, program, frame);
    gl.uniform1f(uniformLocation(gl, program, 'u_a'), preset.a);
    gl.uniform1f(uniformLocation(gl, program, 'u_b'), preset.b);
    gl.uniform1f(uniformLocation(gl, program, 'u_beta'), preset.beta * display.betaScale);
    gl.uniform1f(uniformLocation(gl, program, 'u_bias'), preset.bias);
    gl.uniformMatrix4x3fv(
      uniformLocation(gl, program, 'u_mix'),
      false,
      mixMatrix(preset.mix, meta.filters.length, display.solo),
    );
    gl.uniform1f(uniformLocation(gl, program, 'u_exposure'), preset.exposure);
    gl.uniform1f(uniformLocation(gl, program, 'u_gamma'), preset.gamma);
    gl.uniform1f(uniformLocation(gl, program, 'u_ground'), preset.ground);
    gl.uniform1i(uniformLocation(gl, program, 'u_grayscale'), display.grayscale ? 1 : 0);
    for (let unit = 0; unit < MAX_PRETTY_FILTERS; unit++)
      gl.uniform1i(uniformLocation(gl, program, `u_filter${unit}`), unit);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE);
    this.drawTiles(frame, drawn, 'add');
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
  }

  /** Draws a tile with the textures of the tile `up` levels above it that contains it. */
  protected drawSource(tile: PrettyTile, source: TileSource<TileTextures>, alpha: number): void {
    // Every filter unit is bound: a preset with fewer filters, or a failed filter file, reads blank.
    const { textures } = source.value;
    const units = Array.from({ length: MAX_PRETTY_FILTERS }, (_, unit) => textures[unit] ?? this.blank);
    const shown = alpha * this.frameOpacity;
    this.tileMeshes!.draw(this.tract!, tile.key, tile.key.level + source.up, shown, source.value, units);
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.program) throw releasedMoreThanOnce();
    this.abort.abort();
    this.releaseTiles();
    this.images.clear();
    this.tileMeshes?.release();
    gl.deleteTexture(this.blank);
    gl.deleteProgram(this.program);
    this.program = null;
    this.context = null;
  }
}
