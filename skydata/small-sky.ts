// The small sky (buildSky({small: true})) that the game tests and the load bench seed from, built once per machine
// into a fixed folder under the system's temporary directory. Vitest runs files in two workers
// that may both ask at once, so the build runs under an exclusive lock: mkdir is atomic, and a
// lock left by a killed process is taken over once it is older than any build can take.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Catalogue } from '../shared/catalogue';
import { buildSky } from './build';
import { cataloguePath } from './paths';

export const SMALL_SKY_DIRECTORY = path.join(os.tmpdir(), 'galaxy-cruise-small-sky');
const LOCK = `${SMALL_SKY_DIRECTORY}.lock`;
const STALE_LOCK_MS = 10 * 60_000;

export interface SmallSky {
  /** A VAR_DIR whose sky/ holds the small sky (and nothing else: db/ is never written here). */
  varDirectory: string;
  catalogue: Catalogue;
}

async function withLock<T>(work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - fs.statSync(LOCK).mtimeMs > STALE_LOCK_MS) fs.rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

let cached: Promise<SmallSky> | undefined;

export function smallSky(): Promise<SmallSky> {
  cached ??= withLock(async () => {
    await buildSky({ varDirectory: SMALL_SKY_DIRECTORY, small: true, ifStale: true, log: () => {} });
    const catalogue = JSON.parse(fs.readFileSync(cataloguePath(SMALL_SKY_DIRECTORY), 'utf8')) as Catalogue;
    return { varDirectory: SMALL_SKY_DIRECTORY, catalogue };
  });
  return cached;
}
