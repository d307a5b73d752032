// Where each texel centre of a HiPS tile falls in a band's image (FITS pixel coordinates), for
// ./hips-image-tiles.ts. Taking every texel through HEALPix → (ra, dec) → the image's WCS costs
// several trigonometric functions a texel; within one tile that map is smooth, so only a coarse
// grid of texel centres (every GRID_STEP-th row and column, and the last) is projected and the
// pixel coordinates between them are interpolated bilinearly. Bilinear interpolation of a smooth map is
// worst at a cell's centre, so the texel nearest each cell's centre is projected too and compared
// with its interpolated position: where any of them is off by more than INTERPOLATION_TOLERANCE
// pixels (a coarse tile, the kink of HEALPix's polar caps at |z| = 2/3, the pole, a projection's
// horizon), the tile takes every texel through the projection exactly.
import { hipsTileCenters, hipsTilePixels } from '../../core/healpix';
import { rotateGalactic } from '../../core/hipsProperties';
import type { Core } from '../../core/wasm';
import type { CelestialWcs } from '../../core/wcs-celestial';

const RAD = 180 / Math.PI;
/** Rows and columns between the projected texels. */
export const GRID_STEP = 8;
/** The largest interpolation error, in image pixels, at which a tile keeps its interpolated coordinates. */
export const INTERPOLATION_TOLERANCE = 1e-3;

/** Longitudes and latitudes, degrees. */
export interface Directions {
  lng: Float64Array;
  lat: Float64Array;
}

/** How a tile's coordinates were made, for the tests and the log. */
export interface ProjectionStats {
  interpolated: number;
  exact: number;
  /** The largest error seen at a cell centre of a tile kept interpolated, pixels. */
  maxError: number;
}

/** The grid rows (and columns): 0, step, 2·step, … and the last texel. */
function gridNodes(tileWidth: number, step: number): number[] {
  const nodes: number[] = [];
  for (let at = 0; at < tileWidth - 1; at += step) nodes.push(at);
  nodes.push(tileWidth - 1);
  return nodes;
}

/** Galactic (l, b) of equatorial directions, degrees. */
export function toGalactic({ lng, lat }: Directions): Directions {
  const out = { lng: new Float64Array(lng.length), lat: new Float64Array(lng.length) };
  for (let k = 0; k < lng.length; k += 1) {
    const l = lng[k]! / RAD;
    const b = lat[k]! / RAD;
    const [x, y, z] = rotateGalactic([Math.cos(b) * Math.cos(l), Math.cos(b) * Math.sin(l), Math.sin(b)], true);
    out.lng[k] = (((Math.atan2(y, x) * RAD) % 360) + 360) % 360;
    out.lat[k] = Math.asin(Math.max(-1, Math.min(1, z))) * RAD;
  }
  return out;
}

/** Equatorial (ra, dec) in degrees of HEALPix (θ, φ) in radians. */
export function toDegrees(theta: Float64Array, phi: Float64Array): Directions {
  const lng = new Float64Array(theta.length);
  const lat = new Float64Array(theta.length);
  for (let k = 0; k < theta.length; k += 1) {
    lng[k] = phi[k]! * RAD;
    lat[k] = 90 - theta[k]! * RAD;
  }
  return { lng, lat };
}

/**
 * The texel centres of one tile after another, taken into each band's pixels. One instance per
 * thread and tile width: its arrays are reused from tile to tile.
 */
export class TexelProjection {
  readonly stats: ProjectionStats = { interpolated: 0, exact: 0, maxError: 0 };
  private readonly nodes: number[];
  /** Texel index (r·w + c) of each grid point, then of each cell's centre texel. */
  private readonly gridTexels: number[];
  private readonly checkTexels: number[];
  /** Nested id of each grid point and centre texel in a tile of id 0 (a tile's are offset by npix·w²). */
  private readonly offsets: Float64Array;
  private order = 0;
  private npix = 0;
  private coarse?: { equatorial: Directions; galactic?: Directions };
  private full?: { equatorial: Directions; galactic?: Directions };
  /** Pixel coordinates along each grid row, at every column. */
  private readonly rowX: Float64Array;
  private readonly rowY: Float64Array;

  constructor(
    private readonly core: Core,
    readonly tileWidth: number,
    step = GRID_STEP,
  ) {
    this.nodes = gridNodes(tileWidth, step);
    this.gridTexels = [];
    for (const row of this.nodes) for (const column of this.nodes) this.gridTexels.push(row * tileWidth + column);
    this.checkTexels = [];
    const centres = this.nodes.slice(1).map((node, i) => Math.floor((this.nodes[i]! + node) / 2));
    for (const row of centres) for (const column of centres) this.checkTexels.push(row * tileWidth + column);
    // The texel ids below a tile's own are the same in every tile of this width: tile 0's.
    const all = hipsTilePixels(0, 0, tileWidth);
    this.offsets = Float64Array.from([...this.gridTexels, ...this.checkTexels], (texel) => all[texel]!);
    this.rowX = new Float64Array(this.nodes.length * tileWidth);
    this.rowY = new Float64Array(this.nodes.length * tileWidth);
  }

