// hipparcos-catalog/: index.json (a JSON list of file names, viewer-spec §7) and gzip files of
// little-endian float32 triplets (ra degrees 0..360, dec degrees, V magnitude), brightest first,
// which the decoder worker inflates and streams back as Float32Arrays.
// Source: Hipparcos stars as shipped by the npm package d3-celestial (BSD-3-Clause), whose
// GeoJSON folds right ascension into −180…180.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { packageData } from './paths';

interface StarFeature {
  id: number;
  properties: { mag: number };
  geometry: { coordinates: [number, number] };
}

export const HIPPARCOS_SOURCES = ['stars.6.json'];

export function buildHipparcos(root: string): { files: string[]; stars: number } {
  const directory = path.join(root, 'hipparcos-catalog');
  fs.mkdirSync(directory, { recursive: true });
  const files: string[] = [];
  let stars = 0;
  for (const source of HIPPARCOS_SOURCES) {
    const collection = JSON.parse(fs.readFileSync(packageData('d3-celestial', source), 'utf8')) as {
      features: StarFeature[];
    };
    const features = collection.features.slice().sort((a, b) => a.properties.mag - b.properties.mag);
    const records = new Float32Array(features.length * 3);
    features.forEach((feature, i) => {
      const [longitude, latitude] = feature.geometry.coordinates;
      records[3 * i] = longitude < 0 ? longitude + 360 : longitude;
      records[3 * i + 1] = latitude;
      records[3 * i + 2] = feature.properties.mag;
    });
    const name = source.replace(/\.json$/, '.f32.gz');
    const bytes = new Uint8Array(records.buffer);
    // Float32Array is little-endian on every platform Node runs on; the file format is fixed LE.
    fs.writeFileSync(path.join(directory, name), zlib.gzipSync(bytes, { level: 9, mtime: 0 } as zlib.ZlibOptions));
    files.push(name);
    stars += features.length;
  }
  fs.writeFileSync(path.join(directory, 'index.json'), JSON.stringify(files));
  return { files, stars };
}
