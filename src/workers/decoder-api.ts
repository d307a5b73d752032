// The worker's API (ARCHITECTURE.md, "Doors": DecoderApi). It is a plain object over the wasm
// core so that the same calls run inside a worker (through comlink) and directly in tests.
import * as Comlink from 'comlink';
import { decodeFits } from '../../core/fits';
import { gunzip } from '../../core/gzip';
import { computeShiftmap } from '../../core/shiftmap';
import {
  STAR_RECORD_FLOATS,
  readStarColors,
  readStarRecords,
  starCells,
  starColorFile,
  type StarCells,
} from '../../core/stars';
import type { Core } from '../../core/wasm';

export interface DecoderApi {
  /** CRC-32 of `bytes` (gzip/zlib polynomial). The buffer is transferred in. */
  crc32(bytes: Uint8Array): Promise<number>;
  /**
   * Fetches one hipparcos-catalog file and its colour file (starColorFile) and returns its stars
   * ordered by cell (core/stars.ts), transferred out.
   */
  loadStars(url: string): Promise<StarCells>;
  /**
   * The shiftmap texture (RG16F data, core/shiftmap.ts) of HiPS tile `ipix` at `order`,
   * transferred out, or null when the tile needs none.
   */
  shiftmap(order: number, ipix: number | bigint): Promise<Uint16Array | null>;
  /**
   * Decodes PNG (or JPEG) files, transferred in, to ImageBitmaps holding the bytes as stored (no
   * premultiplied alpha, no colour-space conversion: survey tiles are data, not pictures),
   * transferred out, in the files' order. The files a picture needs together (a survey tile's
   * filters, the Milky Way's faces) go in one job: each job's start and end wait for a turn of
   * the page's main thread, which a globe frame can hold for hundreds of ms on a slow machine.
   * A file that fails rejects the job. Needs createImageBitmap (browsers' workers).
   */
  decodeImages(files: Uint8Array[]): Promise<ImageBitmap[]>;
  /**
   * Decodes the first image of a FITS file (gzip-compressed or not), transferred in, by the
   * wasm core: its axes and physical pixel values as float32, transferred out.
   */
  decodeFits(bytes: Uint8Array): Promise<{ axes: number[]; pixels: Float32Array }>;
}

/** What createImageBitmap must not do to a data image. */
export const DATA_IMAGE_OPTIONS: ImageBitmapOptions = {
  premultiplyAlpha: 'none',
  colorSpaceConversion: 'none',
};

async function fetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** `core` is awaited per call so that the worker can expose the API before wasm is ready. */
export function createDecoderApi(core: Promise<Core>): DecoderApi {
  return {
    crc32: async (bytes) => (await core).crc32(bytes),
    async loadStars(url) {
      // The colour file is optional: a data host without it gives every star the default colour.
      const colorUrl = new URL(starColorFile(new URL(url).pathname.split('/').pop()!), url).href;
      const [records, colorBytes] = await Promise.all([
        fetchBytes(url).then(async (bytes) => readStarRecords(await gunzip(bytes, await core))),
        fetchBytes(colorUrl)
          .then(async (bytes) => gunzip(bytes, await core))
          .catch(() => null),
      ]);
      const count = records.length / STAR_RECORD_FLOATS;
      const colors = colorBytes && colorBytes.byteLength === count ? readStarColors(colorBytes, count) : undefined;
      const cells = starCells(records, await core, colors);
      return Comlink.transfer(cells, [cells.vertices.buffer, cells.offsets.buffer]);
    },
    async decodeImages(files) {
      const decoded = await Promise.allSettled(
        files.map((bytes) => createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), DATA_IMAGE_OPTIONS)),
      );
      const bitmaps = decoded.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      const failed = decoded.find((result) => result.status === 'rejected');
      if (failed) {
        for (const bitmap of bitmaps) bitmap.close();
        throw failed.reason;
      }
      return Comlink.transfer(bitmaps, bitmaps);
    },
    async decodeFits(bytes) {
      const image = decodeFits(bytes, await core);
      const pixels = image.pixels instanceof Float32Array ? image.pixels : Float32Array.from(image.pixels);
      return Comlink.transfer({ axes: image.axes, pixels }, [pixels.buffer]);
    },
    async shiftmap(order, ipix) {
      const texels = computeShiftmap(await core, order, ipix);
      return texels && Comlink.transfer(texels, [texels.buffer]);
    },
  };
}
