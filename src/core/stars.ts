// Star catalogue records (viewer-spec §3): little-endian float32 triplets of ra and dec in
// degrees and V magnitude, as skydata/hipparcos.ts writes them.
export const STAR_RECORD_FLOATS = 3;

export function readStarRecords(bytes: Uint8Array): Float32Array {
  if (bytes.byteLength % (4 * STAR_RECORD_FLOATS) !== 0) {
    throw new Error(`star file of ${bytes.byteLength} bytes is not a whole number of 12-byte records`);
  }
  const records = new Float32Array(bytes.byteLength / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < records.length; i++) records[i] = view.getFloat32(4 * i, true);
  return records;
}
