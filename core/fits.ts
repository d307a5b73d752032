// FITS files (FITS Standard 4.0; viewer-spec §3 "FITS file decoding"): header cards are parsed
// here, pixels are decoded by the wasm core (assembly/fits.ts) into a Float32Array or
// Float64Array the caller may provide and reuse. A gzip-compressed file is inflated first.
import { isGzip } from './gzip';
import type { Core, FitsPixelLayout } from './wasm';

const BLOCK = 2880; // header and data units come in blocks of 2880 bytes (§3.1)
const CARD = 80;

/** What a keyword's value is, by the fixed/free-format rules of §4.2. */
export type FitsValueKind = 'logical' | 'integer' | 'float' | 'string' | 'complex' | 'undefined';

export interface FitsCard {
  keyword: string;
  kind: FitsValueKind;
  /** boolean for logical, number for integer and float, string for string (CONTINUE joined). */
  value: boolean | number | string | [number, number] | undefined;
  comment: string;
}

/** The error of viewer-spec §5 for a card read as the wrong type; the detail follows it. */
function typeMismatch(keyword: string, kind: FitsValueKind, wanted: string): Error {
  return new Error(
    `type mismatch: ${keyword} holds ${kind === 'undefined' ? 'no value' : `a ${kind}`}, read as ${wanted}`,
  );
}

/** One header: its value cards by keyword (the last of a repeated keyword wins), in order. */
export class FitsHeader {
  readonly cards: FitsCard[] = [];
  readonly comments: string[] = [];
  readonly history: string[] = [];
  private readonly byKeyword = new Map<string, FitsCard>();

  add(card: FitsCard): void {
    this.cards.push(card);
    this.byKeyword.set(card.keyword, card);
  }

  has(keyword: string): boolean {
    return this.byKeyword.has(keyword);
  }

  card(keyword: string): FitsCard | undefined {
    return this.byKeyword.get(keyword);
  }

  private required(keyword: string): FitsCard {
    const card = this.byKeyword.get(keyword);
    if (!card) throw new Error(`FITS header lacks ${keyword}`);
    return card;
  }

  integer(keyword: string): number;
  integer(keyword: string, fallback: number): number;
  integer(keyword: string, fallback?: number): number {
    if (fallback !== undefined && !this.has(keyword)) return fallback;
    const card = this.required(keyword);
    if (card.kind !== 'integer') throw typeMismatch(keyword, card.kind, 'an integer');
    return card.value as number;
  }

  /** A real number: integer and floating-point values both qualify (§4.2.4). */
  number(keyword: string): number;
  number(keyword: string, fallback: number): number;
  number(keyword: string, fallback?: number): number {
    if (fallback !== undefined && !this.has(keyword)) return fallback;
    const card = this.required(keyword);
    if (card.kind !== 'integer' && card.kind !== 'float') throw typeMismatch(keyword, card.kind, 'a number');
    return card.value as number;
  }

  string(keyword: string): string {
    const card = this.required(keyword);
    if (card.kind !== 'string') throw typeMismatch(keyword, card.kind, 'a string');
    return card.value as string;
  }

  logical(keyword: string): boolean {
    const card = this.required(keyword);
    if (card.kind !== 'logical') throw typeMismatch(keyword, card.kind, 'a logical');
    return card.value as boolean;
  }
}

const INTEGER = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[EeDd][+-]?\d+)?$/;

/** Reads a quoted string starting at text[0] === "'": '' is a quote; trailing blanks go (§4.2.1). */
function readString(text: string): { value: string; rest: string } {
  let value = '';
  let i = 1;
  for (;;) {
    const quote = text.indexOf("'", i);
    if (quote < 0) throw new Error(`FITS card has an unterminated string: ${text}`);
    value += text.slice(i, quote);
    if (text[quote + 1] === "'") {
      value += "'";
      i = quote + 2;
      continue;
    }
    return { value: value.replace(/ +$/, ''), rest: text.slice(quote + 1) };
  }
}

function afterSlash(rest: string): string {
  const slash = rest.indexOf('/');
  return slash < 0 ? '' : rest.slice(slash + 1).trim();
}

