// The HiPS all-sky image layer (viewer-spec §1, §3, §4, §7, §9; IVOA HiPS 1.0). {baseUrl}/properties
// says the orders, the tile width, the frame and the tile format (core/hipsProperties.ts);
// tiles are {baseUrl}/Norder{k}/Dir{…}/Npix{n}.{format}, tile n of order k the nested HEALPix
// pixel n at nside 2^k, its image row r and column c the face position x = r, y = c (Hipsgen's
// layout, core/healpix.ts), and Norder{min}/Allsky.{format} holds every tile of the minimum
// order side by side.
//
// A tiled layer (tiles/tiled-layer.ts: 4 loads at once, 1000 tiles kept, viewer-spec §9): the
// file is fetched here, so a tile that leaves the view aborts its request, and decoded in the
// decoder pool the globe gave the layer (LayerContext.decoder); the main thread only uploads the
// decoded image. A tile that fails is dead and never asked for again (the engine). At the minimum
// order the Allsky image stands in for the tiles while its cells have texels enough for the
// screen, and always when its cells are the tiles whole (allskyServes); it is also the last
// ancestor of every tile, and asked for first.
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
//
// This file loads and chooses the tiles and draws them; beside it, hips-orders.ts holds the
// choices of order that need no GL (texel size, view order, allskyServes, fade by zoom, an
// ancestor's part), hips-geometry.ts the HEALPix geometry from the wasm core (the tiles in view,
// each tile's patch) and hips-gl.ts the program, the textures and the patches' meshes.
import { vec3 } from 'gl-matrix';
import {
  FITS_FORMAT,
  allskyCell,
  hipsAllskyUrl,
  hipsTileUrl,
  parseHipsProperties,
  type HipsProperties,
} from '../../../core/hipsProperties';
import { parseMocFits, type HipsCoverage } from '../../../core/hips-moc';
import { loadCore } from '../../../core/wasm';
import type { HipsColour } from '../../../shared/courses';
import { shiftmapService } from '../../workers/shiftmap-browser';
import { fetchBytes, fetchOk } from '../fetch';
import { compileProgram, requireFloatTextures, tileAborted, uniformLocation } from '../gl';
import { setProjectionUniforms } from '../projection';
import { fetchDecodedImages } from '../tiles/decoded-files';
import { TileEngine, type TileRequest } from '../tiles/engine';
import { TILE_LIMITS } from '../tiles/limits';
import { SHARP_TILE_LOD_BIAS, TiledLayer, levelsCoarser, type TileSource, type TileView } from '../tiles/tiled-layer';
import { WHOLE_SKY_RADIUS, viewFootprint } from '../visibility';
import { HipsGeometry, tileId } from './hips-geometry';
import {
  FRAGMENT,
  HipsPatches,
  VERTEX,
  defaultFitsColour,
  fitsTexture,
  imageTexture,
  setColourUniforms,
  shiftmapTexture,
} from './hips-gl';
import {
  allskyServes,
  ancestorTransform,
  hipsViewOrder,
  hipsVisibility,
  texelAngle,
  tooFineForView,
  WHOLE_SKY_ORDER,
} from './hips-orders';
import { releasedMoreThanOnce, type Backdrop, type FrameContext, type Layer, type LayerContext } from './layer';

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

export class HipsLayer extends TiledLayer<TileImage, HipsTile> implements Layer<HipsOptions> {
  readonly name: string;
  private options: HipsOptions;
  private program: WebGLProgram | null = null;
  private patches: HipsPatches | null = null;
  private readonly shiftmaps: TileEngine<WebGLTexture | null>;
  private abort = new AbortController();
  /** The HEALPix geometry of the HiPS loaded (null before, or when it failed). */
  private geometry: HipsGeometry | null = null;
  /** The properties once loaded (null before, or when they failed). */
  properties: HipsProperties | null = null;
  /** The HiPS's coverage map, when it has one: no tile outside it is asked for. */
  coverage: HipsCoverage | null = null;
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
    this.patches = new HipsPatches(gl, this.program, TILE_LIMITS.hips.cacheSize);
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
      this.geometry = null;
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
        this.geometry = new HipsGeometry(core, Float32Array.from(loaded.rotation));
        this.coverage = moc;
        this.properties = loaded;
        this.context?.requestFrame();
      })
      .catch((error: unknown) => {
        if (!signal.aborted) console.error(`HiPS ${this.options.baseUrl} cannot be shown`, error);
      });
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

  override loading(): boolean {
    return this.engine.busy || this.shiftmaps.busy;
  }

  protected viewTiles(view: TileView): { requests: TileRequest[]; drawn: HipsTile[] } {
    const { properties, geometry } = this;
    // A view where the HiPS fades out by zoom (a destination, a view ahead) wants none of it.
    if (!properties || !geometry || this.visibility(view, properties) <= 0) return { requests: [], drawn: [] };
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
    // A deep minimum order seen from far off: no tile until the view comes close enough.
    if (tooFineForView(order, hipsViewOrder(screenPixel, { ...properties, orderMin: 0 }, coarser), cone.radius))
      return { requests: [], drawn: [] };

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
    for (const { ipix, distance } of geometry.visibleTiles(order, centre, cone)) {
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
    const geometry = this.geometry;
    if (!program || !properties || !geometry) return;
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
    gl.uniformMatrix3fv(uniformLocation(gl, program, 'u_frame'), false, geometry.frame);
    gl.uniform1i(uniformLocation(gl, program, 'u_image'), 0);
    gl.uniform1i(uniformLocation(gl, program, 'u_shift'), 1);
    if (properties.format === FITS_FORMAT)
      setColourUniforms(gl, program, this.options.colour ?? defaultFitsColour(properties));
    gl.enable(gl.BLEND);
    // ADD: the image's light over what is drawn before it.
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE);
    this.frameAlpha = visibility;
    this.drawTiles(frame, drawn, 'add');
    gl.bindVertexArray(null);
    gl.activeTexture(gl.TEXTURE0);
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
    this.patches!.draw(this.geometry!, order, ipix);
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.program) throw releasedMoreThanOnce();
    this.abort.abort();
    this.releaseTiles();
    this.shiftmaps.release();
    this.patches?.release();
    this.patches = null;
    gl.deleteProgram(this.program);
    this.program = null;
    this.context = null;
  }
}
