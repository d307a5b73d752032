// Starts the server: open the database, run migrations, listen, and close cleanly on signals.
import path from 'node:path';
import { bufferedStdoutLog, buildApp } from './app';
import { loadConfig, type ServerConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { catalogueFile, seedFromCatalogueFile } from './db/seed';
import { useRankingTimeZone } from './game/ranking-counts';

export async function startServer(config: ServerConfig = loadConfig()) {
  const { db, kind } = await openDatabase({
    databaseUrl: config.databaseUrl,
    namedStatements: config.namedStatements,
    directory: path.join(config.varDirectory, 'db'),
  });
  const applied = await migrateToLatest(db);
  // Before the server listens: the kept ranking counts' period starts in TIME_ZONE.
  const recounted = await useRankingTimeZone(db, config.timeZone);
  const log = bufferedStdoutLog();
  const app = await buildApp({ config, db, logger: log.logger });
  app.log.info({ database: kind, migrations: applied, rankingsRecounted: recounted }, 'database ready');
  // The game model from the sky catalogue: on first start and whenever its digest changes.
  const seeded = await seedFromCatalogueFile(db, catalogueFile(config.varDirectory));
  if ('missing' in seeded)
    app.log.warn(`no sky catalogue at ${seeded.missing}: run 'galaxy-cruise data', then restart`);
  else app.log.info(seeded, seeded.seeded ? 'game seeded from the sky catalogue' : 'game seed up to date');
  await app.listen({ port: config.port, host: config.host });
  // The start-up lines now, for whoever waits on them.
  log.flush();
  const stop = async () => {
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return app;
}
