import fs from 'node:fs';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadCore } from '../../core/wasm';

// Real files of this machine, of several sizes, plus edge lengths around the 8-byte loop.
const FILES = [process.execPath, '/etc/passwd', '/usr/share/common-licenses/GPL-3', 'package-lock.json'].filter(
  (file) => fs.existsSync(file),
);

describe('wasm CRC-32 (gzip/zlib polynomial)', () => {
  it.each(FILES)('matches node:zlib crc32 on %s', async (file) => {
    const core = await loadCore();
    const bytes = fs.readFileSync(file);
    expect(core.crc32(bytes)).toBe(zlib.crc32(bytes));
  });

  it('matches on every length 0..64 and on unaligned views', async () => {
    const core = await loadCore();
    const bytes = fs.readFileSync('package.json');
    for (let length = 0; length <= 64; length++) {
      const view = bytes.subarray(3, 3 + length);
      expect(core.crc32(view)).toBe(zlib.crc32(view));
    }
  });

  it('continues a checksum across pieces like zlib', async () => {
    const core = await loadCore();
    const bytes = fs.readFileSync(process.execPath).subarray(0, 1 << 20);
    const first = core.crc32(bytes.subarray(0, 12345));
    expect(core.crc32(bytes.subarray(12345), first)).toBe(zlib.crc32(bytes));
  });

  it('gives the check value of the CRC catalogue: CRC-32("123456789") = 0xCBF43926', async () => {
    const core = await loadCore();
    expect(core.crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
});
