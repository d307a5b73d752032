// The HiPS all-sky image layer (viewer-spec §1, §3, §4, §7, §9; IVOA HiPS 1.0). {baseUrl}/properties
// says the orders, the tile width, the frame and the tile format (core/hipsProperties.ts);
// tiles are {baseUrl}/Norder{k}/Dir{…}/Npix{n}.{format}, tile n of order k the nested HEALPix
// pixel n at nside 2^k, its image row r and column c the face position x = r, y = c (Hipsgen's
// layout, core/healpix.ts), and Norder{min}/Allsky.{format} holds every tile of the minimum
// order side by side.
//
// A tiled layer (tiles/tiled-layer.ts: 4 loads at once, 1000 tiles kept, viewer-spec §9): the
// file is fetched here, so a tile that leaves the view aborts its request, and decoded in the
// worker pool; the main thread only uploads the decoded image. A tile that fails is dead and never
// asked for again (the engine). At the minimum order the Allsky image stands in for the tiles
// while its cells have texels enough for the screen, and always when its cells are the tiles
// whole (allskyServes); it is also the last ancestor of every tile, and asked for first.
//
// Drawing: each tile is a smooth patch of 8 × 8 cells whose vertices are exact HEALPix directions
// (the patch of assembly/shiftmap.ts), and the fragment shader samples the tile at st + shift(st),
// the tile's shiftmap computed in the shiftmap worker (src/workers/shiftmap-service.ts) and kept here
// as a texture by a second engine (viewer-spec §9's HiPS distortion cache, TILE_LIMITS.shiftmaps,
// the one place a map is kept), so every texel lands where HEALPix puts it. A tile fades in over
// 200 ms over its nearest cached ancestor (or the Allsky cell), drawn from the part of the
// ancestor's image the tile covers. The layer adds light (ADD blending, as the Milky Way's): a sky
// image is light on black, and the lines and points drawn before it stay visible through its dark
// sky.
import { vec3 } from 'gl-matrix';
import { Healpix, nestToXy } from '../../../core/healpix';
import {
  FITS_FORMAT,
  allskyCell,
  hipsAllskyUrl,
  hipsTileUrl,
  parseHipsProperties,
  type HipsProperties,
} from '../../../core/hipsProperties';
import { parseMocFits, type HipsCoverage } from '../../../core/hips-moc';
import { SHIFTMAP_PATCH_CELLS, SHIFTMAP_SIZE } from '../../../core/shiftmap';
import { loadCore, type Core } from '../../../core/wasm';
import { shiftmapService } from '../../workers/shiftmap-browser';
import { compileProgram, linearTexture, tileAborted, tileMesh, uniformLocation, type Mesh } from '../gl';
import { PROJECTION_GLSL, setProjectionUniforms } from '../projection';
import { TileEngine, type TileRequest } from '../tiles/engine';
import { TILE_LIMITS } from '../tiles/limits';
import { LruCache } from '../tiles/lru';
import { SHARP_TILE_LOD_BIAS, TiledLayer, levelsCoarser, type TileSource, type TileView } from '../tiles/tiled-layer';
import { WHOLE_SKY_RADIUS, angleBetween, patchMayShow, viewFootprint, type ViewFootprint } from '../visibility';
import type { Backdrop } from './layer';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';
import { fetchBytes, fetchOk } from '../fetch';
import { fetchDecodedImages } from '../tiles/decoded-files';
import { requireFloatTextures } from '../gl';
import { PRETTY_MIXER_GLSL, mixMatrix } from './pretty-picture-mixer';
import type { HipsColour } from '../../../shared/courses';

export interface HipsOptions {
  /** The HiPS folder, {hipsBase} of viewer-spec §7, e.g. {dataRepository}/hips/sky. */
  baseUrl: string;
  /**
   * Drawn in full while one texel of the deepest order spans at most this many screen pixels,
   * fading out by twice that; Infinity draws it at every zoom.
   */
  maxTexelPixels: number;
  /**
   * The tile level-of-detail bias (viewer-spec §3, §9: 2): 2 draws texels no larger than screen
   * pixels; each unit less is one order coarser (tiles/tiled-layer.ts, levelsCoarser).
   */
  tileLodBias: number;
  /** FITS tiles' colour settings (a course's); null: from the properties' hips_pixel_cut. */
  colour: HipsColour | null;
}

