// Where the end-to-end servers run, one per Playwright project (playwright.config.ts): 'pglite'
// on E2E_PORT over embedded PGlite, 'postgres' on E2E_PORT + 1 over a throw-away PostgreSQL
// (tests/helpers/e2e-postgres-server.ts). Each has its own VAR_DIR (database, outbox, small sky),
// so a spec reads the outbox of the server its project drives: e2eServer() in a test.
import os from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';
import type { DatabaseKind } from '../../server/db/database';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 18080);
export const E2E_ORIGIN = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_VAR_DIR = process.env.E2E_VAR_DIR ?? path.join(os.tmpdir(), `galaxy-cruise-e2e-${E2E_PORT}`);

export interface E2eServer {
  database: DatabaseKind;
  port: number;
  origin: string;
  varDir: string;
}

export const E2E_SERVERS: Record<DatabaseKind, E2eServer> = {
  pglite: { database: 'pglite', port: E2E_PORT, origin: E2E_ORIGIN, varDir: E2E_VAR_DIR },
  postgres: {
    database: 'postgres',
    port: E2E_PORT + 1,
    origin: `http://127.0.0.1:${E2E_PORT + 1}`,
    varDir: `${E2E_VAR_DIR}-postgres`,
  },
};

/** The server of the running test's project (its name is the server's database kind). */
export function e2eServer(): E2eServer {
  const name = test.info().project.name;
  const server = E2E_SERVERS[name as DatabaseKind];
  if (!server) throw new Error(`no e2e server for the Playwright project '${name}'`);
  return server;
}

/** The PostgreSQL cluster under the 'postgres' project's server, as its start script wrote it. */
export interface E2ePostgresCluster {
  /** The cluster's 'postgres' database as its superuser: for making more databases on it. */
  adminUrl: string;
  /** The DATABASE_URL of the e2e server. */
  databaseUrl: string;
  /** The pid of the postmaster, for checking that it is gone after a run. */
  pid: number;
  /** The cluster's folder (data directory, log, socket), removed when it stops. */
  directory: string;
}

export const E2E_POSTGRES_CLUSTER_FILE = path.join(E2E_SERVERS.postgres.varDir, 'postgres.json');
