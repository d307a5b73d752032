// The headers and positions tests/helpers/make_wcs_references.py makes with astropy.wcs
// (Debian's python3-astropy, wcslib underneath), for the celestial WCS conformance test.
import fs from 'node:fs';
import path from 'node:path';
import { pythonReferences } from './python-references';

/** Values are null where wcslib gave no position. */
export interface WcsCase {
  name: string;
  file: string;
  lonpole: number;
  latpole: number;
  /** Arcseconds per pixel (the matrix's largest singular value). */
  scale: number;
  pixels: { x: number[]; y: number[]; lng: (number | null)[]; lat: (number | null)[] };
  worlds: { lng: number[]; lat: number[]; x: (number | null)[]; y: (number | null)[] };
}

export interface WcsReferences {
  astropy: string;
  cases: WcsCase[];
  read(file: string): Uint8Array;
}

export function wcsReferences(): WcsReferences {
  const dir = pythonReferences('make_wcs_references.py', 'wcs', 'wcs.json');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'wcs.json'), 'utf8')) as Omit<WcsReferences, 'read'>;
  return { ...manifest, read: (file) => new Uint8Array(fs.readFileSync(path.join(dir, file))) };
}
