// gzip files (RFC 1952) over the wasm inflater (assembly/inflate.ts, RFC 1951). The member
// header is read here; core/kernels/inflate.ts runs the inflater member by member and checks each
// trailer's CRC-32 and ISIZE. Messages of viewer-spec §5 are kept verbatim.

export const GZIP_ERRORS = {
  notGzip: 'Not a GZIP file',
  method: 'Unsupported compression method',
  checksum: 'Checksum does not match',
  size: 'Size of decompressed file not correct',
  /** Not in viewer-spec §5, which names no message for these two. */
  truncated: 'Unexpected end of GZIP file',
  flags: 'Unsupported GZIP header flags',
} as const;

/** More output than DEFLATE's 1032:1 bound allows for the input: the stream cannot be valid. */
export const DEFLATE_TOO_LARGE = 'Corrupt DEFLATE stream: output larger than any valid stream of this size';

/**
 * Messages for the error codes of assembly/inflate.ts, by their names in assembly/errors.ts
 * (core/kernels/inflate.ts reads the numbers from the module).
 */
export const DEFLATE_ERRORS = {
  INFLATE_TRUNCATED: 'Unexpected end of DEFLATE stream',
  INFLATE_BAD_BLOCK_TYPE: 'Corrupt DEFLATE stream: invalid block type',
  INFLATE_BAD_STORED_LENGTH: 'Corrupt DEFLATE stream: invalid stored block lengths',
  INFLATE_TOO_MANY_SYMBOLS: 'Corrupt DEFLATE stream: too many length or distance symbols',
  INFLATE_BAD_CODE_LENGTHS: 'Corrupt DEFLATE stream: invalid code lengths set',
  INFLATE_BAD_REPEAT: 'Corrupt DEFLATE stream: invalid bit length repeat',
  INFLATE_MISSING_EOB: 'Corrupt DEFLATE stream: missing end-of-block code',
  INFLATE_BAD_LITLEN_SET: 'Corrupt DEFLATE stream: invalid literal/lengths set',
  INFLATE_BAD_DIST_SET: 'Corrupt DEFLATE stream: invalid distances set',
  INFLATE_BAD_LITLEN_CODE: 'Corrupt DEFLATE stream: invalid literal/length code',
  INFLATE_BAD_DIST_CODE: 'Corrupt DEFLATE stream: invalid distance code',
  INFLATE_DIST_TOO_FAR: 'Corrupt DEFLATE stream: invalid distance too far back',
  INFLATE_TABLE_OVERFLOW: 'Corrupt DEFLATE stream: Huffman table overflow',
} as const;

const DEFLATE = 8;
// RFC 1952 §2.3.1 FLG bits.
const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
const RESERVED = 0xe0;

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Reads the member header that starts at `position` and returns where its DEFLATE data
 * starts. FTEXT needs nothing; FEXTRA, FNAME and FCOMMENT are skipped; FHCRC, the low 16
 * bits of the CRC-32 of the header bytes before it, is checked with `crc(from, to)`.
 */
export function gzipBodyStart(bytes: Uint8Array, position: number, crc: (from: number, to: number) => number): number {
  const length = bytes.length;
  if (length - position < 2 || bytes[position] !== 0x1f || bytes[position + 1] !== 0x8b) {
    throw new Error(GZIP_ERRORS.notGzip);
  }
  if (length - position < 10) throw new Error(GZIP_ERRORS.truncated);
  if (bytes[position + 2] !== DEFLATE) throw new Error(GZIP_ERRORS.method);
  const flags = bytes[position + 3];
  if (flags & RESERVED) throw new Error(GZIP_ERRORS.flags);
  let at = position + 10;
  if (flags & FEXTRA) {
    if (length - at < 2) throw new Error(GZIP_ERRORS.truncated);
    at += 2 + (bytes[at] | (bytes[at + 1] << 8));
    if (at > length) throw new Error(GZIP_ERRORS.truncated);
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    const zero = bytes.indexOf(0, at);
    if (zero < 0) throw new Error(GZIP_ERRORS.truncated);
    at = zero + 1;
  }
  if (flags & FHCRC) {
    if (length - at < 2) throw new Error(GZIP_ERRORS.truncated);
    if ((crc(position, at) & 0xffff) !== (bytes[at] | (bytes[at + 1] << 8))) throw new Error(GZIP_ERRORS.checksum);
    at += 2;
  }
  return at;
}

/**
 * Decompresses every member of a gzip file with the wasm inflater: the core's gunzip (named by
 * its shape, not by the Core type, since core/wasm.ts's inflate kernel reads this file).
 */
export async function gunzip(bytes: Uint8Array, core: { gunzip(bytes: Uint8Array): Uint8Array }): Promise<Uint8Array> {
  return Promise.resolve(core.gunzip(bytes));
}
