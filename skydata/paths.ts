// Where the sky data repository is written: var/sky/stellar-globe/static, the tree that
// viewer-spec §7 calls {dataRepository}. The project root is found by walking up from this
// module to the folder whose package.json names the project, so that the same code finds it
// when run from its source and when bundled into another folder.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_NAME = 'galaxy-cruise';

/** The nearest folder at or above `start` whose package.json is the project's own. */
export function findProjectRoot(start: string): string {
  for (let directory = start; ; directory = path.dirname(directory)) {
    const manifest = path.join(directory, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        if ((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PROJECT_NAME)
          return directory;
      } catch {
        // not JSON: not the project's manifest
      }
    }
    if (path.dirname(directory) === directory)
      throw new Error(`no package.json named '${PROJECT_NAME}' at or above ${start}`);
  }
}

export const projectRoot = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

export function skyRoot(varDirectory = path.join(projectRoot, 'var')): string {
  return path.join(varDirectory, 'sky', 'stellar-globe', 'static');
}

/** Files of an npm package's data folder (d3-celestial ships the real catalogues). */
export function packageData(packageName: string, file: string): string {
  return path.join(projectRoot, 'node_modules', packageName, 'data', file);
}

/** catalogue.json: the targets with their true answers, beside (not inside) the served tree. */
export function cataloguePath(varDirectory = path.join(projectRoot, 'var')): string {
  return path.join(varDirectory, 'sky', 'catalogue.json');
}
