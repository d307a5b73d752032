// DEFLATE decoding (RFC 1951): stored, fixed-Huffman and dynamic-Huffman blocks.
//
// The gzip wrapper (RFC 1952: header, CRC-32, ISIZE, members) is read by core/wasm.ts;
// this file only turns one raw DEFLATE stream at `input` into bytes at `output`.
//
// Speed comes from three things:
// - a 64-bit bit buffer refilled with one unaligned 8-byte load while at least 16 input bytes
//   remain (the branch-free refill of libdeflate: it tops the buffer up to 56..63 bits, enough
//   for a whole length/distance pair, 15+5+15+13 = 48 bits, without refilling again);
// - table-driven Huffman decoding: one lookup of 11 bits (literal/length) or 8 bits (distance)
//   resolves most codes; longer codes go through a second-level table, as in zlib's
//   inflate_table, so every code costs at most two lookups;
// - match copies of 16 bytes at a time with v128 loads and stores when the distance allows.
//
// Hardening: every read is bounded by the input end (bits past the end are counted as
// "phantom" zero bits and consuming one is a truncation error), every write by the output
// capacity, every distance by the bytes produced so far in this stream, and every table by its
// capacity. Over-subscribed and incomplete codes are rejected as zlib rejects them. Errors set
// `errorCode` and trap (unreachable); core/wasm.ts catches the trap and raises an Error with
// the message for that code. A full output traps with INFLATE_OUTPUT_FULL so the caller can grow the
// output and decode again.

import {
  INFLATE_BAD_BLOCK_TYPE,
  INFLATE_BAD_CODE_LENGTHS,
  INFLATE_BAD_DIST_CODE,
  INFLATE_BAD_DIST_SET,
  INFLATE_BAD_LITLEN_CODE,
  INFLATE_BAD_LITLEN_SET,
  INFLATE_BAD_REPEAT,
  INFLATE_BAD_STORED_LENGTH,
  INFLATE_DIST_TOO_FAR,
  INFLATE_MISSING_EOB,
  INFLATE_OUTPUT_FULL,
  INFLATE_TABLE_OVERFLOW,
  INFLATE_TOO_MANY_SYMBOLS,
  INFLATE_TRUNCATED,
} from './errors';

// The reason the last inflateRaw() trapped: a code of assembly/errors.ts.
let errorCode: i32 = 0;

// @ts-ignore: decorator
@inline function fail(code: i32): void {
  errorCode = code;
  unreachable();
}

// Table entries (u32): bits 0..5 = bits to consume for this level, bits 8..11 = extra bits
// (length/distance) or second-level index bits (F_SUB), bits 16..31 = value (literal byte,
// length or distance base, or second-level start), and one flag in bits 12..15.
const F_LIT: u32 = 0x1000;
const F_SUB: u32 = 0x2000;
const F_EOB: u32 = 0x4000;
const F_BAD: u32 = 0x8000;

const LITLEN_BITS = 11;
const DIST_BITS = 8;
const CODELEN_BITS = 7;
// Capacities in entries. zlib's `enough` program gives 2342 entries for 286 symbols with an
// 11-bit root and 402 for 30 symbols with an 8-bit root; there is room to spare, and the
// builder checks anyway.
const LITLEN_CAP = 4096;
const DIST_CAP = 1024;

const LITLEN_DYN: usize = memory.data(LITLEN_CAP * 4, 16);
const DIST_DYN: usize = memory.data(DIST_CAP * 4, 16);
const LITLEN_FIXED: usize = memory.data(LITLEN_CAP * 4, 16);
const DIST_FIXED: usize = memory.data(DIST_CAP * 4, 16);
const CODELEN_TABLE: usize = memory.data((1 << CODELEN_BITS) * 4, 16);
const LENS: usize = memory.data(320, 16); // code lengths: 286 literal/length + 30 distance
const COUNT: usize = memory.data(16 * 2, 16); // codes per length, u16
const OFFS: usize = memory.data(16 * 2, 16); // first sorted slot per length, u16
const SORTED: usize = memory.data(320 * 2, 16); // symbols sorted by (length, symbol), u16
let fixedReady = false;

