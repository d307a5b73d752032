// The celestial WCS (assembly/wcs.ts; the API with the header reading is core/wcs-celestial.ts).
// wcsPrepare checks one WCS and returns its prepared block, an opaque copy of the module's
// parameter segment; each batch writes the block back first, so that several WCS can be used in
// turn, then runs the door's chunk loop over the points.

import type { CoreMemory } from '../core-memory';

const WCS_CHUNK = 16384; // points per wasm call: four arrays of 128 KiB

/** The projections of assembly/wcs.ts. */
export type WcsProjectionName = 'TAN' | 'SIN' | 'CAR';

/** The numbers of one celestial WCS, longitude first (see assembly/wcs.ts). */
export interface WcsNumbers {
  projection: WcsProjectionName;
  /** CRPIX of pixel axes 1 and 2. */
  crpix: readonly [number, number];
  /** Pixel offsets → intermediate world coordinates, degrees: row 0 the longitude's, row 1 the latitude's. */
  matrix: readonly [readonly [number, number], readonly [number, number]];
  /** CRVAL of the longitude and the latitude, degrees. */
  crval: readonly [number, number];
  /** LONPOLE and LATPOLE in degrees; NaN for the defaults of Paper II §2.4. */
  lonpole: number;
  latpole: number;
  /** SIN's slant parameters ξ = PV2_1, η = PV2_2 (0 for the plain orthographic projection). */
  pv: readonly [number, number];
}

/** A prepared WCS: the block the batches write back, and the pole wcslib would report. */
export interface PreparedWcs {
  block: Float64Array;
  lonpole: number;
  latpole: number;
}

export function wcsKernels(memory: CoreMemory) {
  const { exports } = memory;
  const codes: Record<WcsProjectionName, number> = {
    TAN: exports.WCS_TAN.value as number,
    SIN: exports.WCS_SIN.value as number,
    CAR: exports.WCS_CAR.value as number,
  };
  const failures = new Map<number, string>([
    [
      memory.errorCode('WCS_BAD_PARAMETER'),
      'a WCS parameter is not a finite number, or CRVAL of the latitude is outside ±90°',
    ],
    [memory.errorCode('WCS_SINGULAR_MATRIX'), 'the WCS matrix (CD, or CDELT × PC) has no inverse'],
    [memory.errorCode('WCS_BAD_POLE'), 'CRVAL, LONPOLE and LATPOLE admit no celestial pole (WCS Paper II §2.4)'],
  ]);
  const ok = memory.errorCode('WCS_OK');
  const slots = exports.wcsBlockSlots();

  function load(block: Float64Array): void {
    memory.write(exports.wcsBlock(), new Uint8Array(block.buffer, block.byteOffset, slots * 8));
  }

  function sizes(n: number, arrays: readonly Float64Array[]): void {
    for (const array of arrays) {
      if (array.length < n) throw new Error(`WCS: an array holds ${array.length} values, ${n} needed`);
    }
  }

  return {
    /** Checks `wcs` (throws with the reason) and returns its prepared block. */
    wcsPrepare(wcs: WcsNumbers): PreparedWcs {
      const { crpix, matrix, crval, pv } = wcs;
      const code = exports.wcsPrepare(
        crpix[0],
        crpix[1],
        matrix[0][0],
        matrix[0][1],
        matrix[1][0],
        matrix[1][1],
        crval[0],
        crval[1],
        wcs.lonpole,
        wcs.latpole,
        pv[0],
        pv[1],
        codes[wcs.projection],
      );
      if (code !== ok) throw new Error(failures.get(code) ?? `WCS: internal error ${code}`);
      const block = new Float64Array(slots);
      memory.read(exports.wcsBlock(), block, slots);
      return { block, lonpole: exports.wcsLonpole(), latpole: exports.wcsLatpole() };
    },

    /** Pixels (1-based) → (lng, lat) degrees; returns how many had no position (NaN). */
    wcsPix2sky(wcs: PreparedWcs, x: Float64Array, y: Float64Array, lng: Float64Array, lat: Float64Array): number {
      const n = x.length;
      sizes(n, [y, lng, lat]);
      load(wcs.block);
      let invalid = 0;
      memory.chunks(n, WCS_CHUNK, [{ array: x }, { array: y }], [{ array: lng }, { array: lat }], (at, count) => {
        invalid += exports.wcsPix2sky(at[0], at[1], at[2], at[3], count);
      });
      return invalid;
    },

    /** (lng, lat) degrees → pixels (1-based); returns how many had no pixel (NaN). */
    wcsSky2pix(wcs: PreparedWcs, lng: Float64Array, lat: Float64Array, x: Float64Array, y: Float64Array): number {
      const n = lng.length;
      sizes(n, [lat, x, y]);
      load(wcs.block);
      let invalid = 0;
      memory.chunks(n, WCS_CHUNK, [{ array: lng }, { array: lat }], [{ array: x }, { array: y }], (at, count) => {
        invalid += exports.wcsSky2pix(at[0], at[1], at[2], at[3], count);
      });
      return invalid;
    },
  };
}
