// A HiPS (IVOA HiPS 1.0, Fernique et al. 2017) resampled from FITS images with a celestial WCS:
// survey mosaics or one cut-out per target, each a field of one to three bands (shortest
// wavelength first). One band gives a grey HiPS and three a colour one, both through the
// pretty-picture mixing (shared/prettyMixing.ts) so that an imported survey
// looks like the sky's own pictures.
//
// The deepest order is the first whose texel is no larger than the finest image pixel (as
// Hipsgen chooses it); each texel centre (core/healpix.ts, Hipsgen's tile layout, see
// ../hips.ts) is taken through each image's WCS (WCS Papers I and II, in the wasm core) to its
// pixel, exactly on a coarse grid and interpolated between (./texel-projection.ts), and sampled
// bilinearly, the fields that hold it averaged. Each lower order down to
// hips_order_min averages the four texels below each of its own, in flux before the colour, so
// that the noise and the faint light average as a telescope with larger pixels would see them.
//
// The work runs on every core (docs/import.md): the fields are surveyed and the deepest order's
// tiles each can fill are found (./field-tiles.ts), then those tiles are split into groups (the
// tiles under one tile of a group order) that worker threads (./hips-image-worker.ts) make and
// write, each reading only the windows of the images its tiles fall on; this thread folds the
// groups' top tiles into the orders above them. The arithmetic is the same on any thread and in
// any order, so the files are the same bytes whatever the number of workers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as Comlink from 'comlink';
import { crashGuard, startNodeWorker } from '../../core/node-worker';
import { loadCoreSync } from '../../core/wasm';
import { Allsky } from '../hips';
import { writeMoc } from '../hips-moc';
import { closeBand, ImageImportError, PRESET_SAMPLES, type BandImage } from './fits-window';
import {
  colourTile,
  RAD,
  runGroup,
  surveyField,
  surveyTiles,
  unit,
  writeTile,
  type Disc,
  type FieldSurvey,
  type GroupJob,
  type GroupResult,
  type ImportPreset,
} from './hips-image-tiles';
import type { HipsImageApi, ImageRefusal } from './hips-image-worker';
import { TilePyramid } from './tile-pyramid';

export { ImageImportError } from './fits-window';
export type { ImportPreset } from './hips-image-tiles';

/** The lowest order written (the HiPS default of hips_order_min) unless the images are coarser. */
const ORDER_MIN = 3;
/** Texel side at order 0 for a one-texel tile: √(4π/12) radians. */
const ORDER_ZERO_TEXEL = Math.sqrt((4 * Math.PI) / 12) * RAD;

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
  /** Threads that make the tiles: all cores by default; 1 makes them in this thread. */
  workers?: number;
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
    const step = Math.max(1, Math.floor(band.pixels.length / PRESET_SAMPLES));
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

/** Who makes the tiles: this thread, or a worker thread. */
interface TileMaker {
  survey(files: string[]): Promise<FieldSurvey | ImageRefusal>;
  tiles(files: string[], disc: Disc, order: number, tileWidth: number): Promise<Float64Array | ImageRefusal>;
  group(job: GroupJob): Promise<GroupResult | ImageRefusal>;
  stop(): void;
}

function inThread(): TileMaker {
  const core = loadCoreSync();
  const open = new Map<string, BandImage>();
  const refusing = async <T>(work: () => T): Promise<T | ImageRefusal> => {
    try {
      return work();
    } catch (error) {
      if (error instanceof ImageImportError) return { refused: error.message };
      throw error;
    }
  };
  return {
    survey: (files) => refusing(() => surveyField(core, files)),
    tiles: (files, disc, order, tileWidth) => refusing(() => surveyTiles(core, files, disc, order, tileWidth)),
    group: (job) => refusing(() => runGroup(core, job, open)),
    stop: () => open.forEach(closeBand),
  };
}

