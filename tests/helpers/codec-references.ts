// The files tests/helpers/make_codec_references.py makes with gzip, pigz, Python's gzip/zlib and
// astropy, and their manifest, for the inflate, FITS and fuzz conformance tests.
import fs from 'node:fs';
import path from 'node:path';
import { pythonReferences } from './python-references';

export interface InflateCase {
  name: string;
  file: string;
  format: 'gzip' | 'raw';
  expect: string | null;
  error: string | null;
}

export interface FitsCase {
  name: string;
  file: string;
  hdu: number | null;
  header?: Record<string, string | number | boolean>;
  bitpix?: number;
  axes?: number[];
  bzero?: number;
  bscale?: number;
  expect: string | null;
  error: string | null;
}

export interface CodecReferences {
  dir: string;
  inflate: InflateCase[];
  fits: FitsCase[];
  read(file: string): Buffer;
}

export function codecReferences(): CodecReferences {
  const dir = pythonReferences('make_codec_references.py', 'codec', 'manifest.json');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
    inflate: InflateCase[];
    fits: FitsCase[];
  };
  return { dir, ...manifest, read: (file) => fs.readFileSync(path.join(dir, file)) };
}