  /** The tile whose texels the next calls of `pixels` project. */
  setTile(order: number, npix: number): void {
    this.order = order;
    this.npix = npix;
    this.coarse = undefined;
    this.full = undefined;
  }

  /** The grid points' and centre texels' directions (in that order), in the frame asked for. */
  private coarseDirections(galactic: boolean): Directions {
    if (!this.coarse) {
      const base = this.npix * this.tileWidth * this.tileWidth;
      const ids = this.offsets.map((offset) => base + offset);
      const theta = new Float64Array(ids.length);
      const phi = new Float64Array(ids.length);
      this.core.healpixPix2ang(2 ** this.order * this.tileWidth, true, ids, theta, phi);
      this.coarse = { equatorial: toDegrees(theta, phi) };
    }
    if (!galactic) return this.coarse.equatorial;
    return (this.coarse.galactic ??= toGalactic(this.coarse.equatorial));
  }

  private fullDirections(galactic: boolean): Directions {
    if (!this.full) {
      const { theta, phi } = hipsTileCenters(this.core, this.order, this.npix, this.tileWidth);
      this.full = { equatorial: toDegrees(theta, phi) };
    }
    if (!galactic) return this.full.equatorial;
    return (this.full.galactic ??= toGalactic(this.full.equatorial));
  }

  /**
   * Fills `x` and `y` (w² each, index r·w + c) with the FITS pixel coordinates (1-based) of the
   * tile's texel centres in an image of this WCS: interpolated where that is within the
   * tolerance, else exact. Returns whether they were interpolated.
   */
  pixels(wcs: CelestialWcs, x: Float64Array<ArrayBuffer>, y: Float64Array<ArrayBuffer>): boolean {
    const galactic = wcs.frame === 'galactic';
    if (this.interpolate(wcs, galactic, x, y)) {
      this.stats.interpolated += 1;
      return true;
    }
    const { lng, lat } = this.fullDirections(galactic);
    wcs.skyToPixel(lng, lat, x, y);
    this.stats.exact += 1;
    return false;
  }

  private interpolate(wcs: CelestialWcs, galactic: boolean, x: Float64Array, y: Float64Array): boolean {
    const { lng, lat } = this.coarseDirections(galactic);
    const projected = wcs.skyToPixel(lng, lat);
    if (projected.invalid > 0) return false;
    const { nodes, tileWidth, rowX, rowY } = this;
    const n = nodes.length;
    const gridX = projected.x;
    const gridY = projected.y;
    for (let k = 0; k < gridX.length; k += 1)
      if (!Number.isFinite(gridX[k]!) || !Number.isFinite(gridY[k]!)) return false;
    // Along each grid row, every column between its grid columns.
    for (let i = 0; i < n; i += 1) {
      const line = i * tileWidth;
      for (let j = 0; j + 1 < n; j += 1) {
        const c0 = nodes[j]!;
        const c1 = nodes[j + 1]!;
        const x0 = gridX[i * n + j]!;
        const x1 = gridX[i * n + j + 1]!;
        const y0 = gridY[i * n + j]!;
        const y1 = gridY[i * n + j + 1]!;
        const span = c1 - c0;
        for (let c = c0; c <= c1; c += 1) {
          const t = (c - c0) / span;
          rowX[line + c] = x0 + (x1 - x0) * t;
          rowY[line + c] = y0 + (y1 - y0) * t;
        }
      }
    }
    // Every row between two grid rows, from theirs.
    for (let i = 0; i + 1 < n; i += 1) {
      const r0 = nodes[i]!;
      const r1 = nodes[i + 1]!;
      const above = i * tileWidth;
      const below = above + tileWidth;
      const span = r1 - r0;
      for (let r = r0; r <= r1; r += 1) {
        const t = (r - r0) / span;
        const out = r * tileWidth;
        for (let c = 0; c < tileWidth; c += 1) {
          const xa = rowX[above + c]!;
          const ya = rowY[above + c]!;
          x[out + c] = xa + (rowX[below + c]! - xa) * t;
          y[out + c] = ya + (rowY[below + c]! - ya) * t;
        }
      }
    }
    // The centre texels, projected exactly, against their interpolated positions.
    let error = 0;
    const first = this.gridTexels.length;
    this.checkTexels.forEach((texel, k) => {
      error = Math.max(error, Math.abs(gridX[first + k]! - x[texel]!), Math.abs(gridY[first + k]! - y[texel]!));
    });
    if (!(error <= INTERPOLATION_TOLERANCE)) return false;
    this.stats.maxError = Math.max(this.stats.maxError, error);
    return true;
  }
}
