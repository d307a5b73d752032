// Tile pyramids over a TAN tract, shared by the survey and pretty-picture layers (viewer-spec
// §3): a tract is a FITS wcs plus tract options (tileSize 256, minTileLevel 0, maxTileLevel 8,
// flipV by default). Level L has pixels of 2^L × 2^L tract pixels; tile (p, q) of level L covers
// tract pixels x ∈ [p·size·2^L, (p+1)·size·2^L), y likewise with q; image row 0 is the tile's
// lowest y unless flipV. The mesh of a tile is a grid of unit vectors (the TAN plane is curved on
// the sphere) with uv in tile units, drawn by TILE_VERTEX_GLSL.
import type { vec3 } from 'gl-matrix';
import { pixelToSky, skyToPixel, type TanWcs } from '../../../core/wcs';
import { PROJECTION_GLSL } from '../projection';
import { angleBetween, patchMayShow, skyVector, type ViewFootprint } from '../visibility';

export interface TractOptions {
  tileSize?: number;
  minTileLevel?: number;
  maxTileLevel?: number;
  flipV?: boolean;
}

export interface Tract {
  tract: number;
  wcs: TanWcs;
  tileSize: number;
  minLevel: number;
  maxLevel: number;
  flipV: boolean;
  centre: vec3;
  /** Angle from the centre to the farthest corner. */
  radius: number;
  /** Angular size of one tract pixel, radians. */
  pixelAngle: number;
}

/** A tile's place: tract and level-L indices. */
export interface TileKey {
  tract: number;
  level: number;
  p: number;
  q: number;
}

/** Quads per tile side: the TAN plane is curved on the sphere. */
export const SUBDIVISIONS = 4;
/** Indices per tile mesh (SUBDIVISIONS² quads of two triangles). */
export const TILE_INDEX_COUNT = SUBDIVISIONS * SUBDIVISIONS * 6;
/** Below this many screen pixels across, a tract's tiles are not worth loading. */
export const SMALLEST_TRACT_PIXELS = 4;

export function tileKeyString({ tract, level, p, q }: TileKey): string {
  return `${tract}/${level}/${p}/${q}`;
}

/** The tile of `level` ≥ key.level that contains the key's tile. */
export function ancestorKey(key: TileKey, level: number): TileKey {
  const shift = level - key.level;
  return { tract: key.tract, level, p: key.p >> shift, q: key.q >> shift };
}

/**
 * The coarsest level whose pixels are at most one screen pixel, made `coarser` levels coarser
 * (tiled-layer.ts, levelsCoarser: the layer's tile level-of-detail bias and the camera's
 * lodBias), clamped to the tract's.
 */
export function surveyLevel(screenPixel: number, tractPixel: number, coarser: number, min: number, max: number) {
  const level = Math.floor(Math.log2(screenPixel / tractPixel) + coarser);
  return Math.min(max, Math.max(min, level));
}

/**
 * viewer-spec §3: a tract's projection is RA---TAN, DEC--TAN. Tiles of any other projection
 * (or a header without one) would be drawn in the wrong place, so the tract is refused.
 */
export function checkTanProjection(tract: number, wcs: TanWcs): void {
  // The header comes from JSON: the type's literals are what it should hold, not what it does.
  const ctype1: unknown = wcs.CTYPE1;
  const ctype2: unknown = wcs.CTYPE2;
  if (ctype1 !== 'RA---TAN' || ctype2 !== 'DEC--TAN')
    throw new Error(
      `tract ${tract}: CTYPE1 ${JSON.stringify(ctype1)} and CTYPE2 ${JSON.stringify(ctype2)} are not RA---TAN and DEC--TAN, the only projection a tract may have`,
    );
}

