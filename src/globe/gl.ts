// WebGL helpers: program building and variable look-up with the errors of viewer-spec §8
// (shader logs thrown as they are, 'unknown attribute', 'unknown uniform').

export function compileProgram(gl: WebGL2RenderingContext, vertexSource: string, fragmentSource: string): WebGLProgram {
  const shaders = [
    [gl.VERTEX_SHADER, vertexSource],
    [gl.FRAGMENT_SHADER, fragmentSource],
  ].map(([type, source]) => {
    const shader = gl.createShader(type as number);
    if (!shader) throw new Error('createShader failed');
    gl.shaderSource(shader, source as string);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
      const log = gl.getShaderInfoLog(shader) ?? '';
      gl.deleteShader(shader);
      throw new Error(log);
    }
    return shader;
  });
  const program = gl.createProgram();
  if (!program) throw new Error('createProgram failed');
  for (const shader of shaders) gl.attachShader(program, shader);
  gl.linkProgram(program);
  for (const shader of shaders) gl.deleteShader(shader);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
    const log = gl.getProgramInfoLog(program) ?? '';
    gl.deleteProgram(program);
    throw new Error(log);
  }
  return program;
}

export function attributeLocation(gl: WebGL2RenderingContext, program: WebGLProgram, name: string): number {
  const location = gl.getAttribLocation(program, name);
  if (location < 0) throw new Error(`unknown attribute: ${name}`);
  return location;
}

/** Looked-up uniform locations per program: layers set uniforms per tile, every frame. */
const uniformLocations = new WeakMap<WebGLProgram, Map<string, WebGLUniformLocation>>();

export function uniformLocation(gl: WebGL2RenderingContext, program: WebGLProgram, name: string): WebGLUniformLocation {
  let locations = uniformLocations.get(program);
  if (!locations) uniformLocations.set(program, (locations = new Map()));
  const known = locations.get(name);
  if (known) return known;
  const location = gl.getUniformLocation(program, name);
  if (location === null) throw new Error(`unknown uniform: ${name}`);
  locations.set(name, location);
  return location;
}

/**
 * Float textures that can be filtered linearly (pretty-picture FITS layers). Without them the
 * layer cannot draw: warned (viewer-spec §8) and the error thrown again for the caller.
 */
export function requireFloatTextures(gl: WebGL2RenderingContext): void {
  try {
    if (!gl.getExtension('OES_texture_float_linear')) throw new Error('OES_texture_float_linear is not supported');
  } catch (error) {
    console.warn('floating-point textures are not supported', error);
    throw error;
  }
}

/**
 * A 2D texture whose level 0 `upload` writes while it is bound, filtered linearly and clamped at
 * its edges (viewer-spec §9: the magnification filter is on for the tile renderer).
 */
export function linearTexture(gl: WebGL2RenderingContext, upload: () => void): WebGLTexture {
  const texture = gl.createTexture();
  if (!texture) throw new Error('createTexture failed');
  gl.bindTexture(gl.TEXTURE_2D, texture);
  upload();
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  gl.bindTexture(gl.TEXTURE_2D, null);
  return texture;
}

/** A texture from an image holding data (survey filters): one channel (R8), bytes as stored, row 0 at t = 0. */
export function dataTexture(gl: WebGL2RenderingContext, image: TexImageSource): WebGLTexture {
  return linearTexture(gl, () => {
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8, gl.RED, gl.UNSIGNED_BYTE, image);
  });
}

/** A vertex array and the buffer holding its vertices. */
export interface Mesh {
  vertexArray: WebGLVertexArrayObject;
  buffer: WebGLBuffer;
}

/**
 * A tile's mesh: interleaved vertices of a unit vector (`a_position`, 3 floats) and a texture
 * coordinate (`texcoordName`, 2 floats), drawn through a shared index buffer.
 */
export function tileMesh(
  gl: WebGL2RenderingContext,
  program: WebGLProgram,
  vertices: Float32Array,
  texcoordName: string,
  indexBuffer: WebGLBuffer | null,
): Mesh {
  const vertexArray = gl.createVertexArray()!;
  const buffer = gl.createBuffer()!;
  gl.bindVertexArray(vertexArray);
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.bufferData(gl.ARRAY_BUFFER, vertices, gl.STATIC_DRAW);
  const position = attributeLocation(gl, program, 'a_position');
  gl.enableVertexAttribArray(position);
  gl.vertexAttribPointer(position, 3, gl.FLOAT, false, 20, 0);
  const texcoord = attributeLocation(gl, program, texcoordName);
  gl.enableVertexAttribArray(texcoord);
  gl.vertexAttribPointer(texcoord, 2, gl.FLOAT, false, 20, 12);
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, indexBuffer);
  gl.bindVertexArray(null);
  return { vertexArray, buffer };
}

/** The rejection of a tile load whose tile left the view, or whose layer was released, meanwhile. */
export function tileAborted(): DOMException {
  return new DOMException('The tile was aborted', 'AbortError');
}