export const HIPS_DEFAULTS: Omit<HipsOptions, 'baseUrl'> = {
  maxTexelPixels: Infinity,
  tileLodBias: SHARP_TILE_LOD_BIAS,
  colour: null,
};

/**
 * The colour of FITS tiles without a course's settings: black to white over hips_pixel_cut (or
 * 0 to 1), almost linear (β small).
 */
export function defaultFitsColour(properties: Pick<HipsProperties, 'pixelCut'>): HipsColour {
  const [low, high] = properties.pixelCut ?? [0, 1];
  return { nFilters: 1, a: 1 / (high - low), b: -low, mix: 0.5, beta: 0.01, bias: 0, exposure: 1, gamma: 1, ground: 0 };
}

/**
 * What a HiPS layer is to the globe. 'backdrop': the whole-sky HiPS, named 'hips', lighting the
 * sky with the other backdrops (backdrops.ts). 'survey': a course's own imagery (issue 30, a
 * research group's imported HiPS), named 'survey' so it shows and hides with the survey tiles;
 * it is the image a volunteer classifies, so it takes no share of the sky's light (and the
 * application draws it at every zoom, its deepest order's texels magnified past it); with an
 * empty baseUrl it draws nothing until a course gives it its HiPS.
 */
export type HipsRole = 'backdrop' | 'survey';

/** The id of the Allsky image in the tile engine. */
export const ALLSKY_ID = 'allsky';
/** Hipsgen's Allsky cells: 64 texels, or the tile width when smaller (until the image says). */
const ALLSKY_CELL = 64;
/** Orders up to this one are culled tile by tile when the view is too wide for query_disc. */
const WHOLE_SKY_ORDER = 5;
const CELLS = SHIFTMAP_PATCH_CELLS;
/** A tile's border for patchMayShow: its corners and edge midpoints, as face (x, y) in 0..1. */
const BORDER: readonly (readonly [number, number])[] = [
  [0, 0],
  [0.5, 0],
  [1, 0],
  [1, 0.5],
  [1, 1],
  [0.5, 1],
  [0, 1],
  [0, 0.5],
];

/** Angular size of a texel of a `tileWidth`-wide tile of `order`: √(4π / 12·4^order) / width. */
export function texelAngle(order: number, tileWidth: number): number {
  return Math.sqrt(Math.PI / 3) / (2 ** order * tileWidth);
}

/**
 * The order whose texels are no larger than a screen pixel, made `coarser` orders coarser
 * (tiled-layer.ts, levelsCoarser: the tile level-of-detail bias and the camera's lodBias, 1 while
 * it moves), within the HiPS's orders.
 */
export function hipsViewOrder(
  screenPixel: number,
  properties: Pick<HipsProperties, 'order' | 'orderMin' | 'tileWidth'>,
  coarser = 0,
) {
  const wanted = Math.ceil(Math.log2(Math.sqrt(Math.PI / 3) / (properties.tileWidth * screenPixel)) - coarser);
  return Math.min(properties.order, Math.max(properties.orderMin, wanted));
}

/**
 * Whether the Allsky image stands in for the tiles of the minimum order: when its cells hold the
 * tiles whole (tiles of at most ALLSKY_CELL texels, where a tile would add nothing), or while a
 * cell's texel spans at most a screen pixel, 2^coarser of them (`coarser` as for hipsViewOrder:
 * 1 while the view moves).
 */
export function allskyServes(
  orderMin: number,
  tileWidth: number,
  cellTexels: number,
  screenPixel: number,
  coarser = 0,
): boolean {
  return cellTexels >= tileWidth || texelAngle(orderMin, cellTexels) <= screenPixel * 2 ** coarser * (1 + 1e-9);
}

