// The celestial World Coordinate System of a FITS image (WCS Papers I and II: Greisen &
// Calabretta 2002, Calabretta & Greisen 2002): its header cards read into the numbers the wasm
// core transforms with (assembly/wcs.ts), and the transformations over arrays of points.
// core/wcs.ts keeps the small TypeScript TAN that skydata/ and the globe use for the sky
// this project renders itself; this file is for images that come from elsewhere.
//
// Supported: CTYPEi of RA/DEC (ICRS or FK5 J2000) or GLON/GLAT, in either axis order, with the
// projections TAN, SIN (PV2_1, PV2_2 slant parameters) and CAR; CDi_j, or PCi_j with CDELTi,
// or the older CROTA2 with CDELTi; CRPIXi, CRVALi, LONPOLE, LATPOLE. Anything else a header
// says about its celestial axes (another projection, a distortion such as -SIP, another frame
// or unit, a moved fiducial point) is refused with an Error naming the keyword and its value,
// rather than read approximately. Pixels are FITS's: 1-based, (1, 1) the centre of the first.

import type { FitsHeader } from './fits';
import type { Core, PreparedWcs, WcsNumbers } from './wasm';

export type { WcsNumbers };
export type CelestialFrame = 'equatorial' | 'galactic';
export type WcsProjection = WcsNumbers['projection'];

/** A celestial WCS as read from a header: the numbers and the frame of its (lng, lat). */
export interface CelestialWcsHeader extends WcsNumbers {
  frame: CelestialFrame;
  /** The pixel axis (1 or 2) that carries the longitude. */
  lngAxis: 1 | 2;
}

const PROJECTIONS: readonly WcsProjection[] = ['TAN', 'SIN', 'CAR'];
const AXIS_TYPES: Record<string, { frame: CelestialFrame; latitude: boolean }> = {
  RA: { frame: 'equatorial', latitude: false },
  DEC: { frame: 'equatorial', latitude: true },
  GLON: { frame: 'galactic', latitude: false },
  GLAT: { frame: 'galactic', latitude: true },
};

const quoted = (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value));

/** One CTYPEi: its axis type and projection ("RA---TAN": RA, TAN), or the reason it is refused. */
function readCtype(header: FitsHeader, axis: number): { type: string; projection: WcsProjection } {
  const keyword = `CTYPE${axis}`;
  if (!header.has(keyword)) throw new Error(`FITS header lacks ${keyword}: the image has no celestial WCS`);
  const value = header.string(keyword);
  // Paper II §2: four characters of axis type padded with '-', a '-', three of projection code,
  // and optionally '-' and an algorithm code (a distortion such as SIP, TPV).
  const match = /^([A-Z]{1,4})(-*)-([A-Z0-9]{3})(?:-([A-Z0-9]+))?$/.exec(value.trim());
  if (!match || match[1].length + match[2].length !== 4) {
    throw new Error(
      `${keyword} = ${quoted(value)}: not a celestial axis (RA---, DEC--, GLON- or GLAT- and a projection)`,
    );
  }
  const [, type, , projection, distortion] = match;
  if (!(type in AXIS_TYPES)) {
    throw new Error(`${keyword} = ${quoted(value)}: axis type ${type} is not supported (RA/DEC or GLON/GLAT)`);
  }
  if (!(PROJECTIONS as readonly string[]).includes(projection)) {
    throw new Error(`${keyword} = ${quoted(value)}: projection ${projection} is not supported (TAN, SIN or CAR)`);
  }
  if (distortion !== undefined) {
    throw new Error(`${keyword} = ${quoted(value)}: distortion ${distortion} is not supported`);
  }
  return { type, projection: projection as WcsProjection };
}

function keywordValue(header: FitsHeader, keyword: string): string {
  return quoted(header.card(keyword)?.value);
}

/** The linear transformation (Paper I §2.1): rows are world axes 1, 2, columns pixel axes 1, 2. */
function readMatrix(header: FitsHeader): number[][] {
  const pairs = [1, 2].flatMap((i) => [1, 2].map((j) => `${i}_${j}`));
  const cd = pairs.filter((ij) => header.has(`CD${ij}`));
  const pc = pairs.filter((ij) => header.has(`PC${ij}`));
  if (cd.length > 0 && (pc.length > 0 || header.has('CROTA2'))) {
    const other = pc.length > 0 ? `PC${pc[0]}` : 'CROTA2';
    throw new Error(`the header has both CD${cd[0]} and ${other}: keep one form of the matrix (WCS Paper I §2.1.2)`);
  }
  if (cd.length > 0) return [1, 2].map((i) => [1, 2].map((j) => header.number(`CD${i}_${j}`, 0)));
  const cdelt = [header.number('CDELT1', 1), header.number('CDELT2', 1)];
  for (const [k, value] of cdelt.entries()) {
    if (value === 0) throw new Error(`CDELT${k + 1} = 0: an axis needs a non-zero scale`);
  }
  if (pc.length > 0 && header.has('CROTA2')) {
    throw new Error(`the header has both PC${pc[0]} and CROTA2: keep one form of the matrix (WCS Paper I §2.1.2)`);
  }
  let matrix = [1, 2].map((i) => [1, 2].map((j) => header.number(`PC${i}_${j}`, i === j ? 1 : 0)));
  if (header.has('CROTA2')) {
    // The AIPS convention as Paper II §6.1 translates it (eq. 189).
    const rho = (header.number('CROTA2') * Math.PI) / 180;
    const [c, s] = [Math.cos(rho), Math.sin(rho)];
    matrix = [
      [c, (-s * cdelt[1]) / cdelt[0]],
      [(s * cdelt[0]) / cdelt[1], c],
    ];
  }
  return matrix.map((row, i) => row.map((value) => cdelt[i] * value));
}

