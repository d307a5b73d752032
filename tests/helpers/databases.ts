// The two databases every server test runs against: embedded PGlite (in memory) and the real
// PostgreSQL server of postgres-global.ts, each test getting a fresh, migrated database.
import crypto from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';

export interface TestDatabase extends DatabaseHandle {
  /** DATABASE_URL of this database (undefined for PGlite). */
  url: string | undefined;
  close(): Promise<void>;
}

export const DATABASE_KINDS = ['pglite', 'postgres'] as const;

/** A fresh PostgreSQL database on the test server; returns its URL. */
export async function createPostgresDatabase(): Promise<string> {
  const admin = new URL(inject('postgresUrl'));
  const name = `test_${crypto.randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  admin.pathname = `/${name}`;
  return admin.href;
}

export async function openTestDatabase(
  kind: (typeof DATABASE_KINDS)[number],
  directory = 'memory://',
): Promise<TestDatabase> {
  const url = kind === 'postgres' ? await createPostgresDatabase() : undefined;
  const handle = await openDatabase({ databaseUrl: url, directory });
  await migrateToLatest(handle.db);
  return { ...handle, url, close: () => handle.db.destroy() };
}
