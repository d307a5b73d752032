// PNG (ISO/IEC 15948, RFC 2083) encoding and decoding over node:zlib, for the survey tiles,
// Milky Way faces and HiPS tiles. Encoder: 8-bit greyscale (colour type 0), RGB (2) or RGBA (6),
// non-interlaced, every row with the Paeth filter (type 4), which suits smooth sky images, or
// none (type 0), or each row's choice of the two (the import's HiPS tiles). Decoder: the same
// subset plus filters 0–4, enough for the tests to read back what we wrote.
import zlib from 'node:zlib';

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 6: 4 };

// CRC-32 of each chunk's type and data (ISO 3309), by node:zlib.
function crc32(bytes: Uint8Array, previous = 0): number {
  return zlib.crc32(bytes, previous);
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(data, crc32(out.subarray(4, 8))) >>> 0, 8 + data.length);
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export type ColourType = 0 | 2 | 6;

export interface RasterImage {
  width: number;
  height: number;
  /** 1 (grey), 3 (RGB) or 4 (RGBA) bytes per pixel, rows top to bottom. */
  channels: 1 | 3 | 4;
  pixels: Uint8Array;
}

/** Bytes between those the adaptive choice weighs: 7 weighs each channel of RGB in turn. */
const CHOICE_STEP = 7;

/** The sum of every CHOICE_STEP-th byte of a row, as signed differences: None's, then Paeth's. */
function rowCosts(pixels: Uint8Array, row: number, stride: number, channels: number, first: boolean): [number, number] {
  let none = 0;
  let paethCost = 0;
  for (let x = 0; x < stride; x += CHOICE_STEP) {
    const value = pixels[row + x]!;
    const residual = (value - predict(pixels, row, stride, channels, first, x)) & 0xff;
    none += value < 128 ? value : 256 - value;
    paethCost += residual < 128 ? residual : 256 - residual;
  }
  return [none, paethCost];
}

/** The Paeth predictor of byte x of a row: on the first row the byte to the left (b = c = 0), at the first pixel the one above. */
function predict(pixels: Uint8Array, row: number, stride: number, channels: number, first: boolean, x: number): number {
  if (first) return x >= channels ? pixels[row + x - channels]! : 0;
  if (x < channels) return pixels[row - stride + x]!;
  return paeth(pixels[row + x - channels]!, pixels[row - stride + x]!, pixels[row - stride + x - channels]!);
}

/**
 * Filters one row into `out` at `at` (its filter byte, then its bytes): Paeth, or, when
 * `adaptive`, None where that is the smaller by the sum of the bytes as signed differences (the
 * PNG specification's heuristic for adaptive filtering, §12.8), weighed on every CHOICE_STEP-th
 * byte. A survey's deepest tiles hold the sky's noise, which deflates smaller unfiltered; smooth
 * light deflates smaller after Paeth.
 */
function filterRow(
  pixels: Uint8Array,
  row: number,
  stride: number,
  channels: number,
  first: boolean,
  adaptive: boolean,
  out: Uint8Array,
  at: number,
): void {
  if (adaptive) {
    const [none, paethCost] = rowCosts(pixels, row, stride, channels, first);
    if (none <= paethCost) {
      out[at] = 0;
      out.set(pixels.subarray(row, row + stride), at + 1);
      return;
    }
  }
  out[at] = 4;
  const target = at + 1;
  const start = Math.min(channels, stride);
  for (let x = 0; x < start; x++)
    out[target + x] = (pixels[row + x]! - predict(pixels, row, stride, channels, first, x)) & 0xff;
  if (first) {
    for (let x = start; x < stride; x++) out[target + x] = (pixels[row + x]! - pixels[row + x - channels]!) & 0xff;
    return;
  }
  const up = row - stride;
  for (let x = start; x < stride; x++)
    out[target + x] =
      (pixels[row + x]! - paeth(pixels[row + x - channels]!, pixels[up + x]!, pixels[up + x - channels]!)) & 0xff;
}

export function encodePng(
  { width, height, channels, pixels }: RasterImage,
  {
    level = 6,
    filter = 4,
    strategy = zlib.constants.Z_DEFAULT_STRATEGY,
  }: { level?: number; filter?: 0 | 4 | 'adaptive'; strategy?: number } = {},
): Buffer {
  const colourType: ColourType = channels === 1 ? 0 : channels === 3 ? 2 : 6;
  const stride = width * channels;
  if (pixels.length !== stride * height)
    throw new Error(`PNG: ${pixels.length} bytes for ${width}×${height}×${channels}`);
  const filtered = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const out = y * (stride + 1);
    if (filter === 0) {
      filtered[out] = 0;
      filtered.set(pixels.subarray(row, row + stride), out + 1);
    } else filterRow(pixels, row, stride, channels, y === 0, filter === 'adaptive', filtered, out);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = colourType;
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(filtered, { level, strategy })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

export function decodePng(file: Uint8Array): RasterImage {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (!bytes.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    const crc = crc32(body, crc32(bytes.subarray(offset + 4, offset + 8)));
    if (crc >>> 0 !== bytes.readUInt32BE(offset + 8 + length)) throw new Error(`PNG: bad CRC in ${type}`);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error('PNG: only 8-bit non-interlaced images are read');
      channels = CHANNELS[body[9]] ?? 0;
      if (!channels) throw new Error(`PNG: colour type ${body[9]} not read`);
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(data));
  const stride = width * channels;
  if (raw.length !== (stride + 1) * height) throw new Error('PNG: image data has the wrong size');
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x];
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels] : 0;
      const predictor =
        filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, c);
      if (filter > 4) throw new Error(`PNG: unknown filter ${filter}`);
      pixels[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  return { width, height, channels: channels as 1 | 3 | 4, pixels };
}
