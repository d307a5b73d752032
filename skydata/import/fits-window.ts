// One band of the import's FITS images, opened by its path and read in windows: the header (and
// so the WCS) first, then only the rectangle of pixels a HiPS tile falls on, read from the data
// unit by offset (FITS 4.0 §3.3: NAXIS1 varies fastest, rows follow each other), so that the
// memory a tile needs does not grow with the image. A gzip-compressed file cannot be read by
// offset: it is inflated and decoded whole, once, and its one window is the whole image.
import fs from 'node:fs';
import path from 'node:path';
import { decodeFits, readFitsHdus, type FitsHdu } from '../../core/fits';
import { isGzip } from '../../core/gzip';
import type { Core, FitsPixelLayout } from '../../core/wasm';
import { CelestialWcs } from '../../core/wcs-celestial';

const BITPIXES = new Set([8, 16, 32, -32, -64]);
/** The first bytes read for the headers; doubled until the image's header lies within them. */
const HEADER_PREFIX = 64 * 1024;
/** Pixels the preset samples from each band (./hips-from-images.ts derivePreset). */
export const PRESET_SAMPLES = 200_000;

/** A failure that names the image file it is about. */
export class ImageImportError extends Error {}

/** A rectangle of a band's pixels: columns [x0, x0 + width), rows [y0, y0 + height), 0-based. */
export interface PixelWindow {
  x0: number;
  y0: number;
  width: number;
  height: number;
  pixels: Float32Array;
}

/** The layout of a band's data unit in its file, for reads by offset. */
interface DataLayout {
  fd: number;
  offset: number;
  bitpix: FitsPixelLayout['bitpix'];
  bzero: number;
  bscale: number;
  blank?: number;
}

/** A band as the tiles sample it: its size, WCS, and the window of pixels last read. */
export interface BandImage {
  file: string;
  width: number;
  height: number;
  wcs: CelestialWcs;
  window?: PixelWindow;
  /** Absent for a gzip-compressed file, whose one window is the whole image. */
  layout?: DataLayout;
}

/** The first image HDU with data among the HDUs whose headers lie in `bytes`, if any. */
function firstImage(bytes: Uint8Array): FitsHdu | undefined {
  return readFitsHdus(bytes).find((hdu) => (hdu.type === 'PRIMARY' || hdu.type === 'IMAGE') && hdu.dataLength > 0);
}

function checkAxes(axes: readonly number[]): void {
  const [width, height, ...planes] = axes;
  if (width === undefined || height === undefined || width < 2 || height < 2)
    throw new Error(`an image needs two axes of at least 2 pixels, this one has ${axes.join(' × ')}`);
  if (planes.some((size) => size !== 1))
    throw new Error(`a third axis must have one plane, this image has ${axes.join(' × ')}`);
}

/** Opens a band: its header read and checked, its pixels left in the file (or inflated, for gzip). */
export function openBand(core: Core, file: string): BandImage {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    let prefix = new Uint8Array(Math.min(size, HEADER_PREFIX));
    fs.readSync(fd, prefix, 0, prefix.length, 0);
    if (isGzip(prefix)) {
      fs.closeSync(fd);
      fd = undefined;
      const image = decodeFits(fs.readFileSync(file), core);
      checkAxes(image.axes);
      const [width, height] = image.axes as [number, number];
      const pixels = image.pixels instanceof Float32Array ? image.pixels : Float32Array.from(image.pixels);
      const window = { x0: 0, y0: 0, width, height, pixels };
      return { file, width, height, wcs: CelestialWcs.fromHeader(core, image.hdu.header), window };
    }
    // The headers are read from a prefix of the file, grown while the image's header runs past it.
    let hdu: FitsHdu | undefined;
    for (;;) {
      try {
        hdu = firstImage(prefix);
      } catch (error) {
        if (prefix.length === size) throw error;
      }
      if (hdu || prefix.length === size) break;
      prefix = new Uint8Array(Math.min(size, prefix.length * 2));
      fs.readSync(fd, prefix, 0, prefix.length, 0);
    }
    if (!hdu) throw new Error('FITS file has no image data');
    if (!BITPIXES.has(hdu.bitpix)) throw new Error(`unsupported BITPIX ${hdu.bitpix}`);
    checkAxes(hdu.axes);
    const [width, height] = hdu.axes as [number, number];
    if (hdu.dataOffset + width * height * (Math.abs(hdu.bitpix) / 8) > size)
      throw new Error('FITS data unit is truncated');
    const { header } = hdu;
    const layout: DataLayout = {
      fd,
      offset: hdu.dataOffset,
      bitpix: hdu.bitpix as FitsPixelLayout['bitpix'],
      bzero: header.number('BZERO', 0),
      bscale: header.number('BSCALE', 1),
      blank: hdu.bitpix > 0 && header.has('BLANK') ? header.integer('BLANK') : undefined,
    };
    return { file, width, height, wcs: CelestialWcs.fromHeader(core, header), layout };
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd);
    if (error instanceof ImageImportError) throw error;
    throw new ImageImportError(`${path.basename(file)}: ${(error as Error).message}`);
  }
}

