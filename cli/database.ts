// The configured database for a sub-command that works on it (admin, export, import, science):
// DATABASE_URL, or the embedded PGlite under VAR_DIR/db, migrated to the latest schema, closed
// when `run` ends. Only one process may open the embedded database: a command refuses, in one
// line, a directory the server (or another command) holds, and holds it while it runs
// (server/db/directory-lock.ts).
import path from 'node:path';
import type { Kysely } from 'kysely';
import { loadConfig, type ServerConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import type { Database } from '../server/db/schema';

export async function withConfiguredDatabase<T>(
  command: string,
  run: (db: Kysely<Database>, config: ServerConfig) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const { db } = await openDatabase({
    databaseUrl: config.databaseUrl,
    directory: path.join(config.varDirectory, 'db'),
    holder: `galaxy-cruise ${command}`,
  });
  try {
    await migrateToLatest(db);
    return await run(db, config);
  } finally {
    await db.destroy();
  }
}
