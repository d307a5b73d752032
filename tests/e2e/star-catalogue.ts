// The star catalogue the e2e server's page draws, read from its sky data (skydata/hipparcos.ts:
// gzip files of float32 ra, dec, mag, listed in index.json).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { E2E_VAR_DIR } from '../helpers/e2e-server';

export interface Star {
  ra: number;
  dec: number;
  mag: number;
}

export function starCatalogue(): Star[] {
  const folder = path.join(E2E_VAR_DIR, 'sky', 'stellar-globe', 'static', 'hipparcos-catalog');
  const files = JSON.parse(fs.readFileSync(path.join(folder, 'index.json'), 'utf8')) as string[];
  return files.flatMap((file) => {
    const bytes = zlib.gunzipSync(fs.readFileSync(path.join(folder, file)));
    const values = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    return Array.from({ length: values.length / 3 }, (_, k) => ({
      ra: values[3 * k],
      dec: values[3 * k + 1],
      mag: values[3 * k + 2],
    }));
  });
}
