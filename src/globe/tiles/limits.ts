// The loading limits of viewer-spec §9, in one place for every tiled layer.
export const TILE_LIMITS = {
  /** Survey tiles: textures kept, and loads under way at once. */
  survey: { cacheSize: 1000, concurrency: 2 },
  /** Decoded survey images (one per filter file) kept for re-upload. */
  decodedImages: 400,
  /** HiPS tiles: textures kept, and loads under way at once. */
  hips: { cacheSize: 1000, concurrency: 4 },
  /**
   * The HiPS distortion cache: shiftmap textures a HiPS layer keeps, the one place a map is kept
   * (the shiftmap service only computes them).
   */
  shiftmaps: 5000,
} as const;

/** A tile fades in over this time once it is cached (viewer-spec §4, §9). */
export const TILE_FADE_MS = 200;