/** Reads the celestial WCS of an image header; throws an Error naming a refused keyword. */
export function readCelestialWcs(header: FitsHeader): CelestialWcsHeader {
  const axes = [readCtype(header, 1), readCtype(header, 2)];
  const kinds = axes.map(({ type }) => AXIS_TYPES[type]);
  if (kinds[0].frame !== kinds[1].frame || kinds[0].latitude === kinds[1].latitude) {
    throw new Error(
      `CTYPE1 = ${keywordValue(header, 'CTYPE1')} and CTYPE2 = ${keywordValue(header, 'CTYPE2')}: not the longitude and latitude of one frame`,
    );
  }
  if (axes[0].projection !== axes[1].projection) {
    throw new Error(
      `CTYPE1 = ${keywordValue(header, 'CTYPE1')} and CTYPE2 = ${keywordValue(header, 'CTYPE2')}: two different projections`,
    );
  }
  const frame = kinds[0].frame;
  const lngAxis: 1 | 2 = kinds[0].latitude ? 2 : 1;
  const latAxis = 3 - lngAxis;
  for (const axis of [1, 2]) {
    const keyword = `CUNIT${axis}`;
    if (header.has(keyword) && header.string(keyword).trim() !== 'deg') {
      throw new Error(`${keyword} = ${keywordValue(header, keyword)}: celestial axes must be in degrees ('deg')`);
    }
  }
  if (frame === 'equatorial') {
    if (header.has('RADESYS') && !['ICRS', 'FK5'].includes(header.string('RADESYS').trim())) {
      throw new Error(`RADESYS = ${keywordValue(header, 'RADESYS')}: only ICRS and FK5 (J2000) are supported`);
    }
    if (!header.has('RADESYS') && header.has('EQUINOX') && header.number('EQUINOX') !== 2000) {
      throw new Error(`EQUINOX = ${keywordValue(header, 'EQUINOX')}: only J2000 (ICRS or FK5) is supported`);
    }
  }
  const projection = axes[0].projection;
  // PVi_m on the latitude axis are the projection's parameters (SIN's ξ, η); on the longitude
  // axis they move the fiducial point or the pole (Paper II §2.5), which this reader does not do.
  const pv: [number, number] = [0, 0];
  for (const card of header.cards) {
    const match = /^PV([12])_(\d+)$/.exec(card.keyword);
    if (!match) continue;
    const [axis, m] = [Number(match[1]), Number(match[2])];
    const value = header.number(card.keyword);
    if (axis === latAxis && projection === 'SIN' && (m === 1 || m === 2)) pv[m - 1] = value;
    else if (value !== 0) {
      throw new Error(`${card.keyword} = ${value}: this projection parameter is not supported for ${projection}`);
    }
  }
  const world = readMatrix(header);
  const lngRow = lngAxis - 1;
  const latRow = latAxis - 1;
  return {
    projection,
    frame,
    lngAxis,
    crpix: [header.number('CRPIX1', 0), header.number('CRPIX2', 0)],
    matrix: [
      [world[lngRow][0], world[lngRow][1]],
      [world[latRow][0], world[latRow][1]],
    ],
    crval: [header.number(`CRVAL${lngAxis}`, 0), header.number(`CRVAL${latAxis}`, 0)],
    lonpole: header.number('LONPOLE', NaN),
    latpole: header.number('LATPOLE', NaN),
    pv,
  };
}

/** A celestial WCS ready to transform points, both ways, in batches. */
export class CelestialWcs {
  readonly frame: CelestialFrame;
  readonly projection: WcsProjection;
  /** LONPOLE and the celestial latitude of the native pole as used (defaults filled in), degrees. */
  readonly lonpole: number;
  readonly latpole: number;
  private readonly prepared: PreparedWcs;

  constructor(
    private readonly core: Core,
    readonly wcs: CelestialWcsHeader,
  ) {
    this.frame = wcs.frame;
    this.projection = wcs.projection;
    this.prepared = core.wcsPrepare(wcs);
    this.lonpole = this.prepared.lonpole;
    this.latpole = this.prepared.latpole;
  }

  /** The WCS of an image header (see readCelestialWcs for what is refused). */
  static fromHeader(core: Core, header: FitsHeader): CelestialWcs {
    return new CelestialWcs(core, readCelestialWcs(header));
  }

  /**
   * FITS pixels (1-based) → (lng, lat) in degrees, lng in [0, 360); NaN for a pixel off the
   * sphere (beyond a SIN image's horizon, beyond ±90° in CAR). `invalid` counts them.
   */
  pixelToSky(
    x: Float64Array,
    y: Float64Array,
    lng = new Float64Array(x.length),
    lat = new Float64Array(x.length),
  ): { lng: Float64Array; lat: Float64Array; invalid: number } {
    if (y.length !== x.length) throw new Error(`pixelToSky: ${x.length} x but ${y.length} y`);
    const invalid = this.core.wcsPix2sky(this.prepared, x, y, lng, lat);
    return { lng, lat, invalid };
  }

  /**
   * (lng, lat) in degrees → FITS pixels (1-based); NaN for a direction the projection does not
   * show (TAN's far hemisphere, beyond SIN's horizon) or that is not one. `invalid` counts them.
   */
  skyToPixel(
    lng: Float64Array,
    lat: Float64Array,
    x = new Float64Array(lng.length),
    y = new Float64Array(lng.length),
  ): { x: Float64Array; y: Float64Array; invalid: number } {
    if (lat.length !== lng.length) throw new Error(`skyToPixel: ${lng.length} longitudes but ${lat.length} latitudes`);
    const invalid = this.core.wcsSky2pix(this.prepared, lng, lat, x, y);
    return { x, y, invalid };
  }
}
