// Starts the server: open the database, run migrations, listen, and close cleanly on signals.
//
// On SIGTERM or SIGINT: "server stopping"; the listening socket closes and later requests are
// refused with a 503 (./plugins/closing.ts); the requests in flight are answered, and the answer
// batches written (./game/answer-batches.ts, closed by the quest routes' onClose); the database is
// closed; "server stopped" is the log's last line, and the log is flushed before the exit. A
// connection still busy after SHUTDOWN_GRACE_MS (a client sending its body slowly, a handler
// stuck) is cut, so that a stop always ends within that bound and before the 10 s most process
// managers (Docker, systemd's default is longer) wait before a SIGKILL.
import path from 'node:path';
import { bufferedStdoutLog, buildApp } from './app';
import { loadConfig, type ServerConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { catalogueFile, seedFromCatalogueFile } from './db/seed';
import { useRankingTimeZone } from './game/ranking-counts';
import { ScienceService } from './science/science-service';

/** How long a stopping server waits for its connections before it cuts them. */
export const SHUTDOWN_GRACE_MS = 8000;

export async function startServer(config: ServerConfig = loadConfig()) {
  const { db, kind } = await openDatabase({
    databaseUrl: config.databaseUrl,
    namedStatements: config.namedStatements,
    directory: path.join(config.varDirectory, 'db'),
    holder: 'the server',
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
  // The consensus kept current and the reliability re-estimated in the background
  // (docs/science.md); stopped with the app, before the database closes.
  if (config.science) {
    const science = new ScienceService(db, app.log, { vacuumLog: kind === 'pglite' });
    app.addHook('onClose', () => science.stop());
    science.start();
  }
  await app.listen({ port: config.port, host: config.host });
  // The start-up lines now, for whoever waits on them.
  log.flush();
  const stop = async (signal: NodeJS.Signals) => {
    app.log.info({ signal }, 'server stopping');
    const cut = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    let exitCode = 0;
    try {
      await app.close();
      await db.destroy();
    } catch (error) {
      app.log.error({ err: error }, 'server stop failed');
      exitCode = 1;
    }
    clearTimeout(cut);
    app.log.info('server stopped');
    // A closed stdout cannot be flushed; the exit must not wait on it.
    await log.flushed().catch(() => undefined);
    process.exit(exitCode);
  };
  // A second signal while stopping changes nothing: the stop is bounded by SHUTDOWN_GRACE_MS.
  let stopping: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stopping ??= stop(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return app;
}
