// Lines on the sphere whose width is applied in the vertex shader, so that one buffer serves
// every zoom: each vertex carries its point and a sideways offset (a unit tangent of the sphere
// perpendicular to the line, scaled by the miter factor at joins); the shader pushes the point
// by half the width along it, the width being at least the narrow-line minimum in pixels
// (viewer-spec §9). Used by the constellation, path and level-outline layers.
import { vec3 } from 'gl-matrix';
import { attributeLocation, compileProgram, uniformLocation } from './gl';
import { PROJECTION_GLSL, setProjectionUniforms } from './projection';
import type { FrameContext } from './layers/layer';

/** viewer-spec §4. */
export enum LineJoin {
  MITER = 'MITER',
  NONE = 'NONE',
}

/** viewer-spec §4: ADD is the default. */
export enum BlendMode {
  NORMAL = 'NORMAL',
  ADD = 'ADD',
}

/** The narrow-line minimum width of the line layer, px (viewer-spec §9). */
export const NARROW_LINE_MIN_WIDTH = 3;

/**
 * Lines over a wide field give way to the sky: from WIDE_FIELD_FOVY[0] to [1] (40° to the
 * camera's widest, viewer-spec §9's max_fovy of 2 radians) a line's opacity falls to
 * WIDE_FIELD_ALPHA and its width to half the spec's (never under the narrow-line minimum), so
 * that at the whole sky the Milky Way and the stars lead and the lines sketch the constellations
 * over them.
 */
export const WIDE_FIELD_FOVY = [(40 * Math.PI) / 180, 2] as const;
export const WIDE_FIELD_ALPHA = 0.4;

/** How far `fovy` lies into the wide-field range, 0 (at 60° or narrower) to 1 (180°). */
function wideness(fovy: number): number {
  return Math.min(1, Math.max(0, (fovy - WIDE_FIELD_FOVY[0]) / (WIDE_FIELD_FOVY[1] - WIDE_FIELD_FOVY[0])));
}

/** A line's opacity factor at `fovy`. */
export function wideFieldAlpha(fovy: number): number {
  return 1 - (1 - WIDE_FIELD_ALPHA) * wideness(fovy);
}

/** A line's width factor at `fovy`. */
export function wideFieldWidth(fovy: number): number {
  return 1 - 0.5 * wideness(fovy);
}

/**
 * The opacity of a line layer that fades out as the field narrows: 1 at `fade[1]` radians and
 * wider, 0 at `fade[0]` and narrower; null never fades.
 */
export function narrowFieldAlpha(fovy: number, fade: readonly [number, number] | null): number {
  if (!fade) return 1;
  return Math.min(1, Math.max(0, (fovy - fade[0]) / (fade[1] - fade[0])));
}

/** Floats per vertex: position (3), offset (3), colour (4). */
export const LINE_VERTEX_FLOATS = 10;

/** Miter joins longer than this many half-widths are cut to it (a hairpin would spike). */
const MITER_LIMIT = 4;

function sideways(point: vec3, from: vec3, to: vec3): vec3 {
  const tangent = vec3.sub(vec3.create(), to, from);
  return vec3.normalize(vec3.create(), vec3.cross(vec3.create(), point, tangent));
}

/** The shared offset of a corner: the bisector, lengthened by 1/cos of half the turn (to the limit). */
function mitre(point: vec3, before: vec3, after: vec3): vec3 {
  const a = sideways(point, before, point);
  const b = sideways(point, point, after);
  const bisector = vec3.add(vec3.create(), a, b);
  const length = vec3.length(bisector);
  if (length < 1e-9) return a;
  vec3.scale(bisector, bisector, 1 / length);
  const cosine = vec3.dot(bisector, a);
  return vec3.scale(bisector, bisector, Math.min(MITER_LIMIT, 1 / Math.max(cosine, 1e-6)));
}

/**
 * Appends the triangles of a polyline of unit vectors, in one colour, to `out`. MITER joins
 * share one offset per interior point (mitre); a closed line (its first point repeated at its
 * end, as an outline is given) is mitred at the closing corner too, where square ends would
 * leave a notch. NONE draws each segment on its own, ends square.
 */
export function appendLine(
  out: number[],
  points: readonly vec3[],
  color: readonly number[],
  join: LineJoin = LineJoin.MITER,
): void {
  if (points.length < 2) throw new Error('Path must include more than 2 points');
  const push = (point: vec3, offset: vec3, side: number) =>
    out.push(point[0], point[1], point[2], offset[0] * side, offset[1] * side, offset[2] * side, ...color);
  const quad = (a: vec3, offsetA: vec3, b: vec3, offsetB: vec3) => {
    push(a, offsetA, 1);
    push(a, offsetA, -1);
    push(b, offsetB, 1);
    push(b, offsetB, 1);
    push(a, offsetA, -1);
    push(b, offsetB, -1);
  };
  if (join === LineJoin.NONE) {
    for (let i = 0; i + 1 < points.length; i++) {
      const normal = sideways(points[i], points[i], points[i + 1]);
      const normalEnd = sideways(points[i + 1], points[i], points[i + 1]);
      quad(points[i], normal, points[i + 1], normalEnd);
    }
    return;
  }
  const last = points.length - 1;
  const closed = points.length > 3 && vec3.equals(points[0], points[last]);
  const offsets = points.map((point, i) => {
    if (closed && (i === 0 || i === last)) return mitre(point, points[last - 1], points[1]);
    if (i === 0) return sideways(point, point, points[1]);
    if (i === last) return sideways(point, points[last - 1], point);
    return mitre(point, points[i - 1], points[i + 1]);
  });
  for (let i = 0; i + 1 < points.length; i++) quad(points[i], offsets[i], points[i + 1], offsets[i + 1]);
}

