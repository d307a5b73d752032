// The sky builder's building blocks, each on its own, no sky built (skydata.test.ts walks a built
// one): the tile values' flux code, the TAN WCS, the PNG codec, the target kinds' true answers,
// the plan's determinism, and HEALPix's nested pixel → angle (Górski et al. 2005).
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { nestToXy, pix2angNest, xyToNest } from '../../skydata/healpix';
import { decodePng, encodePng } from '../../skydata/png';
import { planSky } from '../../skydata/plan';
import { Random } from '../../skydata/random';
import { morphologyOf, TARGET_KINDS } from '../../skydata/targets';
import { decodeTileValue, encodeFlux, renderTract } from '../../skydata/tract';
import { pixelToSky, skyToPixel, tanWcs } from '../../skydata/wcs';

describe('building blocks', () => {
  it('decodes a tile value y to flux x = 1e-4·sinh(9.903487555·(y − 1/9)), and encodes back', () => {
    expect(decodeTileValue(Math.round(255 / 9))).toBeCloseTo(1e-4 * Math.sinh(9.903487555 * (28 / 255 - 1 / 9)), 12);
    for (const flux of [-1e-4, -1e-5, 0, 3e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1]) {
      const byte = encodeFlux(flux);
      // Nearest code: the flux lies between the neighbours' decoded values.
      expect(decodeTileValue(Math.max(0, byte - 1))).toBeLessThanOrEqual(flux);
      expect(decodeTileValue(Math.min(255, byte + 1))).toBeGreaterThanOrEqual(flux);
    }
    expect(encodeFlux(10)).toBe(255);
    expect(encodeFlux(-1)).toBe(0);
  });

  it('round-trips pixels through the TAN WCS and keeps north up, east left', () => {
    const wcs = tanWcs(150.1, 2.2, 2048, 0.168);
    for (const [x, y] of [
      [1, 1],
      [1024.5, 1024.5],
      [2048, 17],
    ]) {
      const [ra, dec] = pixelToSky(wcs, x, y);
      const [bx, by] = skyToPixel(wcs, ra, dec);
      expect(bx).toBeCloseTo(x, 6);
      expect(by).toBeCloseTo(y, 6);
    }
    const [raLeft] = pixelToSky(wcs, 1, 1024.5);
    const [, decTop] = pixelToSky(wcs, 1024.5, 2048);
    expect(raLeft).toBeGreaterThan(150.1);
    expect(decTop).toBeGreaterThan(2.2);
    // 2048 pixels of 0.168″ span 5.73′.
    expect((pixelToSky(wcs, 1024.5, 2048.5)[1] - pixelToSky(wcs, 1024.5, 0.5)[1]) * 60).toBeCloseTo(5.734, 2);
  });

  it('round-trips PNG images of 1, 3 and 4 channels, and node:zlib reads their chunks', () => {
    const random = new Random(3);
    for (const channels of [1, 3, 4] as const) {
      const pixels = Uint8Array.from({ length: 37 * 21 * channels }, () => random.int(0, 256));
      for (const filter of [0, 4] as const) {
        const png = encodePng({ width: 37, height: 21, channels, pixels }, { filter });
        const back = decodePng(png);
        expect([back.width, back.height, back.channels]).toEqual([37, 21, channels]);
        expect(Buffer.from(back.pixels).equals(Buffer.from(pixels))).toBe(true);
      }
    }
    // Adaptive: speckled rows unfiltered, smooth rows by Paeth (the filter byte of each row, as zlib inflates it).
    const width = 64;
    const image = new Uint8Array(width * 40 * 3);
    for (let k = 0; k < image.length; k += 1) {
      const row = Math.floor(k / (width * 3));
      // A dark sky's speckle above, a smooth ramp below.
      image[k] = row < 20 ? (random.int(0, 5) === 0 ? random.int(0, 256) : 0) : ((k % (width * 3)) + row * 2) & 0xff;
    }
    const raster = { width, height: 40, channels: 3 as const, pixels: image };
    const adaptive = encodePng(raster, { filter: 'adaptive' });
    expect(Buffer.from(decodePng(adaptive).pixels).equals(Buffer.from(image))).toBe(true);
    const rows = zlib.inflateSync(adaptive.subarray(8 + 25 + 8, adaptive.length - 12 - 4));
    const filters = Array.from({ length: 40 }, (_, row) => rows[row * (width * 3 + 1)]);
    expect(filters).toEqual([...Array<number>(20).fill(0), ...Array<number>(20).fill(4)]);
    expect(adaptive.length).toBeLessThan(encodePng(raster, { filter: 0 }).length);
    expect(adaptive.length).toBeLessThan(encodePng(raster, { filter: 4 }).length);
    const corrupted = encodePng({ width: 2, height: 2, channels: 1, pixels: new Uint8Array(4) });
    corrupted[corrupted.length - 20] ^= 1;
    expect(() => decodePng(corrupted)).toThrow(/CRC/);
  });

  it('gives each target kind its true answer', () => {
    const answers = Object.fromEntries(
      TARGET_KINDS.map((kind) => {
        const m = morphologyOf({
          kind,
          x: 0,
          y: 0,
          radius: 1,
          q: 1,
          pa: 0,
          brightness: 1,
          primarySpiral: true,
          seed: 1,
        });
        return [
          kind,
          `${m.galaxy_type}/${m.interaction}${m.ring ? '+ring' : ''}${m.fan ? '+fan' : ''}${m.tail ? '+tail' : ''}${m.distorted ? '+distorted' : ''}`,
        ];
      }),
    );
    expect(answers).toEqual({
      spiral: 'spiral/no',
      elliptical: 'elliptical/no',
      lenticular: 'elliptical/no',
      merger: 'spiral/yes+tail+distorted',
      ring: 'spiral/yes+ring',
      shell: 'elliptical/yes+fan',
      fan: 'elliptical/yes+fan',
      distorted: 'spiral/yes+distorted',
    });
  });

  it('is deterministic: the same seed plans and renders the same sky', () => {
    const a = planSky({ seed: 5, small: true });
    const b = planSky({ seed: 5, small: true });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(planSky({ seed: 6, small: true }))).not.toBe(JSON.stringify(a));
    const area = a[1].areas[0];
    const first = renderTract(area);
    const second = renderTract(area);
    expect(Buffer.from(first[2].buffer).equals(Buffer.from(second[2].buffer))).toBe(true);
  });
});

