// The colour mixing of the pretty-picture layers (viewer-spec §3 "Pretty-picture presets"): a
// preset's nFilters, a, b, mix, beta, bias, exposure, gamma and ground turn up to four filter
// fluxes x_k of a pixel into a colour, in this order:
//
//   1. stretch each filter:  s_k = clamp(asinh(β·a·(x_k + b)) / asinh(β) + bias, 0, 1)
//      (b removes the sky background, a scales the flux, β softens the asinh stretch of
//      Lupton et al. 2004, bias lifts or lowers the black point);
//   2. shoulder:             s_k ← (1 − cos(π·s_k)) / 2, so that faint and bright ends roll off;
//   3. mix into colour:      rgb = M(mix, nFilters) · s (mixMatrix below);
//   4. expose:               rgb = clamp((exposure · max(0, rgb + ground))^γ, 0, 1).
//
// Filters come in the order of meta.json's list, shortest wavelength first. The viewer's
// settings act on top of the preset: the brightness setting scales β (betaScale), grayscale
// shows the mean of red, green and blue, and one filter may be shown alone, in grey.
// prettyColor is the reference the viewer's shader (PRETTY_MIXER_GLSL,
// src/globe/layers/pretty-picture-mixer.ts) is held against in the tests, and the colour of the
// HiPS that `galaxy-cruise import` makes of a group's images (skydata/import/hips-from-images.ts).

import type { PrettyPreset } from './prettyPicture';

/** viewer-spec §5: a pretty-picture filter count above 4 is not supported. */
export const MAX_PRETTY_FILTERS = 4;

/** What the viewer's settings change on top of a preset. */
export interface PrettyDisplay {
  /** Multiplies the preset's β: the brightness setting over its normal value. */
  betaScale: number;
  grayscale: boolean;
  /** Index of the one filter shown alone (in grey), or null for the preset's colours. */
  solo: number | null;
}

export const DEFAULT_DISPLAY: PrettyDisplay = { betaScale: 1, grayscale: false, solo: null };

/** The error of a meta.json with more filters than the mixer takes. */
export function checkFilterCount(nFilters: number): void {
  if (!(nFilters >= 1 && nFilters <= MAX_PRETTY_FILTERS))
    throw new Error(`a pretty picture of ${nFilters} filters is not supported (at most ${MAX_PRETTY_FILTERS})`);
}

/**
 * M(mix, n): 12 weights, column k (weights[3k..3k+2]) the red, green and blue of filter k.
 *   1 filter:  grey;
 *   2 filters: the shorter blue, the longer red, green their mean;
 *   3 filters: blue, green, red;
 *   4 filters: blue, green, and red from the third (a narrow band, e.g. Hα) weighted by mix and
 *              the fourth (a broad red band) by 1 − mix.
 * A solo filter is grey and the others are left out.
 */
export function mixMatrix(mix: number, nFilters: number, solo: number | null = null): Float32Array {
  checkFilterCount(nFilters);
  const weights = new Float32Array(3 * MAX_PRETTY_FILTERS);
  const set = (filter: number, rgb: [number, number, number]) => weights.set(rgb, 3 * filter);
  if (solo !== null && solo >= 0 && solo < nFilters) {
    set(solo, [1, 1, 1]);
    return weights;
  }
  if (nFilters === 1) set(0, [1, 1, 1]);
  else if (nFilters === 2) {
    set(0, [0, 0.5, 1]);
    set(1, [1, 0.5, 0]);
  } else {
    set(0, [0, 0, 1]);
    set(1, [0, 1, 0]);
    if (nFilters === 3) set(2, [1, 0, 0]);
    else {
      set(2, [mix, 0, 0]);
      set(3, [1 - mix, 0, 0]);
    }
  }
  return weights;
}

/** Step 1 and 2 for one filter's flux. */
export function stretchFilter(x: number, preset: Pick<PrettyPreset, 'a' | 'b' | 'beta' | 'bias'>, betaScale = 1) {
  const beta = preset.beta * betaScale;
  return stretchWith(x, preset, beta, Math.asinh(beta));
}

/** stretchFilter with its preset taken once, for a caller that stretches many values alike. */
export function filterStretch(
  preset: Pick<PrettyPreset, 'a' | 'b' | 'beta' | 'bias'>,
  betaScale = 1,
): (x: number) => number {
  const beta = preset.beta * betaScale;
  const asinhBeta = Math.asinh(beta);
  return (x) => stretchWith(x, preset, beta, asinhBeta);
}

function stretchWith(x: number, preset: Pick<PrettyPreset, 'a' | 'b' | 'bias'>, beta: number, asinhBeta: number) {
  const s = Math.min(1, Math.max(0, Math.asinh(beta * preset.a * (x + preset.b)) / asinhBeta + preset.bias));
  return (1 - Math.cos(Math.PI * s)) / 2;
}

/** One channel's mixed value through the preset's ground, exposure and gamma, clamped to 0..1. */
export function exposeChannel(value: number, preset: Pick<PrettyPreset, 'exposure' | 'ground' | 'gamma'>): number {
  return Math.min(1, Math.max(0, Math.pow(preset.exposure * Math.max(0, value + preset.ground), preset.gamma)));
}

/**
 * The colour (0..1 per channel) of a pixel whose filters hold `fluxes` (a missing one is 0).
 * `weights` are mixMatrix's for the preset and display, passed in by a caller that colours many
 * pixels alike.
 */
export function prettyColor(
  fluxes: readonly number[],
  preset: Omit<PrettyPreset, 'view'>,
  display: PrettyDisplay = DEFAULT_DISPLAY,
  weights: Float32Array = mixMatrix(preset.mix, preset.nFilters, display.solo),
): [number, number, number] {
  const rgb = [0, 0, 0];
  for (let k = 0; k < preset.nFilters; k++) {
    const s = stretchFilter(fluxes[k] ?? 0, preset, display.betaScale);
    for (let c = 0; c < 3; c++) rgb[c] += weights[3 * k + c] * s;
  }
  const exposed = rgb.map((value) => exposeChannel(value, preset));
  if (display.grayscale) {
    const mean = (exposed[0] + exposed[1] + exposed[2]) / 3;
    return [mean, mean, mean];
  }
  return [exposed[0], exposed[1], exposed[2]];
}
