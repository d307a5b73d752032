// Adaptive resolution: where moving frames come slowly (a weak or software GPU), the globe draws
// its passing frames at a fraction of the canvas's resolution, which the page scales up: the
// frames of a motion, and those of a view whose tiles are still arriving. The frame the view
// settles on, the one a volunteer looks at, is always at full resolution. Filling the pixels and,
// where the browser composites in software, reading each frame back both cost in proportion to
// the pixels, so a slow machine moves more smoothly, and has its main thread free sooner for the
// tiles still to come, for a softer picture in passing. A fast machine never leaves full
// resolution.

/** The resolution of a slow machine's passing frames, per axis (a quarter of the pixels). */
export const MOTION_RESOLUTION = 0.5;
/** Moving frames further apart than this (under 20 frames/s) count as slow. */
export const SLOW_FRAME_MS = 50;
/** Weight of the newest interval in the smoothed one. */
const SMOOTHING = 0.3;

/**
 * A slow machine's frames while the view at rest fills (its tiles arriving and fading in) come at
 * most this often: every frame is as costly as a moving one there (the whole canvas filled and,
 * under software compositing, read back), and the loads it would hold up are what the volunteer
 * waits for. A fade of TILE_FADE_MS then shows in a step or two; a fast machine draws every one.
 */
export const FILL_FRAME_MS = 150;

export class AdaptiveResolution {
  private isSlow = false;
  /** Smoothed interval between moving frames at the current resolution, ms. */
  private interval: number | null = null;
  /** The previous frame's time, when it was a moving one. */
  private previous: number | null = null;

  /** Whether moving frames came slowly at the last motion (this machine counts as slow). */
  get slow(): boolean {
    return this.isSlow;
  }

  /**
   * The resolution of the frame drawn at `time` (ms), 1 or MOTION_RESOLUTION. `moving`: the
   * camera is in motion in it; `filling`: tiles the view wants are still loading. Only moving
   * frames, which follow each other as fast as the machine draws, tell its pace: the machine
   * counts as slow once they come more than SLOW_FRAME_MS apart, and as fast again once, at the
   * lower resolution, they come so often that full resolution would keep within SLOW_FRAME_MS
   * (the cost taken as the pixels').
   */
  resolution(time: number, moving: boolean, filling = false): number {
    if (!moving) {
      this.previous = null;
      return filling && this.isSlow ? MOTION_RESOLUTION : 1;
    }
    if (this.previous !== null) {
      const interval = time - this.previous;
      this.interval = this.interval === null ? interval : this.interval + SMOOTHING * (interval - this.interval);
      const limit = this.isSlow ? SLOW_FRAME_MS * MOTION_RESOLUTION ** 2 : SLOW_FRAME_MS;
      if (this.isSlow ? this.interval < limit : this.interval > limit) {
        this.isSlow = !this.isSlow;
        this.interval = null;
      }
    }
    this.previous = time;
    return this.isSlow ? MOTION_RESOLUTION : 1;
  }
}
