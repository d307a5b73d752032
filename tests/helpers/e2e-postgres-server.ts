// The e2e server of the 'postgres' Playwright project, run by playwright.config.ts's second
// webServer (`node --import tsx tests/helpers/e2e-postgres-server.ts`) with PORT, VAR_DIR and the
// rest of the server's environment set: the builds that `npm start` makes (the sky under this
// VAR_DIR), a throw-away PostgreSQL cluster (server/db/temporary-postgres.ts) with a fresh
// database, and `galaxy-cruise serve` over it. The cluster's addresses go to VAR_DIR/postgres.json
// for the specs, which make their configured servers' databases on the same cluster.
//
// Playwright stops it with SIGTERM to its process group (gracefulShutdown): the server closes,
// then the cluster is stopped by its pid file and removed. The same happens on SIGINT or SIGHUP,
// when the server exits by itself, and when Playwright goes away without a signal (a Playwright
// that is itself killed stops no web server, but its end of this process's stdin closes).
// postgres runs attached, in this process group, so a SIGKILL to the group takes it along too;
// the next start removes the folder that such a kill leaves. No postgres outlives the run.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startTemporaryPostgres, type TemporaryPostgres } from '../../server/db/temporary-postgres';
import type { E2ePostgresCluster } from './e2e-server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const varDir = process.env.VAR_DIR;
if (!varDir) throw new Error('VAR_DIR must name the e2e server’s own folder');
const clusterFile = path.join(varDir, 'postgres.json');

let postgres: TemporaryPostgres | undefined;
let server: ChildProcess | undefined;
let serverExit: Promise<number | null> | undefined;
let stopping = false;

/** Stops the server (if it runs), then the cluster (if it was started); exits with `code`. */
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  try {
    if (server && serverExit && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      // A server that does not close within 10 s is killed: the cluster must be stopped still.
      const killer = setTimeout(() => server?.kill('SIGKILL'), 10_000);
      await serverExit;
      clearTimeout(killer);
    }
  } finally {
    try {
      postgres?.stop();
      fs.rmSync(clusterFile, { force: true });
    } finally {
      process.exit(code);
    }
  }
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => void shutdown(0));
// Whatever ends this process (an uncaught error included) stops the cluster first.
process.on('exit', () => postgres?.stop());
// A Playwright that is gone leaves the output pipes closed: no write to them may end the shutdown.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
// Playwright holds the other end of stdin: its end, when Playwright itself is killed (SIGTERM
// or SIGKILL stop no web server), is the end of this run. A terminal or /dev/null is no such sign.
const stdin = fs.fstatSync(0);
if (stdin.isSocket() || stdin.isFIFO()) {
  process.stdin.on('end', () => void shutdown(1));
  process.stdin.resume();
}

/**
 * The folder of a cluster whose run was killed outright (its postgres died with the process
 * group, but nothing was left to remove its files).
 */
function removeKilledCluster() {
  if (!fs.existsSync(clusterFile)) return;
  const killed = JSON.parse(fs.readFileSync(clusterFile, 'utf8')) as E2ePostgresCluster;
  try {
    process.kill(killed.pid, 0);
    throw new Error(`the e2e PostgreSQL of an earlier run still runs (pid ${killed.pid}): is that run still going?`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
  fs.rmSync(killed.directory, { recursive: true, force: true });
  fs.rmSync(clusterFile, { force: true });
}

try {
  // A fresh outbox each run, as the database is.
  fs.rmSync(path.join(varDir, 'outbox'), { recursive: true, force: true });
  removeKilledCluster();
  const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), 'all', '--if-stale'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (built.status !== 0) throw new Error(`the build failed (${built.status ?? built.signal})`);
  postgres = await startTemporaryPostgres({ maxConnections: 100, attached: true });
  const adminUrl = new URL(postgres.url);
  const databaseUrl = new URL(postgres.url);
  databaseUrl.pathname = '/galaxy_cruise_e2e';
  const admin = new pg.Client({ connectionString: adminUrl.href });
  await admin.connect();
  await admin.query('create database galaxy_cruise_e2e');
  await admin.end();
  const pid = Number(fs.readFileSync(path.join(postgres.directory, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const cluster: E2ePostgresCluster = {
    adminUrl: adminUrl.href,
    databaseUrl: databaseUrl.href,
    pid,
    directory: postgres.directory,
  };
  fs.mkdirSync(varDir, { recursive: true });
  fs.writeFileSync(clusterFile, JSON.stringify(cluster));
  server = spawn(process.execPath, [path.join(root, 'bin', 'galaxy-cruise.mjs'), 'serve'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl.href },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  serverExit = new Promise((resolve) => server!.once('exit', (code) => resolve(code)));
  const code = await serverExit;
  // The server ended by itself (a failed start): Playwright sees this process end too.
  await shutdown(code ?? 1);
} catch (error) {
  console.error(error);
  await shutdown(1);
}
