// The star point layer (viewer-spec §1, §9): hipparcos-catalog/index.json lists the files; each
// is loaded by a decoder worker, which hands its stars back as unit vectors, magnitudes and B−V
// colours grouped by HEALPix cell (core/stars.ts), drawn as points lit by star-light.ts: a
// core and a glow on a smooth magnitude scale, in the fixed colour (0.75, 0.75, 1, 1) or, with
// true star colours, each star's own. The limiting magnitude follows the zoom, so narrowing the
// field gains stars. A frame draws only the cells that query_disc finds in the view's cone: the
// software renderers of low-end machines pay for every vertex shaded, on screen or not. The
// whole-sky backdrops hold no star (skydata/skymap.ts): every star of the catalogue is drawn
// here at every zoom. Until every file is drawn the layer counts as loading, so a view is not
// at rest without its stars.
import { Healpix } from '../../../core/healpix';
import { STAR_CELL_ORDER, STAR_COLOR_GLSL, STAR_VERTEX_FLOATS, type StarCells } from '../../../core/stars';
import { loadCore } from '../../../core/wasm';
import { attributeLocation, compileProgram, uniformLocation } from '../gl';
import { PROJECTION_GLSL, setProjectionUniforms } from '../projection';
import { CORE_GAIN, LIGHT_FLOOR, STAR_COLOR, STAR_LIGHT_GLSL, STAR_MAX_SIZE, starLimit } from '../star-light';
import { WHOLE_SKY_RADIUS, viewCone } from '../visibility';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';
import { fetchOk } from '../fetch';

export { STAR_COLOR, STAR_MIN_SIZE } from '../star-light';

const float = (value: number) => value.toFixed(6);

const VERTEX = `#version 300 es
in vec3 a_position; // unit vector
in float a_magnitude;
in float a_bv;
${PROJECTION_GLSL}
${STAR_LIGHT_GLSL}
${STAR_COLOR_GLSL}
uniform float u_resolution; // FrameContext.resolution: the point keeps its size on the page
uniform float u_limit; // starLimit(fovy)
uniform bool u_trueColors;
out float v_flux;
out float v_size;
out vec3 v_color;
void main() {
  v_flux = starFlux(a_magnitude, u_limit);
  v_size = starPointSize(v_flux);
  v_color = u_trueColors ? starColor(a_bv) : vec3(${STAR_COLOR.slice(0, 3).map(float).join(', ')});
  // A star too faint to reach the floor is not drawn (a point of size 0 is clipped).
  gl_Position = ${float(CORE_GAIN)} * v_flux < ${float(LIGHT_FLOOR)} ? vec4(2.0, 2.0, 2.0, 1.0) : project(a_position);
  gl_PointSize = v_size * u_resolution;
}
`;

const FRAGMENT = `#version 300 es
precision mediump float;
${STAR_LIGHT_GLSL}
in float v_flux;
in float v_size;
in vec3 v_color;
out vec4 color;
void main() {
  // Distance from the centre in pixels at rest, whatever the drawing buffer's resolution.
  float r = length(gl_PointCoord - 0.5) * v_size;
  float value = starProfile(v_flux, r);
  color = vec4(exposedColor(v_color, value), 1.0);
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
  /** Each star in its B−V colour instead of the fixed colour (viewer-spec §9), the default. */
  trueColors: boolean;
}

/** The attributes of a star vertex (core/stars.ts STAR_VERTEX_FLOATS): name, floats, offset. */
const ATTRIBUTES = [
  ['a_position', 3, 0],
  ['a_magnitude', 1, 3],
  ['a_bv', 1, 4],
] as const;

export class StarLayer implements Layer<StarOptions> {
  readonly name = 'stars';
  private program: WebGLProgram | null = null;
  private context: LayerContext | null = null;
  private readonly chunks: Chunk[] = [];
  private abort = new AbortController();
  private options: StarOptions;
  private cells: Healpix | null = null;
  /** Until every file is uploaded and drawn (or the catalogue failed): a view is not at rest without its stars. */
  private pending = true;
  private drawnAll = false;

  constructor(dataRepository: string, options: Partial<Omit<StarOptions, 'dataRepository'>> = {}) {
    this.options = { dataRepository, trueColors: false, ...options };
  }

  create(context: LayerContext): void {
    this.context = context;
    this.program = compileProgram(context.gl, VERTEX, FRAGMENT);
    this.load();
  }

  /** A new data repository drops the stars read so far and reads its catalogue; colours only redraw. */
  update(options: Partial<StarOptions>): void {
    const changed = options.dataRepository !== undefined && options.dataRepository !== this.options.dataRepository;
    this.options = { ...this.options, ...options };
    if (changed && this.context) {
      this.abort.abort();
      this.abort = new AbortController();
      this.deleteChunks(this.context.gl);
      this.load();
    }
    this.context?.requestFrame();
  }

  /** Whether the catalogue is still on its way: its files loading, or uploaded but not yet drawn. */
  loading(): boolean {
    return this.pending || !this.drawnAll;
  }

  private load(): void {
    const signal = this.abort.signal;
    this.pending = true;
    this.drawnAll = false;
    void this.loadFiles(signal)
      .catch((error: unknown) => {
        if (!signal.aborted) console.error('star catalogue failed to load', error);
        // A failed catalogue is not waited for: the view rests without it.
        if (!signal.aborted) this.drawnAll = true;
      })
      .finally(() => {
        if (signal.aborted) return;
        this.pending = false;
        this.context?.requestFrame();
      });
  }

  private async loadFiles(signal: AbortSignal): Promise<void> {
    const base = `${this.options.dataRepository}/hipparcos-catalog`;
    // Called by create and update once the layer has its context: the pool the globe gave it.
    const { decoder } = this.context!;
    const response = await fetchOk(`${base}/index.json`, signal);
    const files = (await response.json()) as string[];
    this.cells ??= new Healpix(await loadCore(), 2 ** STAR_CELL_ORDER, 'nest');
    await Promise.all(
      files.map(async (file) => {
        const records = await decoder.run('loadStars', [new URL(`${base}/${file}`, location.href).href], { signal });
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
    for (const [name, size, offset] of ATTRIBUTES) {
      const location = attributeLocation(gl, this.program, name);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, gl.FLOAT, false, STAR_VERTEX_FLOATS * 4, offset * 4);
    }
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
    if (!this.pending) this.drawnAll = true;
    if (!this.program || this.chunks.length === 0) return;
    gl.useProgram(this.program);
    setProjectionUniforms(gl, this.program, frame);
    gl.uniform1f(uniformLocation(gl, this.program, 'u_resolution'), frame.resolution);
    gl.uniform1f(uniformLocation(gl, this.program, 'u_limit'), starLimit(frame.camera.fovy));
    gl.uniform1i(uniformLocation(gl, this.program, 'u_trueColors'), this.options.trueColors ? 1 : 0);
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
