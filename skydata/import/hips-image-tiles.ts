// The work of ./hips-from-images.ts that runs on any thread: each field's survey (pixel scale,
// footprint, the preset's sample) and a group's tiles (the deepest order's tiles under one tile of
// the group order, resampled from the images, each order above folded from the one below,
// coloured and written as PNG). The same code runs in the caller's thread for one worker and in
// ./hips-image-worker.ts for more, so the tiles are the same bytes whichever runs them.
import fs from 'node:fs';
import path from 'node:path';
import { rotateGalactic } from '../../core/hipsProperties';
import type { Core } from '../../core/wasm';
import type { PrettyPreset } from '../../shared/prettyPicture';
import { DEFAULT_DISPLAY, exposeChannel, filterStretch, mixMatrix } from '../../shared/prettyMixing';
import { hipsTilePath } from '../hips';
import { encodePng } from '../png';
import { closeBand, ensureWindow, ImageImportError, openBand, presetSample, type BandImage } from './fits-window';
import { channelTables } from './channel-table';
import { fieldTiles, type Disc } from './field-tiles';
import { TexelProjection } from './texel-projection';
import { TilePyramid } from './tile-pyramid';

export const RAD = 180 / Math.PI;

export type ImportPreset = Omit<PrettyPreset, 'view'>;

export type { Disc } from './field-tiles';

/** What the tiles need to know of a field before any is made. */
export interface FieldSurvey {
  /** The finest pixel side of its bands, degrees. */
  scale: number;
  /** Its first band's footprint. */
  disc: Disc;
  /** Each band's sample for the preset (./fits-window.ts presetSample). */
  samples: Float32Array[];
}

/** The tiles under one tile (`root`) of the group order, and the images they fall on. */
export interface GroupJob {
  directory: string;
  order: number;
  groupOrder: number;
  root: number;
  tileWidth: number;
  bands: number;
  preset: ImportPreset;
  /** The fields any of the tiles falls on, each its bands' files, in the import's field order. */
  fields: string[][];
  /** The deepest order's tiles of the group, ascending, each with the indices in `fields` it falls on. */
  tiles: { npix: number; fields: number[] }[];
  /** Whether the root's RGB comes back too (the group order is the Allsky's). */
  allsky: boolean;
}

export interface GroupResult {
  root: number;
  /** The root's fluxes, for the orders above; absent when no tile of the group holds light. */
  flux?: Float32Array;
  rgb?: Uint8Array;
  /** The deepest order's tiles that hold light. */
  deepest: number[];
  written: number;
}