/** Parses the value field (what follows "= ") of a card. */
function parseValue(keyword: string, field: string): Omit<FitsCard, 'keyword'> {
  const text = field.trimStart();
  if (text.startsWith("'")) {
    const { value, rest } = readString(text);
    return { kind: 'string', value, comment: afterSlash(rest) };
  }
  const slash = text.indexOf('/');
  const token = (slash < 0 ? text : text.slice(0, slash)).trim();
  const comment = slash < 0 ? '' : text.slice(slash + 1).trim();
  if (token === '') return { kind: 'undefined', value: undefined, comment };
  if (token === 'T' || token === 'F') return { kind: 'logical', value: token === 'T', comment };
  if (INTEGER.test(token)) return { kind: 'integer', value: Number(token), comment };
  if (FLOAT.test(token)) return { kind: 'float', value: Number(token.replace(/[Dd]/, 'E')), comment };
  const complex = /^\(\s*([^,]+?)\s*,\s*([^)]+?)\s*\)$/.exec(token);
  if (complex && FLOAT.test(complex[1]) && FLOAT.test(complex[2])) {
    const part = (s: string) => Number(s.replace(/[Dd]/, 'E'));
    return { kind: 'complex', value: [part(complex[1]), part(complex[2])], comment };
  }
  throw new Error(`FITS card ${keyword} has an unreadable value: ${token}`);
}

/**
 * Parses the header that starts at `offset`: cards of 80 ASCII characters up to END, in
 * 2880-byte blocks. Returns the header and the offset of the block after END.
 */
export function parseFitsHeader(bytes: Uint8Array, offset: number): { header: FitsHeader; end: number } {
  const header = new FitsHeader();
  let continued: FitsCard | undefined; // a string card whose value ended in '&' (§4.2.1.2)
  for (let at = offset; ; at += CARD) {
    if (at + CARD > bytes.length) throw new Error('FITS header has no END card');
    let line = '';
    for (let i = 0; i < CARD; i++) {
      const byte = bytes[at + i];
      if (byte < 0x20 || byte > 0x7e) throw new Error(`FITS header holds a non-ASCII byte at ${at + i}`);
      line += String.fromCharCode(byte);
    }
    let keyword = line.slice(0, 8).trimEnd();
    if (keyword === 'END' && line.slice(8).trim() === '') {
      return { header, end: Math.ceil((at + CARD - offset) / BLOCK) * BLOCK + offset };
    }
    if (keyword === 'CONTINUE' && continued) {
      const text = line.slice(8).trimStart();
      if (text.startsWith("'")) {
        const { value, rest } = readString(text);
        const joined = (continued.value as string).slice(0, -1) + value;
        continued.value = joined;
        const more = afterSlash(rest);
        if (more) continued.comment = continued.comment ? `${continued.comment} ${more}` : more;
        if (!joined.endsWith('&')) continued = undefined;
        continue;
      }
    }
    continued = undefined;
    if (keyword === 'COMMENT' || keyword === 'HISTORY' || keyword === '') {
      const text = line.slice(8).trimEnd();
      if (keyword === 'COMMENT') header.comments.push(text);
      else if (keyword === 'HISTORY') header.history.push(text);
      continue;
    }
    let field: string;
    if (keyword === 'HIERARCH') {
      // ESO HIERARCH convention: "HIERARCH long key words = value".
      const equals = line.indexOf('=', 8);
      if (equals < 0) continue;
      keyword = line.slice(8, equals).trim().replace(/\s+/g, ' ');
      field = line.slice(equals + 1);
    } else if (line.slice(8, 10) === '= ') {
      field = line.slice(10);
    } else {
      continue; // commentary card with another keyword (§4.1.2.2)
    }
    const card: FitsCard = { keyword, ...parseValue(keyword, field) };
    header.add(card);
    if (card.kind === 'string' && (card.value as string).endsWith('&')) continued = card;
  }
}

/** One header and data unit: where its data lies and, for images, its shape. */
export interface FitsHdu {
  index: number;
  header: FitsHeader;
  /** 'PRIMARY', or the XTENSION value ('IMAGE', 'BINTABLE', …). */
  type: string;
  dataOffset: number;
  /** Bytes of data, without the padding to 2880. */
  dataLength: number;
  bitpix: number;
  axes: number[];
}

