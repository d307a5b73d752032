// The target lists tests/helpers/make_target_list_references.py writes with astropy.table
// (Debian's python3-astropy): CSV, FITS BINTABLE and VOTable files and what they hold.
import fs from 'node:fs';
import path from 'node:path';
import { pythonReferences } from './python-references';

export interface ExpectedTarget {
  id: number;
  ra: number;
  dec: number;
  name: string | null;
  galaxy_type: string | null;
  interaction: string;
  ring: boolean;
  captain_note: string | null;
}

export interface TargetListReferences {
  dir: string;
  targets: ExpectedTarget[];
  /** Sexagesimal strings astropy wrote and its own reading of them, degrees. */
  hms: { id: number; ra: string; dec: string; ra_deg: number; dec_deg: number }[];
}

export function targetListReferences(): TargetListReferences {
  const dir = pythonReferences('make_target_list_references.py', 'target-list', 'expected.json');
  return { dir, ...JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) };
}
