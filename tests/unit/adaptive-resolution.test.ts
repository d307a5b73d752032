// Adaptive resolution (src/globe/resolution.ts): a slow machine's moving frames at a lower
// resolution, every frame at rest and every fast machine's frame at full resolution.
import { describe, expect, it } from 'vitest';
import { AdaptiveResolution, MOTION_RESOLUTION, SLOW_FRAME_MS } from '../../src/globe/resolution';

/** The resolutions of moving frames `interval` ms apart, from `start`. */
function moving(governor: AdaptiveResolution, start: number, interval: number, count: number): number[] {
  return Array.from({ length: count }, (_, k) => governor.resolution(start + k * interval, true));
}

describe('AdaptiveResolution', () => {
  it('keeps a fast machine at full resolution, moving or not', () => {
    const governor = new AdaptiveResolution();
    expect(moving(governor, 0, 16, 100)).toEqual(Array(100).fill(1));
    expect(governor.resolution(2000, false)).toBe(1);
    // Its frames while the view fills are never held back (Globe, FILL_FRAME_MS).
    expect(governor.slow).toBe(false);
  });

  it("draws a slow machine's moving frames at the lower resolution, and the frame at rest at full", () => {
    const governor = new AdaptiveResolution();
    const frames = moving(governor, 0, 400, 10);
    // The first frame is at full resolution: the interval up to the second tells that the
    // machine is slow.
    expect(frames).toEqual([1, ...Array(9).fill(MOTION_RESOLUTION)]);
    expect(governor.slow).toBe(true);
    expect(governor.resolution(4200, false)).toBe(1);
    // The next motion starts at the lower resolution: the machine is still known to be slow.
    expect(governor.resolution(10_000, true)).toBe(MOTION_RESOLUTION);
  });

  it('does not count the pause between two motions as a slow frame', () => {
    const governor = new AdaptiveResolution();
    moving(governor, 0, 16, 5);
    expect(governor.resolution(100, false)).toBe(1);
    expect(moving(governor, 5000, 16, 5)).toEqual(Array(5).fill(1));
  });

  it('goes back to full resolution only when full-resolution frames would be fast', () => {
    const governor = new AdaptiveResolution();
    moving(governor, 0, 400, 5);
    // Lower-resolution frames a little under SLOW_FRAME_MS apart: full resolution (four times the
    // pixels) would be slow again, so the resolution stays low rather than flip-flopping.
    expect(moving(governor, 2000, SLOW_FRAME_MS - 10, 30)).toEqual(Array(30).fill(MOTION_RESOLUTION));
    // A quarter of that: full resolution would keep up.
    expect(moving(governor, 5000, SLOW_FRAME_MS / 8, 30).at(-1)).toBe(1);
  });
});

describe('AdaptiveResolution while tiles arrive', () => {
  it("draws a slow machine's frames of a view still filling in at the lower resolution, the settled one at full", () => {
    const governor = new AdaptiveResolution();
    moving(governor, 0, 400, 5);
    expect(governor.resolution(3000, false, true)).toBe(MOTION_RESOLUTION);
    expect(governor.resolution(3100, false, true)).toBe(MOTION_RESOLUTION);
    expect(governor.resolution(3500, false, false)).toBe(1);
  });

  it('keeps a fast machine, or one whose pace is not known yet, at full resolution while tiles arrive', () => {
    expect(new AdaptiveResolution().resolution(0, false, true)).toBe(1);
    const governor = new AdaptiveResolution();
    moving(governor, 0, 16, 10);
    // Tiles arriving far apart do not make the machine slow: only moving frames tell its pace.
    for (const time of [1000, 2000, 3000]) expect(governor.resolution(time, false, true)).toBe(1);
    expect(moving(governor, 4000, 16, 3)).toEqual([1, 1, 1]);
  });
});