// RFC 1951 §3.2.5: bases and extra bits of length symbols 257..285 and distance symbols 0..29.
const LENGTH_BASE: usize = memory.data<u16>([
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
]);
const LENGTH_EXTRA: usize = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
]);
const DIST_BASE: usize = memory.data<u16>([
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
]);
const DIST_EXTRA: usize = memory.data<u8>([
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
]);
// RFC 1951 §3.2.7: the order in which code length code lengths are sent.
const CODELEN_ORDER: usize = memory.data<u8>([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]);

const KIND_LITLEN = 0;
const KIND_DIST = 1;
const KIND_CODELEN = 2;

function symbolEntry(kind: i32, symbol: u32): u32 {
  if (kind == KIND_CODELEN) return symbol << 16;
  if (kind == KIND_LITLEN) {
    if (symbol < 256) return F_LIT | (symbol << 16);
    if (symbol == 256) return F_EOB;
    if (symbol > 285) return F_BAD; // 286 and 287 take part in the fixed code but never occur
    const i = <usize>(symbol - 257);
    return (<u32>load<u16>(LENGTH_BASE + (i << 1)) << 16) | (<u32>load<u8>(LENGTH_EXTRA + i) << 8);
  }
  if (symbol > 29) return F_BAD; // 30 and 31 likewise
  return (<u32>load<u16>(DIST_BASE + (<usize>symbol << 1)) << 16) | (<u32>load<u8>(DIST_EXTRA + <usize>symbol) << 8);
}

// @ts-ignore: decorator
@inline function reverseBits(code: u32, length: u32): u32 {
  let v = code;
  v = ((v >>> 1) & 0x5555) | ((v & 0x5555) << 1);
  v = ((v >>> 2) & 0x3333) | ((v & 0x3333) << 2);
  v = ((v >>> 4) & 0x0f0f) | ((v & 0x0f0f) << 4);
  v = ((v >>> 8) & 0x00ff) | ((v & 0x00ff) << 8);
  return v >>> (16 - length);
}

/**
 * Builds the decoding table for `n` code lengths at `lens` into `table` (capacity `cap`
 * entries, root `rootBits`). Canonical codes (RFC 1951 §3.2.2) are assigned in (length,
 * symbol) order; since DEFLATE sends codes most significant bit first and the bit buffer is
 * read from its low end, the table is indexed by the bit-reversed code. Codes longer than the
 * root share a second-level table per root prefix, sized as zlib's inflate_table sizes them.
 * Rejects over-subscribed sets, and incomplete ones except a lone code of length 1 (or no code
 * at all, for distances), as zlib does.
 */