function onWorker(): TileMaker {
  const worker = startNodeWorker(new URL('./hips-image-worker.ts', import.meta.url));
  const api = Comlink.wrap<HipsImageApi>(worker.endpoint);
  const guarded = crashGuard(worker);
  return {
    survey: (files) => guarded<FieldSurvey | ImageRefusal>(api.survey(files)),
    tiles: (files, disc, order, tileWidth) =>
      guarded<Float64Array | ImageRefusal>(api.tiles(files, disc, order, tileWidth)),
    group: (job) => guarded<GroupResult | ImageRefusal>(api.group(job)),
    stop: () => worker.terminate(),
  };
}

/** Runs `work` on each item, each maker taking the next item as it finishes one; `done` in completion order. */
async function share<T, R>(
  makers: TileMaker[],
  items: readonly T[],
  work: (maker: TileMaker, item: T) => Promise<R | ImageRefusal>,
  done: (result: R, item: T) => void,
): Promise<void> {
  let next = 0;
  // After a failure the other makers take no more items (their threads are stopped after).
  let failed = false;
  await Promise.all(
    makers.map(async (maker) => {
      try {
        while (next < items.length && !failed) {
          const item = items[next++]!;
          const result = await work(maker, item);
          if (typeof result === 'object' && result !== null && 'refused' in result)
            throw new ImageImportError(result.refused);
          done(result as R, item);
        }
      } catch (error) {
        failed = true;
        throw error;
      }
    }),
  );
}

/**
 * The group order: the coarsest from which each group holds at most 16 of the deepest tiles
 * (two orders up) and there are at least four groups a worker, so that the workers stay busy
 * to the end while each group's images are read once for many tiles.
 */
function groupOrderFor(tiles: readonly number[], order: number, orderMin: number, workers: number): number {
  let groupOrder = Math.max(orderMin, order - 2);
  while (
    groupOrder < order &&
    new Set(tiles.map((npix) => Math.floor(npix / 4 ** (order - groupOrder)))).size < 4 * workers
  )
    groupOrder += 1;
  return groupOrder;
}

/** Writes the HiPS of `options.fields` into `options.directory`. */
export async function writeHipsFromImages(options: HipsFromImagesOptions): Promise<HipsFromImagesResult> {
  const tileWidth = options.tileWidth ?? 512;
  if (options.fields.length === 0) throw new ImageImportError('the imagery lists no FITS images');
  const bands = options.fields[0]!.length;
  if (bands !== 1 && bands !== 3) throw new ImageImportError(`a field has 1 or 3 bands, not ${bands}`);
  if (options.fields.some((field) => field.length !== bands))
    throw new ImageImportError(`every field needs the same bands (${bands}) as the first`);
  const workers = Math.max(1, Math.floor(options.workers ?? os.availableParallelism()));
  const makers = workers === 1 ? [inThread()] : Array.from({ length: workers }, onWorker);
  try {
    return await writeWith(makers, options, tileWidth, bands);
  } finally {
    for (const maker of makers) maker.stop();
  }
}

