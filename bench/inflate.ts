// gzip inflate: the wasm core against node:zlib (native zlib), fflate and pako on the same
// gzip files: a large text taken from this machine's /usr/share/doc, a large float32 image
// (a smooth sky-like field with noise) and 500 separate tiles of 128 KiB (each its own gzip
// file, as a tile server sends them). All contenders check nothing less than they must:
// ours, node:zlib and pako verify CRC-32 and ISIZE; fflate verifies neither.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { gunzipSync as fflateGunzip } from 'fflate';
import pako from 'pako';
import type { Core } from '../core/wasm';
import type { BenchCase } from './harness';

const MiB = 1 << 20;

/** Plain-text files under /usr/share/doc (not compressed, no NUL bytes), up to `limit` bytes. */
function machineText(limit: number): Uint8Array {
  const chunks: Buffer[] = [];
  let total = 0;
  const visit = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (total >= limit) return;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.isFile() && !/\.(gz|xz|bz2|zst|png|jpg|pdf)$/.test(entry.name)) {
        const bytes = fs.readFileSync(file);
        if (bytes.subarray(0, 1024).includes(0)) continue;
        chunks.push(bytes);
        total += bytes.length;
      }
    }
  };
  visit('/usr/share/doc');
  visit('/usr/share/common-licenses');
  let text = Buffer.concat(chunks);
  while (text.length > 0 && text.length < limit) text = Buffer.concat([text, text]);
  return text.subarray(0, limit);
}

/** A float32 image: smooth structure plus noise, stored big-endian as FITS keeps it. */
export function skyImage(width: number, height: number): Float32Array {
  const image = new Float32Array(width * height);
  let state = 0x2545f491;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      const noise = ((state >>> 0) / 2 ** 32 - 0.5) * 4;
      image[y * width + x] = 100 + 50 * Math.sin(x / 37) * Math.cos(y / 53) + noise;
    }
  }
  return image;
}

function same(a: unknown, b: unknown, peer: string): void {
  const x = a as Uint8Array;
  const y = b as Uint8Array;
  if (x.length !== y.length || Buffer.compare(Buffer.from(x.buffer, x.byteOffset, x.length), Buffer.from(y)) !== 0) {
    throw new Error(`inflate output differs from ${peer}`);
  }
}

export function inflateCases(core: Core): BenchCase[] {
  const text = machineText(32 * MiB);
  const floats = new Uint8Array(skyImage(2048, 2048).buffer);
  const cases: BenchCase[] = [];
  for (const [name, raw] of [
    ['large text (/usr/share/doc)', text],
    ['large float32 image 2048x2048', floats],
  ] as const) {
    const gz = zlib.gzipSync(raw, { level: 6 });
    cases.push({
      suite: 'inflate',
      input: `${name}: ${(raw.length / MiB).toFixed(1)} MiB, gzip -6 ${(gz.length / MiB).toFixed(1)} MiB`,
      units: raw.length,
      unit: 'B',
      ours: { name: 'ours (wasm)', run: () => core.gunzip(gz) },
      peers: [
        { name: 'node:zlib gunzipSync', run: () => zlib.gunzipSync(gz) },
        { name: 'fflate gunzipSync', run: () => fflateGunzip(gz) },
        { name: 'pako ungzip', run: () => pako.ungzip(gz) },
      ],
      check: same,
    });
  }
  const tileBytes = 128 << 10;
  const tiles: Uint8Array[] = [];
  for (let i = 0; i < 500; i++) {
    const start = (i * tileBytes) % (floats.length - tileBytes);
    tiles.push(zlib.gzipSync(floats.subarray(start, start + tileBytes), { level: 6 }));
  }
  const each = (inflate: (tile: Uint8Array) => Uint8Array) => () => {
    let last: Uint8Array = new Uint8Array(0);
    for (const tile of tiles) last = inflate(tile);
    return last;
  };
  const compressed = tiles.reduce((sum, tile) => sum + tile.length, 0);
  cases.push({
    suite: 'inflate',
    input: `500 tiles of 128 KiB float32 (gzip -6, ${(compressed / MiB).toFixed(1)} MiB in all)`,
    units: 500 * tileBytes,
    unit: 'B',
    ours: { name: 'ours (wasm)', run: each((tile) => core.gunzip(tile)) },
    peers: [
      { name: 'node:zlib gunzipSync', run: each((tile) => zlib.gunzipSync(tile)) },
      { name: 'fflate gunzipSync', run: each((tile) => fflateGunzip(tile)) },
      { name: 'pako ungzip', run: each((tile) => pako.ungzip(tile)) },
    ],
    check: same,
  });
  return cases;
}
