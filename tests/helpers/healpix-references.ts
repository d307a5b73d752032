// The vectors tests/helpers/make_healpix_references.py makes with healpy (Debian's
// python3-healpy), for the HEALPix conformance and shiftmap tests.
import fs from 'node:fs';
import path from 'node:path';
import { pythonReferences } from './python-references';

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
  const file = path.join(pythonReferences('make_healpix_references.py', 'healpix', 'healpix.json'), 'healpix.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as HealpixReferences;
}
