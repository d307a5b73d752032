// Sprites (viewer-spec §3, §5, §9): images placed on the sphere. Each sprite names an image
// (imageID), a position (a unit vector) and a colour that multiplies the image; an image is
// image data plus an origin, the pixel of the image placed at the position. The images are
// packed into one texture with a 2 px margin; packing beyond the largest texture size throws
// 'Sprite Texture too large' and the layer falls back to a 1×1 image. Sprites keep their pixel
// size at every zoom.
import { attributeLocation, compileProgram, uniformLocation } from '../gl';
import { PROJECTION_GLSL, setProjectionUniforms } from '../projection';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';

export const SPRITE_MARGIN = 2;

export interface SpriteImage {
  image: TexImageSource & { width: number; height: number };
  /** The image pixel placed at the sprite's position. */
  origin: [number, number];
}

export interface Sprite {
  imageID: string;
  position: [number, number, number];
  color: [number, number, number, number];
}

export interface SpriteOptions {
  images: ReadonlyMap<string, SpriteImage>;
  sprites: readonly Sprite[];
}

export interface Placement {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Shelf packing: images sorted by height fill rows of a square-ish texture, each with SPRITE_MARGIN
 * px around it. Returns the texture size and each image's place; throws 'Sprite Texture too
 * large' when the texture would exceed `maxSize`.
 */
export function packSprites(
  sizes: ReadonlyMap<string, { width: number; height: number }>,
  maxSize: number,
  margin = SPRITE_MARGIN,
): { width: number; height: number; placements: Map<string, Placement> } {
  const entries = [...sizes].sort(([, a], [, b]) => b.height - a.height);
  const area = entries.reduce((sum, [, size]) => sum + (size.width + 2 * margin) * (size.height + 2 * margin), 0);
  const widest = entries.reduce((most, [, size]) => Math.max(most, size.width + 2 * margin), 1);
  const rowWidth = Math.max(widest, Math.ceil(Math.sqrt(area)));
  const placements = new Map<string, Placement>();
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  let width = 1;
  for (const [id, size] of entries) {
    const cellWidth = size.width + 2 * margin;
    if (x > 0 && x + cellWidth > rowWidth) {
      y += rowHeight;
      x = 0;
      rowHeight = 0;
    }
    placements.set(id, { x: x + margin, y: y + margin, width: size.width, height: size.height });
    x += cellWidth;
    width = Math.max(width, x);
    rowHeight = Math.max(rowHeight, size.height + 2 * margin);
  }
  const height = Math.max(1, y + rowHeight);
  if (width > maxSize || height > maxSize) throw new Error('Sprite Texture too large');
  return { width, height, placements };
}

const VERTEX = `#version 300 es
in vec3 a_position;
in vec2 a_corner; // px from the position, y down
in vec2 a_uv;
in vec4 a_color;
uniform vec2 u_viewport;
${PROJECTION_GLSL}
out vec2 v_uv;
out vec4 v_color;
void main() {
  vec4 centre = project(a_position);
  gl_Position = centre + vec4(a_corner * vec2(2.0, -2.0) / u_viewport * centre.w, 0.0, 0.0);
  v_uv = a_uv;
  v_color = a_color;
}
`;

const FRAGMENT = `#version 300 es
precision mediump float;
uniform sampler2D u_texture;
in vec2 v_uv;
in vec4 v_color;
out vec4 color;
void main() { color = texture(u_texture, v_uv) * v_color; }
`;

const FLOATS = 11;

export class SpriteLayer implements Layer<SpriteOptions> {
  readonly name: string = 'sprites';
  private context: LayerContext | null = null;
  private program: WebGLProgram | null = null;
  private texture: WebGLTexture | null = null;
  private buffer: WebGLBuffer | null = null;
  private vertexArray: WebGLVertexArrayObject | null = null;
  private count = 0;
  private placements = new Map<string, Placement>();
  private atlas = { width: 1, height: 1 };
  private options: SpriteOptions;
  /** Set when packing failed and the 1×1 fallback is drawn. */
  fallback = false;

  constructor(options: Partial<SpriteOptions> = {}) {
    this.options = { images: new Map(), sprites: [], ...options };
  }

  create(context: LayerContext): void {
    const { gl } = context;
    this.context = context;
    this.program = compileProgram(gl, VERTEX, FRAGMENT);
    this.texture = gl.createTexture();
    this.vertexArray = gl.createVertexArray();
    this.buffer = gl.createBuffer();
    gl.bindVertexArray(this.vertexArray);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    for (const [name, size, offset] of [
      ['a_position', 3, 0],
      ['a_corner', 2, 12],
      ['a_uv', 2, 20],
      ['a_color', 4, 28],
    ] as const) {
      const location = attributeLocation(gl, this.program, name);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, gl.FLOAT, false, FLOATS * 4, offset);
    }
    gl.bindVertexArray(null);
    this.packImages();
    this.uploadSprites();
  }

