// FITS decoding (core/fits.ts headers, assembly/fits.ts pixels) against files written by
// astropy: BITPIX 8, 16, 32, -32, -64, BZERO/BSCALE, BLANK, NaN, image extensions after a
// table, gzip-compressed files, HIERARCH and CONTINUE cards; 'type mismatch' (viewer-spec §5)
// on hand-made headers; the CLI contract `galaxy-cruise fits IN [--hdu N] [--f64 OUT]`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeFits, parseFitsHeader, readFitsHdus } from '../../core/fits';
import { coreWasmUrl, FITS_CHUNK, loadCore, type Core } from '../../core/wasm';
import { codecReferences, type CodecReferences, type FitsCase } from '../helpers/codec-references';

let refs: CodecReferences;
let core: Core;

beforeAll(async () => {
  refs = codecReferences();
  core = await loadCore();
});

function expected(c: FitsCase): Float64Array {
  const bytes = refs.read(c.expect!);
  return new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** Same values, NaN where NaN, -0 kept apart from 0. */
function expectSame(actual: ArrayLike<number>, wanted: ArrayLike<number>, name: string): void {
  expect(actual.length, name).toBe(wanted.length);
  for (let i = 0; i < wanted.length; i++) {
    if (!Object.is(actual[i], wanted[i])) {
      throw new Error(`${name}: pixel ${i} is ${actual[i]}, expected ${wanted[i]}`);
    }
  }
}

const valid = () => refs.fits.filter((c) => c.expect);

describe('FITS conformance (files written by astropy)', () => {
  it('decodes every image to the physical values BZERO + BSCALE × raw as Float64Array', () => {
    expect(valid().length).toBeGreaterThan(18);
    for (const c of valid()) {
      const image = decodeFits(refs.read(c.file), core, { hdu: c.hdu ?? undefined, f64: true });
      expect(image.pixels, c.name).toBeInstanceOf(Float64Array);
      expect(image.bitpix, c.name).toBe(c.bitpix);
      expect(image.axes, c.name).toEqual(c.axes);
      expect(image.bzero, c.name).toBe(c.bzero);
      expect(image.bscale, c.name).toBe(c.bscale);
      expectSame(image.pixels, expected(c), c.name);
    }
  });

  it('decodes every image into Float32Array as the f64 values rounded once', () => {
    for (const c of valid()) {
      const image = decodeFits(refs.read(c.file), core, { hdu: c.hdu ?? undefined });
      expect(image.pixels, c.name).toBeInstanceOf(Float32Array);
      expectSame(image.pixels, expected(c).map(Math.fround), c.name);
    }
  });

  it('reads BITPIX 16 and 32 as signed (negative values present)', () => {
    for (const name of ['i16.fits', 'i32.fits']) {
      const image = decodeFits(refs.read(name), core);
      expect(Math.min(...image.pixels)).toBeLessThan(0);
      expect(image.pixels[0]).toBe(name === 'i16.fits' ? -32768 : -(2 ** 31));
    }
  });

  it('decodes into a buffer the caller provides and reuses', () => {
    const c = valid().find((x) => x.name === 'i16-scaled.fits')!;
    const out = new Float32Array(10_000);
    const first = decodeFits(refs.read(c.file), core, { out });
    expect(first.pixels.buffer).toBe(out.buffer);
    const second = decodeFits(refs.read('f32.fits'), core, { out });
    expect(second.pixels.buffer).toBe(out.buffer);
    expectSame(second.pixels, expected(valid().find((x) => x.name === 'f32.fits')!).map(Math.fround), 'reuse');
  });

  it('decodes images of several chunks, boundaries inside rows, plain and gzip, into fresh and reused buffers', async () => {
    // A core of its own, gzip files first: memory grows while an inflated file lies in it.
    const core = await loadCore(new URL(coreWasmUrl.href));
    const gzipFirst = (c: FitsCase) => (c.file.endsWith('.gz') ? 0 : 1);
    const big = valid()
      .filter((c) => c.name.startsWith('big-'))
      .sort((a, b) => gzipFirst(a) - gzipFirst(b));
    expect(new Set(big.map((c) => c.bitpix))).toEqual(new Set([8, 16, 32, -32, -64]));
    expect(big.filter((c) => c.file.endsWith('.gz')).length).toBeGreaterThanOrEqual(3);
    const reused = { f32: new Float32Array(3 * FITS_CHUNK), f64: new Float64Array(3 * FITS_CHUNK) };
    for (const c of big) {
      const [width, height] = c.axes!;
      const count = width * height;
      expect(count, c.name).toBeGreaterThan(FITS_CHUNK);
      expect(count % FITS_CHUNK, c.name).not.toBe(0);
      expect(FITS_CHUNK % width, c.name).not.toBe(0);
      expect(count, c.name).toBeLessThan(reused.f32.length);
      const wanted = expected(c);
      for (const out of [reused.f32, reused.f64]) {
        out.fill(-123);
        const image = decodeFits(refs.read(c.file), core, { out });
        expect(image.pixels.buffer, c.name).toBe(out.buffer);
        expectSame(image.pixels, out instanceof Float32Array ? wanted.map(Math.fround) : wanted, c.name);
        expect(out[count], `${c.name}: past the image`).toBe(-123);
      }
    }
  });

  it('parses logical, integer, float, quoted, CONTINUE, HIERARCH, COMMENT and HISTORY cards', () => {
    const c = refs.fits.find((x) => x.name === 'cards.fits')!;
    const [hdu] = readFitsHdus(refs.read(c.file));
    for (const [keyword, value] of Object.entries(c.header!)) {
      expect(hdu.header.card(keyword)?.value, keyword).toEqual(value);
    }
    expect(hdu.header.logical('FLAG')).toBe(true);
    expect(hdu.header.integer('GAIN')).toBe(2);
    expect(hdu.header.number('EXPTIME')).toBe(1500);
    expect(hdu.header.string('OBSERVER')).toBe("O'Brien");
    expect(hdu.header.comments).toEqual(['first comment', 'second comment']);
    expect(hdu.header.history).toEqual(['made by make_codec_references.py']);
    expect(() => hdu.header.integer('EXPTIME')).toThrow(/^type mismatch/);
    expect(() => hdu.header.logical('GAIN')).toThrow(/^type mismatch/);
    expect(() => hdu.header.string('FLAG')).toThrow(/^type mismatch/);
    expect(() => hdu.header.number('OBSERVER')).toThrow(/^type mismatch/);
  });

  it('walks HDUs: primary, table, image extensions', () => {
    const hdus = readFitsHdus(refs.read('ext-after-table.fits'));
    expect(hdus.map((hdu) => hdu.type)).toEqual(['PRIMARY', 'BINTABLE', 'IMAGE']);
    expect(() => decodeFits(refs.read('ext-after-table.fits'), core, { hdu: 1 })).toThrow(/not an image/);
    expect(() => decodeFits(refs.read('ext-after-table.fits'), core, { hdu: 3 })).toThrow(/no HDU 3/);
  });

  it('raises the error of every broken file', () => {
    const broken = refs.fits.filter((c) => c.error);
    expect(broken.filter((c) => c.error === 'type mismatch').length).toBe(4);
    for (const c of broken) {
      expect(() => decodeFits(refs.read(c.file), core), c.name).toThrow(
        c.error === 'type mismatch' ? /^type mismatch/ : new RegExp(c.error!),
      );
    }
  });

  it('reads the free-format corners of FITS Standard §4.2 (D exponents, complex, empty, quotes, slashes)', () => {
    const cards = [
      'SIMPLE  =                    T',
      'EXPO    =              1.5D+03 / Fortran exponent',
      'CPLX    =          (1.0, -2.5)',
      'UNDEF   =                      / no value',
      "EMPTY   = ''",
      "QUOTE   = 'it''s'",
      "SLASH   = 'a/b     '           / the slash inside is text",
      'NEG     =                  -42',
      'FLAG    =                    F / false',
      "LONG    = 'one &'",
      "CONTINUE  'two &' / first part",
      "CONTINUE  'three'",
      'HISTORY   kept as written',
      'END',
    ];
    const text = cards.map((card) => card.padEnd(80)).join('');
    const { header, end } = parseFitsHeader(Buffer.from(text.padEnd(2880), 'ascii'), 0);
    expect(end).toBe(2880);
    expect(header.number('EXPO')).toBe(1500);
    expect(header.card('EXPO')?.kind).toBe('float');
    expect(header.card('CPLX')?.value).toEqual([1, -2.5]);
    expect(header.card('UNDEF')?.kind).toBe('undefined');
    expect(() => header.number('UNDEF')).toThrow(/^type mismatch/);
    expect(header.string('EMPTY')).toBe('');
    expect(header.string('QUOTE')).toBe("it's");
    expect(header.string('SLASH')).toBe('a/b');
    expect(header.card('SLASH')?.comment).toBe('the slash inside is text');
    expect(header.integer('NEG')).toBe(-42);
    expect(header.logical('FLAG')).toBe(false);
    expect(header.string('LONG')).toBe('one two three');
    expect(header.history).toEqual(['  kept as written']);
  });

  it('parses a header split over several 2880-byte blocks and stops at END', () => {
    const { header, end } = parseFitsHeader(refs.read('cards.fits'), 0);
    expect(end % 2880).toBe(0);
    expect(end).toBeGreaterThanOrEqual(2880);
    expect(header.integer('BITPIX')).toBe(16);
  });
});

describe('galaxy-cruise fits', () => {
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ['bin/galaxy-cruise.mjs', 'fits', ...args], { encoding: 'utf8' });

  it('prints the header values and NaN-free statistics in the contract order and writes --f64', () => {
    const c = valid().find((x) => x.name === 'ext-second.fits')!;
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fits-')), 'pixels.f64');
    const run = cli([path.join(refs.dir, c.file), '--hdu', '2', '--f64', out]);
    expect(run.status, run.stderr).toBe(0);
    const values = expected(c);
    let min = Infinity;
    let max = -Infinity;
    let sum = 0;
    let n = 0;
    for (const value of values) {
      if (Number.isNaN(value)) continue;
      min = Math.min(min, value);
      max = Math.max(max, value);
      sum += value;
      n++;
    }
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(printed)).toEqual([
      'BITPIX',
      'NAXIS',
      'NAXIS1',
      'NAXIS2',
      'BZERO',
      'BSCALE',
      'min',
      'max',
      'mean',
    ]);
    expect(printed).toEqual({
      BITPIX: 16,
      NAXIS: 2,
      NAXIS1: c.axes![0],
      NAXIS2: c.axes![1],
      BZERO: 0,
      BSCALE: 1,
      min,
      max,
      mean: sum / n,
    });
    const written = fs.readFileSync(out);
    expectSame(new Float64Array(written.buffer, written.byteOffset, written.length / 8), values, 'f64 file');
  });

  it('reads gzip-compressed FITS and exits 1 with the message on errors', () => {
    const gz = cli([path.join(refs.dir, 'f32.fits.gz')]);
    expect(gz.status, gz.stderr).toBe(0);
    expect(JSON.parse(gz.stdout)).toMatchObject({ BITPIX: -32, NAXIS: 2 });
    const bad = cli([path.join(refs.dir, 'bzero-string.fits')]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('type mismatch');
    expect(bad.stdout).toBe('');
  });
});