async function writeWith(
  makers: TileMaker[],
  options: HipsFromImagesOptions,
  tileWidth: number,
  bands: number,
): Promise<HipsFromImagesResult> {
  const fields = options.fields.map((field) => [...field]);
  const surveys = new Array<FieldSurvey>(fields.length);
  await share(
    makers,
    fields.map((files, index) => ({ files, index })),
    (maker, { files }) => maker.survey(files),
    (survey: FieldSurvey, { index }) => (surveys[index] = survey),
  );
  const finest = Math.min(...surveys.map((survey) => survey.scale));
  const order = options.order ?? orderForScale(finest, tileWidth);
  const orderMin = Math.min(ORDER_MIN, order);
  const samples = surveys.flatMap((survey) => survey.samples.map((pixels) => ({ pixels })));
  const preset = { ...derivePreset(samples, bands), ...options.preset };
  for (const survey of surveys) survey.samples = [];

  // The deepest order's tiles that any field can fill (./field-tiles.ts), each with those fields.
  const tilesOfField = new Array<Float64Array>(fields.length);
  await share(
    makers,
    fields.map((files, index) => ({ files, index })),
    (maker, { files, index }) => maker.tiles(files, surveys[index]!.disc, order, tileWidth),
    (tiles: Float64Array, { index }) => (tilesOfField[index] = tiles),
  );
  const fieldsOfTile = new Map<number, number[]>();
  tilesOfField.forEach((tiles, index) => {
    for (const tile of tiles) {
      const list = fieldsOfTile.get(tile);
      if (list) list.push(index);
      else fieldsOfTile.set(tile, [index]);
    }
  });
  const tiles = [...fieldsOfTile.keys()].sort((p, q) => p - q);
  const groupOrder = groupOrderFor(tiles, order, orderMin, makers.length);
  const jobs: GroupJob[] = [];
  for (const npix of tiles) {
    const root = Math.floor(npix / 4 ** (order - groupOrder));
    let job = jobs.at(-1);
    if (job?.root !== root) {
      const allsky = groupOrder === ORDER_MIN;
      job = {
        directory: options.directory,
        order,
        groupOrder,
        root,
        tileWidth,
        bands,
        preset,
        fields: [],
        tiles: [],
        allsky,
      };
      jobs.push(job);
    }
    job.tiles.push({ npix, fields: fieldsOfTile.get(npix)! });
  }
  fieldsOfTile.clear();
  // Each job names the fields it reads, renumbered in the import's order.
  for (const job of jobs) {
    const used = [...new Set(job.tiles.flatMap((tile) => tile.fields))].sort((p, q) => p - q);
    const renumbered = new Map(used.map((field, k) => [field, k]));
    job.fields = used.map((field) => fields[field]!);
    for (const tile of job.tiles) tile.fields = tile.fields.map((field) => renumbered.get(field)!);
  }
  options.log?.(
    `hips: order ${order}, ${tiles.length} tiles of ${tileWidth} px in ${jobs.length} groups on ${makers.length} threads`,
  );

  fs.rmSync(options.directory, { recursive: true, force: true });
  fs.mkdirSync(options.directory, { recursive: true });
  const allsky = order >= ORDER_MIN ? new Allsky(ORDER_MIN, tileWidth) : undefined;
  let written = 0;
  const pyramid = new TilePyramid(
    groupOrder,
    orderMin,
    jobs.map((job) => job.root),
    tileWidth,
    bands,
    (tileOrder, npix, flux) => {
      // The group order's tiles were written by their group.
      if (tileOrder === groupOrder) return;
      const rgb = colourTile(flux, tileWidth, bands, preset);
      writeTile(options.directory, tileOrder, npix, rgb, tileWidth);
      written += 1;
      if (tileOrder === ORDER_MIN) allsky!.add(npix, rgb);
    },
  );
  const deepestTiles: number[] = [];
  let finished = 0;
  await share(
    makers,
    jobs,
    (maker, job) => maker.group(job),
    (result: GroupResult) => {
      written += result.written;
      deepestTiles.push(...result.deepest);
      if (result.rgb) allsky!.add(result.root, result.rgb);
      pyramid.report(result.root, result.flux);
      finished += 1;
      if (finished % 64 === 0 || finished === jobs.length)
        options.log?.(`hips: ${finished} of ${jobs.length} groups written`);
    },
  );
  allsky?.write(options.directory, { fits: false });
  const centres: Disc[] = surveys.map((survey) => survey.disc);

  // Where the volunteer's view opens: the middle of the fields, wide enough to hold them.
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
  // The coverage map of the deepest order's tiles: clients ask for no tile outside it.
  const skyFraction = writeMoc(
    options.directory,
    order,
    deepestTiles.sort((p, q) => p - q),
  );
  properties.push(`moc_sky_fraction = ${skyFraction.toPrecision(6)}`);
  fs.writeFileSync(path.join(options.directory, 'properties'), properties.join('\n') + '\n');
  return { directory: options.directory, order, orderMin, tileWidth, bands, tiles: written, preset };
}
