// The configured database for a sub-command that works on it (admin, export, science): DATABASE_URL,
// or the embedded PGlite under VAR_DIR/db, migrated to the latest schema, closed when `run` ends.
// With the embedded database only one process may open it, so such a command wants the server
// stopped.
import path from 'node:path';
import type { Kysely } from 'kysely';
import { loadConfig, type ServerConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import type { Database } from '../server/db/schema';

export async function withConfiguredDatabase<T>(
  run: (db: Kysely<Database>, config: ServerConfig) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const { db } = await openDatabase({
    databaseUrl: config.databaseUrl,
    directory: path.join(config.varDirectory, 'db'),
  });
  try {
    await migrateToLatest(db);
    return await run(db, config);
  } finally {
    await db.destroy();
  }
}