/** Opacity by zoom: 1 while a deepest texel is at most maxTexelPixels screen pixels, 0 from twice that. */
export function hipsVisibility(texelPixels: number, maxTexelPixels: number): number {
  return Math.min(1, Math.max(0, 2 - texelPixels / maxTexelPixels));
}

/**
 * Where tile `ipix` of `order` lies in its ancestor `levels` orders up, as the affine map of
 * texture coordinates (s along the image's columns = face y, t along its rows = face x):
 * [scale, scale, offset s, offset t].
 */
export function ancestorTransform(ipix: number, levels: number): [number, number, number, number] {
  const scale = 2 ** -levels;
  const [x, y] = nestToXy(ipix % 4 ** levels);
  return [scale, scale, y * scale, x * scale];
}

interface TileImage {
  texture: WebGLTexture;
  width: number;
  height: number;
  /** Float values of a FITS tile (stretched by the colour preset, rows bottom first). */
  fits: boolean;
}

/** A tile drawn: nested pixel `ipix` of `order`; `own` false while the Allsky image serves. */
interface HipsTile {
  id: string;
  order: number;
  ipix: number;
  distance: number;
  own: boolean;
}

const VERTEX = `#version 300 es
in vec3 a_position;
in vec2 a_st;
${PROJECTION_GLSL}
uniform mat3 u_frame;
out vec2 v_st;
void main() {
  gl_Position = project(u_frame * a_position);
  v_st = a_st;
}
`;

const FRAGMENT = `#version 300 es
precision highp float;
uniform sampler2D u_image;
uniform sampler2D u_shift;
uniform bool u_shifted;
uniform vec4 u_sub;
uniform vec4 u_cell;
uniform float u_texels;
uniform float u_alpha;
uniform bool u_fits;
in vec2 v_st;
out vec4 color;
${PRETTY_MIXER_GLSL}
void main() {
  vec2 st = v_st;
  if (u_shifted) st += texture(u_shift, v_st).rg;
  // Half a texel in from the source tile's edge: an Allsky cell never samples its neighbour.
  float half_texel = 0.5 / u_texels;
  st = clamp(st * u_sub.xy + u_sub.zw, half_texel, 1.0 - half_texel);
  vec2 uv = st * u_cell.xy + u_cell.zw;
  if (u_fits) {
    // FITS rows run bottom up; a blank (NaN) is the sky.
    float value = texture(u_image, vec2(uv.x, 1.0 - uv.y)).r;
    if (isnan(value)) value = -u_b;
    color = vec4(prettyColor(vec4(value, 0.0, 0.0, 0.0)), u_alpha);
  } else color = vec4(texture(u_image, uv).rgb, u_alpha);
}
`;

function imageTexture(gl: WebGL2RenderingContext, bitmap: ImageBitmap): WebGLTexture {
  const texture = linearTexture(gl, () => {
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
  });
  bitmap.close();
  return texture;
}

/** A decoded FITS tile: one float channel, linearly filtered (needs OES_texture_float_linear). */
function fitsTexture(gl: WebGL2RenderingContext, width: number, height: number, pixels: Float32Array): WebGLTexture {
  return linearTexture(gl, () => {
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R32F, width, height, 0, gl.RED, gl.FLOAT, pixels);
  });
}

/** A shiftmap as WebGL2 takes it (core/shiftmap.ts): RG16F, 64 × 64, filtered linearly. */
function shiftmapTexture(gl: WebGL2RenderingContext, texels: Uint16Array): WebGLTexture {
  return linearTexture(gl, () => {
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RG16F, SHIFTMAP_SIZE, SHIFTMAP_SIZE, 0, gl.RG, gl.HALF_FLOAT, texels);
  });
}

function tileId(order: number, ipix: number): string {
  return `${order}/${ipix}`;
}

