// Starts the server: open the database, run migrations, listen, and close cleanly on signals.
import path from 'node:path';
import { buildApp } from './app';
import { loadConfig, type ServerConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';

export async function startServer(config: ServerConfig = loadConfig()) {
  const { db, kind } = await openDatabase({
    databaseUrl: config.databaseUrl,
    directory: path.join(config.varDirectory, 'db'),
  });
  const applied = await migrateToLatest(db);
  const app = await buildApp({ config, db, logger: true });
  app.log.info({ database: kind, migrations: applied }, 'database ready');
  await app.listen({ port: config.port, host: config.host });
  const stop = async () => {
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return app;
}
