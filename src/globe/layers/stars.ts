// The star point layer (viewer-spec §1, §9): hipparcos-catalog/index.json lists the files; each
// is loaded by a decoder worker, which hands its stars back as unit vectors and magnitudes
// grouped by HEALPix cell (src/core/stars.ts), drawn as points of the fixed colour
// (0.75, 0.75, 1, 1) sized by 10^(−mag/2.5) and at least 3 px wide (starPoint). A frame draws
// only the cells that query_disc finds in the view's cone: the software renderers of low-end
// machines pay for every vertex shaded, on screen or not. The whole-sky backdrops (HiPS, Milky
// Way cube) hold the stars to BACKDROP_STAR_MAGNITUDE baked in: those stars are drawn here only
// in the part of the sky's light the backdrops leave (backdrops.ts), so a star is lit once at
// every zoom, by the backdrop where it shows and by its point where it has faded.
import { Healpix } from '../../core/healpix';
import { BACKDROP_STAR_MAGNITUDE, STAR_CELL_ORDER, STAR_VERTEX_FLOATS, type StarCells } from '../../core/stars';
import { loadCore } from '../../core/wasm';
import { decoderPool } from '../../../workers/browser-pool';
import { attributeLocation, compileProgram, uniformLocation } from '../gl';
import { PROJECTION_GLSL, setProjectionUniforms } from '../projection';
import { WHOLE_SKY_RADIUS, viewCone } from '../visibility';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';
import { fetchOk } from '../fetch';

/** viewer-spec §9: the fixed star colour. */
export const STAR_COLOR = [0.75, 0.75, 1, 1] as const;
/** viewer-spec §9: the smallest star point, px. */
export const STAR_MIN_SIZE = 3;
/**
 * Pixels across per unit of 10^(−mag/2.5) (viewer-spec §9's star size): magnitude 0 is 16 px,
 * magnitude 1 6.4 px; from magnitude 1.8 down every star is the minimum's 3 px.
 */
export const STAR_SIZE_SCALE = 16;
/** The largest star point, px: Sirius (−1.46) would otherwise be 61 px across. */
export const STAR_MAX_SIZE = 24;
/**
 * A star too faint to be drawn larger than the minimum (magnitude 1.8 and fainter) is dimmed
 * instead, by (its flux / the flux of the minimum size)^0.6: its light keeps falling with
 * 10^(−mag/2.5), compressed as the eye compresses it (magnitude 4 at 30 %, 6 at 10 %, 9 at 2 %,
 * about the last step of an 8-bit screen). Otherwise every star of the catalogue's hundred
 * thousand would be the same 3 px dot, an even snow.
 */
export const STAR_BRIGHTNESS_EXPONENT = 0.6;

/** The flux, 10^(−mag/2.5), of a star drawn at exactly the minimum size. */
const MIN_SIZE_FLUX = STAR_MIN_SIZE / STAR_SIZE_SCALE;

/** A star's point (viewer-spec §9): its size in px at rest, and the fraction of STAR_COLOR drawn. */
export function starPoint(magnitude: number): { size: number; brightness: number } {
  const flux = Math.pow(10, -magnitude / 2.5);
  return {
    size: Math.min(STAR_MAX_SIZE, Math.max(STAR_MIN_SIZE, STAR_SIZE_SCALE * flux)),
    brightness: Math.pow(Math.min(1, flux / MIN_SIZE_FLUX), STAR_BRIGHTNESS_EXPONENT),
  };
}

/**
 * The fraction of a star's point drawn when the backdrops show `backdropShare` of the sky's light
 * (0..1): the stars baked into them (to BACKDROP_STAR_MAGNITUDE) only in the rest, fainter ones
 * in full.
 */
export function pointShare(magnitude: number, backdropShare: number): number {
  return magnitude <= BACKDROP_STAR_MAGNITUDE ? 1 - Math.min(1, Math.max(0, backdropShare)) : 1;
}

/** The backdrops' share of a frame's light, all together (FrameContext.backdrops). */
export function backdropShare(frame: Pick<FrameContext, 'backdrops'>): number {
  let share = 0;
  for (const value of frame.backdrops?.values() ?? []) share += value;
  return Math.min(1, share);
}

const float = (value: number) => value.toFixed(6);

/** starPoint in GLSL, from the same constants. */
const VERTEX = `#version 300 es
in vec4 a_star; // unit vector x, y, z and magnitude
${PROJECTION_GLSL}
uniform float u_resolution; // FrameContext.resolution: the point keeps its size on the page
uniform float u_backdrop; // backdropShare: the light of the stars baked into the backdrops
out float v_brightness;
void main() {
  gl_Position = project(a_star.xyz);
  float flux = pow(10.0, -a_star.w / 2.5);
  gl_PointSize = clamp(${float(STAR_SIZE_SCALE)} * flux, ${float(STAR_MIN_SIZE)}, ${float(STAR_MAX_SIZE)}) * u_resolution;
  v_brightness = pow(min(1.0, flux / ${float(MIN_SIZE_FLUX)}), ${float(STAR_BRIGHTNESS_EXPONENT)});
  if (a_star.w <= ${float(BACKDROP_STAR_MAGNITUDE)}) v_brightness *= 1.0 - u_backdrop;
}
`;

