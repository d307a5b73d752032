// The Milky Way panorama (viewer-spec §1, §4, §7): a cube map of six faces px, nx, py, ny, pz,
// nz read from {dataRepository}{token}{face}.png, where the token is /milkyway/ or, for
// Firefox, /milkyway/images-512/. The PNGs are decoded in the worker pool; the layer fades in
// over 200 ms once all six are uploaded. Each pixel looks up the sky direction under it (the
// inverse of the projection), so every projection shows the panorama exactly.
//
// The panorama is dark over most of the sky (the band's glow only), and a narrow view of a dark
// part would spend a whole-screen pass on black: a copy of the faces shrunk to DARK_MAP_SIZE
// texels a side (their brightest channel) is kept, and a view whose cone holds no texel brighter
// than DARK_LEVEL is not drawn (`dark`).
import { CUBE_FACES, cubeFaceDirection } from '../../../core/cubeMap';
import { compileProgram, uniformLocation } from '../gl';
import { hipsVisibility } from './hips-orders';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';
import { fetchBytes } from '../fetch';
import { viewCone } from '../visibility';

/**
 * The directions of the texels brighter than DARK_LEVEL of the six faces (MILKY_WAY_FACES'
 * order, OpenGL's cube-map layout) shrunk to DARK_MAP_SIZE a side; null where the page cannot
 * read an image back (no OffscreenCanvas): every view is then drawn.
 */
function litTexels(bitmaps: readonly ImageBitmap[]): Float32Array | null {
  if (typeof OffscreenCanvas === 'undefined') return null;
  const size = DARK_MAP_SIZE;
  const canvas = new OffscreenCanvas(size, size);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  const lit: number[] = [];
  bitmaps.forEach((bitmap, face) => {
    context.clearRect(0, 0, size, size);
    context.drawImage(bitmap, 0, 0, size, size);
    const pixels = context.getImageData(0, 0, size, size).data;
    for (let j = 0; j < size; j++)
      for (let i = 0; i < size; i++) {
        const k = 4 * (j * size + i);
        if (Math.max(pixels[k], pixels[k + 1], pixels[k + 2]) <= DARK_LEVEL) continue;
        const [x, y, z] = cubeFaceDirection(CUBE_FACES[face], (2 * (i + 0.5)) / size - 1, (2 * (j + 0.5)) / size - 1);
        const length = Math.hypot(x, y, z);
        lit.push(x / length, y / length, z / length);
      }
  });
  return new Float32Array(lit);
}

export const MILKY_WAY_FACES = CUBE_FACES;
export const MILKY_WAY_FADE_MS = 200;
/** Texels a side of the faces' shrunk copy that tells dark views (`dark`). */
export const DARK_MAP_SIZE = 32;
/** A texel at or under this (of 255) adds nothing visible. */
export const DARK_LEVEL = 1;
/** Views at least this wide (cone radius, radians) are drawn without asking: most of them hold the band. */
const DARK_TEST_RADIUS = Math.PI / 6;

export interface MilkyWayOptions {
  /** {dataRepository} of viewer-spec §7. */
  dataRepository: string;
  /** 0..1, multiplies the panorama. */
  opacity: number;
  /**
   * Drawn in full while a face texel spans at most this many screen pixels, fading out by twice
   * that (hipsVisibility). Infinity, the default, keeps it at every zoom: the panorama is the
   * Milky Way's diffuse light alone (no star is baked in, skydata/skymap.ts), smooth on a scale
   * far above its texels, so magnified by linear filtering it stays a glow however narrow the
   * field, down to where the survey images take over.
   */
  maxTexelPixels: number;
}

export const MILKY_WAY_DEFAULTS: Omit<MilkyWayOptions, 'dataRepository'> = { opacity: 1, maxTexelPixels: Infinity };

/** The folder of the faces: Firefox gets images-512 (viewer-spec §7). */
export function milkyWayToken(userAgent: string): string {
  return /firefox/i.test(userAgent) ? '/milkyway/images-512/' : '/milkyway/';
}

const VERTEX = `#version 300 es
out vec2 v_ndc;
void main() {
  // One triangle covering the screen.
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)) * 2.0 - 1.0;
  v_ndc = corner;
  gl_Position = vec4(corner, 0.0, 1.0);
}
`;

const FRAGMENT = `#version 300 es
precision highp float;
uniform mat3 u_view;
uniform vec2 u_scale;
uniform float u_eye;
uniform float u_alpha;
uniform samplerCube u_sky;
in vec2 v_ndc;
out vec4 color;
void main() {
  // The inverse of project() in projection.ts: the view-space unit vector under this point.
  vec2 p = v_ndc / u_scale / (1.0 + u_eye);
  float p2 = dot(p, p);
  float z = (-p2 * u_eye + sqrt(1.0 + p2 * (1.0 - u_eye * u_eye))) / (p2 + 1.0);
  vec3 view = vec3(p * (z + u_eye), z);
  vec3 world = transpose(u_view) * view;
  color = vec4(texture(u_sky, world).rgb, u_alpha);
}
`;

export class MilkyWayLayer implements Layer<MilkyWayOptions> {
  readonly name = 'milky-way';
  private context: LayerContext | null = null;
  private program: WebGLProgram | null = null;
  private vertexArray: WebGLVertexArrayObject | null = null;
  private texture: WebGLTexture | null = null;
  private loadedAt: number | null = null;
  /** Pixels across a face, once loaded. */
  private faceSize = 0;
  /** The directions of the shrunk faces' texels brighter than DARK_LEVEL (x, y, z each). */
  private lit: Float32Array | null = null;
  private abort = new AbortController();
  private options: MilkyWayOptions;