/** Walks the HDUs of a FITS file (§3.3): primary first, then each extension. */
export function readFitsHdus(bytes: Uint8Array): FitsHdu[] {
  const hdus: FitsHdu[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    // Some writers pad files with zero blocks after the last HDU.
    if (hdus.length > 0 && bytes.subarray(offset, offset + BLOCK).every((byte) => byte === 0)) break;
    const { header, end } = parseFitsHeader(bytes, offset);
    let type: string;
    if (hdus.length === 0) {
      if (header.cards[0]?.keyword !== 'SIMPLE' || !header.logical('SIMPLE')) throw new Error('Not a FITS file');
      type = 'PRIMARY';
    } else {
      type = header.string('XTENSION').trim();
    }
    const bitpix = header.integer('BITPIX');
    const naxis = header.integer('NAXIS');
    if (naxis < 0 || naxis > 999) throw new Error(`FITS NAXIS out of range: ${naxis}`);
    const axes: number[] = [];
    for (let n = 1; n <= naxis; n++) {
      const size = header.integer(`NAXIS${n}`);
      if (size < 0) throw new Error(`FITS NAXIS${n} is negative`);
      axes.push(size);
    }
    const elements = naxis === 0 ? 0 : axes.reduce((product, size) => product * size, 1);
    const pcount = header.integer('PCOUNT', 0);
    const gcount = header.integer('GCOUNT', 1);
    const dataLength = naxis === 0 ? 0 : (Math.abs(bitpix) / 8) * gcount * (pcount + elements);
    if (!Number.isSafeInteger(dataLength) || dataLength < 0) throw new Error('FITS data size out of range');
    hdus.push({ index: hdus.length, header, type, dataOffset: end, dataLength, bitpix, axes });
    offset = end + Math.ceil(dataLength / BLOCK) * BLOCK;
  }
  if (hdus.length === 0) throw new Error('Not a FITS file');
  return hdus;
}

export interface FitsImage {
  hdu: FitsHdu;
  bitpix: 8 | 16 | 32 | -32 | -64;
  /** NAXIS1, NAXIS2, …: NAXIS1 varies fastest in `pixels`. */
  axes: number[];
  /** As written in the header: 0 and 1 when absent. */
  bzero: number;
  bscale: number;
  blank?: number;
  /** Physical values BZERO + BSCALE × raw, NaN for BLANK and for NaN in float data. */
  pixels: Float32Array | Float64Array;
}

export interface FitsDecodeOptions {
  /** 0-based HDU index; by default the first image HDU with data. */
  hdu?: number;
  /** Float64Array instead of Float32Array. */
  f64?: boolean;
  /** A buffer to decode into when it is large enough (its type wins over `f64`). */
  out?: Float32Array | Float64Array;
}

const BITPIXES = new Set([8, 16, 32, -32, -64]);

function isImage(hdu: FitsHdu): boolean {
  return hdu.type === 'PRIMARY' || hdu.type === 'IMAGE';
}

/** Decodes an image HDU of a FITS file (gzip-compressed or not). */
export function decodeFits(file: Uint8Array, core: Core, options: FitsDecodeOptions = {}): FitsImage {
  // The inflated file stays in wasm memory: nothing below calls into the core before the
  // pixels are decoded from it.
  const bytes = isGzip(file) ? core.gunzipView(file) : file;
  const hdus = readFitsHdus(bytes);
  let hdu: FitsHdu | undefined;
  if (options.hdu !== undefined) {
    hdu = hdus[options.hdu];
    if (!hdu) throw new Error(`FITS file has ${hdus.length} HDUs, no HDU ${options.hdu}`);
    if (!isImage(hdu)) throw new Error(`HDU ${options.hdu} is a ${hdu.type}, not an image`);
  } else {
    hdu = hdus.find((candidate) => isImage(candidate) && candidate.dataLength > 0);
    if (!hdu) throw new Error('FITS file has no image data');
  }
  const { header } = hdu;
  if (!BITPIXES.has(hdu.bitpix)) throw new Error(`unsupported BITPIX ${hdu.bitpix}`);
  const bitpix = hdu.bitpix as FitsImage['bitpix'];
  const count = hdu.axes.length === 0 ? 0 : hdu.axes.reduce((product, size) => product * size, 1);
  // Checked before anything is allocated: a corrupt NAXISn must not ask for gigabytes.
  if (hdu.dataOffset + count * (Math.abs(bitpix) / 8) > bytes.length) throw new Error('FITS data unit is truncated');
  const bzero = header.number('BZERO', 0);
  const bscale = header.number('BSCALE', 1);
  const blank = bitpix > 0 && header.has('BLANK') ? header.integer('BLANK') : undefined;
  const wide = options.out ? options.out instanceof Float64Array : options.f64 === true;
  let pixels: Float32Array | Float64Array;
  if (options.out && options.out.length >= count) pixels = options.out.subarray(0, count);
  else pixels = wide ? new Float64Array(count) : new Float32Array(count);
  const layout: FitsPixelLayout = { offset: hdu.dataOffset, count, bitpix, bzero, bscale, blank };
  core.decodeFitsPixels(bytes, layout, pixels);
  return { hdu, bitpix, axes: hdu.axes, bzero, bscale, blank, pixels };
}