function buildTable(lens: usize, n: i32, table: usize, rootBits: i32, cap: i32, kind: i32): void {
  const badSet = kind == KIND_LITLEN ? INFLATE_BAD_LITLEN_SET : kind == KIND_DIST ? INFLATE_BAD_DIST_SET : INFLATE_BAD_CODE_LENGTHS;
  memory.fill(COUNT, 0, 32);
  for (let s = 0; s < n; s++) {
    const len = <usize>load<u8>(lens + <usize>s);
    store<u16>(COUNT + (len << 1), load<u16>(COUNT + (len << 1)) + 1);
  }
  let maxLen = 15;
  while (maxLen > 0 && load<u16>(COUNT + (<usize>maxLen << 1)) == 0) maxLen--;
  const rootSize = 1 << rootBits;
  for (let i = 0; i < rootSize; i++) store<u32>(table + (<usize>i << 2), F_BAD);
  if (maxLen == 0) {
    // No codes: only legal for distances (a block of literals only); any use is an error.
    if (kind != KIND_DIST) fail(badSet);
    return;
  }
  // Kraft sums: over-subscribed sets are always wrong; incomplete ones only allowed as above.
  let left = 1;
  for (let len = 1; len <= 15; len++) {
    left = (left << 1) - <i32>load<u16>(COUNT + (<usize>len << 1));
    if (left < 0) fail(badSet);
  }
  if (left > 0 && (kind == KIND_CODELEN || maxLen != 1)) fail(badSet);

  store<u16>(OFFS + 2, 0);
  for (let len = 1; len < 15; len++) {
    store<u16>(
      OFFS + (<usize>(len + 1) << 1),
      load<u16>(OFFS + (<usize>len << 1)) + load<u16>(COUNT + (<usize>len << 1)),
    );
  }
  for (let s = 0; s < n; s++) {
    const len = <usize>load<u8>(lens + <usize>s);
    if (len != 0) {
      const slot = <usize>load<u16>(OFFS + (len << 1));
      store<u16>(SORTED + (slot << 1), <u16>s);
      store<u16>(OFFS + (len << 1), <u16>(slot + 1));
    }
  }

  const total = <i32>load<u16>(OFFS + 2 * 15); // after the sort, one past the last slot
  const rootMask = <u32>rootSize - 1;
  let code: u32 = 0;
  let prevLen = 0;
  let next = rootSize; // next free second-level slot
  let subPrefix: u32 = 0xffffffff;
  let subStart = 0;
  let subBits = 0;
  for (let k = 0; k < total; k++) {
    const symbol = <u32>load<u16>(SORTED + (<usize>k << 1));
    const len = <i32>load<u8>(lens + <usize>symbol);
    if (prevLen != 0) code = (code + 1) << (len - prevLen);
    prevLen = len;
    const rev = reverseBits(code, len);
    const entry = symbolEntry(kind, symbol);
    if (len <= rootBits) {
      for (let i = <i32>rev; i < rootSize; i += 1 << len) store<u32>(table + (<usize>i << 2), entry | <u32>len);
    } else {
      const prefix = rev & rootMask;
      if (prefix != subPrefix) {
        // Size the new second-level table to hold every remaining code with this prefix.
        subBits = len - rootBits;
        let room = 1 << subBits;
        for (let l = len; l < maxLen; l++) {
          room -= <i32>load<u16>(COUNT + (<usize>l << 1)) - (l == len ? countPlacedAt(k, len) : 0);
          if (room <= 0) break;
          subBits++;
          room <<= 1;
        }
        subStart = next;
        next += 1 << subBits;
        if (next > cap) fail(INFLATE_TABLE_OVERFLOW);
        for (let i = subStart; i < next; i++) store<u32>(table + (<usize>i << 2), F_BAD);
        store<u32>(table + (<usize>prefix << 2), F_SUB | (<u32>subStart << 16) | (<u32>subBits << 8) | <u32>rootBits);
        subPrefix = prefix;
      }
      const step = 1 << (len - rootBits);
      for (let i = <i32>(rev >>> <u32>rootBits); i < 1 << subBits; i += step) {
        store<u32>(table + (<usize>(subStart + i) << 2), entry | <u32>(len - rootBits));
      }
    }
  }
}

/** How many codes of length `len` come before sorted position `k` (already placed). */
function countPlacedAt(k: i32, len: i32): i32 {
  return k - <i32>load<u16>(OFFS + (<usize>len << 1)) + <i32>load<u16>(COUNT + (<usize>len << 1));
}

function buildFixed(): void {
  // RFC 1951 §3.2.6.
  for (let s: usize = 0; s < 144; s++) store<u8>(LENS + s, 8);
  for (let s: usize = 144; s < 256; s++) store<u8>(LENS + s, 9);
  for (let s: usize = 256; s < 280; s++) store<u8>(LENS + s, 7);
  for (let s: usize = 280; s < 288; s++) store<u8>(LENS + s, 8);
  buildTable(LENS, 288, LITLEN_FIXED, LITLEN_BITS, LITLEN_CAP, KIND_LITLEN);
  for (let s: usize = 0; s < 32; s++) store<u8>(LENS + s, 5);
  buildTable(LENS, 32, DIST_FIXED, DIST_BITS, DIST_CAP, KIND_DIST);
  fixedReady = true;
}