export function tractOf(tract: number, wcs: TanWcs, options: TractOptions = {}): Tract {
  checkTanProjection(tract, wcs);
  const corners = [
    [0.5, 0.5],
    [wcs.NAXIS1 + 0.5, 0.5],
    [0.5, wcs.NAXIS2 + 0.5],
    [wcs.NAXIS1 + 0.5, wcs.NAXIS2 + 0.5],
  ].map(([x, y]) => skyVector(...pixelToSky(wcs, x, y)));
  const centre = skyVector(...pixelToSky(wcs, (wcs.NAXIS1 + 1) / 2, (wcs.NAXIS2 + 1) / 2));
  return {
    tract,
    wcs,
    tileSize: options.tileSize ?? 256,
    minLevel: options.minTileLevel ?? 0,
    maxLevel: options.maxTileLevel ?? 8,
    flipV: options.flipV ?? false,
    centre,
    radius: Math.max(...corners.map((corner) => angleBetween(centre, corner))),
    pixelAngle: (Math.sqrt(Math.abs(wcs.CD1_1 * wcs.CD2_2 - wcs.CD1_2 * wcs.CD2_1)) * Math.PI) / 180,
  };
}

/** A tile's border on the sky: its four corners and four edge midpoints, as unit vectors. */
export function tileBorder(tract: Tract, { level, p, q }: TileKey): vec3[] {
  const span = tract.tileSize * 2 ** level;
  const [x0, y0] = [p * span + 0.5, q * span + 0.5];
  const [x1, y1] = [Math.min((p + 1) * span, tract.wcs.NAXIS1) + 0.5, Math.min((q + 1) * span, tract.wcs.NAXIS2) + 0.5];
  const [xm, ym] = [(x0 + x1) / 2, (y0 + y1) / 2];
  return [
    [x0, y0],
    [xm, y0],
    [x1, y0],
    [x1, ym],
    [x1, y1],
    [xm, y1],
    [x0, y1],
    [x0, ym],
  ].map(([x, y]) => skyVector(...pixelToSky(tract.wcs, x, y)));
}

/**
 * The tiles of one tract at `level` that may show on screen, with their distance from the view
 * direction: those whose circle meets the view cone and whose border's box meets the screen's
 * rectangle (a wide screen's cone holds half as many tiles again as the screen shows).
 */
export function visibleTiles(tract: Tract, level: number, footprint: ViewFootprint) {
  const span = tract.tileSize * 2 ** level;
  const columns = Math.ceil(tract.wcs.NAXIS1 / span);
  const rows = Math.ceil(tract.wcs.NAXIS2 / span);
  const tiles: { key: TileKey; distance: number; border: vec3[] }[] = [];
  for (let q = 0; q < rows; q++)
    for (let p = 0; p < columns; p++) {
      const x1 = Math.min((p + 1) * span, tract.wcs.NAXIS1);
      const y1 = Math.min((q + 1) * span, tract.wcs.NAXIS2);
      const centre = skyVector(...pixelToSky(tract.wcs, (p * span + x1) / 2 + 0.5, (q * span + y1) / 2 + 0.5));
      const corner = skyVector(...pixelToSky(tract.wcs, p * span + 0.5, q * span + 0.5));
      const distance = angleBetween(footprint.centre, centre);
      if (distance >= footprint.radius + angleBetween(centre, corner)) continue;
      const key = { tract: tract.tract, level, p, q };
      const border = tileBorder(tract, key);
      if (patchMayShow(footprint, border)) tiles.push({ key, distance, border });
    }
  return tiles;
}

/**
 * Whether every point of `points` (a tile's border) falls within the tract's pixels: a tract is a
 * TAN square, convex on the sky, so it then holds the whole tile.
 */
export function pointsInside(points: readonly vec3[], tract: Tract): boolean {
  return points.every(([x, y, z]) => {
    const ra = ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
    const dec = (Math.asin(Math.max(-1, Math.min(1, z))) * 180) / Math.PI;
    const [px, py] = skyToPixel(tract.wcs, ra, dec);
    return px >= 0.5 && px <= tract.wcs.NAXIS1 + 0.5 && py >= 0.5 && py <= tract.wcs.NAXIS2 + 0.5;
  });
}

/**
 * Whether the view cone lies wholly inside `tract`: its centre and 16 points round its edge fall
 * within the tract's pixels. The cone holds the whole screen, and a tract is a TAN square, convex
 * on the sky, so a tract drawn under it (a survey field's tract under its area tracts) shows
 * nowhere on the screen once this one's tiles are in.
 */
