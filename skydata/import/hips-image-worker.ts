// A worker thread of the import's HiPS writer (./hips-from-images.ts): it loads the wasm core
// itself, opens the images by their paths (only the windows of pixels its tiles fall on are
// read, ./fits-window.ts) and writes its groups' tiles. Started by core/node-worker.ts.
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { loadCoreSync } from '../../core/wasm';
import { ImageImportError, type BandImage } from './fits-window';
import {
  runGroup,
  surveyField,
  surveyTiles,
  type Disc,
  type FieldSurvey,
  type GroupJob,
  type GroupResult,
} from './hips-image-tiles';

/** A refusal of an image, which the caller raises again as an ImageImportError. */
export interface ImageRefusal {
  refused: string;
}

export interface HipsImageApi {
  survey(files: string[]): FieldSurvey | ImageRefusal;
  tiles(files: string[], disc: Disc, order: number, tileWidth: number): Float64Array | ImageRefusal;
  group(job: GroupJob): GroupResult | ImageRefusal;
}

/** An ImageImportError as a value (comlink would pass it on as a plain Error). */
function refusing<T>(work: () => T): T | ImageRefusal {
  try {
    return work();
  } catch (error) {
    if (error instanceof ImageImportError) return { refused: error.message };
    throw error;
  }
}

const core = loadCoreSync();
const open = new Map<string, BandImage>();

const api: HipsImageApi = {
  survey: (files) =>
    refusing(() => {
      const survey = surveyField(core, files);
      return Comlink.transfer(
        survey,
        survey.samples.map((sample) => sample.buffer as ArrayBuffer),
      );
    }),
  tiles: (files, disc, order, tileWidth) =>
    refusing(() => {
      const tiles = surveyTiles(core, files, disc, order, tileWidth);
      return Comlink.transfer(tiles, [tiles.buffer as ArrayBuffer]);
    }),
  group: (job) =>
    refusing(() => {
      const result = runGroup(core, job, open);
      const buffers = [result.flux, result.rgb].flatMap((array) => (array ? [array.buffer as ArrayBuffer] : []));
      return Comlink.transfer(result, buffers);
    }),
};

if (!parentPort) throw new Error('hips-image-worker must run inside a worker');
Comlink.expose(api, nodeEndpoint(parentPort));