/** The points of the great-circle arc from a to b, `steps` segments (short lines stay on the sphere). */
export function greatCircle(a: vec3, b: vec3, steps: number): vec3[] {
  const angle = Math.acos(Math.min(1, Math.max(-1, vec3.dot(a, b))));
  if (angle < 1e-9) return [a, b];
  const sine = Math.sin(angle);
  return Array.from({ length: steps + 1 }, (_, k) => {
    const t = k / steps;
    const p = vec3.scale(vec3.create(), a, Math.sin((1 - t) * angle) / sine);
    return vec3.scaleAndAdd(p, p, b, Math.sin(t * angle) / sine);
  });
}

// The edges are smoothed here rather than by multisampling (the globe's context has none: on
// the software renderers of low-end machines it costs a third of every frame). The strip is
// drawn a pixel wider on each side, and each fragment is covered by how much of its pixel lies
// within the line's half width: v_across is the distance from the centre line in pixels, its
// side known from the vertex's place in appendLine's quads (+, −, +, +, −, −).
const VERTEX = `#version 300 es
in vec3 a_position;
in vec3 a_offset;
in vec4 a_color;
uniform float u_halfWidth;
uniform float u_pixel;
${PROJECTION_GLSL}
out vec4 v_color;
out float v_across;
const float SIDES[6] = float[6](1.0, -1.0, 1.0, 1.0, -1.0, -1.0);
void main() {
  float reach = u_halfWidth + u_pixel;
  gl_Position = project(normalize(a_position + a_offset * reach));
  v_color = a_color;
  v_across = SIDES[gl_VertexID % 6] * reach / u_pixel;
}
`;

const FRAGMENT = `#version 300 es
precision highp float;
in vec4 v_color;
in float v_across;
uniform float u_alpha;
uniform float u_halfWidth;
uniform float u_pixel;
out vec4 color;
void main() {
  float coverage = clamp(u_halfWidth / u_pixel + 0.5 - abs(v_across), 0.0, 1.0);
  color = vec4(v_color.rgb, v_color.a * u_alpha * coverage);
}
`;

/** A buffer of lines built by appendLine and the program that draws it. */
export class LineMesh {
  private readonly program: WebGLProgram;
  private readonly buffer: WebGLBuffer | null;
  private readonly vertexArray: WebGLVertexArrayObject | null;
  private count = 0;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.program = compileProgram(gl, VERTEX, FRAGMENT);
    this.vertexArray = gl.createVertexArray();
    this.buffer = gl.createBuffer();
    gl.bindVertexArray(this.vertexArray);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    const stride = LINE_VERTEX_FLOATS * 4;
    for (const [name, size, offset] of [
      ['a_position', 3, 0],
      ['a_offset', 3, 12],
      ['a_color', 4, 24],
    ] as const) {
      const location = attributeLocation(gl, this.program, name);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, gl.FLOAT, false, stride, offset);
    }
    gl.bindVertexArray(null);
  }

  upload(vertices: Float32Array): void {
    const { gl } = this;
    this.count = vertices.length / LINE_VERTEX_FLOATS;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.bufferData(gl.ARRAY_BUFFER, vertices, gl.STATIC_DRAW);
  }

  get empty(): boolean {
    return this.count === 0;
  }

  /** Draws with `width` (radians on the sphere), widened to `minWidth` px (at rest) where thinner. */
  draw(frame: FrameContext, width: number, minWidth: number, blend: BlendMode, alpha = 1): void {
    const { gl } = frame;
    if (this.count === 0) return;
    const radiansPerPixel = frame.camera.fovy / Math.max(1, frame.height);
    gl.useProgram(this.program);
    setProjectionUniforms(gl, this.program, frame);
    gl.uniform1f(uniformLocation(gl, this.program, 'u_halfWidth'), Math.max(width, minWidth * radiansPerPixel) / 2);
    // The edge is smoothed over one pixel of the drawing buffer.
    gl.uniform1f(uniformLocation(gl, this.program, 'u_pixel'), radiansPerPixel / frame.resolution);
    gl.uniform1f(uniformLocation(gl, this.program, 'u_alpha'), alpha);
    gl.enable(gl.BLEND);
    if (blend === BlendMode.ADD) gl.blendFunc(gl.SRC_ALPHA, gl.ONE);
    else gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.bindVertexArray(this.vertexArray);
    gl.drawArrays(gl.TRIANGLES, 0, this.count);
    gl.bindVertexArray(null);
  }

  release(): void {
    this.gl.deleteProgram(this.program);
    this.gl.deleteBuffer(this.buffer);
    this.gl.deleteVertexArray(this.vertexArray);
  }
}
