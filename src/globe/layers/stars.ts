// The star point layer (viewer-spec §1, §9): hipparcos-catalog/index.json lists the files; each
// is loaded by a decoder worker and streamed back as (ra, dec, magnitude) floats, drawn as
// points of fixed colour (0.75, 0.75, 1, 1), brightness 10^(−mag/2.5), at least 3 px wide.
import { decoderPool } from '../../../workers/browser-pool';
import { attributeLocation, compileProgram } from '../gl';
import { PROJECTION_GLSL, setProjectionUniforms } from '../projection';
import type { FrameContext, Layer } from './layer';

const VERTEX = `#version 300 es
in vec3 a_star; // ra (deg), dec (deg), magnitude
${PROJECTION_GLSL}
out float v_alpha;
void main() {
  float ra = radians(a_star.x);
  float dec = radians(a_star.y);
  gl_Position = project(vec3(cos(dec) * cos(ra), cos(dec) * sin(ra), sin(dec)));
  float flux = pow(10.0, -a_star.z / 2.5);
  gl_PointSize = max(3.0, 10.0 * sqrt(flux));
  v_alpha = clamp(sqrt(flux) * 8.0, 0.25, 1.0);
}
`;

const FRAGMENT = `#version 300 es
precision mediump float;
in float v_alpha;
out vec4 color;
void main() {
  float r = length(gl_PointCoord - 0.5) * 2.0;
  color = vec4(0.75, 0.75, 1.0, 1.0) * v_alpha * smoothstep(1.0, 0.3, r);
}
`;

interface Chunk {
  vertexArray: WebGLVertexArrayObject;
  buffer: WebGLBuffer;
  count: number;
}

export class StarLayer implements Layer {
  readonly name = 'stars';
  private program: WebGLProgram | null = null;
  private gl: WebGL2RenderingContext | null = null;
  private readonly chunks: Chunk[] = [];
  private readonly abort = new AbortController();

  /** `onLoaded` runs after each file arrives, so the globe can draw it. */
  constructor(
    private readonly dataRepository: string,
    private readonly onLoaded: () => void,
  ) {}

  create(gl: WebGL2RenderingContext): void {
    this.gl = gl;
    this.program = compileProgram(gl, VERTEX, FRAGMENT);
    void this.load().catch((error: unknown) => {
      if (!this.abort.signal.aborted) console.error('star catalogue failed to load', error);
    });
  }

  private async load(): Promise<void> {
    const base = `${this.dataRepository}/hipparcos-catalog`;
    const response = await fetch(`${base}/index.json`, { signal: this.abort.signal });
    if (!response.ok) throw new Error(`${base}/index.json: ${response.status}`);
    const files = (await response.json()) as string[];
    await Promise.all(
      files.map(async (file) => {
        const records = await decoderPool().run('loadStars', [new URL(`${base}/${file}`, location.href).href]);
        if (!this.abort.signal.aborted) this.upload(records);
      }),
    );
  }

  private upload(records: Float32Array): void {
    const gl = this.gl;
    if (!gl || !this.program) return;
    const vertexArray = gl.createVertexArray();
    const buffer = gl.createBuffer();
    gl.bindVertexArray(vertexArray);
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, records, gl.STATIC_DRAW);
    const star = attributeLocation(gl, this.program, 'a_star');
    gl.enableVertexAttribArray(star);
    gl.vertexAttribPointer(star, 3, gl.FLOAT, false, 0, 0);
    gl.bindVertexArray(null);
    this.chunks.push({ vertexArray, buffer, count: records.length / 3 });
    this.onLoaded();
  }

  draw(frame: FrameContext): void {
    const { gl } = frame;
    if (!this.program || this.chunks.length === 0) return;
    gl.useProgram(this.program);
    setProjectionUniforms(gl, this.program, frame);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE);
    for (const chunk of this.chunks) {
      gl.bindVertexArray(chunk.vertexArray);
      gl.drawArrays(gl.POINTS, 0, chunk.count);
    }
    gl.bindVertexArray(null);
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.program) throw new Error('Released more than once');
    this.abort.abort();
    for (const chunk of this.chunks.splice(0)) {
      gl.deleteVertexArray(chunk.vertexArray);
      gl.deleteBuffer(chunk.buffer);
    }
    gl.deleteProgram(this.program);
    this.program = null;
  }
}
