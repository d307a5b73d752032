// Star catalogue records (viewer-spec §3): little-endian float32 triplets of ra and dec in
// degrees and V magnitude, as skydata/hipparcos.ts writes them. Beside each star file lies its
// colour file (starColorFile): one signed byte per star, in the same order, holding the star's
// B−V colour index × BV_SCALE, or BV_UNKNOWN where the catalogue gives none.
//
// For drawing, the stars of a file are regrouped by the nested HEALPix cell of STAR_CELL_ORDER
// that holds them (starCells): a view then draws only the runs of cells that query_disc finds
// in its cone, so a narrow field costs a few hundred vertices instead of the whole catalogue.
import { Healpix } from './healpix';
import type { Core } from './wasm';

export const STAR_RECORD_FLOATS = 3;
/** Floats per star in StarCells.vertices: the unit vector x, y, z, the magnitude and B−V. */
export const STAR_VERTEX_FLOATS = 5;
/** A colour file's byte is B−V × BV_SCALE (−0.4 … 2.0 fit well inside a signed byte). */
export const BV_SCALE = 50;
/** The byte of a star without a B−V in the catalogue. */
export const BV_UNKNOWN = -128;
/** The B−V drawn for a star without one: a Sun-like white. */
export const BV_DEFAULT = 0.6;

/** The colour file beside star file `name`: stars.mag-lt-6.f32.gz → stars.mag-lt-6.bv.i8.gz. */
export function starColorFile(name: string): string {
  return name.replace(/\.f32\.gz$/, '') + '.bv.i8.gz';
}

/** The B−V of each star from its colour file's bytes (BV_DEFAULT where unknown). */
export function readStarColors(bytes: Uint8Array, count: number): Float32Array {
  if (bytes.byteLength !== count) throw new Error(`colour file of ${bytes.byteLength} bytes for ${count} stars`);
  const colors = new Float32Array(count);
  for (let k = 0; k < count; k++) {
    const byte = (bytes[k] << 24) >> 24;
    colors[k] = byte === BV_UNKNOWN ? BV_DEFAULT : byte / BV_SCALE;
  }
  return colors;
}

/**
 * The colour of a star of B−V index `bv` (hot blue-white through white to cool orange), red,
 * green and blue in 0..1 with the brightest channel 1: a piecewise-linear fit to the colours of
 * blackbodies of the stars' temperatures (Ballesteros 2012's B−V → temperature). The star layer's
 * shader (STAR_COLOR_GLSL) is the same function.
 */
export function starColor(bv: number): [number, number, number] {
  const t = Math.max(-0.4, Math.min(2, Number.isFinite(bv) ? bv : BV_DEFAULT));
  const r = t < 0.4 ? 0.62 + 0.475 * (t + 0.4) : 1;
  const g = t < 0.4 ? 0.7 + 0.375 * (t + 0.4) : 1 - 0.21875 * (t - 0.4);
  const b = t < 0 ? 1 : Math.max(0.35, 1 - 0.40625 * t);
  return [r, g, b];
}

/** starColor in GLSL, the same constants. */
export const STAR_COLOR_GLSL = `
vec3 starColor(float bv) {
  float t = clamp(bv, -0.4, 2.0);
  float r = t < 0.4 ? 0.62 + 0.475 * (t + 0.4) : 1.0;
  float g = t < 0.4 ? 0.7 + 0.375 * (t + 0.4) : 1.0 - 0.21875 * (t - 0.4);
  float b = t < 0.0 ? 1.0 : max(0.35, 1.0 - 0.40625 * t);
  return vec3(r, g, b);
}
`;
/** Cells of order 4: 3072 cells about 3.7° across. */
export const STAR_CELL_ORDER = 4;

export function readStarRecords(bytes: Uint8Array): Float32Array {
  if (bytes.byteLength % (4 * STAR_RECORD_FLOATS) !== 0) {
    throw new Error(`star file of ${bytes.byteLength} bytes is not a whole number of 12-byte records`);
  }
  const records = new Float32Array(bytes.byteLength / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < records.length; i++) records[i] = view.getFloat32(4 * i, true);
  return records;
}

/** Stars ordered by cell: cell c holds vertices offsets[c] .. offsets[c + 1] − 1. */
export interface StarCells {
  /** x, y, z (equatorial unit vector), magnitude and B−V per star, STAR_VERTEX_FLOATS each. */
  vertices: Float32Array;
  /** 12·4^STAR_CELL_ORDER + 1 star offsets, ascending, the last the star count. */
  offsets: Uint32Array;
}

/**
 * Regroups (ra, dec, magnitude) records, with each star's B−V (`colors`, BV_DEFAULT for every
 * star when absent), by their nested cell of STAR_CELL_ORDER (a counting sort).
 */
export function starCells(records: Float32Array, core: Core, colors?: Float32Array): StarCells {
  const count = Math.floor(records.length / STAR_RECORD_FLOATS);
  const xyz = new Float64Array(3 * count);
  for (let k = 0; k < count; k++) {
    const ra = (records[STAR_RECORD_FLOATS * k] * Math.PI) / 180;
    const dec = (records[STAR_RECORD_FLOATS * k + 1] * Math.PI) / 180;
    xyz[3 * k] = Math.cos(dec) * Math.cos(ra);
    xyz[3 * k + 1] = Math.cos(dec) * Math.sin(ra);
    xyz[3 * k + 2] = Math.sin(dec);
  }
  const grid = new Healpix(core, 2 ** STAR_CELL_ORDER, 'nest');
  const cells = grid.vec2pixBatch(xyz) as Float64Array;
  const offsets = new Uint32Array(12 * 4 ** STAR_CELL_ORDER + 1);
  for (let k = 0; k < count; k++) offsets[cells[k] + 1]++;
  for (let c = 1; c < offsets.length; c++) offsets[c] += offsets[c - 1];
  const next = offsets.slice(0, -1);
  const vertices = new Float32Array(STAR_VERTEX_FLOATS * count);
  for (let k = 0; k < count; k++) {
    const at = STAR_VERTEX_FLOATS * next[cells[k]]++;
    vertices[at] = xyz[3 * k];
    vertices[at + 1] = xyz[3 * k + 1];
    vertices[at + 2] = xyz[3 * k + 2];
    vertices[at + 3] = records[STAR_RECORD_FLOATS * k + 2];
    vertices[at + 4] = colors ? colors[k] : BV_DEFAULT;
  }
  return { vertices, offsets };
}
