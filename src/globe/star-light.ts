// How a star's light is drawn (viewer-spec §9: star size 10^(−mag/2.5), at least 3 px, the fixed
// colour (0.75, 0.75, 1, 1)), in the pure form the star layer's shaders are generated from.
//
// A star carries light F = 10^(−(mag − limit)/2.5), 1 at the limiting magnitude of the view: the
// spec's 10^(−mag/2.5), scaled so that the view's range of magnitudes shows. The limit grows as
// the field narrows (starLimit), as a telescope's does, so zooming in gains fainter stars. The
// light is drawn as
//   - a core, a Gaussian whose peak is CORE_GAIN·F, clipped at 1, and whose width is CORE_SIGMA px
//     for a star up to the core's saturation and grows as the fourth root of F past it: a faint
//     star is a dim dot, a bright one a saturated disc that widens with its light;
//   - a glow, HALO_GAIN·CORE_GAIN·F·e^(−r/HALO_SCALE): an exponential halo like a lens's scatter,
//     whose visible radius grows with the logarithm of F, so that a bright star reads at a glance
//     while its summed light keeps rising with its flux.
// The colour is the spec's fixed colour, or, with true star colours, the star's B−V colour
// (core/stars.ts starColor); where the light passes 1 the colour whitens, as an
// over-exposed star does.

/** viewer-spec §9: the fixed star colour. */
export const STAR_COLOR = [0.75, 0.75, 1, 1] as const;
/** viewer-spec §9: the smallest star point, px. */
export const STAR_MIN_SIZE = 3;
/** The core's Gaussian σ, px, up to its saturation. */
export const CORE_SIGMA = 0.75;
/** Past saturation the core's σ grows as peak^CORE_GROWTH. */
export const CORE_GROWTH = 0.25;
/** The core's peak for a star at the limiting magnitude (F = 1): a just visible dot. */
export const CORE_GAIN = 0.1;
/** The glow's peak against the core's. */
export const HALO_GAIN = 0.06;
/** The glow's e-folding radius, px. */
export const HALO_SCALE = 3.5;
/** The largest point drawn, px across: the glow of the brightest stars is cut there. */
export const STAR_MAX_SIZE = 96;
/**
 * Light under this (of 1) is not drawn: under one step of an 8-bit screen. A point reaches only
 * as far as its light stays above it, so a faint star's point is a few pixels, and the software
 * renderers of low-end machines shade no pixel that would show nothing.
 */
export const LIGHT_FLOOR = 1 / 255;

/** The limiting magnitude at a 60° field of view, and its gain per tenfold zoom. */
export const LIMIT_AT_60 = 6.5;
export const LIMIT_PER_DECADE = 2.2;
/** The limit's range: the naked-eye sky at the widest, the catalogue's depth at the narrowest. */
export const LIMIT_RANGE = [5.5, 12] as const;

/** The limiting magnitude of a view `fovy` radians high. */
export function starLimit(fovy: number): number {
  const degrees = (fovy * 180) / Math.PI;
  const limit = LIMIT_AT_60 + LIMIT_PER_DECADE * Math.log10(60 / degrees);
  return Math.min(LIMIT_RANGE[1], Math.max(LIMIT_RANGE[0], limit));
}

/** The star's light F relative to the view's limit. */
export function starFlux(magnitude: number, limit: number): number {
  return Math.pow(10, -(magnitude - limit) / 2.5);
}

/** The light (before colour) at `r` px from the centre of a star of light `flux`. */
/** The core's σ, px, for a peak of `peak`. */
export function coreSigma(peak: number): number {
  return CORE_SIGMA * Math.max(1, peak) ** CORE_GROWTH;
}

export function starProfile(flux: number, r: number): number {
  const peak = CORE_GAIN * flux;
  const sigma = coreSigma(peak);
  const core = Math.min(1, peak * Math.exp(-(r * r) / (2 * sigma * sigma)));
  const halo = HALO_GAIN * peak * Math.exp(-r / HALO_SCALE);
  return core + halo;
}

/** The point's size, px at rest: it reaches as far as the light stays above LIGHT_FLOOR. */
export function starPointSize(flux: number): number {
  const peak = CORE_GAIN * flux;
  const haloReach = HALO_SCALE * Math.log(Math.max(1, (HALO_GAIN * peak) / LIGHT_FLOOR));
  const coreReach = coreSigma(peak) * Math.sqrt(2 * Math.log(Math.max(1, peak / LIGHT_FLOOR)));
  return Math.min(STAR_MAX_SIZE, Math.max(STAR_MIN_SIZE, 2 * Math.max(haloReach, coreReach) + 1));
}

/** The colour drawn for a light `value` (before clipping) of colour `color`: whitened past 1. */
export function exposedColor(color: readonly number[], value: number): [number, number, number] {
  const white = Math.min(1, Math.max(0, (value - 1) / 2));
  const level = Math.min(1, value);
  return [0, 1, 2].map((c) => (color[c] + (1 - color[c]) * white) * level) as [number, number, number];
}

const float = (value: number) => value.toFixed(6);

/** The same functions in GLSL. */
export const STAR_LIGHT_GLSL = `
float starLimit(float fovy) {
  float limit = ${float(LIMIT_AT_60)} + ${float(LIMIT_PER_DECADE)} * log(${float(Math.PI / 3)} / fovy) / log(10.0);
  return clamp(limit, ${float(LIMIT_RANGE[0])}, ${float(LIMIT_RANGE[1])});
}
float starFlux(float magnitude, float limit) { return pow(10.0, -(magnitude - limit) / 2.5); }
float coreSigma(float peak) { return ${float(CORE_SIGMA)} * pow(max(1.0, peak), ${float(CORE_GROWTH)}); }
float starProfile(float flux, float r) {
  float peak = ${float(CORE_GAIN)} * flux;
  float sigma = coreSigma(peak);
  float core = min(1.0, peak * exp(-(r * r) / (2.0 * sigma * sigma)));
  return core + ${float(HALO_GAIN)} * peak * exp(-r / ${float(HALO_SCALE)});
}
float starPointSize(float flux) {
  float peak = ${float(CORE_GAIN)} * flux;
  float haloReach = ${float(HALO_SCALE)} * log(max(1.0, ${float(HALO_GAIN)} * peak / ${float(LIGHT_FLOOR)}));
  float coreReach = coreSigma(peak) * sqrt(2.0 * log(max(1.0, peak / ${float(LIGHT_FLOOR)})));
  return clamp(2.0 * max(haloReach, coreReach) + 1.0, ${float(STAR_MIN_SIZE)}, ${float(STAR_MAX_SIZE)});
}
vec3 exposedColor(vec3 color, float value) {
  return mix(color, vec3(1.0), clamp((value - 1.0) / 2.0, 0.0, 1.0)) * min(1.0, value);
}
`;
