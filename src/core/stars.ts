// Star catalogue records (viewer-spec §3): little-endian float32 triplets of ra and dec in
// degrees and V magnitude, as skydata/hipparcos.ts writes them.
//
// For drawing, the stars of a file are regrouped by the nested HEALPix cell of STAR_CELL_ORDER
// that holds them (starCells): a view then draws only the runs of cells that query_disc finds
// in its cone, so a narrow field costs a few hundred vertices instead of the whole catalogue.
import { Healpix } from './healpix';
import type { Core } from './wasm';

export const STAR_RECORD_FLOATS = 3;
/** Floats per star in StarCells.vertices: the unit vector x, y, z and the magnitude. */
export const STAR_VERTEX_FLOATS = 4;
/** Cells of order 4: 3072 cells about 3.7° across. */
export const STAR_CELL_ORDER = 4;
/**
 * The sky map under the whole-sky backdrops (the HiPS and the Milky Way cube) has the stars down
 * to this magnitude baked in (skydata/build.ts); where a backdrop shows, the star point layer
 * leaves those stars to it and draws only the fainter ones, so that no star is lit twice.
 */
export const BACKDROP_STAR_MAGNITUDE = 6;

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
  /** x, y, z (equatorial unit vector) and magnitude per star, STAR_VERTEX_FLOATS each. */
  vertices: Float32Array;
  /** 12·4^STAR_CELL_ORDER + 1 star offsets, ascending, the last the star count. */
  offsets: Uint32Array;
}

/** Regroups (ra, dec, magnitude) records by their nested cell of STAR_CELL_ORDER (a counting sort). */
export function starCells(records: Float32Array, core: Core): StarCells {
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
  }
  return { vertices, offsets };
}