  constructor(options: Partial<MilkyWayOptions> & { dataRepository: string }) {
    this.options = { ...MILKY_WAY_DEFAULTS, ...options };
  }

  create(context: LayerContext): void {
    const { gl } = context;
    this.context = context;
    this.program = compileProgram(gl, VERTEX, FRAGMENT);
    this.vertexArray = gl.createVertexArray();
    this.load();
  }

  update(options: Partial<MilkyWayOptions>): void {
    const before = this.options;
    this.options = { ...before, ...options };
    if (this.options.dataRepository !== before.dataRepository) this.load();
    this.context?.requestFrame();
  }

  private load(): void {
    this.abort.abort();
    const abort = (this.abort = new AbortController());
    // Not yet added to a globe (an update before create): create loads, with the globe's pool.
    const decoder = this.context?.decoder;
    if (!decoder) return;
    const base = `${this.options.dataRepository}${milkyWayToken(navigator.userAgent)}`;
    Promise.all(MILKY_WAY_FACES.map((face) => fetchBytes(`${base}${face}.png`, abort.signal)))
      .then((files) =>
        decoder.run('decodeImages', [files], {
          transfer: files.map((bytes) => bytes.buffer),
          signal: abort.signal,
        }),
      )
      .then((bitmaps) => {
        const gl = this.context?.gl;
        if (!gl || abort.signal.aborted) return;
        const texture = gl.createTexture();
        gl.bindTexture(gl.TEXTURE_CUBE_MAP, texture);
        gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
        gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
        this.faceSize = bitmaps[0].width;
        this.lit = litTexels(bitmaps);
        bitmaps.forEach((bitmap, i) => {
          gl.texImage2D(gl.TEXTURE_CUBE_MAP_POSITIVE_X + i, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
          bitmap.close();
        });
        gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
        gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
        gl.generateMipmap(gl.TEXTURE_CUBE_MAP);
        gl.bindTexture(gl.TEXTURE_CUBE_MAP, null);
        if (this.texture) gl.deleteTexture(this.texture);
        this.texture = texture;
        this.loadedAt = performance.now();
        this.context?.requestFrame();
      })
      .catch((error: unknown) => {
        if (!abort.signal.aborted) console.error('Milky Way', error);
      });
  }

  /**
   * A whole-sky backdrop (backdrops.ts), coarser than the HiPS: it lights the sky while the
   * HiPS loads and where the HiPS has faded out, as far as its own texels allow.
   */
  readonly backdrop = {
    texelAngle: (): number | null => (this.faceSize > 0 ? Math.PI / 2 / this.faceSize : null),
    coverage: (frame: FrameContext): number => {
      if (!this.texture || this.loadedAt === null) return 0;
      const fade = Math.min(1, Math.max(0, (frame.time - this.loadedAt) / MILKY_WAY_FADE_MS));
      // One screen pixel at the centre, radians (the projections agree there).
      const screenPixel = (2 * frame.camera.projectionScale(frame.eye)) / frame.height;
      const texelPixels = Math.PI / 2 / this.faceSize / screenPixel;
      return fade * this.options.opacity * hipsVisibility(texelPixels, this.options.maxTexelPixels);
    },
  };

  /** Whether the view holds no lit texel of the panorama (a narrow view off the band). */
  private dark(frame: FrameContext): boolean {
    const lit = this.lit;
    if (!lit) return false;
    const { centre, radius } = viewCone(frame.camera, frame.eye, frame.width, frame.height);
    if (radius >= DARK_TEST_RADIUS) return false;
    // A texel's light reaches half a shrunk texel (45° / DARK_MAP_SIZE at most) beyond its centre.
    const reach = Math.cos(Math.min(Math.PI, radius + Math.PI / 2 / DARK_MAP_SIZE));
    for (let k = 0; k < lit.length; k += 3)
      if (lit[k] * centre[0] + lit[k + 1] * centre[1] + lit[k + 2] * centre[2] >= reach) return false;
    return true;
  }

  draw(frame: FrameContext): void {
    const { gl } = frame;
    if (!this.program || !this.texture || this.loadedAt === null) return;
    if (frame.time - this.loadedAt < MILKY_WAY_FADE_MS) frame.requestFrame();
    const alpha = frame.backdrops?.get(this) ?? this.backdrop.coverage(frame);
    if (alpha <= 0 || this.dark(frame)) return;
    gl.useProgram(this.program);
    gl.uniformMatrix3fv(uniformLocation(gl, this.program, 'u_view'), false, frame.view);
    gl.uniform2fv(uniformLocation(gl, this.program, 'u_scale'), frame.scale);
    gl.uniform1f(uniformLocation(gl, this.program, 'u_eye'), frame.eye);
    gl.uniform1f(uniformLocation(gl, this.program, 'u_alpha'), alpha);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_CUBE_MAP, this.texture);
    gl.uniform1i(uniformLocation(gl, this.program, 'u_sky'), 0);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE);
    gl.bindVertexArray(this.vertexArray);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.bindVertexArray(null);
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.program) throw releasedMoreThanOnce();
    this.abort.abort();
    gl.deleteProgram(this.program);
    gl.deleteVertexArray(this.vertexArray);
    if (this.texture) gl.deleteTexture(this.texture);
    this.program = null;
    this.texture = null;
    this.context = null;
  }
}