describe('HEALPix nested pixel → angle (Górski et al. 2005)', () => {
  it('gives the base pixels’ centres', () => {
    const [t0, p0] = pix2angNest(1, 0);
    expect(Math.cos(t0)).toBeCloseTo(2 / 3, 12);
    expect(p0).toBeCloseTo(Math.PI / 4, 12);
    const [t4, p4] = pix2angNest(1, 4);
    expect(t4).toBeCloseTo(Math.PI / 2, 12);
    expect(p4).toBeCloseTo(0, 12);
    const [t11, p11] = pix2angNest(1, 11);
    expect(Math.cos(t11)).toBeCloseTo(-2 / 3, 12);
    expect(p11).toBeCloseTo((7 * Math.PI) / 4, 12);
  });

  it('puts the four children of a pixel around their parent and covers the sphere evenly', () => {
    const nside = 16;
    let z = 0;
    for (let ipix = 0; ipix < 12 * nside * nside; ipix++) z += Math.cos(pix2angNest(nside, ipix)[0]);
    expect(Math.abs(z)).toBeLessThan(1e-9); // symmetric about the equator
    const parent = pix2angNest(nside, 1234);
    for (let child = 0; child < 4; child++) {
      const [theta, phi] = pix2angNest(2 * nside, 4 * 1234 + child);
      expect(Math.abs(theta - parent[0])).toBeLessThan(0.06);
      expect(Math.abs(phi - parent[1])).toBeLessThan(0.1);
    }
    for (const ipf of [0, 1, 2, 3, 77, 4095, 123456]) expect(xyToNest(...nestToXy(ipf))).toBe(ipf);
  });
});
