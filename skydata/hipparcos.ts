// hipparcos-catalog/: index.json (a JSON list of file names, viewer-spec §7) and gzip files of
// little-endian float32 triplets (ra degrees 0..360, dec degrees, V magnitude), brightest first,
// which the decoder worker inflates and streams back as Float32Arrays; beside each, its colour
// file (core/stars.ts starColorFile: one signed byte of B−V per star, in the same order).
// Source: Hipparcos stars as shipped by the npm package d3-celestial (BSD-3-Clause), whose
// GeoJSON folds right ascension into −180…180.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { BV_SCALE, BV_UNKNOWN, starColorFile } from '../core/stars';
import { packageData } from './paths';

interface StarFeature {
  id: number;
  properties: { mag: number; bv?: string | number };
  geometry: { coordinates: [number, number] };
}

/** stars.14.json holds every Hipparcos star d3-celestial ships (to V ≈ 13.8; stars.6 and stars.8
 * are its subsets). The files split it by magnitude, brightest first, so that the star layer
 * can draw the naked-eye sky after the first small file. */
export const HIPPARCOS_SOURCE = 'stars.14.json';
export const MAGNITUDE_SPLITS = [6, 8];

export function buildHipparcos(root: string): { files: string[]; stars: number } {
  const directory = path.join(root, 'hipparcos-catalog');
  fs.rmSync(directory, { recursive: true, force: true });
  fs.mkdirSync(directory, { recursive: true });
  const collection = JSON.parse(fs.readFileSync(packageData('d3-celestial', HIPPARCOS_SOURCE), 'utf8')) as {
    features: StarFeature[];
  };
  const features = collection.features
    .filter((feature) => Number.isFinite(feature.properties.mag))
    .sort((a, b) => a.properties.mag - b.properties.mag);
  const files: string[] = [];
  const bounds = [-Infinity, ...MAGNITUDE_SPLITS, Infinity];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const slice = features.filter((f) => f.properties.mag >= bounds[k] && f.properties.mag < bounds[k + 1]);
    const records = new Float32Array(slice.length * 3);
    const colors = new Int8Array(slice.length);
    slice.forEach((feature, i) => {
      const [longitude, latitude] = feature.geometry.coordinates;
      records[3 * i] = longitude < 0 ? longitude + 360 : longitude;
      records[3 * i + 1] = latitude;
      records[3 * i + 2] = feature.properties.mag;
      const bv = feature.properties.bv === '' ? NaN : Number(feature.properties.bv);
      colors[i] = Number.isFinite(bv) ? Math.max(-127, Math.min(127, Math.round(bv * BV_SCALE))) : BV_UNKNOWN;
    });
    const name =
      k === 0
        ? `stars.mag-lt-${bounds[1]}.f32.gz`
        : k === bounds.length - 2
          ? `stars.mag-ge-${bounds[k]}.f32.gz`
          : `stars.mag-${bounds[k]}-${bounds[k + 1]}.f32.gz`;
    // Float32Array is little-endian on every platform Node runs on; the file format is fixed LE.
    const bytes = new Uint8Array(records.buffer);
    const gzip = { level: 9, mtime: 0 } as zlib.ZlibOptions;
    fs.writeFileSync(path.join(directory, name), zlib.gzipSync(bytes, gzip));
    fs.writeFileSync(path.join(directory, starColorFile(name)), zlib.gzipSync(new Uint8Array(colors.buffer), gzip));
    files.push(name);
  }
  fs.writeFileSync(path.join(directory, 'index.json'), JSON.stringify(files));
  return { files, stars: features.length };
}
