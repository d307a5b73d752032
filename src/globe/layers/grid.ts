// The coordinate grid (viewer-spec §9): circles of constant theta at 18 divisions and
// meridians at 24 divisions of phi (one per hour of right ascension), line width 0.008.
import { attributeLocation, compileProgram, uniformLocation } from '../gl';
import { PROJECTION_GLSL, setProjectionUniforms } from '../projection';
import { appendRibbon, unitVector } from '../ribbon';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';

export interface GridOptions {
  thetaDivisions: number;
  phiDivisions: number;
  lineWidth: number;
  color: [number, number, number, number];
}

export const GRID_DEFAULTS: GridOptions = {
  thetaDivisions: 18,
  phiDivisions: 24,
  lineWidth: 0.008,
  color: [0.35, 0.55, 0.85, 0.55],
};

const SAMPLES = 144;

export function gridVertices(thetaDivisions: number, phiDivisions: number, lineWidth: number): Float32Array {
  const out: number[] = [];
  for (let i = 1; i < thetaDivisions; i++) {
    const theta = (Math.PI * i) / thetaDivisions;
    const circle = Array.from({ length: SAMPLES + 1 }, (_, k) => unitVector(theta, (2 * Math.PI * k) / SAMPLES));
    appendRibbon(out, circle, lineWidth);
  }
  for (let j = 0; j < phiDivisions; j++) {
    const phi = (2 * Math.PI * j) / phiDivisions;
    // Meridians stop one division short of the poles, where 24 lines would merge into a blot.
    const start = Math.PI / thetaDivisions;
    const meridian = Array.from({ length: SAMPLES / 2 + 1 }, (_, k) =>
      unitVector(start + ((Math.PI - 2 * start) * k) / (SAMPLES / 2), phi),
    );
    appendRibbon(out, meridian, lineWidth);
  }
  return new Float32Array(out);
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

export class GridLayer implements Layer<GridOptions> {
  readonly name = 'grid';
  private context: LayerContext | null = null;
  private program: WebGLProgram | null = null;
  private buffer: WebGLBuffer | null = null;
  private vertexArray: WebGLVertexArrayObject | null = null;
  private count = 0;
  private options: GridOptions;

  constructor(options: Partial<GridOptions> = {}) {
    this.options = { ...GRID_DEFAULTS, ...options };
  }

  create(context: LayerContext): void {
    const { gl } = context;
    this.context = context;
    this.program = compileProgram(gl, VERTEX, FRAGMENT);
    this.vertexArray = gl.createVertexArray();
    gl.bindVertexArray(this.vertexArray);
    this.buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    const position = attributeLocation(gl, this.program, 'a_position');
    gl.enableVertexAttribArray(position);
    gl.vertexAttribPointer(position, 3, gl.FLOAT, false, 0, 0);
    gl.bindVertexArray(null);
    this.upload();
  }

  update(options: Partial<GridOptions>): void {
    const before = this.options;
    this.options = { ...before, ...options };
    const geometry = (['thetaDivisions', 'phiDivisions', 'lineWidth'] as const).some(
      (key) => this.options[key] !== before[key],
    );
    if (geometry) this.upload();
    this.context?.requestFrame();
  }

  /** Builds the ribbons for the current divisions and width into the buffer. */
  private upload(): void {
    const gl = this.context?.gl;
    if (!gl || !this.program) return;
    const vertices = gridVertices(this.options.thetaDivisions, this.options.phiDivisions, this.options.lineWidth);
    this.count = vertices.length / 3;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.bufferData(gl.ARRAY_BUFFER, vertices, gl.STATIC_DRAW);
  }

  draw(frame: FrameContext): void {
    const { gl } = frame;
    if (!this.program) return;
    gl.useProgram(this.program);
    setProjectionUniforms(gl, this.program, frame);
    gl.uniform4fv(uniformLocation(gl, this.program, 'u_color'), this.options.color);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE); // ADD, the default line blend mode (viewer-spec §4)
    gl.bindVertexArray(this.vertexArray);
    gl.drawArrays(gl.TRIANGLES, 0, this.count);
    gl.bindVertexArray(null);
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.program) throw releasedMoreThanOnce();
    gl.deleteProgram(this.program);
    gl.deleteBuffer(this.buffer);
    gl.deleteVertexArray(this.vertexArray);
    this.program = null;
    this.context = null;
  }
}
