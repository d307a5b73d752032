// Where the sky data repository is written: var/sky/stellar-globe/static, the tree that
// viewer-spec §7 calls {dataRepository}.
import path from 'node:path';
import { projectRoot } from '../server/config';

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
