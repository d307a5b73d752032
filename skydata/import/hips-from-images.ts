// A HiPS (IVOA HiPS 1.0, Fernique et al. 2017) resampled from FITS images with a celestial WCS:
// survey mosaics or one cut-out per target, each a field of one to three bands (shortest
// wavelength first). One band gives a grey HiPS and three a colour one, both through the
// pretty-picture mixing (shared/prettyMixing.ts) so that an imported survey
// looks like the sky's own pictures.
//
// The deepest order is the first whose texel is no larger than the finest image pixel (as
// Hipsgen chooses it); each texel centre (core/healpix.ts, Hipsgen's tile layout, see
// ./hips.ts) is taken through each image's WCS (WCS Papers I and II, in the wasm core) to its
// pixel and sampled bilinearly, the fields that hold it averaged. Each lower order down to
// hips_order_min averages the four texels below each of its own, in flux before the colour, so
// that the noise and the faint light average as a telescope with larger pixels would see them.
import fs from 'node:fs';
import path from 'node:path';
import { decodeFits } from '../../core/fits';
import { Healpix, hipsTileCenters } from '../../core/healpix';
import { rotateGalactic } from '../../core/hipsProperties';
import { loadCoreSync, type Core } from '../../core/wasm';
import { CelestialWcs } from '../../core/wcs-celestial';
import type { PrettyPreset } from '../../shared/prettyPicture';
import { DEFAULT_DISPLAY, mixMatrix, prettyColor } from '../../shared/prettyMixing';
import { Allsky, hipsTilePath } from '../hips';
import { writeMoc } from '../hips-moc';
import { encodePng } from '../png';

const RAD = 180 / Math.PI;
/** The lowest order written (the HiPS default of hips_order_min) unless the images are coarser. */
const ORDER_MIN = 3;
/** Texel side at order 0 for a one-texel tile: √(4π/12) radians. */
const ORDER_ZERO_TEXEL = Math.sqrt((4 * Math.PI) / 12) * RAD;

export type ImportPreset = Omit<PrettyPreset, 'view'>;

export interface HipsFromImagesOptions {
  /** Each field: its bands' FITS files, shortest wavelength first (1 or 3). */
  fields: readonly (readonly string[])[];
  /** The HiPS folder written (emptied first). */
  directory: string;
  tileWidth?: number;
  /** The deepest order; by default the first whose texel is no larger than the finest pixel. */
  order?: number;
  title: string;
  /** Parameters over the preset derived from the images (see derivePreset). */
  preset?: Partial<ImportPreset>;
  /** What to show while tiles are written. */
  log?: (line: string) => void;
}

export interface HipsFromImagesResult {
  directory: string;
  order: number;
  orderMin: number;
  tileWidth: number;
  bands: number;
  tiles: number;
  preset: ImportPreset;
}

/** An image band ready to sample: its pixels (NAXIS1 fastest) and its WCS. */
interface BandImage {
  file: string;
  width: number;
  height: number;
  pixels: Float32Array | Float64Array;
  wcs: CelestialWcs;
}

/** A failure that names the image file it is about. */
export class ImageImportError extends Error {}

function loadBand(core: Core, file: string): BandImage {
  try {
    const image = decodeFits(fs.readFileSync(file), core);
    const [width, height, ...planes] = image.axes;
    if (width === undefined || height === undefined || width < 2 || height < 2)
      throw new Error(`an image needs two axes of at least 2 pixels, this one has ${image.axes.join(' × ')}`);
    if (planes.some((size) => size !== 1))
      throw new Error(`a third axis must have one plane, this image has ${image.axes.join(' × ')}`);
    return { file, width, height, pixels: image.pixels, wcs: CelestialWcs.fromHeader(core, image.hdu.header) };
  } catch (error) {
    if (error instanceof ImageImportError) throw error;
    throw new ImageImportError(`${path.basename(file)}: ${(error as Error).message}`);
  }
}