const FRAGMENT = `#version 300 es
precision mediump float;
in float v_brightness;
out vec4 color;
void main() {
  float r = length(gl_PointCoord - 0.5) * 2.0;
  color = vec4(${STAR_COLOR.map(float).join(', ')}) * v_brightness * smoothstep(1.0, 0.3, r);
}
`;

interface Chunk {
  vertexArray: WebGLVertexArrayObject;
  buffer: WebGLBuffer;
  /** Cell c's stars are vertices offsets[c] .. offsets[c + 1] − 1. */
  offsets: Uint32Array;
}

export interface StarOptions {
  /** {dataRepository} of viewer-spec §7; the catalogue is read from its hipparcos-catalog/. */
  dataRepository: string;
}

export class StarLayer implements Layer<StarOptions> {
  readonly name = 'stars';
  private program: WebGLProgram | null = null;
  private context: LayerContext | null = null;
  private readonly chunks: Chunk[] = [];
  private abort = new AbortController();
  private options: StarOptions;
  private cells: Healpix | null = null;

  constructor(dataRepository: string) {
    this.options = { dataRepository };
  }

  create(context: LayerContext): void {
    this.context = context;
    this.program = compileProgram(context.gl, VERTEX, FRAGMENT);
    this.load();
  }

  /** A new data repository drops the stars read so far and reads its catalogue. */
  update(options: Partial<StarOptions>): void {
    const changed = options.dataRepository !== undefined && options.dataRepository !== this.options.dataRepository;
    this.options = { ...this.options, ...options };
    if (!changed || !this.context) return;
    this.abort.abort();
    this.abort = new AbortController();
    this.deleteChunks(this.context.gl);
    this.load();
    this.context.requestFrame();
  }

  private load(): void {
    const signal = this.abort.signal;
    void this.loadFiles(signal).catch((error: unknown) => {
      if (!signal.aborted) console.error('star catalogue failed to load', error);
    });
  }

  private async loadFiles(signal: AbortSignal): Promise<void> {
    const base = `${this.options.dataRepository}/hipparcos-catalog`;
    const response = await fetchOk(`${base}/index.json`, signal);
    const files = (await response.json()) as string[];
    this.cells ??= new Healpix(await loadCore(), 2 ** STAR_CELL_ORDER, 'nest');
    await Promise.all(
      files.map(async (file) => {
        const records = await decoderPool().run('loadStars', [new URL(`${base}/${file}`, location.href).href], {
          signal,
        });
        if (!signal.aborted) this.upload(records);
      }),
    );
  }

  private upload({ vertices, offsets }: StarCells): void {
    const context = this.context;
    if (!context || !this.program) return;
    const { gl } = context;
    const vertexArray = gl.createVertexArray();
    const buffer = gl.createBuffer();
    gl.bindVertexArray(vertexArray);
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, vertices, gl.STATIC_DRAW);
    const star = attributeLocation(gl, this.program, 'a_star');
    gl.enableVertexAttribArray(star);
    gl.vertexAttribPointer(star, STAR_VERTEX_FLOATS, gl.FLOAT, false, 0, 0);
    gl.bindVertexArray(null);
    this.chunks.push({ vertexArray, buffer, offsets });
    context.requestFrame();
  }

  /** The cells in the view as half-open ranges [first, end) of cell ids: all of them for a wide view. */
  private visibleCells(frame: FrameContext): number[] {
    const all = [0, 12 * 4 ** STAR_CELL_ORDER];
    const { camera, eye, width, height } = frame;
    // A star just outside the corners still reaches in by its point's radius (a pixel spans the
    // widest angle at the centre in every projection here).
    const radius = viewCone(camera, eye, width, height).radius + (STAR_MAX_SIZE * camera.projectionScale(eye)) / height;
    if (!this.cells || radius >= WHOLE_SKY_RADIUS) return all;
    // The cells are equatorial; the camera's theta/phi are in its own frame (za, zd, zp).
    const { theta, phi } = camera.equatorialDirection();
    return Array.from(this.cells.queryDiscRanges(theta, phi, radius, { inclusive: true }), Number);
  }

  draw(frame: FrameContext): void {
    const { gl } = frame;
    if (!this.program || this.chunks.length === 0) return;
    gl.useProgram(this.program);
    setProjectionUniforms(gl, this.program, frame);
    gl.uniform1f(uniformLocation(gl, this.program, 'u_resolution'), frame.resolution);
    gl.uniform1f(uniformLocation(gl, this.program, 'u_backdrop'), backdropShare(frame));
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE);
    const ranges = this.visibleCells(frame);
    for (const chunk of this.chunks) {
      gl.bindVertexArray(chunk.vertexArray);
      for (let k = 0; k < ranges.length; k += 2) {
        const first = chunk.offsets[ranges[k]];
        const count = chunk.offsets[ranges[k + 1]] - first;
        if (count > 0) gl.drawArrays(gl.POINTS, first, count);
      }
    }
    gl.bindVertexArray(null);
  }

  private deleteChunks(gl: WebGL2RenderingContext): void {
    for (const chunk of this.chunks.splice(0)) {
      gl.deleteVertexArray(chunk.vertexArray);
      gl.deleteBuffer(chunk.buffer);
    }
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.program) throw releasedMoreThanOnce();
    this.abort.abort();
    this.deleteChunks(gl);
    gl.deleteProgram(this.program);
    this.program = null;
    this.context = null;
  }
}