export class HipsLayer extends TiledLayer<TileImage, HipsTile> implements Layer<HipsOptions> {
  readonly name: string;
  private options: HipsOptions;
  private program: WebGLProgram | null = null;
  private indexBuffer: WebGLBuffer | null = null;
  private meshes: LruCache<string, Mesh> | null = null;
  private readonly shiftmaps: TileEngine<WebGLTexture | null>;
  private abort = new AbortController();
  private core: Core | null = null;
  private readonly grids = new Map<number, Healpix>();
  /** tileBorder's cache, by tile id. */
  private readonly borders = new Map<string, vec3[]>();
  /** The properties once loaded (null before, or when they failed). */
  properties: HipsProperties | null = null;
  /** The HiPS's coverage map, when it has one: no tile outside it is asked for. */
  coverage: HipsCoverage | null = null;
  /** u_frame: the HiPS frame's rotation into the sky's (equatorial) coordinates. */
  private frame = new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  /** The opacity of the frame being drawn (zoom visibility and share of the light). */
  private frameAlpha = 1;

  constructor(options: Partial<HipsOptions> & { baseUrl: string }, role: HipsRole = 'backdrop') {
    super(TILE_LIMITS.hips);
    this.options = { ...HIPS_DEFAULTS, ...options };
    this.shiftmaps = new TileEngine<WebGLTexture | null>({
      loader: (id, signal) => this.loadShiftmap(id, signal),
      // The one shiftmap worker takes them one by one; a few queued keep it busy.
      concurrency: TILE_LIMITS.hips.concurrency,
      cacheSize: TILE_LIMITS.shiftmaps,
      release: (texture) => {
        if (texture) this.context?.gl.deleteTexture(texture);
      },
      refresh: () => this.context?.requestFrame(),
    });
    this.name = role === 'survey' ? 'survey' : 'hips';
    if (role === 'backdrop')
      this.backdrop = {
        texelAngle: () => (this.properties ? texelAngle(this.properties.order, this.properties.tileWidth) : null),
        coverage: (frame) => {
          if (!this.properties) return 0;
          const allsky = this.engine.get(ALLSKY_ID);
          const ready = allsky ? this.engine.alpha(allsky, frame.time) : this.engine.isDead(ALLSKY_ID) ? 1 : 0;
          return ready * this.visibility(frame, this.properties);
        },
      };
  }

  /**
   * The finest whole-sky backdrop (backdrops.ts): it lights the sky as far as its zoom range
   * allows once its Allsky image has faded in (or failed, leaving the tiles to it). A survey HiPS
   * has none.
   */
  readonly backdrop?: Backdrop;

  /** Opacity by zoom (hipsVisibility) at the view's centre, where the projections agree. */
  private visibility(view: Pick<TileView, 'camera' | 'eye' | 'height'>, properties: HipsProperties): number {
    const screenPixel = (2 * view.camera.projectionScale(view.eye)) / view.height;
    return hipsVisibility(
      texelAngle(properties.order, properties.tileWidth) / screenPixel,
      this.options.maxTexelPixels,
    );
  }

