// gzip (RFC 1952) and raw DEFLATE (RFC 1951) over the wasm inflater (assembly/inflate.ts).
//
// Layout of the scratch region for one call: the input at its start, the output 16-byte
// aligned after it, and SLACK spare bytes past the output's capacity (the inflater's fast copy
// may write up to 15 bytes past a match). scratch() only grows, so a stream of tiles reuses
// the same pages. The inflater stops on an error by trapping; the trap is caught here and
// turned into an Error with the message for its code (core/gzip.ts). A full output is
// grown and the stream inflated again.

import { DEFLATE_ERRORS, DEFLATE_TOO_LARGE, GZIP_ERRORS, gzipBodyStart, isGzip } from '../gzip';
import type { CoreMemory } from '../core-memory';

const SLACK = 64;
// DEFLATE cannot expand more than 1032:1 (a 258-byte match in 2 bits), which bounds how far an
// output is ever grown for a given input however wrong a trailer's ISIZE is.
const MAX_RATIO = 1032;

const align16 = (n: number) => (n + 15) & ~15;

export function inflateKernels(memory: CoreMemory) {
  const { exports } = memory;
  const outputFull = memory.errorCode('INFLATE_OUTPUT_FULL');
  const messages = new Map<number, string>();
  for (const [name, message] of Object.entries(DEFLATE_ERRORS)) {
    messages.set(memory.errorCode(name as keyof typeof DEFLATE_ERRORS), message);
  }

  /** Copies `bytes` to the start of scratch and leaves room for `capacity` output bytes. */
  function layout(bytes: Uint8Array, capacity: number): { input: number; output: number } {
    const input = memory.scratch(align16(bytes.byteLength) + capacity + SLACK);
    memory.write(input, bytes);
    return { input, output: input + align16(bytes.byteLength) };
  }

  /**
   * Inflates bytes[start..end) into output+produced, growing the output (and so memory) when
   * it is full. Returns the new capacity, the bytes written and the input bytes used.
   */
  function inflateInto(
    bytes: Uint8Array,
    input: number,
    start: number,
    output: number,
    produced: number,
    capacity: number,
  ): { capacity: number; written: number; consumed: number } {
    const limit = Math.max(capacity, bytes.byteLength * MAX_RATIO + 1024);
    for (;;) {
      try {
        const written = exports.inflateRaw(
          input + start,
          bytes.byteLength - start,
          output + produced,
          capacity - produced,
        );
        return { capacity, written, consumed: exports.inflateConsumed() };
      } catch (error) {
        if (!(error instanceof WebAssembly.RuntimeError)) throw error;
        const code = exports.inflateError();
        if (code !== outputFull) {
          throw new Error(messages.get(code) ?? `Corrupt DEFLATE stream (${error.message})`, { cause: error });
        }
        if (capacity >= limit) throw new Error(DEFLATE_TOO_LARGE, { cause: error });
        capacity = Math.min(limit, Math.max(capacity * 2, capacity + 65536));
        try {
          memory.scratch(output - input + capacity + SLACK);
        } catch (cause) {
          throw new Error(`out of memory: cannot grow the output to ${capacity} bytes`, { cause });
        }
      }
    }
  }

  /** Inflates every member of a gzip file into scratch, where the bytes stay until the next call. */
  function gunzipToScratch(bytes: Uint8Array): { output: number; produced: number } {
    if (!isGzip(bytes)) throw new Error(GZIP_ERRORS.notGzip);
    const length = bytes.byteLength;
    const view = new DataView(bytes.buffer, bytes.byteOffset, length);
    // ISIZE of the last member sizes the output; exact for a one-member file under 4 GiB.
    const isize = length >= 18 ? view.getUint32(length - 4, true) : 0;
    let capacity = Math.min(isize, length * MAX_RATIO) + 1;
    const { input, output } = layout(bytes, capacity);
    let produced = 0;
    let position = 0;
    for (;;) {
      const body = gzipBodyStart(bytes, position, (from, to) => exports.crc32(input + from, to - from, 0) >>> 0);
      const result = inflateInto(bytes, input, body, output, produced, capacity);
      capacity = result.capacity;
      const trailer = body + result.consumed;
      if (length - trailer < 8) throw new Error(GZIP_ERRORS.truncated);
      const crc = exports.crc32(output + produced, result.written, 0) >>> 0;
      if (crc !== view.getUint32(trailer, true)) throw new Error(GZIP_ERRORS.checksum);
      if (result.written % 2 ** 32 !== view.getUint32(trailer + 4, true)) throw new Error(GZIP_ERRORS.size);
      produced += result.written;
      position = trailer + 8;
      // Members follow one another (RFC 1952 §2.2); zero bytes of padding may end the file.
      let next = position;
      while (next < length && bytes[next] === 0) next++;
      if (next >= length) break;
    }
    return { output, produced };
  }

  return {
    /** Decompresses a gzip file (RFC 1952, every member); errors as viewer-spec §5. */
    gunzip(bytes: Uint8Array): Uint8Array {
      const { output, produced } = gunzipToScratch(bytes);
      return memory.bytes(output, produced).slice();
    },

    /**
     * gunzip without the copy out: a view of wasm memory, valid until the next call into the
     * core. decodeFitsPixels decodes such a view where it lies.
     */
    gunzipView(bytes: Uint8Array): Uint8Array {
      const { output, produced } = gunzipToScratch(bytes);
      return memory.bytes(output, produced);
    },

    /** Decompresses a raw DEFLATE stream (RFC 1951); `sizeHint` is the expected output size. */
    inflateRaw(bytes: Uint8Array, sizeHint = bytes.byteLength * 4): Uint8Array {
      const capacity = Math.min(Math.max(sizeHint, 0), bytes.byteLength * MAX_RATIO) + 1;
      const { input, output } = layout(bytes, capacity);
      const result = inflateInto(bytes, input, 0, output, 0, capacity);
      return memory.bytes(output, result.written).slice();
    },
  };
}