/** Unit vector of (longitude, latitude) in degrees. */
export function unit(lng: number, lat: number): [number, number, number] {
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
 * The image's footprint as a disc that holds every pixel the image has on the sphere: its
 * centre and edges sampled 32 points a side.
 */
function footprint(band: BandImage): Disc {
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

/** A field's survey: its bands opened one at a time, headers and the preset's sample read. */
export function surveyField(core: Core, files: readonly string[]): FieldSurvey {
  let scale = Infinity;
  let disc: Disc | undefined;
  const samples: Float32Array[] = [];
  for (const file of files) {
    const band = openBand(core, file);
    try {
      scale = Math.min(scale, pixelScale(band));
      disc ??= footprint(band);
      samples.push(presetSample(core, band));
    } finally {
      closeBand(band);
    }
  }
  return { scale, disc: disc!, samples };
}

/**
 * The deepest order's tiles a field can fill (./field-tiles.ts), from its first band: a texel
 * holds light only where every band has a value.
 */
export function surveyTiles(
  core: Core,
  files: readonly string[],
  disc: Disc,
  order: number,
  tileWidth: number,
): Float64Array {
  const band = openBand(core, files[0]!);
  try {
    return fieldTiles(core, band.wcs, band.width, band.height, disc, order, tileWidth);
  } finally {
    closeBand(band);
  }
}

/**
 * Makes the band's window hold every pixel the bilinear samples at (x, y) read (see sampleBand),
 * or does nothing when none of them falls on the image.
 */
function windowFor(core: Core, band: BandImage, x: Float64Array, y: Float64Array): void {
  let left = Infinity;
  let right = -1;
  let top = Infinity;
  let bottom = -1;
  for (let k = 0; k < x.length; k += 1) {
    const px = x[k]!;
    const py = y[k]!;
    if (!(px >= 0.5 && px <= band.width + 0.5 && py >= 0.5 && py <= band.height + 0.5)) continue;
    const x0 = Math.min(Math.floor(Math.min(Math.max(px - 1, 0), band.width - 1)), band.width - 2);
    const y0 = Math.min(Math.floor(Math.min(Math.max(py - 1, 0), band.height - 1)), band.height - 2);
    if (x0 < left) left = x0;
    if (x0 > right) right = x0;
    if (y0 < top) top = y0;
    if (y0 > bottom) bottom = y0;
  }
  if (right >= 0) ensureWindow(core, band, left, right + 1, top, bottom + 1);
}

/**
 * Bilinear values at FITS pixels (x[k], y[k]) (1-based) from the band's window into
 * `values[at + k]`, NaN off the image or next to a blank; `valid[k]` cleared where NaN.
 */
function sampleBand(
  band: BandImage,
  x: Float64Array,
  y: Float64Array,
  values: Float64Array,
  at: number,
  valid: Uint8Array,
): void {
  const { width, height } = band;
  const window = band.window;
  for (let k = 0; k < x.length; k += 1) {
    const px = x[k]!;
    const py = y[k]!;
    if (!(px >= 0.5 && px <= width + 0.5 && py >= 0.5 && py <= height + 0.5)) {
      values[at + k] = NaN;
      valid[k] = 0;
      continue;
    }
    const fx = Math.min(Math.max(px - 1, 0), width - 1);
    const fy = Math.min(Math.max(py - 1, 0), height - 1);
    const x0 = Math.min(Math.floor(fx), width - 2);
    const y0 = Math.min(Math.floor(fy), height - 2);
    const tx = fx - x0;
    const ty = fy - y0;
    const pixels = window!.pixels;
    const here = (y0 - window!.y0) * window!.width + x0 - window!.x0;
    const below = here + window!.width;
    const value =
      (1 - ty) * ((1 - tx) * pixels[here]! + tx * pixels[here + 1]!) +
      ty * ((1 - tx) * pixels[below]! + tx * pixels[below + 1]!);
    if (Number.isNaN(value)) valid[k] = 0;
    values[at + k] = value;
  }
}

/** The arrays resampleTile fills for each tile, made once a group rather than once a tile. */
interface ResampleScratch {
  /** FITS pixel coordinates of the texel centres in the band being sampled. */
  x: Float64Array<ArrayBuffer>;
  y: Float64Array<ArrayBuffer>;
  /** Per band (band-major), the sum of the fields' values, and per texel the fields that hold it. */
  sum: Float64Array;
  count: Uint16Array;
  /** The field being sampled: its bands' values, and whether every band has one. */
  values: Float64Array;
  valid: Uint8Array;
}

function resampleScratch(tileWidth: number, bands: number): ResampleScratch {
  const texels = tileWidth * tileWidth;
  return {
    x: new Float64Array(texels),
    y: new Float64Array(texels),
    sum: new Float64Array(texels * bands),
    count: new Uint16Array(texels),
    values: new Float64Array(texels * bands),
    valid: new Uint8Array(texels),
  };
}

/** Flux per band of each texel of one tile (band-major: band k at k·w²), NaN where no image is. */
function resampleTile(
  core: Core,
  projection: TexelProjection,
  scratch: ResampleScratch,
  fields: BandImage[][],
  order: number,
  npix: number,
) {
  const bands = fields[0]!.length;
  const { tileWidth } = projection;
  const texels = tileWidth * tileWidth;
  projection.setTile(order, npix);
  const { x, y, sum, count, values, valid } = scratch;
  const sampleField = (field: BandImage[]) => {
    valid.fill(1);
    for (let b = 0; b < bands; b += 1) {
      const band = field[b]!;
      projection.pixels(band.wcs, x, y);
      windowFor(core, band, x, y);
      sampleBand(band, x, y, values, b * texels, valid);
    }
  };
  const flux = new Float32Array(texels * bands).fill(NaN);
  let any = false;
  if (fields.length === 1) {
    // One field: a texel's flux is its value, as (0 + value) / 1 from the sums below.
    sampleField(fields[0]!);
    for (let k = 0; k < texels; k += 1) {
      if (!valid[k]) continue;
      any = true;
      for (let b = 0; b < bands; b += 1) flux[b * texels + k] = 0 + values[b * texels + k]!;
    }
    return any ? flux : undefined;
  }
  sum.fill(0);
  count.fill(0);
  for (const field of fields) {
    sampleField(field);
    for (let k = 0; k < texels; k += 1) {
      if (!valid[k]) continue;
      count[k] += 1;
      for (let b = 0; b < bands; b += 1) sum[b * texels + k] += values[b * texels + k]!;
    }
  }
  for (let k = 0; k < texels; k += 1) {
    if (count[k] === 0) continue;
    any = true;
    for (let b = 0; b < bands; b += 1) flux[b * texels + k] = sum[b * texels + k]! / count[k]!;
  }
  return any ? flux : undefined;
}

type Tables = [ChannelTableOf, ChannelTableOf, ChannelTableOf];
type ChannelTableOf = NonNullable<ReturnType<typeof channelTables>[number]>;
/** Each preset's channel tables (./channel-table.ts) by band count; absent where a channel has none. */
const presetTables = new WeakMap<ImportPreset, Map<number, Tables | undefined>>();

function tablesOf(preset: ImportPreset, weights: Float32Array, bands: number): Tables | undefined {
  let byBands = presetTables.get(preset);
  if (!byBands) {
    byBands = new Map();
    presetTables.set(preset, byBands);
  }
  if (!byBands.has(bands)) {
    const tables = channelTables(preset, weights, bands);
    byBands.set(bands, tables.every((table) => table !== undefined) ? (tables as Tables) : undefined);
  }
  return byBands.get(bands);
}

/**
 * RGB bytes of a tile's fluxes through the preset; black where no image is. prettyColor's steps
 * (shared/prettyMixing.ts: filterStretch, the mixing weights, exposeChannel) with the default
 * display, taken once a tile rather than with arrays per texel; a channel one band alone makes
 * is looked up in its table of bytes (./channel-table.ts), the same numbers.
 */
export function colourTile(flux: Float32Array, tileWidth: number, bands: number, preset: ImportPreset): Uint8Array {
  const texels = tileWidth * tileWidth;
  const rgb = new Uint8Array(texels * 3);
  // The mixing weights once a tile, not once a texel.
  const weights = mixMatrix(preset.mix, bands);
  const { nFilters } = preset;
  const stretch = filterStretch(preset, DEFAULT_DISPLAY.betaScale);
  // One band (or any mix whose filters weigh the three channels alike) makes grey: the three
  // sums are then the same numbers, exposed once.
  let grey = true;
  for (let filter = 0; filter < nFilters; filter += 1)
    if (weights[3 * filter] !== weights[3 * filter + 1] || weights[3 * filter] !== weights[3 * filter + 2])
      grey = false;
  const tables = tablesOf(preset, weights, bands);
  // A grey tile's three channels are one table's bytes.
  const one = tables && tables[0].table === tables[1].table && tables[0].table === tables[2].table;
  for (let k = 0; k < texels; k += 1) {
    if (Number.isNaN(flux[k]!)) continue;
    if (tables) {
      let blank = false;
      for (let band = 1; band < bands; band += 1) if (Number.isNaN(flux[band * texels + k]!)) blank = true;
      if (!blank) {
        if (one) {
          const byte = tables[0].table.byte(flux[tables[0].filter * texels + k]!);
          rgb[3 * k] = byte;
          rgb[3 * k + 1] = byte;
          rgb[3 * k + 2] = byte;
        } else {
          for (let channel = 0; channel < 3; channel += 1) {
            const { filter, table } = tables[channel]!;
            rgb[3 * k + channel] = table.byte(flux[filter * texels + k]!);
          }
        }
        continue;
      }
    }
    if (grey) {
      let light = 0;
      for (let filter = 0; filter < nFilters; filter += 1)
        light += weights[3 * filter]! * stretch(filter < bands ? flux[filter * texels + k]! : 0);
      const byte = Math.round(exposeChannel(light, preset) * 255);
      rgb[3 * k] = byte;
      rgb[3 * k + 1] = byte;
      rgb[3 * k + 2] = byte;
      continue;
    }
    let red = 0;
    let green = 0;
    let blue = 0;
    for (let filter = 0; filter < nFilters; filter += 1) {
      const s = stretch(filter < bands ? flux[filter * texels + k]! : 0);
      red += weights[3 * filter]! * s;
      green += weights[3 * filter + 1]! * s;
      blue += weights[3 * filter + 2]! * s;
    }
    rgb[3 * k] = Math.round(exposeChannel(red, preset) * 255);
    rgb[3 * k + 1] = Math.round(exposeChannel(green, preset) * 255);
    rgb[3 * k + 2] = Math.round(exposeChannel(blue, preset) * 255);
  }
  return rgb;
}

/**
 * Writes one tile's PNG (Norder/Dir/Npix.png under `directory`), each row filtered by Paeth or
 * not at all, whichever suits it (../png.ts): the deepest tiles of a survey, mostly the sky's
 * noise, come out about 30 % smaller and faster to write than with Paeth throughout.
 */
export function writeTile(directory: string, order: number, npix: number, rgb: Uint8Array, tileWidth: number): void {
  const file = path.join(directory, hipsTilePath(order, npix, 'png'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    encodePng({ width: tileWidth, height: tileWidth, channels: 3, pixels: rgb }, { filter: 'adaptive' }),
  );
}

/**
 * A group's tiles made and written, the group order's one included. Bands open from an earlier
 * group stay open (their windows too) when this group needs them, and close when it does not.
 */
export function runGroup(core: Core, job: GroupJob, open: Map<string, BandImage>): GroupResult {
  const needed = new Set(job.fields.flat());
  for (const [file, band] of open) {
    if (needed.has(file)) continue;
    closeBand(band);
    open.delete(file);
  }
  const fields = job.fields.map((field) =>
    field.map((file) => {
      let band = open.get(file);
      if (!band) {
        band = openBand(core, file);
        open.set(file, band);
      }
      return band;
    }),
  );
  const result: GroupResult = { root: job.root, deepest: [], written: 0 };
  const pyramid = new TilePyramid(
    job.order,
    job.groupOrder,
    job.tiles.map((tile) => tile.npix),
    job.tileWidth,
    job.bands,
    (order, npix, flux) => {
      const rgb = colourTile(flux, job.tileWidth, job.bands, job.preset);
      writeTile(job.directory, order, npix, rgb, job.tileWidth);
      result.written += 1;
      if (order === job.groupOrder) {
        result.flux = flux;
        if (job.allsky) result.rgb = rgb;
      }
    },
  );
  const projection = new TexelProjection(core, job.tileWidth);
  const scratch = resampleScratch(job.tileWidth, job.bands);
  for (const tile of job.tiles) {
    const tileFields = tile.fields.map((index) => fields[index]!);
    const flux = resampleTile(core, projection, scratch, tileFields, job.order, tile.npix);
    if (flux) result.deepest.push(tile.npix);
    pyramid.report(tile.npix, flux);
  }
  return result;
}
