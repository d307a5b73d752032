// A survey's area outline (viewer-spec §3, §4): area.json's polygons, drawn as lines that fade in
// over OUTLINE_FADE_MS once loaded and cross-fade with the survey tiles by zoom (tileWeight):
// tiles while a tract spans many screen pixels, the outline when it shrinks to a few.
import { attributeLocation, compileProgram, uniformLocation } from '../gl';
import { PROJECTION_GLSL, setProjectionUniforms } from '../projection';
import type { Tract } from '../tiles/tract';
import { skyVector } from '../visibility';
import type { FrameContext } from './layer';

/** Area outlines fade in over this time once loaded (viewer-spec §4). */
export const OUTLINE_FADE_MS = 1000;

const OUTLINE_COLOR = [1, 0.85, 0.45] as const;

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

/**
 * Weight of the tiles against the outlines from how many levels coarser than the tract's
 * coarsest one the screen would need (k): tiles alone up to k = 1 (a tract over 128 screen
 * pixels at 256-pixel tiles), outlines alone from k = 3.
 */
export function tileWeight(screenPixel: number, tract: Pick<Tract, 'pixelAngle' | 'maxLevel'>): number {
  const k = Math.log2(screenPixel / tract.pixelAngle) - tract.maxLevel;
  return Math.min(1, Math.max(0, (3 - k) / 2));
}

const VERTEX = `#version 300 es
in vec3 a_position;
${PROJECTION_GLSL}
void main() { gl_Position = project(a_position); }
`;

const FRAGMENT = `#version 300 es
precision mediump float;
uniform vec4 u_color;
out vec4 color;
void main() { color = u_color; }
`;

/** The outline's lines on the GPU: replaced as a whole when area.json or the filters change. */
export class AreaOutline {
  private readonly program: WebGLProgram;
  private lines: { vertexArray: WebGLVertexArrayObject; buffer: WebGLBuffer; count: number } | null = null;
  /** When area.json arrived: the fade-in runs from here. */
  private loadedAt = 0;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.program = compileProgram(gl, VERTEX, FRAGMENT);
  }

  /** Vertices of the lines drawn; undefined before area.json arrives (tests read it). */
  get count(): number | undefined {
    return this.lines?.count;
  }

  /** area.json (or the empty region it failed to) has just arrived. */
  loaded(time: number): void {
    this.loadedAt = time;
  }

  /** The lines of `polygons` (right ascension, declination in degrees), replacing the ones before. */
  upload(polygons: readonly [number, number][][]): void {
    const { gl } = this;
    this.delete();
    const vertices: number[] = [];
    for (const polygon of polygons) {
      const points = polygon.map(([ra, dec]) => skyVector(ra, dec));
      for (let i = 0; i < points.length; i++) vertices.push(...points[i], ...points[(i + 1) % points.length]);
    }
    const vertexArray = gl.createVertexArray();
    const buffer = gl.createBuffer();
    gl.bindVertexArray(vertexArray);
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(vertices), gl.STATIC_DRAW);
    const position = attributeLocation(gl, this.program, 'a_position');
    gl.enableVertexAttribArray(position);
    gl.vertexAttribPointer(position, 3, gl.FLOAT, false, 0, 0);
    gl.bindVertexArray(null);
    this.lines = { vertexArray, buffer, count: vertices.length / 3 };
  }

  /** Draws the outline at `weight` times its fade-in; asks for frames while it fades in. */
  draw(frame: FrameContext, weight: number): void {
    const { gl, program, lines } = this;
    if (!lines || weight <= 0) return;
    const fade = Math.min(1, (frame.time - this.loadedAt) / OUTLINE_FADE_MS);
    if (fade < 1) frame.requestFrame();
    gl.useProgram(program);
    setProjectionUniforms(gl, program, frame);
    gl.uniform4f(uniformLocation(gl, program, 'u_color'), ...OUTLINE_COLOR, weight * fade);
    gl.bindVertexArray(lines.vertexArray);
    gl.drawArrays(gl.LINES, 0, lines.count);
    gl.bindVertexArray(null);
  }

  /** Drops the lines (a new survey: none until its area.json arrives). */
  delete(): void {
    if (!this.lines) return;
    this.gl.deleteVertexArray(this.lines.vertexArray);
    this.gl.deleteBuffer(this.lines.buffer);
    this.lines = null;
  }

  release(): void {
    this.delete();
    this.gl.deleteProgram(this.program);
  }
}