/** Unit vector of (longitude, latitude) in degrees. */
function unit(lng: number, lat: number): [number, number, number] {
  const l = lng / RAD;
  const b = lat / RAD;
  return [Math.cos(b) * Math.cos(l), Math.cos(b) * Math.sin(l), Math.sin(b)];
}

/** Equatorial (ra, dec) of a band's native (lng, lat), in degrees. */
function toEquatorial(band: BandImage, lng: number, lat: number): [number, number] {
  if (band.wcs.frame === 'equatorial') return [lng, lat];
  const [x, y, z] = rotateGalactic(unit(lng, lat), false);
  return [(((Math.atan2(y, x) * RAD) % 360) + 360) % 360, Math.asin(Math.max(-1, Math.min(1, z))) * RAD];
}

/** The smaller of the two pixel sides at the image's centre, in degrees. */
function pixelScale(band: BandImage): number {
  const cx = (band.width + 1) / 2;
  const cy = (band.height + 1) / 2;
  const { lng, lat } = band.wcs.pixelToSky(Float64Array.of(cx, cx + 1, cx), Float64Array.of(cy, cy, cy + 1));
  const centre = unit(lng[0]!, lat[0]!);
  const angle = (k: number) => {
    const other = unit(lng[k]!, lat[k]!);
    return Math.acos(Math.min(1, centre[0] * other[0] + centre[1] * other[1] + centre[2] * other[2])) * RAD;
  };
  const scale = Math.min(angle(1), angle(2));
  if (!(scale > 0))
    throw new ImageImportError(`${path.basename(band.file)}: the WCS gives no pixel size at the centre`);
  return scale;
}

/**
 * The image's footprint as a disc (centre θ, φ in radians, equatorial; radius in radians) that
 * holds every pixel the image has on the sphere: its centre and edges sampled 32 points a side.
 */
function footprint(band: BandImage): { theta: number; phi: number; radius: number } {
  const xs: number[] = [];
  const ys: number[] = [];
  const edge = 32;
  for (let k = 0; k <= edge; k += 1) {
    const fx = 0.5 + (band.width * k) / edge;
    const fy = 0.5 + (band.height * k) / edge;
    xs.push(fx, fx, 0.5, band.width + 0.5);
    ys.push(0.5, band.height + 0.5, fy, fy);
  }
  xs.unshift((band.width + 1) / 2);
  ys.unshift((band.height + 1) / 2);
  const { lng, lat } = band.wcs.pixelToSky(Float64Array.from(xs), Float64Array.from(ys));
  const [ra0, dec0] = toEquatorial(band, lng[0]!, lat[0]!);
  const centre = unit(ra0, dec0);
  let radius = 0;
  for (let k = 1; k < xs.length; k += 1) {
    // A point off the sphere (beyond a SIN image's horizon) lies outside any disc: the whole
    // sky is then the image's footprint.
    if (!Number.isFinite(lng[k]!)) return { theta: 0, phi: 0, radius: Math.PI };
    const point = unit(...toEquatorial(band, lng[k]!, lat[k]!));
    const cos = centre[0] * point[0] + centre[1] * point[1] + centre[2] * point[2];
    radius = Math.max(radius, Math.acos(Math.min(1, Math.max(-1, cos))));
  }
  // A SIN or CAR image's edge may bulge beyond the straight line between the sampled points.
  return { theta: Math.PI / 2 - dec0 / RAD, phi: ra0 / RAD, radius: radius * 1.02 + 1e-6 };
}

/** Bilinear value at FITS pixel (x, y) (1-based), NaN off the image or next to a blank. */
function sample(band: BandImage, x: number, y: number): number {
  if (!(x >= 0.5 && x <= band.width + 0.5 && y >= 0.5 && y <= band.height + 0.5)) return NaN;
  const fx = Math.min(Math.max(x - 1, 0), band.width - 1);
  const fy = Math.min(Math.max(y - 1, 0), band.height - 1);
  const x0 = Math.min(Math.floor(fx), band.width - 2);
  const y0 = Math.min(Math.floor(fy), band.height - 2);
  const tx = fx - x0;
  const ty = fy - y0;
  const at = (dx: number, dy: number) => band.pixels[(y0 + dy) * band.width + x0 + dx]!;
  return (1 - ty) * ((1 - tx) * at(0, 0) + tx * at(1, 0)) + ty * ((1 - tx) * at(0, 1) + tx * at(1, 1));
}

