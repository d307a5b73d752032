// The installable app's manifests and icons (src/app/features/offline/manifest.ts, appIcon.ts,
// vite.config.ts's encodePng): the manifest members Chromium's installability check asks for, in
// English and Japanese; the icons as PNG files read back by Python's zlib (a real inflater and
// CRC-32) rather than by our own encoder. Chromium decodes them in tests/e2e/pwa.spec.ts.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { appIconPixels } from '../../src/app/features/offline/appIcon';
import { APP_ICONS, MANIFEST_LOCALES, webAppManifest } from '../../src/app/features/offline/manifest';
import { LOCALES } from '../../shared/api';
import { encodePng } from '../../vite.config';

describe('the web app manifests', () => {
  it('exist for every language of the app', () => {
    expect([...MANIFEST_LOCALES].sort()).toEqual([...LOCALES].sort());
  });

  it('name the app, start on the main screen, stand alone, with 192 and 512 px icons and a maskable one', () => {
    for (const locale of LOCALES) {
      const manifest = webAppManifest(locale);
      expect(manifest).toMatchObject({ id: '/', start_url: '/#/', scope: '/', display: 'standalone', lang: locale });
      expect(manifest.name.length).toBeGreaterThan(0);
      expect(manifest.short_name.length).toBeLessThanOrEqual(15);
      expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
      expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
      const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`);
      expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
    }
    expect(webAppManifest('ja').name).toBe('GALAXY CRUISE');
    expect(webAppManifest('ja').description).not.toBe(webAppManifest('en').description);
  });
});

/** Python's reading of a PNG: each chunk's CRC checked with zlib.crc32, IDAT inflated, rows unfiltered (type 0). */
function readWithPython(png: Buffer): { width: number; height: number; pixel: (x: number, y: number) => number[] } {
  const script = String.raw`
import json, struct, sys, zlib
data = sys.stdin.buffer.read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'signature'
pos, idat, header = 8, b'', None
while pos < len(data):
    length, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    crc, = struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])
    assert zlib.crc32(kind + body) == crc, 'crc of %r' % kind
    if kind == b'IHDR': header = struct.unpack('>IIBBBBB', body)
    if kind == b'IDAT': idat += body
    pos += 12 + length
width, height, depth, colour, _, _, interlace = header
assert (depth, colour, interlace) == (8, 6, 0)
raw = zlib.decompress(idat)
stride = width * 4 + 1
assert len(raw) == stride * height and all(raw[row * stride] == 0 for row in range(height))
sys.stdout.write(json.dumps({'width': width, 'height': height, 'rows': [list(raw[row * stride + 1:(row + 1) * stride]) for row in (0, height // 2)]}))
`;
  const read = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: png }).toString()) as {
    width: number;
    height: number;
    rows: number[][];
  };
  return {
    width: read.width,
    height: read.height,
    pixel: (x, y) => read.rows[y === 0 ? 0 : 1].slice(x * 4, x * 4 + 4),
  };
}

describe('the icons', () => {
  it('are PNG files Python reads: the core at the centre, transparent corners, a full-bleed maskable one', () => {
    for (const icon of APP_ICONS) {
      const maskable = icon.purpose === 'maskable';
      const png = encodePng(icon.size, icon.size, appIconPixels(icon.size, maskable));
      const read = readWithPython(png);
      expect([read.width, read.height]).toEqual([icon.size, icon.size]);
      expect(read.pixel(icon.size / 2, icon.size / 2)).toEqual([0xf3, 0xee, 0xdc, 255]);
      expect(read.pixel(0, 0)).toEqual(maskable ? [0x02, 0x05, 0x0f, 255] : [0, 0, 0, 0]);
    }
  });

  it('the maskable icon keeps its mark inside the safe zone (a circle of 40 % of the size)', () => {
    const size = 512;
    const pixels = appIconPixels(size, true);
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) {
        const at = (y * size + x) * 4;
        const background = pixels[at] === 0x02 && pixels[at + 1] === 0x05 && pixels[at + 2] === 0x0f;
        if (!background) expect(Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2)).toBeLessThanOrEqual(0.4 * size);
      }
  });
});