// Bit reader state between blocks (the block decoder keeps its own copy in locals).
let inPos: usize = 0;
let inEnd: usize = 0;
let bitBuf: u64 = 0;
let bitCount: i32 = 0;
let phantom: i32 = 0; // zero bits counted in bitCount that lie past the end of input
let outPos: usize = 0;
let outStart: usize = 0;
let outEnd: usize = 0;

/** Cold-path refill to 56..63 bits, a byte at a time; past the end of input it adds phantom zeros. */
function refillSlow(): void {
  while (bitCount < 56) {
    if (inPos < inEnd) {
      bitBuf |= (<u64>load<u8>(inPos)) << (<u64>bitCount);
      inPos++;
    } else {
      phantom += 8;
    }
    bitCount += 8;
  }
}

function bits(n: i32): u32 {
  if (bitCount < n) refillSlow();
  const value = <u32>(bitBuf & (((<u64>1) << (<u64>n)) - 1));
  bitBuf >>= <u64>n;
  bitCount -= n;
  if (bitCount < phantom) fail(INFLATE_TRUNCATED);
  return value;
}

/** Drops the bits up to the next byte boundary and hands unread whole bytes back to input. */
function alignToByte(): void {
  const real = bitCount - phantom;
  if (real < 0) fail(INFLATE_TRUNCATED);
  inPos -= <usize>(real >>> 3);
  bitBuf = 0;
  bitCount = 0;
  phantom = 0;
}

function storedBlock(): void {
  alignToByte();
  if (inEnd - inPos < 4) fail(INFLATE_TRUNCATED);
  const len = <usize>load<u16>(inPos);
  const nlen = <usize>load<u16>(inPos + 2);
  if ((len ^ 0xffff) != nlen) fail(INFLATE_BAD_STORED_LENGTH);
  inPos += 4;
  if (inEnd - inPos < len) fail(INFLATE_TRUNCATED);
  if (outEnd - outPos < len) fail(INFLATE_OUTPUT_FULL);
  memory.copy(outPos, inPos, len);
  inPos += len;
  outPos += len;
}

function dynamicTables(): void {
  const nlen = <i32>bits(5) + 257;
  const ndist = <i32>bits(5) + 1;
  const ncode = <i32>bits(4) + 4;
  if (nlen > 286 || ndist > 30) fail(INFLATE_TOO_MANY_SYMBOLS);
  memory.fill(LENS, 0, 19);
  for (let i = 0; i < ncode; i++) store<u8>(LENS + <usize>load<u8>(CODELEN_ORDER + <usize>i), <u8>bits(3));
  buildTable(LENS, 19, CODELEN_TABLE, CODELEN_BITS, 1 << CODELEN_BITS, KIND_CODELEN);
  const total = nlen + ndist;
  let i = 0;
  while (i < total) {
    if (bitCount < 16) refillSlow();
    const entry = load<u32>(CODELEN_TABLE + ((<usize>(<u32>bitBuf) & ((1 << CODELEN_BITS) - 1)) << 2));
    if (entry & F_BAD) fail(phantom > 0 ? INFLATE_TRUNCATED : INFLATE_BAD_CODE_LENGTHS);
    const used = <i32>(entry & 63);
    bitBuf >>= <u64>used;
    bitCount -= used;
    if (bitCount < phantom) fail(INFLATE_TRUNCATED);
    const symbol = entry >>> 16;
    if (symbol < 16) {
      store<u8>(LENS + <usize>i, <u8>symbol);
      i++;
      continue;
    }
    let value: u8 = 0;
    let repeat: i32;
    if (symbol == 16) {
      if (i == 0) fail(INFLATE_BAD_REPEAT);
      value = load<u8>(LENS + <usize>(i - 1));
      repeat = 3 + <i32>bits(2);
    } else if (symbol == 17) {
      repeat = 3 + <i32>bits(3);
    } else {
      repeat = 11 + <i32>bits(7);
    }
    if (i + repeat > total) fail(INFLATE_BAD_REPEAT);
    memory.fill(LENS + <usize>i, value, <usize>repeat);
    i += repeat;
  }
  if (load<u8>(LENS + 256) == 0) fail(INFLATE_MISSING_EOB);
  // Distance code lengths follow the literal/length ones in LENS (RFC 1951 §3.2.7).
  buildTable(LENS, nlen, LITLEN_DYN, LITLEN_BITS, LITLEN_CAP, KIND_LITLEN);
  buildTable(LENS + <usize>nlen, ndist, DIST_DYN, DIST_BITS, DIST_CAP, KIND_DIST);
}

