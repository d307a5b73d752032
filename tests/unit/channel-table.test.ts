// The import's tile colours looked up per channel (skydata/import/channel-table.ts) must be the
// very bytes prettyColor gives (shared/prettyMixing.ts, the viewer's own colouring): at every
// step of every byte and the float32 fluxes beside it, at random fluxes, for grey and three-band
// presets, and the tables must stand aside for a preset whose bytes do not rise with the flux.
import { describe, expect, test } from 'vitest';
import { prettyColor } from '../../shared/prettyMixing';
import { channelTables, ChannelTable, GUARD_ULPS } from '../../skydata/import/channel-table';
import { colourTile, type ImportPreset } from '../../skydata/import/hips-image-tiles';
import { mixMatrix } from '../../shared/prettyMixing';

function preset(nFilters: number, over: Partial<ImportPreset> = {}): ImportPreset {
  return { nFilters, a: 1 / 50, b: -10, mix: 0.5, beta: 50, bias: 0, exposure: 1, gamma: 1, ground: 0, ...over };
}

/** prettyColor's bytes of one texel's fluxes. */
function expected(fluxes: number[], p: ImportPreset): number[] {
  return prettyColor(fluxes, p).map((value) => Math.round(value * 255));
}

/** Float32 neighbours of `value`, `count` on each side. */
function neighbours(value: number, count: number): number[] {
  const out: number[] = [];
  const float = new Float32Array(1);
  const bits = new Int32Array(float.buffer);
  float[0] = value;
  const at = bits[0]!;
  for (let d = -count; d <= count; d += 1) {
    bits[0] = at + d;
    if (Number.isFinite(float[0]!)) out.push(float[0]!);
  }
  return out;
}

describe('per-channel byte tables of the import’s colouring', () => {
  test('every step of a grey preset’s bytes, and the fluxes beside it, give prettyColor’s byte', () => {
    for (const p of [preset(1), preset(1, { gamma: 0.7, exposure: 1.3, ground: 0.01, bias: 0.02 })]) {
      const [entry] = channelTables(p, mixMatrix(p.mix, 1), 1);
      expect(entry).toBeDefined();
      const table = entry!.table;
      const fluxes: number[] = [];
      // Fine flux intervals with their float32 neighbours, so that each byte's step lies between two.
      // Finer where the bytes climb fastest, just above the sky (b = −10).
      for (let flux = -20; flux <= 200; flux += flux > 5 && flux < 40 ? 0.004 : 0.05)
        fluxes.push(...neighbours(Math.fround(flux), 1));
      for (let k = 0; k < 20000; k += 1) fluxes.push(Math.fround((Math.random() - 0.2) * 400));
      fluxes.push(0, -0, 1e30, -1e30, 1e-30);
      const bytes = new Set<number>();
      for (const flux of fluxes) {
        const byte = table.byte(flux);
        expect(byte, `flux ${flux}`).toBe(expected([flux], p)[0]);
        bytes.add(byte);
      }
      // The fluxes crossed every byte's step: all 256, or from the ground's byte up (12 … 255).
      expect(bytes.size).toBe(p.ground > 0 ? 244 : 256);
    }
  });

  test('the steps are found at the exact float32 flux where the byte turns', () => {
    // Bytes that turn at each whole flux from 0 to 255 (and at ±½ steps of a float32 around them).
    const table = new ChannelTable((flux) => Math.min(255, Math.max(0, Math.floor(flux))));
    for (let b = 0; b <= 255; b += 1) {
      for (const near of neighbours(b, GUARD_ULPS + 2))
        expect(table.byte(near), `flux ${near}`).toBe(Math.min(255, Math.max(0, Math.floor(near))));
      expect(table.byte(b + 0.5)).toBe(b);
    }
    expect(table.byte(-1e30)).toBe(0);
    expect(table.byte(1e30)).toBe(255);
  });

  test('a three-band tile’s colour is prettyColor’s, texel by texel, blanks black', () => {
    const p = preset(3);
    const width = 64;
    const texels = width * width;
    const flux = new Float32Array(3 * texels);
    for (let k = 0; k < flux.length; k += 1) flux[k] = (Math.random() - 0.1) * 150;
    flux[5] = NaN;
    flux[texels + 5] = NaN;
    flux[2 * texels + 5] = NaN;
    // One band blank where the others are not: prettyColor's sums are then NaN, stored as 0.
    flux[texels + 9] = NaN;
    const rgb = colourTile(flux, width, 3, p);
    for (let k = 0; k < texels; k += 1) {
      const want = Number.isNaN(flux[k]!)
        ? [0, 0, 0]
        : expected([flux[k]!, flux[texels + k]!, flux[2 * texels + k]!], p);
      expect([rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2]], `texel ${k}`).toEqual(
        want.map((v) => (Number.isNaN(v) ? 0 : v)),
      );
    }
  });

  test('no tables where the bytes do not rise with the flux or a channel mixes filters', () => {
    expect(channelTables(preset(1, { exposure: -1 }), mixMatrix(0.5, 1), 1)).toEqual([undefined, undefined, undefined]);
    expect(channelTables(preset(1, { gamma: 0 }), mixMatrix(0.5, 1), 1)[0]).toBeUndefined();
    expect(channelTables(preset(1, { a: -1 }), mixMatrix(0.5, 1), 1)[0]).toBeUndefined();
    // Two filters: green is half of each.
    const two = channelTables(preset(2), mixMatrix(0.5, 2), 2);
    expect(two[1]).toBeUndefined();
    expect(two[0]?.filter).toBe(1);
    // Four filters, three bands: red mixes the third and the (missing) fourth.
    expect(channelTables(preset(4), mixMatrix(0.5, 4), 3)[0]).toBeUndefined();
  });
});
