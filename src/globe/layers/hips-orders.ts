// The HiPS layer's choices of order that need no GL (viewer-spec §3, §9; IVOA HiPS 1.0): a
// tile's texel size, the order a view loads, when the Allsky image stands in for the minimum
// order, the fade by zoom, and the part of an ancestor's image a tile covers. hips.ts chooses its
// tiles by them; the Milky Way fades by hipsVisibility too.
import { nestToXy } from '../../../core/healpix';
import type { HipsProperties } from '../../../core/hipsProperties';

/** Angular size of a texel of a `tileWidth`-wide tile of `order`: √(4π / 12·4^order) / width. */
export function texelAngle(order: number, tileWidth: number): number {
  return Math.sqrt(Math.PI / 3) / (2 ** order * tileWidth);
}

/**
 * The order whose texels are no larger than a screen pixel, made `coarser` orders coarser
 * (tiled-layer.ts, levelsCoarser: the tile level-of-detail bias and the camera's lodBias, 1 while
 * it moves), within the HiPS's orders.
 */
export function hipsViewOrder(
  screenPixel: number,
  properties: Pick<HipsProperties, 'order' | 'orderMin' | 'tileWidth'>,
  coarser = 0,
) {
  const wanted = Math.ceil(Math.log2(Math.sqrt(Math.PI / 3) / (properties.tileWidth * screenPixel)) - coarser);
  return Math.min(properties.order, Math.max(properties.orderMin, wanted));
}

/** The deepest order a whole-sky view draws (too wide for query_disc, culled tile by tile). */
export const WHOLE_SKY_ORDER = 5;

/**
 * The most tiles a view asks for of an order finer than it needs (a HiPS whose minimum order is
 * deep, a survey's cut-outs at hips_order_min 10, seen from far off): as many as a whole-sky view
 * holds, 12·4^WHOLE_SKY_ORDER. Past it the tiles would be specks of a few pixels, millions of
 * them, and listing them alone would stall the page.
 */
export const MAX_FINER_TILES = 12 * 4 ** WHOLE_SKY_ORDER;

/** About how many tiles of `order` a cone of `radius` radians reaches: its share of the sphere's 12·4^order. */
export function tilesInCone(order: number, radius: number): number {
  return 12 * 4 ** order * Math.min(1, (1 - Math.cos(radius)) / 2);
}

/**
 * Whether a view that needs tiles of `needed` (hipsViewOrder with no minimum) but is given the
 * HiPS's minimum `order` would reach more than MAX_FINER_TILES of them within `radius`.
 */
export function tooFineForView(order: number, needed: number, radius: number): boolean {
  return order > needed && tilesInCone(order, radius) > MAX_FINER_TILES;
}

/**
 * Whether the Allsky image stands in for the tiles of the minimum order: when its cells hold the
 * tiles whole (tiles of at most its cell's texels, where a tile would add nothing), or while a
 * cell's texel spans at most a screen pixel, 2^coarser of them (`coarser` as for hipsViewOrder:
 * 1 while the view moves).
 */
export function allskyServes(
  orderMin: number,
  tileWidth: number,
  cellTexels: number,
  screenPixel: number,
  coarser = 0,
): boolean {
  return cellTexels >= tileWidth || texelAngle(orderMin, cellTexels) <= screenPixel * 2 ** coarser * (1 + 1e-9);
}

/** Opacity by zoom: 1 while a deepest texel is at most maxTexelPixels screen pixels, 0 from twice that. */
export function hipsVisibility(texelPixels: number, maxTexelPixels: number): number {
  return Math.min(1, Math.max(0, 2 - texelPixels / maxTexelPixels));
}

/**
 * Where tile `ipix` of `order` lies in its ancestor `levels` orders up, as the affine map of
 * texture coordinates (s along the image's columns = face y, t along its rows = face x):
 * [scale, scale, offset s, offset t].
 */
export function ancestorTransform(ipix: number, levels: number): [number, number, number, number] {
  const scale = 2 ** -levels;
  const [x, y] = nestToXy(ipix % 4 ** levels);
  return [scale, scale, y * scale, x * scale];
}
