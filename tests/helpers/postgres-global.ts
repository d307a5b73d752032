// Vitest global set-up: a real PostgreSQL server for the server tests, on 127.0.0.1 under a
// temporary data directory, stopped (pg_ctl, by its pid file) and removed after the run. The
// load bench starts its servers with the same helper (server/db/temporary-postgres.ts).
import type { TestProject } from 'vitest/node';
import { startTemporaryPostgres } from '../../server/db/temporary-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const postgres = await startTemporaryPostgres({ maxConnections: 200 });
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