/** Decodes one Huffman block's symbols until end-of-block, with the hot state in locals. */
function huffmanBlock(litlen: usize, dist: usize): void {
  let inp = inPos;
  const inLimit = inEnd;
  // The one-load refill reads the 8 bytes at `inp`; it is used only while 16 bytes remain.
  const inFast = inLimit >= 16 ? inLimit - 16 : 0;
  let buf = bitBuf;
  let count = bitCount;
  let ghost = phantom;
  let out = outPos;
  const outBase = outStart;
  const outLimit = outEnd;
  const litMask: u32 = (1 << LITLEN_BITS) - 1;
  const distMask: u32 = (1 << DIST_BITS) - 1;

  while (true) {
    // Refill to at least 56 bits.
    if (inp <= inFast) {
      buf |= load<u64>(inp) << (<u64>count);
      inp += <usize>((63 - count) >>> 3);
      count |= 56;
    } else {
      while (count < 56) {
        if (inp < inLimit) {
          buf |= (<u64>load<u8>(inp)) << (<u64>count);
          inp++;
        } else {
          ghost += 8;
        }
        count += 8;
      }
    }
    let entry = load<u32>(litlen + ((<usize>(<u32>buf & litMask)) << 2));
    if (entry & F_SUB) {
      buf >>= <u64>(entry & 63);
      count -= <i32>(entry & 63);
      entry = load<u32>(litlen + (<usize>((entry >>> 16) + (<u32>buf & ((1 << ((entry >>> 8) & 15)) - 1))) << 2));
    }
    let used = <i32>(entry & 63);
    buf >>= <u64>used;
    count -= used;
    if (count < ghost) fail(INFLATE_TRUNCATED);
    if (entry & F_LIT) {
      if (out >= outLimit) fail(INFLATE_OUTPUT_FULL);
      store<u8>(out, <u8>(entry >>> 16));
      out++;
      // A second literal without refilling: at least 41 bits remain after the first.
      entry = load<u32>(litlen + ((<usize>(<u32>buf & litMask)) << 2));
      if (entry & F_LIT) {
        used = <i32>(entry & 63);
        buf >>= <u64>used;
        count -= used;
        if (count < ghost) fail(INFLATE_TRUNCATED);
        if (out >= outLimit) fail(INFLATE_OUTPUT_FULL);
        store<u8>(out, <u8>(entry >>> 16));
        out++;
        // And a third: at least 26 bits remain after two.
        entry = load<u32>(litlen + ((<usize>(<u32>buf & litMask)) << 2));
        if (entry & F_LIT) {
          used = <i32>(entry & 63);
          buf >>= <u64>used;
          count -= used;
          if (count < ghost) fail(INFLATE_TRUNCATED);
          if (out >= outLimit) fail(INFLATE_OUTPUT_FULL);
          store<u8>(out, <u8>(entry >>> 16));
          out++;
        }
      }
      continue;
    }
    if (entry & (F_EOB | F_BAD)) {
      // A code that only phantom bits past the end complete is a truncation, not corruption.
      if (entry & F_BAD) fail(ghost > 0 ? INFLATE_TRUNCATED : INFLATE_BAD_LITLEN_CODE);
      break;
    }
    // Length: base plus extra bits (at most 5).
    let extra = (entry >>> 8) & 15;
    const length = <usize>((entry >>> 16) + (<u32>buf & ((1 << extra) - 1)));
    buf >>= <u64>extra;
    count -= <i32>extra;
    // Distance code and its extra bits (at most 15 + 13): still within the 56 refilled bits.
    entry = load<u32>(dist + ((<usize>(<u32>buf & distMask)) << 2));
    if (entry & F_SUB) {
      buf >>= <u64>(entry & 63);
      count -= <i32>(entry & 63);
      entry = load<u32>(dist + (<usize>((entry >>> 16) + (<u32>buf & ((1 << ((entry >>> 8) & 15)) - 1))) << 2));
    }
    if (entry & F_BAD) fail(ghost > 0 ? INFLATE_TRUNCATED : INFLATE_BAD_DIST_CODE);
    used = <i32>(entry & 63);
    buf >>= <u64>used;
    count -= used;
    extra = (entry >>> 8) & 15;
    const distance = <usize>((entry >>> 16) + (<u32>buf & ((1 << extra) - 1)));
    buf >>= <u64>extra;
    count -= <i32>extra;
    if (count < ghost) fail(INFLATE_TRUNCATED);
    if (distance > out - outBase) fail(INFLATE_DIST_TOO_FAR);
    if (length > outLimit - out) fail(INFLATE_OUTPUT_FULL);
    let src = out - distance;
    const end = out + length;
    if (outLimit - end >= 16) {
      // Room for a 16-byte overshoot past `end`.
      if (distance >= 16) {
        do {
          v128.store(out, v128.load(src));
          out += 16;
          src += 16;
        } while (out < end);
        out = end;
        continue;
      }
      if (distance == 1) {
        const fill = i8x16.splat(load<u8>(src));
        do {
          v128.store(out, fill);
          out += 16;
        } while (out < end);
        out = end;
        continue;
      }
      if (distance >= 8) {
        do {
          store<u64>(out, load<u64>(src));
          out += 8;
          src += 8;
        } while (out < end);
        out = end;
        continue;
      }
    }
    while (out < end) {
      store<u8>(out, load<u8>(src));
      out++;
      src++;
    }
  }
  inPos = inp;
  bitBuf = buf;
  bitCount = count;
  phantom = ghost;
  outPos = out;
}

