// The small sky (buildSky({small: true})) that the game tests seed from, built once per machine
// into a fixed folder under the system's temporary directory. Vitest runs files in two workers
// that may both ask at once, so the build runs under an exclusive lock: mkdir is atomic, and a
// lock left by a killed process is taken over once it is older than any build can take.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { seedCatalogue } from '../../server/db/seed';
import type { Catalogue } from '../../src/shared/catalogue';
import { buildSky } from '../../skydata/build';
import { cataloguePath } from '../../skydata/paths';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from './databases';

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

/** A fresh, migrated database of `kind` seeded from `catalogue`, and the app over it. */
export async function openGame(kind: (typeof DATABASE_KINDS)[number], catalogue?: Catalogue): Promise<GameFixture> {
  const sky = await smallSky();
  const database = await openTestDatabase(kind);
  await seedCatalogue(database.db, catalogue ?? sky.catalogue);
  const app = await buildApp({
    config: loadConfig({ VAR_DIR: '/nonexistent-var', DIST_DIR: '/nonexistent-dist', RATE_LIMITS: 'off' }),
    db: database.db,
  });
  return {
    database,
    db: database.db,
    app,
    catalogue: catalogue ?? sky.catalogue,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export interface GameFixture {
  database: TestDatabase;
  db: TestDatabase['db'];
  app: FastifyInstance;
  catalogue: Catalogue;
  close(): Promise<void>;
}

/** A deep copy to derive test catalogues from (a changed digest makes the server re-seed). */
export function copyCatalogue(catalogue: Catalogue, digest = `${catalogue.digest}-variant`): Catalogue {
  return { ...(structuredClone(catalogue) as Catalogue), digest };
}
