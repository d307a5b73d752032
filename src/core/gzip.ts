// gzip member reading (RFC 1952). Until the wasm inflater lands (issue 3) the DEFLATE body is
// inflated by the platform's DecompressionStream; the header is checked here and the trailer's
// CRC-32 and ISIZE are verified with the wasm core, with the errors of viewer-spec §5.
import type { Core } from './wasm';

export const GZIP_ERRORS = {
  notGzip: 'Not a GZIP file',
  method: 'Unsupported compression method',
  checksum: 'Checksum does not match',
  size: 'Size of decompressed file not correct',
} as const;

const DEFLATE = 8;

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

export async function gunzip(bytes: Uint8Array, core: Core): Promise<Uint8Array> {
  if (bytes.length < 18 || !isGzip(bytes)) throw new Error(GZIP_ERRORS.notGzip);
  if (bytes[2] !== DEFLATE) throw new Error(GZIP_ERRORS.method);
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  const output = new Uint8Array(await new Response(stream).arrayBuffer());
  const trailer = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 8, 8);
  if (core.crc32(output) !== trailer.getUint32(0, true)) throw new Error(GZIP_ERRORS.checksum);
  if (output.length % 2 ** 32 !== trailer.getUint32(4, true)) throw new Error(GZIP_ERRORS.size);
  return output;
}
