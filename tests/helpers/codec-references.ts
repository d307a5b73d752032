// Runs tests/helpers/make_codec_references.py (gzip, pigz, Python's gzip/zlib and astropy
// under /usr/bin/python3) once per version of the script and hands its directory to the
// inflate, FITS and fuzz conformance tests. Test files run in parallel workers, so each run
// writes a private directory and renames it into place; a lost race just reuses the winner's.
// They live in the system's temporary directory, not test-results/, which Playwright empties
// whenever it starts.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const script = path.join(root, 'tests/helpers/make_codec_references.py');

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
  const version = crypto.createHash('sha256').update(fs.readFileSync(script)).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), `galaxy-cruise-codec-references-${version}`);
  if (!fs.existsSync(path.join(dir, 'manifest.json'))) {
    const scratch = `${dir}.tmp-${process.pid}-${Date.now()}`;
    try {
      execFileSync('/usr/bin/python3', [script, scratch], { stdio: ['ignore', 'ignore', 'inherit'] });
    } catch (error) {
      fs.rmSync(scratch, { recursive: true, force: true });
      throw error;
    }
    try {
      fs.renameSync(scratch, dir);
    } catch {
      fs.rmSync(scratch, { recursive: true, force: true });
      if (!fs.existsSync(path.join(dir, 'manifest.json'))) throw new Error(`cannot place ${dir}`);
    }
    // Files of older versions of the script are of no further use.
    for (const entry of fs.readdirSync(path.dirname(dir))) {
      if (/^galaxy-cruise-codec-references-[0-9a-f]{12}$/.test(entry) && entry !== path.basename(dir)) {
        fs.rmSync(path.join(path.dirname(dir), entry), { recursive: true, force: true });
      }
    }
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
    inflate: InflateCase[];
    fits: FitsCase[];
  };
  return { dir, ...manifest, read: (file) => fs.readFileSync(path.join(dir, file)) };
}