  update(options: Partial<SpriteOptions>): void {
    const before = this.options;
    this.options = { ...before, ...options };
    if (this.options.images !== before.images) this.packImages();
    this.uploadSprites();
    this.context?.requestFrame();
  }

  /** Packs every image into the texture, or a 1×1 white image when they do not fit. */
  private packImages(): void {
    const gl = this.context?.gl;
    if (!gl) return;
    const { images } = this.options;
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    try {
      const packed = packSprites(
        new Map([...images].map(([id, { image }]) => [id, { width: image.width, height: image.height }])),
        gl.getParameter(gl.MAX_TEXTURE_SIZE) as number,
      );
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, packed.width, packed.height, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
      for (const [id, place] of packed.placements)
        gl.texSubImage2D(gl.TEXTURE_2D, 0, place.x, place.y, gl.RGBA, gl.UNSIGNED_BYTE, images.get(id)!.image);
      this.placements = packed.placements;
      this.atlas = packed;
      this.fallback = false;
    } catch (error) {
      console.error(error);
      gl.texImage2D(
        gl.TEXTURE_2D,
        0,
        gl.RGBA,
        1,
        1,
        0,
        gl.RGBA,
        gl.UNSIGNED_BYTE,
        new Uint8Array([255, 255, 255, 255]),
      );
      this.placements = new Map([...images.keys()].map((id) => [id, { x: 0, y: 0, width: 1, height: 1 }]));
      this.atlas = { width: 1, height: 1 };
      this.fallback = true;
    }
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.bindTexture(gl.TEXTURE_2D, null);
  }

  private uploadSprites(): void {
    const gl = this.context?.gl;
    if (!gl) return;
    const vertices: number[] = [];
    for (const sprite of this.options.sprites) {
      const place = this.placements.get(sprite.imageID);
      const image = this.options.images.get(sprite.imageID);
      if (!place || !image) continue;
      const [ox, oy] = image.origin;
      const { width, height } = image.image;
      const corner = (u: number, v: number) =>
        vertices.push(
          ...sprite.position,
          u * width - ox,
          v * height - oy,
          (place.x + u * place.width) / this.atlas.width,
          (place.y + v * place.height) / this.atlas.height,
          ...sprite.color,
        );
      corner(0, 0);
      corner(1, 0);
      corner(0, 1);
      corner(0, 1);
      corner(1, 0);
      corner(1, 1);
    }
    this.count = vertices.length / FLOATS;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(vertices), gl.STATIC_DRAW);
  }

  draw(frame: FrameContext): void {
    const { gl } = frame;
    if (!this.program || this.count === 0) return;
    gl.useProgram(this.program);
    setProjectionUniforms(gl, this.program, frame);
    // Sprites are sized in CSS px: the canvas may be drawn at devicePixelRatio.
    const ratio = frame.width / Math.max(1, (gl.canvas as HTMLCanvasElement).clientWidth || frame.width);
    gl.uniform2f(uniformLocation(gl, this.program, 'u_viewport'), frame.width / ratio, frame.height / ratio);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.uniform1i(uniformLocation(gl, this.program, 'u_texture'), 0);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.bindVertexArray(this.vertexArray);
    gl.drawArrays(gl.TRIANGLES, 0, this.count);
    gl.bindVertexArray(null);
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.program) throw releasedMoreThanOnce();
    gl.deleteProgram(this.program);
    gl.deleteTexture(this.texture);
    gl.deleteBuffer(this.buffer);
    gl.deleteVertexArray(this.vertexArray);
    this.program = null;
    this.context = null;
  }
}

/**
 * A text label as a sprite image (viewer-spec §9: 12pt, cream, 10 px padding), drawn on a 2D
 * canvas; origin at its centre.
 */
export function labelImage(text: string, color = '#fff5d6'): SpriteImage {
  const padding = 10;
  const font = '12pt "Noto Sans", "Noto Sans CJK JP", sans-serif';
  const measure = document.createElement('canvas').getContext('2d')!;
  measure.font = font;
  const width = Math.ceil(measure.measureText(text).width) + 2 * padding;
  const height = 16 + 2 * padding;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d')!;
  context.font = font;
  context.fillStyle = color;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillText(text, width / 2, height / 2);
  return { image: canvas, origin: [width / 2, height / 2] };
}
