// Runs tests/helpers/make_healpix_references.py (healpy under /usr/bin/python3) once per version
// of the script and returns its vectors. As for the codec references: written to a private
// directory in the system's temporary directory, then renamed into place, so that parallel test
// workers reuse one run.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const script = path.join(root, 'tests/helpers/make_healpix_references.py');

export interface DiscCase {
  theta: number;
  phi: number;
  radius: number;
  nest: boolean;
  inclusive: boolean;
  fact: number;
  /** Merged half-open ranges [lo, hi) as decimal strings. */
  ranges: [string, string][];
  count: number;
}

export interface OrderReferences {
  order: number;
  nside: number;
  ang2pix: { theta: number[]; phi: number[]; ring: string[]; nest: string[] };
  pix: {
    ids: string[];
    ringTheta: number[];
    ringPhi: number[];
    nestTheta: number[];
    nestPhi: number[];
    ringVec: number[];
    nestVec: number[];
    nest2ring: string[];
    ring2nest: string[];
  };
  vec2pix: { xyz: number[]; ring: string[]; nest: string[] };
  /** healpy.boundaries(nside, id, step, nest=True): 4·step vectors per id, x y z interleaved. */
  boundaries: { ids: string[]; step: number; xyz: number[][] };
  query_disc: DiscCase[];
}

export interface HealpixReferences {
  healpy: string;
  orders: OrderReferences[];
}

export function healpixReferences(): HealpixReferences {
  const version = crypto.createHash('sha256').update(fs.readFileSync(script)).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), `galaxy-cruise-healpix-references-${version}`);
  const file = path.join(dir, 'healpix.json');
  if (!fs.existsSync(file)) {
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
      if (!fs.existsSync(file)) throw new Error(`cannot place ${dir}`);
    }
    for (const entry of fs.readdirSync(path.dirname(dir))) {
      if (/^galaxy-cruise-healpix-references-[0-9a-f]{12}$/.test(entry) && entry !== path.basename(dir)) {
        fs.rmSync(path.join(path.dirname(dir), entry), { recursive: true, force: true });
      }
    }
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as HealpixReferences;
}
