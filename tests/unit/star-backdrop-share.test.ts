// A star lit once at every zoom (issue 31): the stars baked into the whole-sky backdrops (to
// BACKDROP_STAR_MAGNITUDE) are drawn by the star layer only in the light the backdrops leave.
import { describe, expect, it } from 'vitest';
import { BACKDROP_STAR_MAGNITUDE } from '../../src/core/stars';
import { backdropShare, pointShare } from '../../src/globe/layers/stars';
import type { Layer } from '../../src/globe/layers/layer';

const layer = (name: string) => ({ name }) as unknown as Layer;

describe("the star layer's share beside the backdrops", () => {
  it('bakes the stars to magnitude 6, as d3-celestial stars.6.json holds them', () => {
    expect(BACKDROP_STAR_MAGNITUDE).toBe(6);
  });

  it('leaves a baked star to a backdrop shown in full, and draws it in full where none shows', () => {
    expect(pointShare(1, 1)).toBe(0);
    expect(pointShare(6, 1)).toBe(0);
    expect(pointShare(1, 0)).toBe(1);
    expect(pointShare(-1.44, 0.25)).toBeCloseTo(0.75, 12);
  });

  it('draws the stars fainter than the baked ones in full at every zoom', () => {
    expect(pointShare(6.01, 1)).toBe(1);
    expect(pointShare(9, 0.5)).toBe(1);
  });

  it("sums the frame's backdrop shares, at most 1, and 0 without backdrops", () => {
    expect(backdropShare({ backdrops: undefined })).toBe(0);
    expect(
      backdropShare({
        backdrops: new Map([
          [layer('hips'), 0.625],
          [layer('milky-way'), 0.25],
        ]),
      }),
    ).toBeCloseTo(0.875, 12);
    expect(backdropShare({ backdrops: new Map([[layer('hips'), 1]]) })).toBe(1);
  });
});