let consumed: usize = 0;

/**
 * Inflates the raw DEFLATE stream at `input` (at most `inputLength` bytes) into `output`
 * (capacity `outputCapacity`). Returns the number of bytes written; inflateConsumed() then
 * tells how many input bytes the stream occupied (up to the byte after its final block).
 * On error it traps; inflateError() gives the reason.
 */
export function inflateRaw(input: usize, inputLength: usize, output: usize, outputCapacity: usize): usize {
  errorCode = 0;
  if (!fixedReady) buildFixed();
  inPos = input;
  inEnd = input + inputLength;
  bitBuf = 0;
  bitCount = 0;
  phantom = 0;
  outPos = output;
  outStart = output;
  outEnd = output + outputCapacity;
  let final: u32 = 0;
  do {
    final = bits(1);
    const type = bits(2);
    if (type == 0) storedBlock();
    else if (type == 1) huffmanBlock(LITLEN_FIXED, DIST_FIXED);
    else if (type == 2) {
      dynamicTables();
      huffmanBlock(LITLEN_DYN, DIST_DYN);
    } else fail(INFLATE_BAD_BLOCK_TYPE);
  } while (!final);
  alignToByte();
  consumed = inPos - input;
  return outPos - output;
}

/** Input bytes used by the last successful inflateRaw(). */
export function inflateConsumed(): usize {
  return consumed;
}

/** The reason the last inflateRaw() trapped (a code of assembly/errors.ts). */
export function inflateError(): i32 {
  return errorCode;
}