/**
 * The stretch of the imported images when the manifest gives none: the median as the sky
 * background (b = −median) and the 99.95th percentile, above it, as full light (a), over every
 * band's pixels together so that the bands keep their relative fluxes (the colours); β = 50
 * lifts light at a hundredth of that to a fifth of the scale, as Lupton et al. (2004)'s asinh
 * stretch shows faint galaxy outskirts beside bright cores.
 */
export function derivePreset(bands: readonly { pixels: ArrayLike<number> }[], nFilters: number): ImportPreset {
  const values: number[] = [];
  for (const band of bands) {
    const step = Math.max(1, Math.floor(band.pixels.length / 200_000));
    for (let k = 0; k < band.pixels.length; k += step) {
      const value = band.pixels[k]!;
      if (Number.isFinite(value)) values.push(value);
    }
  }
  values.sort((p, q) => p - q);
  const quantile = (q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
  const median = quantile(0.5);
  const span = quantile(0.9995) - median;
  return {
    nFilters,
    a: span > 0 ? 1 / span : 1,
    b: -median,
    mix: 0.5,
    beta: 50,
    bias: 0,
    exposure: 1,
    gamma: 1,
    ground: 0,
  };
}

/** The deepest order whose texel (at `tileWidth`) is no larger than `scale` degrees. */
export function orderForScale(scale: number, tileWidth: number): number {
  return Math.max(0, Math.ceil(Math.log2(ORDER_ZERO_TEXEL / (tileWidth * scale)) - 1e-9));
}

/** Flux per band of each texel of one tile (band-major: band k at k·w²), NaN where no image is. */
function resampleTile(core: Core, fields: BandImage[][], order: number, npix: number, tileWidth: number) {
  const bands = fields[0]!.length;
  const texels = tileWidth * tileWidth;
  const { theta, phi } = hipsTileCenters(core, order, npix, tileWidth);
  const ra = new Float64Array(texels);
  const dec = new Float64Array(texels);
  for (let k = 0; k < texels; k += 1) {
    ra[k] = phi[k]! * RAD;
    dec[k] = 90 - theta[k]! * RAD;
  }
  const sum = new Float64Array(texels * bands);
  const count = new Uint16Array(texels);
  let lng = ra;
  let lat = dec;
  for (const field of fields) {
    const values = new Float64Array(texels * bands);
    const valid = new Uint8Array(texels).fill(1);
    field.forEach((band, b) => {
      if (band.wcs.frame === 'galactic') {
        lng = new Float64Array(texels);
        lat = new Float64Array(texels);
        for (let k = 0; k < texels; k += 1) {
          const [x, y, z] = rotateGalactic(unit(ra[k]!, dec[k]!), true);
          lng[k] = (((Math.atan2(y, x) * RAD) % 360) + 360) % 360;
          lat[k] = Math.asin(Math.max(-1, Math.min(1, z))) * RAD;
        }
      } else {
        lng = ra;
        lat = dec;
      }
      const { x, y } = band.wcs.skyToPixel(lng, lat);
      for (let k = 0; k < texels; k += 1) {
        const value = sample(band, x[k]!, y[k]!);
        if (Number.isNaN(value)) valid[k] = 0;
        values[b * texels + k] = value;
      }
    });
    for (let k = 0; k < texels; k += 1) {
      if (!valid[k]) continue;
      count[k] += 1;
      for (let b = 0; b < bands; b += 1) sum[b * texels + k] += values[b * texels + k]!;
    }
  }
  const flux = new Float32Array(texels * bands).fill(NaN);
  let any = false;
  for (let k = 0; k < texels; k += 1) {
    if (count[k] === 0) continue;
    any = true;
    for (let b = 0; b < bands; b += 1) flux[b * texels + k] = sum[b * texels + k]! / count[k]!;
  }
  return any ? flux : undefined;
}

/**
 * The parent tile's fluxes from its four children (child j = 4·npix + j covers the texel rows
 * of its low bit and the columns of its high bit: the nested index interleaves the row's bits
 * in the even places), each texel the mean of the four below it that hold light.
 */
function parentTile(children: (Float32Array | undefined)[], tileWidth: number, bands: number): Float32Array {
  const texels = tileWidth * tileWidth;
  const flux = new Float32Array(texels * bands).fill(NaN);
  const half = tileWidth / 2;
  for (let row = 0; row < tileWidth; row += 1) {
    for (let column = 0; column < tileWidth; column += 1) {
      const child = children[(row >= half ? 1 : 0) + (column >= half ? 2 : 0)];
      if (!child) continue;
      const r = (row % half) * 2;
      const c = (column % half) * 2;
      for (let b = 0; b < bands; b += 1) {
        let total = 0;
        let n = 0;
        for (const [dr, dc] of [
          [0, 0],
          [0, 1],
          [1, 0],
          [1, 1],
        ] as const) {
          const value = child[b * texels + (r + dr) * tileWidth + c + dc]!;
          if (!Number.isNaN(value)) {
            total += value;
            n += 1;
          }
        }
        if (n > 0) flux[b * texels + row * tileWidth + column] = total / n;
      }
    }
  }
  return flux;
}

/** RGB bytes of a tile's fluxes through the preset; black where no image is. */
function colourTile(flux: Float32Array, tileWidth: number, bands: number, preset: ImportPreset): Uint8Array {
  const texels = tileWidth * tileWidth;
  const rgb = new Uint8Array(texels * 3);
  const fluxes = new Array<number>(bands);
  // The mixing weights once a tile, not once a texel.
  const weights = mixMatrix(preset.mix, bands);
  for (let k = 0; k < texels; k += 1) {
    if (Number.isNaN(flux[k]!)) continue;
    for (let b = 0; b < bands; b += 1) fluxes[b] = flux[b * texels + k]!;
    const colour = prettyColor(fluxes, preset, DEFAULT_DISPLAY, weights);
    rgb[3 * k] = Math.round(colour[0] * 255);
    rgb[3 * k + 1] = Math.round(colour[1] * 255);
    rgb[3 * k + 2] = Math.round(colour[2] * 255);
  }
  return rgb;
}

/** Writes the HiPS of `options.fields` into `options.directory`. */
export function writeHipsFromImages(options: HipsFromImagesOptions): HipsFromImagesResult {
  const core = loadCoreSync();
  const tileWidth = options.tileWidth ?? 512;
  if (options.fields.length === 0) throw new ImageImportError('the imagery lists no FITS images');
  const bands = options.fields[0]!.length;
  if (bands !== 1 && bands !== 3) throw new ImageImportError(`a field has 1 or 3 bands, not ${bands}`);
  if (options.fields.some((field) => field.length !== bands))
    throw new ImageImportError(`every field needs the same bands (${bands}) as the first`);
  const fields = options.fields.map((field) => field.map((file) => loadBand(core, file)));
  const finest = Math.min(...fields.flat().map(pixelScale));
  const order = options.order ?? orderForScale(finest, tileWidth);
  const orderMin = Math.min(ORDER_MIN, order);
  const preset = { ...derivePreset(fields.flat(), bands), ...options.preset };

  // The deepest order's tiles that any field's footprint touches, each field with the tiles it may fill.
  const healpix = new Healpix(core, 2 ** order, 'nest');
  const fieldsOfTile = new Map<number, BandImage[][]>();
  for (const field of fields) {
    const disc = footprint(field[0]!);
    const tiles =
      disc.radius >= Math.PI / 2 - 1e-9
        ? Array.from({ length: 12 * 4 ** order }, (_, k) => k)
        : Array.from(healpix.queryDisc(disc.theta, disc.phi, disc.radius, { inclusive: true }), Number);
    for (const tile of tiles) fieldsOfTile.set(tile, [...(fieldsOfTile.get(tile) ?? []), field]);
  }

  fs.rmSync(options.directory, { recursive: true, force: true });
  let level = new Map<number, Float32Array>();
  for (const [npix, tileFields] of [...fieldsOfTile].sort((p, q) => p[0] - q[0])) {
    const flux = resampleTile(core, tileFields, order, npix, tileWidth);
    if (flux) level.set(npix, flux);
  }
  options.log?.(`hips: order ${order}, ${level.size} tiles of ${tileWidth} px`);
  const deepestTiles = [...level.keys()];
  let written = 0;
  const write = (tileOrder: number, tiles: Map<number, Float32Array>) => {
    const colours = new Map<number, Uint8Array>();
    for (const [npix, flux] of tiles) {
      const rgb = colourTile(flux, tileWidth, bands, preset);
      colours.set(npix, rgb);
      const file = path.join(options.directory, hipsTilePath(tileOrder, npix, 'png'));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, encodePng({ width: tileWidth, height: tileWidth, channels: 3, pixels: rgb }));
      written += 1;
    }
    return colours;
  };
  for (let tileOrder = order; ; tileOrder -= 1) {
    const colours = write(tileOrder, level);
    if (tileOrder === ORDER_MIN) {
      const allsky = new Allsky(tileOrder, tileWidth);
      for (const [npix, rgb] of colours) allsky.add(npix, rgb);
      allsky.write(options.directory, { fits: false });
    }
    if (tileOrder === orderMin) break;
    const parents = new Map<number, Float32Array>();
    for (const npix of new Set([...level.keys()].map((child) => Math.floor(child / 4)))) {
      parents.set(
        npix,
        parentTile(
          [0, 1, 2, 3].map((j) => level.get(4 * npix + j)),
          tileWidth,
          bands,
        ),
      );
    }
    level = parents;
  }

  // Where the volunteer's view opens: the middle of the fields, wide enough to hold them.
  const centres = fields.map((field) => footprint(field[0]!));
  const mean = centres
    .map(({ theta, phi }) => unit(phi * RAD, 90 - theta * RAD))
    .reduce((total, vector) => total.map((value, i) => value + vector[i]!) as [number, number, number]);
  const norm = Math.hypot(...mean) || 1;
  const initialRa = (((Math.atan2(mean[1], mean[0]) * RAD) % 360) + 360) % 360;
  const initialDec = Math.asin(mean[2] / norm) * RAD;
  const initialFov = Math.min(180, Math.max(...centres.map((disc) => disc.radius * RAD)) * 2.5);
  const properties = [
    '# HiPS properties (IVOA HiPS 1.0), written by galaxy-cruise import',
    `creator_did = ivo://galaxy-cruise/P/import/${encodeURIComponent(options.title).slice(0, 64)}`,
    `obs_title = ${options.title.replace(/[\r\n]+/g, ' ')}`,
    'dataproduct_type = image',
    ...(bands === 3 ? ['dataproduct_subtype = color'] : []),
    'hips_version = 1.4',
    'hips_status = public master clonableOnce',
    'hips_frame = equatorial',
    `hips_order = ${order}`,
    `hips_order_min = ${orderMin}`,
    `hips_tile_width = ${tileWidth}`,
    'hips_tile_format = png',
    `hips_pixel_scale = ${(ORDER_ZERO_TEXEL / (2 ** order * tileWidth)).toPrecision(6)}`,
    `hips_initial_ra = ${initialRa.toFixed(6)}`,
    `hips_initial_dec = ${initialDec.toFixed(6)}`,
    `hips_initial_fov = ${initialFov.toPrecision(4)}`,
  ];
  fs.mkdirSync(options.directory, { recursive: true });
  // The coverage map of the deepest order's tiles: clients ask for no tile outside it.
  const skyFraction = writeMoc(options.directory, order, deepestTiles);
  properties.push(`moc_sky_fraction = ${skyFraction.toPrecision(6)}`);
  fs.writeFileSync(path.join(options.directory, 'properties'), properties.join('\n') + '\n');
  return { directory: options.directory, order, orderMin, tileWidth, bands, tiles: written, preset };
}
