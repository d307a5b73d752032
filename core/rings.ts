// The 120-ring sky pixelisation (application-spec §3, viewer-spec §3 "Sky pixelisation"): the
// LSST/HSC "rings" sky map that numbers the areas of the sky. The math runs in the wasm core
// (assembly/rings.ts, where the layout is drawn out); this is its typed face.
//
//   index 0                 the south polar cap, centre dec = −π/2
//   rings i = 0 … 119       south to north, ring i holding n(i) tracts of centre
//                           ra = 2πj/n(i), dec = ringSize·(i + 1) − π/2, j = 0 … n(i) − 1
//   index total − 1         the north polar cap, centre dec = +π/2
//
// ringSize = π / (numRings + 1); n(i) = ⌊2π·max(sin θ₀, sin θ₁) / ringSize⌋ + 1 for the
// colatitudes θ₀, θ₁ of the ring's edges. Ids of 9e11 and above are offset-encoded,
// 9e11 + 1000·tract + k with k a sub-division of the tract; every call taking an index takes
// either form. Angles are radians.
import type { SkyCoordinate } from './angles';
import type { Core } from './wasm';

export const NUM_RINGS = 120;
/** Height of one ring in declination, radians. */
export const RING_SIZE = Math.PI / (NUM_RINGS + 1);
/** Ids at or above this are offset-encoded (viewer-spec §3). */
export const ENCODED_INDEX_OFFSET = 9e11;
/** Sub-divisions per tract in an offset-encoded id. */
export const ENCODED_INDEX_DIVISOR = 1000;

/**
 * The tract index an id names: the id itself, or for an offset-encoded id (≥ 9e11) the integer
 * quotient ⌊(id − 9e11) / 1000⌋, the tract that holds the sub-division the id encodes.
 * Does not check the index against the map's size (RingsSkyMap does).
 */
export function decodeRingIndex(id: number): number {
  if (!Number.isSafeInteger(id) || id < 0) {
    throw new RangeError(`rings sky map index must be a non-negative integer below 2^53, got ${id}`);
  }
  return id >= ENCODED_INDEX_OFFSET ? Math.floor((id - ENCODED_INDEX_OFFSET) / ENCODED_INDEX_DIVISOR) : id;
}

/** Where an index lies: ring −1 is the south polar cap, ring 120 the north polar cap (tract 0). */
export interface RingPosition {
  ring: number;
  tract: number;
}

/** The 120-ring sky map over a loaded wasm core. */
export class RingsSkyMap {
  /** Number of indices: every tract of every ring and the two polar caps. */
  readonly numTracts: number;
  /** n(i), the number of tracts in ring i. */
  readonly tractsPerRing: Int32Array;
  private readonly firstOfRing: Int32Array;
  private readonly one = new Float64Array(2);
  private readonly oneIndex = new Int32Array(1);

  constructor(private readonly core: Core) {
    const layout = core.ringsLayout();
    this.numTracts = layout.total;
    this.tractsPerRing = layout.tractsPerRing;
    this.firstOfRing = new Int32Array(NUM_RINGS + 1);
    this.firstOfRing[0] = 1;
    for (let ring = 0; ring < NUM_RINGS; ring++) {
      this.firstOfRing[ring + 1] = this.firstOfRing[ring] + this.tractsPerRing[ring];
    }
  }

  /** The decoded tract index of an id (plain or offset-encoded), or a RangeError naming the id. */
  tractIndex(id: number): number {
    const index = decodeRingIndex(id);
    if (index >= this.numTracts) {
      const decoded = id >= ENCODED_INDEX_OFFSET ? ` (offset-encoded: tract ${index})` : '';
      throw new RangeError(`rings sky map index ${id}${decoded} is out of range: tracts are 0 … ${this.numTracts - 1}`);
    }
    return index;
  }

  /** The ring and the tract within it of an id; ring −1 and NUM_RINGS are the polar caps. */
  position(id: number): RingPosition {
    const index = this.tractIndex(id);
    if (index === 0) return { ring: -1, tract: 0 };
    if (index === this.numTracts - 1) return { ring: NUM_RINGS, tract: 0 };
    let ring = 0;
    while (this.firstOfRing[ring + 1] <= index) ring++;
    return { ring, tract: index - this.firstOfRing[ring] };
  }

  /** The index of tract `tract` of ring `ring` (−1 and NUM_RINGS: the caps, tract 0). */
  index(ring: number, tract: number): number {
    if (ring === -1 && tract === 0) return 0;
    if (ring === NUM_RINGS && tract === 0) return this.numTracts - 1;
    if (!Number.isInteger(ring) || ring < 0 || ring >= NUM_RINGS) {
      throw new RangeError(
        `ring ${ring} is out of range: rings are 0 … ${NUM_RINGS - 1} (−1 and ${NUM_RINGS} the caps)`,
      );
    }
    const n = this.tractsPerRing[ring];
    if (!Number.isInteger(tract) || tract < 0 || tract >= n) {
      throw new RangeError(`tract ${tract} is out of range: ring ${ring} holds tracts 0 … ${n - 1}`);
    }
    return this.firstOfRing[ring] + tract;
  }

  /** Centre of the tract an id names (index → angle). */
  indexToAngle(id: number): SkyCoordinate {
    this.tractIndex(id); // throws the clear error for a bad id
    this.core.ringsIndexToAngle(Float64Array.of(id), this.one);
    return { ra: this.one[0], dec: this.one[1] };
  }

  /** The index of the tract that holds a direction (angle → index); ra is taken modulo 2π. */
  angleToIndex(ra: number, dec: number): number {
    this.one[0] = ra;
    this.one[1] = dec;
    if (this.core.ringsAngleToIndex(this.one, this.oneIndex) !== 0) {
      throw new RangeError(`(ra ${ra}, dec ${dec}) is not a direction: dec must lie in [−π/2, π/2] and ra be finite`);
    }
    return this.oneIndex[0];
  }

  /** Centres of many ids at once, as interleaved (ra, dec) pairs; one wasm call per 8192. */
  indicesToAngles(ids: Float64Array | readonly number[], out = new Float64Array(ids.length * 2)): Float64Array {
    const input = ids instanceof Float64Array ? ids : Float64Array.from(ids);
    if (this.core.ringsIndexToAngle(input, out) !== 0) {
      for (let k = 0; k < input.length; k++) {
        if (Number.isNaN(out[2 * k])) {
          try {
            this.tractIndex(input[k]);
          } catch (error) {
            throw new RangeError(`ids[${k}]: ${(error as Error).message}`, { cause: error });
          }
        }
      }
    }
    return out;
  }

  /** Tract indices of interleaved (ra, dec) pairs. */
  anglesToIndices(angles: Float64Array, out = new Int32Array(angles.length >> 1)): Int32Array {
    if (angles.length % 2 !== 0) throw new RangeError('angles must hold (ra, dec) pairs');
    if (this.core.ringsAngleToIndex(angles, out) !== 0) {
      const k = out.indexOf(-1);
      throw new RangeError(
        `angles[${k}] (ra ${angles[2 * k]}, dec ${angles[2 * k + 1]}) is not a direction: dec must lie in [−π/2, π/2] and ra be finite`,
      );
    }
    return out;
  }
}
