// Bounded fuzzing of the wasm inflater and the FITS decoder: thousands of random mutations of
// valid gzip, raw DEFLATE and FITS files (bit flips, byte overwrites, truncation, inserted and
// deleted runs, and digits written into FITS header values). Each call must finish within a
// second with a result or an Error (never a wasm trap, a hang or a write outside its buffer),
// and raw DEFLATE must succeed or fail exactly where node:zlib does, with the same bytes.
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeFits } from '../../core/fits';
import { loadCore, type Core } from '../../core/wasm';
import { codecReferences, type CodecReferences } from '../helpers/codec-references';

let refs: CodecReferences;
let core: Core;

beforeAll(async () => {
  refs = codecReferences();
  core = await loadCore();
});

/** xorshift32: the same mutations on every run, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return { next, int: (n: number) => Math.floor(next() * n) };
}

type Random = ReturnType<typeof random>;

function mutate(seed: Uint8Array, rng: Random, headerBytes = 0): Uint8Array {
  let bytes = Uint8Array.from(seed);
  const edits = 1 + rng.int(4);
  for (let e = 0; e < edits; e++) {
    const at = rng.int(Math.max(1, bytes.length));
    switch (rng.int(headerBytes ? 7 : 6)) {
      case 0:
        if (bytes.length) bytes[at] ^= 1 << rng.int(8);
        break;
      case 1:
        if (bytes.length) bytes[at] = rng.int(256);
        break;
      case 2:
        bytes = bytes.subarray(0, rng.int(bytes.length + 1));
        break;
      case 3: {
        const insert = Uint8Array.from({ length: 1 + rng.int(16) }, () => rng.int(256));
        bytes = Uint8Array.from([...bytes.subarray(0, at), ...insert, ...bytes.subarray(at)]);
        break;
      }
      case 4:
        bytes = Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 1 + rng.int(32))]);
        break;
      case 5:
        if (bytes.length) bytes[at] = rng.next() < 0.5 ? 0 : 0xff;
        break;
      case 6: {
        // A digit or sign in a header value column: huge axes, odd BITPIX, broken numbers.
        const card = rng.int(Math.max(1, Math.floor(Math.min(headerBytes, bytes.length) / 80)));
        const column = 10 + rng.int(20);
        const where = card * 80 + column;
        if (where < bytes.length) bytes[where] = "0123456789-+.E '".charCodeAt(rng.int(16));
        break;
      }
    }
  }
  return bytes;
}

/** Runs one decode; returns 'ok' or 'error', failing the test on a slow call or a non-Error. */
function bounded(run: () => unknown, label: string): 'ok' | 'error' {
  const start = performance.now();
  let outcome: 'ok' | 'error' = 'ok';
  try {
    run();
  } catch (error) {
    if (!(error instanceof Error) || error instanceof WebAssembly.RuntimeError) {
      throw new Error(`${label}: threw ${String(error)}`, { cause: error });
    }
    // A trap without an error code would be a fault of the inflater itself (say, a bad access).
    if (error.message.startsWith('Corrupt DEFLATE stream (')) {
      throw new Error(`${label}: ${error.message}`, { cause: error });
    }
    outcome = 'error';
  }
  const elapsed = performance.now() - start;
  if (elapsed > 1000) throw new Error(`${label}: took ${elapsed.toFixed(0)} ms`);
  return outcome;
}

describe('fuzz: mutated gzip and DEFLATE', () => {
  it('finishes every mutated gzip file within 1 s with bytes or an Error (3000 files)', () => {
    const text = refs.read('text.bin').subarray(0, 6000);
    const floats = refs.read('float32.bin').subarray(0, 8000);
    const seeds = [
      zlib.gzipSync(text, { level: 1 }),
      zlib.gzipSync(text, { level: 9 }),
      zlib.gzipSync(floats, { strategy: zlib.constants.Z_FIXED }),
      zlib.gzipSync(floats, { strategy: zlib.constants.Z_RLE }),
      zlib.gzipSync(text, { level: 0 }),
      Buffer.concat([zlib.gzipSync(text.subarray(0, 500)), zlib.gzipSync(floats.subarray(0, 700))]),
    ];
    const rng = random(0x9e3779b9);
    const outcomes = { ok: 0, error: 0 };
    for (let i = 0; i < 3000; i++) {
      const seed = seeds[i % seeds.length];
      const bytes = mutate(seed, rng);
      outcomes[bounded(() => core.gunzip(bytes), `gzip mutation ${i}`)]++;
    }
    // Most mutations break the CRC or the stream; a few (in FEXTRA/FNAME, MTIME) survive.
    expect(outcomes.error).toBeGreaterThan(2000);
    expect(outcomes.ok + outcomes.error).toBe(3000);
  });

  it('succeeds and fails on mutated raw DEFLATE exactly where node:zlib does (1500 streams)', () => {
    const text = refs.read('text.bin').subarray(0, 5000);
    const floats = refs.read('float32.bin').subarray(0, 6000);
    const seeds = [
      zlib.deflateRawSync(text, { level: 6 }),
      zlib.deflateRawSync(floats, { strategy: zlib.constants.Z_HUFFMAN_ONLY }),
      zlib.deflateRawSync(floats, { strategy: zlib.constants.Z_FIXED }),
      zlib.deflateRawSync(text, { level: 0 }),
    ];
    const rng = random(12345);
    let agreedOk = 0;
    for (let i = 0; i < 1500; i++) {
      const bytes = mutate(seeds[i % seeds.length], rng);
      let ours: Uint8Array | undefined;
      const outcome = bounded(() => (ours = core.inflateRaw(bytes)), `raw mutation ${i}`);
      let theirs: Buffer | undefined;
      try {
        theirs = zlib.inflateRawSync(bytes);
      } catch {
        theirs = undefined;
      }
      expect(outcome === 'ok', `raw mutation ${i}: ours ${outcome}, zlib ${theirs ? 'ok' : 'error'}`).toBe(
        theirs !== undefined,
      );
      if (theirs && ours) {
        expect(Buffer.compare(Buffer.from(ours), theirs), `raw mutation ${i}`).toBe(0);
        agreedOk++;
      }
    }
    expect(agreedOk).toBeGreaterThan(10);
  });
});

describe('fuzz: mutated FITS', () => {
  it('finishes every mutated FITS file within 1 s with pixels or an Error (2000 files)', () => {
    const seeds = ['u8.fits', 'i16-scaled.fits', 'f32.fits', 'cards.fits', 'ext-after-table.fits', 'f32.fits.gz'].map(
      (name) => refs.read(name),
    );
    const rng = random(0xfee1600d);
    const out = new Float32Array(4096);
    const outcomes = { ok: 0, error: 0 };
    for (let i = 0; i < 2000; i++) {
      const seed = seeds[i % seeds.length];
      const bytes = mutate(seed, rng, seed[0] === 0x1f ? 0 : 2880);
      outcomes[bounded(() => decodeFits(bytes, core, { out }), `FITS mutation ${i}`)]++;
    }
    // Pixel-only mutations still decode; header and truncation mutations mostly do not.
    expect(outcomes.ok).toBeGreaterThan(100);
    expect(outcomes.error).toBeGreaterThan(100);
  });
});
