// One source of whole-sky light per zoom (issue 31): the HiPS and the Milky Way cube render the
// same sky, so the globe shares the light out between them, finest first, never adding both.
import { describe, expect, it } from 'vitest';
import { shareBackdrops } from '../../src/globe/backdrops';

const HIPS = { key: 'hips', texelAngle: 0.0005 };
const CUBE = { key: 'cube', texelAngle: 0.0015 };

describe('backdrop shares', () => {
  it('give the sky to the finer backdrop where it shows in full, nothing to the coarser', () => {
    const shares = shareBackdrops([
      { ...CUBE, coverage: 1 },
      { ...HIPS, coverage: 1 },
    ]);
    expect(shares.get('hips')).toBe(1);
    expect(shares.get('cube')).toBe(0);
  });

  it('let the coarser fill in while the finer loads or fades out, the two adding up to one', () => {
    for (const hips of [0, 0.25, 0.6]) {
      const shares = shareBackdrops([
        { ...HIPS, coverage: hips },
        { ...CUBE, coverage: 1 },
      ]);
      expect(shares.get('hips')).toBe(hips);
      expect(shares.get('hips')! + shares.get('cube')!).toBeCloseTo(1, 12);
    }
  });

  it('never give a backdrop more than it can show, nor one that knows no texel size before a known one', () => {
    const shares = shareBackdrops([
      { ...HIPS, coverage: 0.3 },
      { ...CUBE, coverage: 0.2 },
      { key: 'unknown', texelAngle: null, coverage: 1 },
    ]);
    expect(shares.get('hips')).toBe(0.3);
    expect(shares.get('cube')).toBe(0.2);
    expect(shares.get('unknown')).toBeCloseTo(0.5, 12);
  });
});
