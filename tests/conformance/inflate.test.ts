// The wasm inflater (assembly/inflate.ts through core/wasm.ts and core/gzip.ts)
// against files made by gzip, pigz (-11 is zopfli), Python's gzip module and zlib's raw
// deflate with every strategy, plus hand-written corrupt streams; every error of viewer-spec
// §5 and the CLI contract `galaxy-cruise inflate IN [-o OUT]`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { GZIP_ERRORS, gunzip } from '../../core/gzip';
import { loadCore, type Core } from '../../core/wasm';
import { codecReferences, type CodecReferences } from '../helpers/codec-references';

let refs: CodecReferences;
let core: Core;

beforeAll(async () => {
  refs = codecReferences();
  core = await loadCore();
});

function decode(format: 'gzip' | 'raw', bytes: Uint8Array): Uint8Array {
  return format === 'gzip' ? core.gunzip(bytes) : core.inflateRaw(bytes);
}

function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('inflate conformance (files made by real tools)', () => {
  it('decodes every valid reference file byte for byte', () => {
    const good = refs.inflate.filter((c) => c.expect);
    expect(good.length).toBeGreaterThan(90);
    for (const c of good) {
      const output = decode(c.format, refs.read(c.file));
      const expected = refs.read(c.expect!);
      expect(output.length, c.name).toBe(expected.length);
      expect(Buffer.compare(Buffer.from(output), expected), c.name).toBe(0);
    }
  });

  it('raises the exact message for every error case', () => {
    const bad = refs.inflate.filter((c) => c.error);
    expect(bad.length).toBeGreaterThan(15);
    for (const c of bad) {
      const error = errorOf(() => decode(c.format, refs.read(c.file)));
      if (c.error === 'TRUNCATED') {
        expect(error.message, c.name).toMatch(/^Unexpected end of (GZIP file|DEFLATE stream)$/);
      } else if (Object.values(GZIP_ERRORS).includes(c.error as never)) {
        expect(error.message, c.name).toBe(c.error);
      } else {
        expect(error.message, c.name).toBe(`Corrupt DEFLATE stream: ${c.error}`);
      }
    }
  });

  it('covers the four messages of viewer-spec §5 verbatim', () => {
    const messages = new Set(refs.inflate.map((c) => c.error));
    for (const message of [GZIP_ERRORS.notGzip, GZIP_ERRORS.method, GZIP_ERRORS.checksum, GZIP_ERRORS.size]) {
      expect(messages.has(message)).toBe(true);
    }
    expect(GZIP_ERRORS.notGzip).toBe('Not a GZIP file');
    expect(GZIP_ERRORS.method).toBe('Unsupported compression method');
    expect(GZIP_ERRORS.checksum).toBe('Checksum does not match');
    expect(GZIP_ERRORS.size).toBe('Size of decompressed file not correct');
  });

  it('agrees with node:zlib on every raw stream (stored, fixed and dynamic blocks, all strategies)', () => {
    for (const c of refs.inflate.filter((x) => x.expect && x.format === 'raw')) {
      const bytes = refs.read(c.file);
      expect(Buffer.compare(Buffer.from(core.inflateRaw(bytes)), zlib.inflateRawSync(bytes)), c.name).toBe(0);
    }
  });

  it('grows the output when ISIZE is wrong for it (multi-member) and keeps memory flat over many tiles', () => {
    const multi = refs.inflate.find((c) => c.name === 'multi-member.gz')!;
    const bytes = refs.read(multi.file);
    const lastIsize = bytes.readUInt32LE(bytes.length - 4);
    const output = core.gunzip(bytes);
    expect(output.length).toBeGreaterThan(lastIsize * 10);
    const tile = zlib.gzipSync(refs.read('float32.bin').subarray(0, 128 << 10));
    core.gunzip(tile);
    const before = core.memoryBytes();
    for (let i = 0; i < 300; i++) core.gunzip(tile);
    expect(core.memoryBytes()).toBe(before);
  });

  it('is the inflater behind core/gzip.ts gunzip()', async () => {
    const c = refs.inflate.find((x) => x.name === 'flags-all.gz')!;
    expect(Buffer.compare(Buffer.from(await gunzip(refs.read(c.file), core)), refs.read(c.expect!))).toBe(0);
    await expect(gunzip(new Uint8Array([1, 2, 3]), core)).rejects.toThrow('Not a GZIP file');
  });

  it('inflates inputs whose lengths straddle the fast-path margins', () => {
    const source = refs.read('text.bin');
    for (let length = 0; length < 300; length += 7) {
      const data = source.subarray(0, length);
      for (const strategy of [zlib.constants.Z_DEFAULT_STRATEGY, zlib.constants.Z_FIXED]) {
        const gz = zlib.gzipSync(data, { strategy });
        expect(Buffer.compare(Buffer.from(core.gunzip(gz)), data)).toBe(0);
      }
    }
  });
});

describe('galaxy-cruise inflate', () => {
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ['bin/galaxy-cruise.mjs', 'inflate', ...args], { encoding: 'buffer' });

  it('writes to -o OUT and to stdout, and exits 1 with the message on stderr', () => {
    const c = refs.inflate.find((x) => x.name === 'text.pigz-9.gz')!;
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'inflate-')), 'out.bin');
    const written = cli([path.join(refs.dir, c.file), '-o', out]);
    expect(written.status).toBe(0);
    expect(Buffer.compare(fs.readFileSync(out), refs.read(c.expect!))).toBe(0);
    const piped = cli([path.join(refs.dir, c.file)]);
    expect(piped.status).toBe(0);
    expect(Buffer.compare(piped.stdout, refs.read(c.expect!))).toBe(0);
    const bad = cli([path.join(refs.dir, 'bad-crc.gz')]);
    expect(bad.status).toBe(1);
    expect(bad.stderr.toString()).toContain('Checksum does not match');
    expect(bad.stdout.length).toBe(0);
  });
});
