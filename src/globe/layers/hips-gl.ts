// The HiPS layer's GL (hips.ts): its program, which samples a tile at st + shift(st) (the tile's
// shiftmap, core/shiftmap.ts) from the part of its image or its ancestor's (an Allsky cell) that
// holds it, and stretches FITS tiles by the pretty pictures' colour mixing; the textures of
// tiles and shiftmaps; and the tiles' patches as meshes (hips-geometry.ts makes their vertices),
// kept independently of the HiPS shown, since they depend on the tile's place alone.
import type { HipsProperties } from '../../../core/hipsProperties';
import { SHIFTMAP_SIZE } from '../../../core/shiftmap';
import type { HipsColour } from '../../../shared/courses';
import { linearTexture, tileMesh, uniformLocation, type Mesh } from '../gl';
import { PROJECTION_GLSL } from '../projection';
import { LruCache } from '../tiles/lru';
import { CELLS, tileId, type HipsGeometry } from './hips-geometry';
import { PRETTY_MIXER_GLSL, mixMatrix } from './pretty-picture-mixer';

export const VERTEX = `#version 300 es
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

export const FRAGMENT = `#version 300 es
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

/** A decoded PNG or JPEG tile, its bytes as stored; the bitmap is closed once uploaded. */
export function imageTexture(gl: WebGL2RenderingContext, bitmap: ImageBitmap): WebGLTexture {
  const texture = linearTexture(gl, () => {
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
  });
  bitmap.close();
  return texture;
}

/** A decoded FITS tile: one float channel, linearly filtered (needs OES_texture_float_linear). */
export function fitsTexture(
  gl: WebGL2RenderingContext,
  width: number,
  height: number,
  pixels: Float32Array,
): WebGLTexture {
  return linearTexture(gl, () => {
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R32F, width, height, 0, gl.RED, gl.FLOAT, pixels);
  });
}

/** A shiftmap as WebGL2 takes it (core/shiftmap.ts): RG16F, 64 × 64, filtered linearly. */
export function shiftmapTexture(gl: WebGL2RenderingContext, texels: Uint16Array): WebGLTexture {
  return linearTexture(gl, () => {
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RG16F, SHIFTMAP_SIZE, SHIFTMAP_SIZE, 0, gl.RG, gl.HALF_FLOAT, texels);
  });
}

/**
 * The colour of FITS tiles without a course's settings: black to white over hips_pixel_cut (or
 * 0 to 1), almost linear (β small).
 */
export function defaultFitsColour(properties: Pick<HipsProperties, 'pixelCut'>): HipsColour {
  const [low, high] = properties.pixelCut ?? [0, 1];
  return { nFilters: 1, a: 1 / (high - low), b: -low, mix: 0.5, beta: 0.01, bias: 0, exposure: 1, gamma: 1, ground: 0 };
}

/** The FITS tiles' stretch (PRETTY_MIXER_GLSL's uniforms) by `colour`, one filter. */
export function setColourUniforms(gl: WebGL2RenderingContext, program: WebGLProgram, colour: HipsColour): void {
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

/** The tiles' patches as meshes of `program`, `cacheSize` of them kept, over one index buffer. */
export class HipsPatches {
  private readonly indexBuffer: WebGLBuffer;
  private readonly meshes: LruCache<string, Mesh>;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly program: WebGLProgram,
    cacheSize: number,
  ) {
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
    this.meshes = new LruCache(cacheSize, (mesh) => {
      gl.deleteVertexArray(mesh.vertexArray);
      gl.deleteBuffer(mesh.buffer);
    });
  }

  /** Draws the patch of tile `ipix` of `order` (the program in use), made from `geometry` once. */
  draw(geometry: HipsGeometry, order: number, ipix: number): void {
    const { gl } = this;
    const id = tileId(order, ipix);
    let mesh = this.meshes.get(id);
    if (!mesh) {
      // Vertex k = a·(CELLS + 1) + b, the index buffer's j·row + i with j = a, i = b.
      mesh = tileMesh(gl, this.program, geometry.patch(order, ipix), 'a_st', this.indexBuffer);
      this.meshes.set(id, mesh);
    }
    gl.bindVertexArray(mesh.vertexArray);
    gl.drawElements(gl.TRIANGLES, CELLS * CELLS * 6, gl.UNSIGNED_SHORT, 0);
  }

  release(): void {
    this.meshes.clear();
    this.gl.deleteBuffer(this.indexBuffer);
  }
}
