// A channel of a tile's colour that one filter alone makes (a grey HiPS; red, green and blue of
// three bands), looked up instead of computed: ./hips-image-tiles.ts colourTile's byte for a
// texel is round(exposeChannel(w · stretch(flux)) · 255), a non-decreasing function of the flux
// whenever a, β, the exposure, γ and w are positive. Its 255 steps are found once, as the
// smallest float32 flux that reaches each byte (bisection over the float32 values, in order, with
// the same functions), and a texel's byte is then the number of steps at or below its flux.
// Rounding in the arithmetic could move a step by an ulp of the flux, so a flux within GUARD_ULPS
// float32 steps of a step is computed instead, as is any flux the table does not cover.
import { DEFAULT_DISPLAY, exposeChannel, filterStretch } from '../../shared/prettyMixing';
import type { ImportPreset } from './hips-image-tiles';

/** Float32 steps on each side of a byte's step where the byte is computed, not looked up. */
export const GUARD_ULPS = 4;

const float = new Float32Array(1);
const bits = new Int32Array(float.buffer);

/** The float32 values in order as integers: negative ones below zero, −0 just under +0. */
function ordinal(value: number): number {
  float[0] = value;
  const raw = bits[0]!;
  return raw < 0 ? -(raw & 0x7fffffff) - 1 : raw;
}

function fromOrdinal(index: number): number {
  bits[0] = index < 0 ? -(index + 1) | 0x80000000 : index;
  return float[0]!;
}

const LOWEST = ordinal(-Infinity);
const HIGHEST = ordinal(Infinity);

export class ChannelTable {
  /** For byte b (1..255): the smallest float32 flux whose byte is at least b. */
  private readonly steps = new Float64Array(256);
  /** For byte b: the fluxes from `safeFrom[b]` below `safeTo[b]` take byte b without doubt. */
  private readonly safeFrom = new Float64Array(256);
  private readonly safeTo = new Float64Array(256);

  /** `byteOf` is the exact byte of a flux; it must not decrease as the flux grows. */
  constructor(readonly byteOf: (flux: number) => number) {
    const low = byteOf(-Infinity);
    // Ordinals of each step; below `low` every byte is reached at −∞, above the top never.
    const at = new Array<number>(257);
    for (let b = 0; b <= 256; b += 1) {
      if (b <= low) {
        at[b] = LOWEST;
        continue;
      }
      if (b === 256 || byteOf(Infinity) < b) {
        at[b] = HIGHEST + 1;
        continue;
      }
      // The smallest ordinal whose byte is ≥ b, between the step below and +∞.
      let lo = at[b - 1]!;
      let hi = HIGHEST;
      while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2);
        if (byteOf(fromOrdinal(mid)) >= b) hi = mid;
        else lo = mid + 1;
      }
      at[b] = lo;
    }
    for (let b = 0; b < 256; b += 1) {
      const from = at[b]! + GUARD_ULPS;
      const to = at[b + 1]! - GUARD_ULPS;
      this.steps[b] = b === 0 ? -Infinity : at[b]! > HIGHEST ? Infinity : fromOrdinal(at[b]!);
      // An empty or unbounded range is left empty: those fluxes are computed.
      const usable = from < to && from > LOWEST && to <= HIGHEST;
      this.safeFrom[b] = usable ? fromOrdinal(from) : Infinity;
      this.safeTo[b] = usable ? fromOrdinal(to) : -Infinity;
    }
  }

  /** The byte of a flux (a float32 value, not NaN). */
  byte(flux: number): number {
    const steps = this.steps;
    // The largest b with steps[b] ≤ flux, by halving 0..255.
    let b = 0;
    for (let half = 128; half >= 1; half >>= 1) if (steps[b + half]! <= flux) b += half;
    if (flux >= this.safeFrom[b]! && flux < this.safeTo[b]!) return b;
    return this.byteOf(flux);
  }
}

/**
 * Per colour channel, the filter that alone makes it and the table of its bytes; undefined for
 * a channel the tables cannot make (mixed filters, a missing band, a preset that does not
 * rise with the flux).
 */
export function channelTables(
  preset: ImportPreset,
  weights: Float32Array,
  bands: number,
): ({ filter: number; table: ChannelTable } | undefined)[] {
  const rising = preset.a > 0 && preset.beta * DEFAULT_DISPLAY.betaScale > 0 && preset.exposure > 0 && preset.gamma > 0;
  const stretch = filterStretch(preset, DEFAULT_DISPLAY.betaScale);
  const made = new Map<string, ChannelTable>();
  return [0, 1, 2].map((channel) => {
    if (!rising) return undefined;
    const filters: number[] = [];
    for (let filter = 0; filter < preset.nFilters; filter += 1)
      if (weights[3 * filter + channel] !== 0) filters.push(filter);
    const filter = filters[0];
    if (filters.length !== 1 || filter === undefined || filter >= bands) return undefined;
    const weight = weights[3 * filter + channel]!;
    if (!(weight > 0)) return undefined;
    const key = `${filter} ${weight}`;
    let table = made.get(key);
    if (!table) {
      table = new ChannelTable((flux) => Math.round(exposeChannel(weight * stretch(flux), preset) * 255));
      made.set(key, table);
    }
    return { filter, table };
  });
}
