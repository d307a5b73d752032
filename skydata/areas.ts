// Areas from positions: the one planner of an area's tract and outline, which the generated sky
// (./plan.ts, a tract centre per area) and `galaxy-cruise import` (a research group's target
// positions, grouped here into areas and levels) share.
//
// A tract is a north-up TAN image centred on the area (./wcs.ts); the area's outline is the
// tract's footprint inset by 4 % of its side. Imported targets are grouped along the nested
// HEALPix curve (nearby on the sky is nearby on the curve, cell by cell), N targets to an area,
// an area closed early when the next target lies farther than a radius from its first one, and
// consecutive areas into levels; each area's tract is centred on its targets and as large as
// keeps them inside its outline with the sky's margin.
import { Healpix } from '../core/healpix';
import { loadCoreSync } from '../core/wasm';
import { pixelToSky, separation, skyToPixel, tanWcs, type TanWcs } from './wcs';

/** The outline's inset from the tract's edge, a fraction of the side. */
export const OUTLINE_INSET = 0.04;
/** How far from the tract's edge a target is kept, a fraction of the side (the sky's placement margin). */
export const TARGET_MARGIN = 0.08;

export interface TractFootprint {
  wcs: TanWcs;
  /** The outline's corners, [ra, dec] degrees. */
  outline: [number, number][];
}

/** The tract of `size` pixels centred on `centre` and its outline, inset by OUTLINE_INSET. */
export function tractFootprint(centre: [number, number], size: number, arcsecPerPixel: number): TractFootprint {
  const wcs = tanWcs(centre[0], centre[1], size, arcsecPerPixel);
  const inset = size * OUTLINE_INSET;
  const outline = (
    [
      [inset, inset],
      [size - inset, inset],
      [size - inset, size - inset],
      [inset, size - inset],
    ] as [number, number][]
  ).map(([x, y]) => pixelToSky(wcs, x + 0.5, y + 0.5));
  return { wcs, outline };
}

export interface SkyPosition {
  /** Degrees. */
  ra: number;
  dec: number;
}

export interface PositionPlanOptions {
  /** Targets in an area at most. */
  perArea: number;
  /** Areas in a level at most. */
  areasPerLevel: number;
  /** Degrees: a target farther than this from its area's first target starts the next area. */
  maxRadius: number;
  /** The tracts' pixel scale, arcseconds. */
  arcsecPerPixel: number;
  /** The smallest tract side, pixels. */
  minSize: number;
}

export interface PositionArea<T extends SkyPosition> extends TractFootprint {
  centre: [number, number];
  /** The area's targets, in the curve's order. */
  members: T[];
}

/** The HEALPix order whose cells order the positions: cells of 3.2″, finer than any tract. */
const CURVE_ORDER = 16;
const RAD = Math.PI / 180;

/** The mean direction of the positions, [ra, dec] degrees. */
function meanDirection(positions: readonly SkyPosition[]): [number, number] {
  let x = 0;
  let y = 0;
  let z = 0;
  for (const { ra, dec } of positions) {
    x += Math.cos(dec * RAD) * Math.cos(ra * RAD);
    y += Math.cos(dec * RAD) * Math.sin(ra * RAD);
    z += Math.sin(dec * RAD);
  }
  const ra = Math.atan2(y, x) / RAD;
  return [(ra + 360) % 360, Math.atan2(z, Math.hypot(x, y)) / RAD];
}

/** The area of `members`: centred on them, its side the least that keeps each inside the margin. */
function areaOf<T extends SkyPosition>(members: T[], options: PositionPlanOptions): PositionArea<T> {
  const centre = meanDirection(members);
  const probe = tanWcs(centre[0], centre[1], 2, options.arcsecPerPixel);
  let reach = 0;
  for (const { ra, dec } of members) {
    const [x, y] = skyToPixel(probe, ra, dec);
    reach = Math.max(reach, Math.abs(x - probe.CRPIX1), Math.abs(y - probe.CRPIX2));
  }
  const needed = Math.ceil((2 * reach) / (1 - 2 * TARGET_MARGIN));
  const size = Math.max(options.minSize, needed + (needed % 2));
  return { centre, members, ...tractFootprint(centre, size, options.arcsecPerPixel) };
}

/**
 * Groups positions into levels of areas (see the head of this file). The plan depends only on
 * the positions and their order in `items` (which breaks ties of the curve), so the same list
 * plans the same course.
 */
export function planPositions<T extends SkyPosition>(
  items: readonly T[],
  options: PositionPlanOptions,
): PositionArea<T>[][] {
  const grid = new Healpix(loadCoreSync(), 2 ** CURVE_ORDER, 'nest');
  const theta = Float64Array.from(items, (item) => (90 - item.dec) * RAD);
  const phi = Float64Array.from(items, (item) => item.ra * RAD);
  const cells = grid.ang2pixBatch(theta, phi) as Float64Array;
  const order = items.map((_, index) => index).sort((a, b) => cells[a] - cells[b] || a - b);

  const areas: PositionArea<T>[] = [];
  let members: T[] = [];
  for (const index of order) {
    const item = items[index];
    const first = members[0];
    if (
      first &&
      (members.length >= options.perArea || separation(first.ra, first.dec, item.ra, item.dec) > options.maxRadius)
    ) {
      areas.push(areaOf(members, options));
      members = [];
    }
    members.push(item);
  }
  if (members.length > 0) areas.push(areaOf(members, options));

  const levels: PositionArea<T>[][] = [];
  for (let start = 0; start < areas.length; start += options.areasPerLevel)
    levels.push(areas.slice(start, start + options.areasPerLevel));
  return levels;
}
