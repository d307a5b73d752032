// The HEALPix geometry of a HiPS's tiles (IVOA HiPS 1.0: tile n of order k the nested pixel n at
// nside 2^k), from the wasm core on the main thread: the tiles a view may show, and each tile's
// patch of 8 × 8 cells whose vertices are exact HEALPix directions (the patch of
// assembly/shiftmap.ts, over which the tile's shiftmap moves its texels). hips.ts draws the
// patches (hips-gl.ts keeps their meshes) and asks for the tiles.
import { vec3 } from 'gl-matrix';
import { Healpix } from '../../../core/healpix';
import { SHIFTMAP_PATCH_CELLS } from '../../../core/shiftmap';
import type { Core } from '../../../core/wasm';
import { TILE_LIMITS } from '../tiles/limits';
import { WHOLE_SKY_RADIUS, angleBetween, patchMayShow, type ViewFootprint } from '../visibility';

/** A tile's patch: CELLS × CELLS cells, (CELLS + 1)² vertices. */
export const CELLS = SHIFTMAP_PATCH_CELLS;
/** A tile's border for patchMayShow: its corners and edge midpoints, as face (x, y) in 0..1. */
const BORDER: readonly (readonly [number, number])[] = [
  [0, 0],
  [0.5, 0],
  [1, 0],
  [1, 0.5],
  [1, 1],
  [0.5, 1],
  [0, 1],
  [0, 0.5],
];

/** The engines' id of tile `ipix` of `order`. */
export function tileId(order: number, ipix: number): string {
  return `${order}/${ipix}`;
}

/**
 * The grids of one HiPS: the wasm core's HEALPix per order, and `frame`, the HiPS frame's
 * rotation into the sky's (equatorial) coordinates (u_frame, column-major).
 */
export class HipsGeometry {
  private readonly grids = new Map<number, Healpix>();
  /** tileBorder's cache, by tile id. */
  private readonly borders = new Map<string, vec3[]>();

  constructor(
    private readonly core: Core,
    readonly frame: Float32Array,
  ) {}

  private grid(order: number): Healpix {
    let grid = this.grids.get(order);
    if (!grid) {
      grid = new Healpix(this.core, 2 ** order, 'nest');
      this.grids.set(order, grid);
    }
    return grid;
  }

  /**
   * The patch of a tile: (CELLS + 1)² exact HEALPix directions in the HiPS frame, each followed
   * by its st (5 floats a vertex). Vertex k = a·(CELLS + 1) + b lies at face x = a / CELLS (image
   * rows, t), face y = b / CELLS (columns, s).
   */
  patch(order: number, ipix: number): Float32Array {
    const grid = this.grid(order);
    const count = (CELLS + 1) ** 2;
    const ids = grid.ids(count);
    if (ids instanceof BigInt64Array) ids.fill(BigInt(ipix));
    else ids.fill(ipix);
    const dx = new Float64Array(count);
    const dy = new Float64Array(count);
    for (let a = 0; a <= CELLS; a++)
      for (let b = 0; b <= CELLS; b++) {
        dx[a * (CELLS + 1) + b] = a / CELLS;
        dy[a * (CELLS + 1) + b] = b / CELLS;
      }
    const { theta, phi } = grid.nest2locBatch(ids, dx, dy);
    const data = new Float32Array(count * 5);
    for (let k = 0; k < count; k++) {
      const sinTheta = Math.sin(theta[k]);
      data.set([sinTheta * Math.cos(phi[k]), sinTheta * Math.sin(phi[k]), Math.cos(theta[k]), dy[k], dx[k]], 5 * k);
    }
    return data;
  }

  /**
   * The border of a tile (its corners and edge midpoints) in the sky's equatorial frame, for
   * patchMayShow; kept per tile, since a view at rest asks for the same ones every frame.
   */
  private tileBorder(order: number, ipix: number): vec3[] {
    const id = tileId(order, ipix);
    const cached = this.borders.get(id);
    if (cached) return cached;
    const grid = this.grid(order);
    const ids = grid.ids(BORDER.length);
    if (ids instanceof BigInt64Array) ids.fill(BigInt(ipix));
    else ids.fill(ipix);
    const { theta, phi } = grid.nest2locBatch(
      ids,
      Float64Array.from(BORDER, ([x]) => x),
      Float64Array.from(BORDER, ([, y]) => y),
    );
    const f = this.frame;
    const border = BORDER.map((_, k) => {
      const s = Math.sin(theta[k]);
      const [x, y, z] = [s * Math.cos(phi[k]), s * Math.sin(phi[k]), Math.cos(theta[k])];
      // u_frame (column-major): the HiPS frame into the sky's.
      return vec3.fromValues(
        f[0] * x + f[3] * y + f[6] * z,
        f[1] * x + f[4] * y + f[7] * z,
        f[2] * x + f[5] * y + f[8] * z,
      );
    });
    if (this.borders.size >= TILE_LIMITS.hips.cacheSize * 4) this.borders.clear();
    this.borders.set(id, border);
    return border;
  }

  /**
   * Tiles of `order` that may show on screen, with their distance from the view direction: those
   * whose circle meets the view cone (query_disc, centre in the HiPS frame) and whose border's box
   * meets the screen's rectangle (patchMayShow), as the survey and pretty-picture tiles are chosen.
   */
  visibleTiles(order: number, centre: vec3, footprint: ViewFootprint): { ipix: number; distance: number }[] {
    const grid = this.grid(order);
    const { radius } = footprint;
    const reach = radius + grid.maxPixrad();
    let ids: Float64Array;
    if (radius < WHOLE_SKY_RADIUS) {
      const theta = Math.acos(Math.min(1, Math.max(-1, centre[2])));
      const phi = Math.atan2(centre[1], centre[0]);
      ids = grid.queryDisc(theta, phi, radius, { inclusive: true }) as Float64Array;
    } else {
      ids = new Float64Array(12 * 4 ** order);
      for (let k = 0; k < ids.length; k++) ids[k] = k;
    }
    const centres = grid.pix2vecBatch(ids);
    const tiles: { ipix: number; distance: number }[] = [];
    const point = vec3.create();
    for (let k = 0; k < ids.length; k++) {
      vec3.set(point, centres[3 * k], centres[3 * k + 1], centres[3 * k + 2]);
      const distance = angleBetween(centre, point);
      if (distance <= reach && patchMayShow(footprint, this.tileBorder(order, ids[k])))
        tiles.push({ ipix: ids[k], distance });
    }
    return tiles;
  }
}