export function coneInside(cone: { centre: vec3; radius: number }, tract: Tract): boolean {
  const [cx, cy, cz] = cone.centre;
  // Two unit vectors at right angles to the centre, spanning the cone's edge.
  const u = Math.abs(cz) < 0.9 ? normalized([-cy, cx, 0]) : normalized([0, -cz, cy]);
  const v = [cy * u[2] - cz * u[1], cz * u[0] - cx * u[2], cx * u[1] - cy * u[0]];
  const points: vec3[] = [[cx, cy, cz]];
  for (let k = 0; k < 16; k++) {
    const angle = (2 * Math.PI * k) / 16;
    const [a, b] = [Math.cos(angle) * Math.sin(cone.radius), Math.sin(angle) * Math.sin(cone.radius)];
    points.push([0, 1, 2].map((i) => Math.cos(cone.radius) * cone.centre[i] + a * u[i] + b * v[i]) as vec3);
  }
  return pointsInside(points, tract);
}

function normalized([x, y, z]: number[]): number[] {
  const length = Math.hypot(x, y, z);
  return [x / length, y / length, z / length];
}

/** Vertices of a tile's mesh: (x, y, z, u, v) per grid point, uv in tile units. */
export function tileMeshVertices(tract: Tract, key: TileKey): Float32Array {
  const span = tract.tileSize * 2 ** key.level;
  const x0 = key.p * span;
  const y0 = key.q * span;
  const width = Math.min(span, tract.wcs.NAXIS1 - x0);
  const height = Math.min(span, tract.wcs.NAXIS2 - y0);
  const data = new Float32Array((SUBDIVISIONS + 1) ** 2 * 5);
  let at = 0;
  for (let j = 0; j <= SUBDIVISIONS; j++)
    for (let i = 0; i <= SUBDIVISIONS; i++) {
      // Continuous 0-based tract coordinates (pixel edges at integers) are FITS pixels − 0.5.
      const u = x0 + (width * i) / SUBDIVISIONS;
      const v = y0 + (height * j) / SUBDIVISIONS;
      data.set(skyVector(...pixelToSky(tract.wcs, u + 0.5, v + 0.5)), at);
      data[at + 3] = (u - x0) / span;
      data[at + 4] = (v - y0) / span;
      at += 5;
    }
  return data;
}

/** The triangles of a tile mesh over tileMeshVertices' grid. */
export function tileMeshIndices(): Uint16Array {
  const indices: number[] = [];
  const row = SUBDIVISIONS + 1;
  for (let j = 0; j < SUBDIVISIONS; j++)
    for (let i = 0; i < SUBDIVISIONS; i++) {
      const k = j * row + i;
      indices.push(k, k + 1, k + row, k + row, k + 1, k + row + 1);
    }
  return new Uint16Array(indices);
}

/**
 * The vertex shader of a tile: projects the mesh and maps tile-unit uv into the drawn texture
 * (a tile's own, or an ancestor's part of it while the tile loads), see tileUvTransform.
 */
export const TILE_VERTEX_GLSL = `#version 300 es
in vec3 a_position;
in vec2 a_uv;
${PROJECTION_GLSL}
uniform vec4 u_uvTransform; // scale (xy) and offset (zw) into the drawn texture, in tile units
uniform vec2 u_texScale;    // tile units → texture coordinates (edge tiles can be narrower)
uniform bool u_flipV;
out vec2 v_uv;
void main() {
  gl_Position = project(a_position);
  vec2 uv = (a_uv * u_uvTransform.xy + u_uvTransform.zw) * u_texScale;
  v_uv = u_flipV ? vec2(uv.x, 1.0 - uv.y) : uv;
}
`;

/** u_uvTransform of tile `key` drawn with the texture of its ancestor at `sourceLevel`. */
export function tileUvTransform(key: TileKey, sourceLevel: number): [number, number, number, number] {
  const shift = sourceLevel - key.level;
  const scale = 1 / 2 ** shift;
  const source = ancestorKey(key, sourceLevel);
  return [scale, scale, (key.p - source.p * 2 ** shift) * scale, (key.q - source.q * 2 ** shift) * scale];
}
