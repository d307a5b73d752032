// The GL side of the tiles over a TAN tract (tract.ts), shared by the layers that draw them (the
// survey and the pretty pictures): one index buffer, a vertex array per tile kept in an LRU
// cache, and the draw of a tile's quad from its own textures or from the part of an ancestor's
// that covers it. The layer's program is TILE_VERTEX_GLSL with its own fragment shader.
import { tileMesh, uniformLocation, type Mesh } from '../gl';
import { LruCache } from './lru';
import {
  TILE_INDEX_COUNT,
  tileKeyString,
  tileMeshIndices,
  tileMeshVertices,
  tileUvTransform,
  type TileKey,
  type Tract,
} from './tract';

export class TractTileMeshes {
  private readonly indexBuffer: WebGLBuffer | null;
  private readonly meshes: LruCache<string, Mesh>;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly program: WebGLProgram,
    capacity: number,
  ) {
    this.indexBuffer = gl.createBuffer();
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indexBuffer);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, tileMeshIndices(), gl.STATIC_DRAW);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, null);
    this.meshes = new LruCache(capacity, (mesh) => {
      gl.deleteVertexArray(mesh.vertexArray);
      gl.deleteBuffer(mesh.buffer);
    });
  }

  /**
   * Draws tile `key`'s quad with `textures` (bound to units 0, 1, …), which belong to the tile at
   * `sourceLevel` that contains it and measure `size` texels; the program must be in use.
   */
  draw(
    tract: Tract,
    key: TileKey,
    sourceLevel: number,
    alpha: number,
    size: { width: number; height: number },
    textures: readonly (WebGLTexture | null)[],
  ): void {
    if (alpha <= 0) return;
    const { gl, program } = this;
    gl.uniform4f(uniformLocation(gl, program, 'u_uvTransform'), ...tileUvTransform(key, sourceLevel));
    gl.uniform2f(uniformLocation(gl, program, 'u_texScale'), tract.tileSize / size.width, tract.tileSize / size.height);
    gl.uniform1i(uniformLocation(gl, program, 'u_flipV'), tract.flipV ? 1 : 0);
    gl.uniform1f(uniformLocation(gl, program, 'u_alpha'), alpha);
    textures.forEach((texture, unit) => {
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.bindTexture(gl.TEXTURE_2D, texture);
    });
    gl.bindVertexArray(this.mesh(tract, key).vertexArray);
    gl.drawElements(gl.TRIANGLES, TILE_INDEX_COUNT, gl.UNSIGNED_SHORT, 0);
    gl.bindVertexArray(null);
    gl.activeTexture(gl.TEXTURE0);
  }

  /** Tile geometry: a grid of unit vectors over the tile's part of the tract, with tile-unit uv. */
  private mesh(tract: Tract, key: TileKey): Mesh {
    const name = tileKeyString(key);
    const cached = this.meshes.get(name);
    if (cached) return cached;
    const { gl, program } = this;
    const mesh = tileMesh(gl, program, tileMeshVertices(tract, key), 'a_uv', this.indexBuffer);
    this.meshes.set(name, mesh);
    return mesh;
  }

  /** Deletes every tile's vertex array (a new set of tracts). */
  clear(): void {
    this.meshes.clear();
  }

  release(): void {
    this.meshes.clear();
    this.gl.deleteBuffer(this.indexBuffer);
  }
}