/** Closes a band's file and lets its window go. */
export function closeBand(band: BandImage): void {
  if (band.layout) fs.closeSync(band.layout.fd);
  band.layout = undefined;
  band.window = undefined;
}

/**
 * Makes `band.window` hold columns [x0, x1] and rows [y0, y1] (0-based, inclusive), reading a
 * new window when the one held does not: the rectangle asked for widened by its own size on each
 * side (within the image), so that the next tiles, which the nested order puts beside this one,
 * find their pixels already read.
 */
export function ensureWindow(core: Core, band: BandImage, x0: number, x1: number, y0: number, y1: number): void {
  const held = band.window;
  if (held && x0 >= held.x0 && y0 >= held.y0 && x1 < held.x0 + held.width && y1 < held.y0 + held.height) return;
  const layout = band.layout!;
  const left = Math.max(0, x0 - (x1 - x0 + 1));
  const right = Math.min(band.width - 1, x1 + (x1 - x0 + 1));
  const top = Math.max(0, y0 - (y1 - y0 + 1));
  const bottom = Math.min(band.height - 1, y1 + (y1 - y0 + 1));
  const width = right - left + 1;
  const height = bottom - top + 1;
  band.window = undefined;
  const size = Math.abs(layout.bitpix) / 8;
  const bytes = new Uint8Array(width * height * size);
  if (width === band.width) {
    readFully(layout.fd, bytes, layout.offset + top * band.width * size);
  } else {
    for (let row = 0; row < height; row += 1) {
      const at = layout.offset + ((top + row) * band.width + left) * size;
      readFully(layout.fd, bytes.subarray(row * width * size, (row + 1) * width * size), at);
    }
  }
  const pixels = new Float32Array(width * height);
  core.decodeFitsPixels(bytes, { ...layout, offset: 0, count: width * height }, pixels);
  band.window = { x0: left, y0: top, width, height, pixels };
}

/** Reads `bytes.length` bytes at `position` (a single read may return fewer). */
function readFully(fd: number, bytes: Uint8Array, position: number): void {
  for (let done = 0; done < bytes.length;) {
    const read = fs.readSync(fd, bytes, done, bytes.length - done, position + done);
    if (read === 0) throw new Error('FITS data unit is truncated');
    done += read;
  }
}

/**
 * Every step-th pixel of a band (step = ⌊pixels / PRESET_SAMPLES⌋, at least 1, from the first),
 * as its physical value: the sample the preset is derived from. Read in blocks of 8 MiB, or pixel
 * by pixel where the samples lie further apart than a block's worth of reads costs.
 */
export function presetSample(core: Core, band: BandImage): Float32Array {
  const count = band.width * band.height;
  const step = Math.max(1, Math.floor(count / PRESET_SAMPLES));
  const samples = Math.ceil(count / step);
  const out = new Float32Array(samples);
  if (!band.layout) {
    const pixels = band.window!.pixels;
    for (let k = 0; k < samples; k += 1) out[k] = pixels[k * step]!;
    return out;
  }
  const layout = band.layout;
  const size = Math.abs(layout.bitpix) / 8;
  const gathered = new Uint8Array(samples * size);
  if (step * size >= 64 * 1024) {
    for (let k = 0; k < samples; k += 1)
      readFully(layout.fd, gathered.subarray(k * size, (k + 1) * size), layout.offset + k * step * size);
  } else {
    const blockPixels = Math.floor((8 * 2 ** 20) / size);
    const block = new Uint8Array(blockPixels * size);
    for (let first = 0; first < count; first += blockPixels) {
      const length = Math.min(blockPixels, count - first);
      const bytes = block.subarray(0, length * size);
      readFully(layout.fd, bytes, layout.offset + first * size);
      for (let k = Math.ceil(first / step); k * step < first + length; k += 1) {
        const at = (k * step - first) * size;
        gathered.set(bytes.subarray(at, at + size), k * size);
      }
    }
  }
  core.decodeFitsPixels(gathered, { ...layout, offset: 0, count: samples }, out);
  return out;
}