  create(context: LayerContext): void {
    const { gl } = context;
    this.context = context;
    this.program = compileProgram(gl, VERTEX, FRAGMENT);
    const indices: number[] = [];
    const row = CELLS + 1;
    for (let j = 0; j < CELLS; j++)
      for (let i = 0; i < CELLS; i++) {
        const k = j * row + i;
        indices.push(k, k + 1, k + row, k + row, k + 1, k + row + 1);
      }
    this.indexBuffer = gl.createBuffer();
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indexBuffer);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, new Uint16Array(indices), gl.STATIC_DRAW);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, null);
    this.meshes = new LruCache(TILE_LIMITS.hips.cacheSize, (mesh) => {
      gl.deleteVertexArray(mesh.vertexArray);
      gl.deleteBuffer(mesh.buffer);
    });
    this.load();
  }

  /**
   * A new base URL reloads everything but the shiftmaps and patches, which depend on the tile's
   * place alone; a new zoom limit only needs a frame.
   */
  update(options: Partial<HipsOptions>): void {
    const before = this.options;
    this.options = { ...before, ...options };
    if (options.baseUrl !== undefined && options.baseUrl !== before.baseUrl && this.context) {
      this.abort.abort();
      this.abort = new AbortController();
      this.resetTiles();
      this.properties = null;
      this.coverage = null;
      this.load();
    }
    this.context?.requestFrame();
  }

  /** Loads the properties and the wasm core (HEALPix geometry for culling and the patches). */
  private load(): void {
    if (!this.options.baseUrl) return;
    const signal = this.abort.signal;
    const url = `${this.options.baseUrl}/properties`;
    const properties = fetchOk(url, signal).then(async (response) => parseHipsProperties(await response.text()));
    // The coverage map when the properties announce one; without it (or if it fails) every tile is asked for.
    const coverage = properties.then((loaded) =>
      loaded.raw.has('moc_sky_fraction')
        ? fetchBytes(`${this.options.baseUrl}/Moc.fits`, signal)
            .then(parseMocFits)
            .catch(() => null)
        : null,
    );
    void Promise.all([properties, loadCore(), coverage])
      .then(([loaded, core, moc]) => {
        if (signal.aborted) return;
        this.core = core;
        this.coverage = moc;
        this.properties = loaded;
        this.frame = Float32Array.from(loaded.rotation);
        this.borders.clear();
        this.context?.requestFrame();
      })
      .catch((error: unknown) => {
        if (!signal.aborted) console.error(`HiPS ${this.options.baseUrl} cannot be shown`, error);
      });
  }

  private grid(order: number): Healpix {
    let grid = this.grids.get(order);
    if (!grid) {
      grid = new Healpix(this.core!, 2 ** order, 'nest');
      this.grids.set(order, grid);
    }
    return grid;
  }

  protected async loadTile(id: string, signal: AbortSignal): Promise<TileImage> {
    const { decoder } = this;
    const properties = this.properties!;
    const { baseUrl } = this.options;
    let url: string;
    if (id === ALLSKY_ID) url = hipsAllskyUrl(baseUrl, properties.orderMin, properties.format);
    else {
      const [order, ipix] = id.split('/').map(Number);
      url = hipsTileUrl(baseUrl, order, ipix, properties.format);
    }
    if (properties.format === FITS_FORMAT) {
      const bytes = await fetchBytes(url, signal);
      const { axes, pixels } = await decoder.run('decodeFits', [bytes], { transfer: [bytes.buffer], signal });
      const gl = this.context?.gl;
      if (!gl || signal.aborted) throw tileAborted();
      requireFloatTextures(gl);
      const [width, height = 1] = axes;
      return { texture: fitsTexture(gl, width, height, pixels), width, height, fits: true };
    }
    const [bitmap] = await fetchDecodedImages(decoder, [url], signal);
    const gl = this.context?.gl;
    if (!gl || signal.aborted) {
      bitmap.close();
      throw tileAborted();
    }
    // The main thread only uploads: the image arrives decoded.
    const { width, height } = bitmap;
    return { texture: imageTexture(gl, bitmap), width, height, fits: false };
  }

  protected releaseTile(image: TileImage, gl: WebGL2RenderingContext): void {
    gl.deleteTexture(image.texture);
  }

  private async loadShiftmap(id: string, signal: AbortSignal): Promise<WebGLTexture | null> {
    const [order, ipix] = id.split('/').map(Number);
    const texels = await shiftmapService().get(order, ipix, signal);
    const gl = this.context?.gl;
    if (!gl || signal.aborted) throw tileAborted();
    return texels && shiftmapTexture(gl, texels);
  }

  /** The patch of a tile: (CELLS + 1)² exact HEALPix directions in the HiPS frame, with st. */
  private mesh(gl: WebGL2RenderingContext, order: number, ipix: number): Mesh {
    const id = tileId(order, ipix);
    const cached = this.meshes!.get(id);
    if (cached) return cached;
    const grid = this.grid(order);
    const count = (CELLS + 1) ** 2;
    const ids = grid.ids(count);
    if (ids instanceof BigInt64Array) ids.fill(BigInt(ipix));
    else ids.fill(ipix);
    const dx = new Float64Array(count);
    const dy = new Float64Array(count);
    // Vertex (a, b): face x = a / CELLS (image rows, t), face y = b / CELLS (columns, s).
    for (let a = 0; a <= CELLS; a++)
      for (let b = 0; b <= CELLS; b++) {
        dx[a * (CELLS + 1) + b] = a / CELLS;
        dy[a * (CELLS + 1) + b] = b / CELLS;
      }
    const { theta, phi } = grid.nest2locBatch(ids, dx, dy);
    const data = new Float32Array(count * 5);
    for (let k = 0; k < count; k++) {
      const sinTheta = Math.sin(theta[k]);
      data.set([sinTheta * Math.cos(phi[k]), sinTheta * Math.sin(phi[k]), Math.cos(theta[k]), dy[k], dx[k]], 5 * k);
    }
    // Vertex k = a·(CELLS + 1) + b, the index buffer's j·row + i with j = a, i = b.
    const mesh = tileMesh(gl, this.program!, data, 'a_st', this.indexBuffer);
    this.meshes!.set(id, mesh);
    return mesh;
  }

  /**
   * The border of a tile (its corners and edge midpoints) in the sky's equatorial frame, for
   * patchMayShow; kept per tile, since a view at rest asks for the same ones every frame.
   */
  private tileBorder(order: number, ipix: number): vec3[] {
    const id = tileId(order, ipix);
    const cached = this.borders.get(id);
    if (cached) return cached;
    const grid = this.grid(order);
    const ids = grid.ids(BORDER.length);
    if (ids instanceof BigInt64Array) ids.fill(BigInt(ipix));
    else ids.fill(ipix);
    const { theta, phi } = grid.nest2locBatch(
      ids,
      Float64Array.from(BORDER, ([x]) => x),
      Float64Array.from(BORDER, ([, y]) => y),
    );
    const f = this.frame;
    const border = BORDER.map((_, k) => {
      const s = Math.sin(theta[k]);
      const [x, y, z] = [s * Math.cos(phi[k]), s * Math.sin(phi[k]), Math.cos(theta[k])];
      // u_frame (column-major): the HiPS frame into the sky's.
      return vec3.fromValues(
        f[0] * x + f[3] * y + f[6] * z,
        f[1] * x + f[4] * y + f[7] * z,
        f[2] * x + f[5] * y + f[8] * z,
      );
    });
    if (this.borders.size >= TILE_LIMITS.hips.cacheSize * 4) this.borders.clear();
    this.borders.set(id, border);
    return border;
  }

  /**
   * Tiles of `order` that may show on screen, with their distance from the view direction: those
   * whose circle meets the view cone (query_disc, centre in the HiPS frame) and whose border's box
   * meets the screen's rectangle (patchMayShow), as the survey and pretty-picture tiles are chosen.
   */
  private visibleTiles(order: number, centre: vec3, footprint: ViewFootprint): { ipix: number; distance: number }[] {
    const grid = this.grid(order);
    const { radius } = footprint;
    const reach = radius + grid.maxPixrad();
    let ids: Float64Array;
    if (radius < WHOLE_SKY_RADIUS) {
      const theta = Math.acos(Math.min(1, Math.max(-1, centre[2])));
      const phi = Math.atan2(centre[1], centre[0]);
      ids = grid.queryDisc(theta, phi, radius, { inclusive: true }) as Float64Array;
    } else {
      ids = new Float64Array(12 * 4 ** order);
      for (let k = 0; k < ids.length; k++) ids[k] = k;
    }
    const centres = grid.pix2vecBatch(ids);
    const tiles: { ipix: number; distance: number }[] = [];
    const point = vec3.create();
    for (let k = 0; k < ids.length; k++) {
      vec3.set(point, centres[3 * k], centres[3 * k + 1], centres[3 * k + 2]);
      const distance = angleBetween(centre, point);
      if (distance <= reach && patchMayShow(footprint, this.tileBorder(order, ids[k])))
        tiles.push({ ipix: ids[k], distance });
    }
    return tiles;
  }

  override loading(): boolean {
    return this.engine.busy || this.shiftmaps.busy;
  }

  protected viewTiles(view: TileView): { requests: TileRequest[]; drawn: HipsTile[] } {
    const { properties } = this;
    // A view where the HiPS fades out by zoom (a destination, a view ahead) wants none of it.
    if (!properties || !this.core || this.visibility(view, properties) <= 0) return { requests: [], drawn: [] };
    const { camera } = view;
    // One screen pixel at the centre, radians (the projections agree there).
    const screenPixel = (2 * camera.projectionScale(view.eye)) / view.height;
    const cone = viewFootprint(camera, view.eye, view.width, view.height);
    // The view direction in the HiPS frame: the frame's rotation transposed.
    const f = properties.rotation;
    const c = cone.centre;
    const centre = vec3.fromValues(
      f[0] * c[0] + f[1] * c[1] + f[2] * c[2],
      f[3] * c[0] + f[4] * c[1] + f[5] * c[2],
      f[6] * c[0] + f[7] * c[1] + f[8] * c[2],
    );
    const coarser = levelsCoarser(this.options.tileLodBias, camera);
    let order = hipsViewOrder(screenPixel, properties, coarser);
    if (cone.radius >= WHOLE_SKY_RADIUS) order = Math.min(order, Math.max(properties.orderMin, WHOLE_SKY_ORDER));

    const allsky = this.engine.get(ALLSKY_ID);
    const cellTexels = allsky
      ? allskyCell(properties.orderMin, 0, allsky.value.width).size
      : Math.min(ALLSKY_CELL, properties.tileWidth);
    const own =
      this.engine.isDead(ALLSKY_ID) ||
      order !== properties.orderMin ||
      !allskyServes(properties.orderMin, properties.tileWidth, cellTexels, screenPixel, coarser);
    const requests: TileRequest[] = [
      // One file under every tile: requested first.
      { id: ALLSKY_ID, priority: 1, fineness: properties.orderMin, distance: 0 },
    ];
    const drawn: HipsTile[] = [];
    for (const { ipix, distance } of this.visibleTiles(order, centre, cone)) {
      if (this.coverage && !this.coverage.intersects(order, ipix)) continue;
      const id = tileId(order, ipix);
      if (own) requests.push({ id, priority: 0, fineness: order, distance });
      drawn.push({ id, order, ipix, distance, own });
    }
    return { requests, drawn };
  }

  /** The tile's ancestors up to the minimum order, then the Allsky image. */
  protected ancestors({ order, ipix }: HipsTile): string[] {
    const chain: string[] = [];
    for (let up = 1; order - up >= this.properties!.orderMin; up++)
      chain.push(tileId(order - up, Math.floor(ipix / 4 ** up)));
    chain.push(ALLSKY_ID);
    return chain;
  }

  draw(frame: FrameContext): void {
    const { gl } = frame;
    const program = this.program;
    const properties = this.properties;
    if (!program || !properties || !this.core) return;
    // Scaled by the share of the sky's light the globe gives this backdrop (all it asked for,
    // unless a finer backdrop lights part of the sky).
    const coverage = this.backdrop?.coverage(frame) ?? 0;
    const share = frame.backdrops?.get(this);
    const visibility =
      this.visibility(frame, properties) * (share === undefined || coverage <= 0 ? 1 : Math.min(1, share / coverage));
    if (visibility <= 0) {
      this.wantNoTiles();
      this.shiftmaps.want([]);
      return;
    }
    const drawn = this.wantTiles(frame);
    this.shiftmaps.want(drawn.map(({ id, order, distance }) => ({ id, priority: 0, fineness: order, distance })));

    gl.useProgram(program);
    setProjectionUniforms(gl, program, frame);
    gl.uniformMatrix3fv(uniformLocation(gl, program, 'u_frame'), false, this.frame);
    gl.uniform1i(uniformLocation(gl, program, 'u_image'), 0);
    gl.uniform1i(uniformLocation(gl, program, 'u_shift'), 1);
    if (properties.format === FITS_FORMAT) this.setColourUniforms(gl, program, properties);
    gl.enable(gl.BLEND);
    // ADD: the image's light over what is drawn before it.
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE);
    this.frameAlpha = visibility;
    this.drawTiles(frame, drawn, 'add');
    gl.bindVertexArray(null);
    gl.activeTexture(gl.TEXTURE0);
  }

  /** The FITS tiles' stretch: the course's colour settings, or the properties' pixel cut. */
  private setColourUniforms(gl: WebGL2RenderingContext, program: WebGLProgram, properties: HipsProperties): void {
    const colour = this.options.colour ?? defaultFitsColour(properties);
    gl.uniform1f(uniformLocation(gl, program, 'u_a'), colour.a);
    gl.uniform1f(uniformLocation(gl, program, 'u_b'), colour.b);
    gl.uniform1f(uniformLocation(gl, program, 'u_beta'), colour.beta);
    gl.uniform1f(uniformLocation(gl, program, 'u_bias'), colour.bias);
    gl.uniformMatrix4x3fv(uniformLocation(gl, program, 'u_mix'), false, mixMatrix(colour.mix, 1));
    gl.uniform1f(uniformLocation(gl, program, 'u_exposure'), colour.exposure);
    gl.uniform1f(uniformLocation(gl, program, 'u_gamma'), colour.gamma);
    gl.uniform1f(uniformLocation(gl, program, 'u_ground'), colour.ground);
    gl.uniform1i(uniformLocation(gl, program, 'u_grayscale'), 0);
  }

  /** Draws a tile's patch from the part of the source's image (a tile's, an Allsky cell) holding it. */
  protected drawSource(tile: HipsTile, source: TileSource<TileImage>, alpha: number): void {
    const gl = this.context!.gl;
    const program = this.program!;
    const { order, ipix } = tile;
    const image = source.value;
    let levels = source.up;
    let cell: [number, number, number, number] = [1, 1, 0, 0];
    let texels = image.width;
    if (source.id === ALLSKY_ID) {
      const { orderMin } = this.properties!;
      levels = order - orderMin;
      const allsky = allskyCell(orderMin, Math.floor(ipix / 4 ** levels), image.width);
      cell = [allsky.size / image.width, allsky.size / image.height, allsky.x / image.width, allsky.y / image.height];
      texels = allsky.size;
    }
    const shown = alpha * this.frameAlpha;
    if (shown <= 0) return;
    const shiftmap = this.shiftmaps.get(tile.id)?.value ?? null;
    gl.uniform1i(uniformLocation(gl, program, 'u_shifted'), shiftmap ? 1 : 0);
    gl.uniform4fv(uniformLocation(gl, program, 'u_sub'), ancestorTransform(ipix, levels));
    gl.uniform4fv(uniformLocation(gl, program, 'u_cell'), cell);
    gl.uniform1f(uniformLocation(gl, program, 'u_texels'), texels);
    gl.uniform1f(uniformLocation(gl, program, 'u_alpha'), shown);
    gl.uniform1i(uniformLocation(gl, program, 'u_fits'), image.fits ? 1 : 0);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, image.texture);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, shiftmap);
    gl.bindVertexArray(this.mesh(gl, order, ipix).vertexArray);
    gl.drawElements(gl.TRIANGLES, CELLS * CELLS * 6, gl.UNSIGNED_SHORT, 0);
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.program) throw releasedMoreThanOnce();
    this.abort.abort();
    this.releaseTiles();
    this.shiftmaps.release();
    this.meshes?.clear();
    gl.deleteBuffer(this.indexBuffer);
    gl.deleteProgram(this.program);
    this.program = null;
    this.context = null;
  }
}
