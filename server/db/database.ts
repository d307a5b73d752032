// Opens the database: embedded PGlite under var/db by default, PostgreSQL through a pg pool
// when DATABASE_URL is set. Both speak the same SQL, so the migrations are shared.
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { PGliteDialect } from './pglite-dialect';
import { namedStatementPool } from './named-statements';
import { WalDurability, durableFilesystem, durableStartParams } from './pglite-durable';
import { lockDatabaseDirectory } from './directory-lock';
import { registerPGliteBulkCopy, registerPostgresBulkCopy } from './bulk-copy';

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** PGlite on disk: the fsync bookkeeping of its commits. */
  durability?: WalDurability;
}

const INT8_OID = 20;

/**
 * How long an idle pg connection stays open. pg.Pool's default, 10 s, is shorter than the pause
 * between one volunteer's answers, so on a quiet server nearly every request would open a
 * connection and prepare its statements anew (./named-statements.ts), several times the cost of
 * the query itself. Ten connections held a few minutes cost PostgreSQL little; a server quiet for
 * longer gives them back.
 */
export const IDLE_CONNECTION_MS = 5 * 60_000;

/**
 * int8 (bigserial ids, counts) arrives as a string from pg and a number from PGlite; ids and
 * counts here stay far below 2^53, so both become numbers, here and nowhere else.
 */
function parseInt8(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new Error(`int8 value ${value} exceeds 2^53`);
  return parsed;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  directory: string;
  /** PostgreSQL: send queries as named statements (./named-statements.ts); on unless false. */
  namedStatements?: boolean;
  /**
   * PGlite on disk: what this process is, in words ('the server', 'galaxy-cruise export'), for the
   * directory's lock (./directory-lock.ts) and the refusal another process reads.
   */
  holder?: string;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      idleTimeoutMillis: IDLE_CONNECTION_MS,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    const kyselyPool = options.namedStatements === false ? pool : namedStatementPool(pool);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: kyselyPool }) });
    registerPostgresBulkCopy(db, pool);
    return { db, kind: 'postgres' };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  // 'memory://' keeps the database in memory (tests); anything else is a folder on disk.
  if (!options.directory.startsWith('memory://')) fs.mkdirSync(path.dirname(options.directory), { recursive: true });
  if (options.directory.startsWith('memory://')) {
    const pglite = new PGlite(options.directory, { parsers: { [INT8_OID]: parseInt8 } });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    registerPGliteBulkCopy(db, pglite);
    return { db, kind: 'pglite' };
  }
  // One process at a time on the directory: a second is refused with the holder's name.
  const lock = lockDatabaseDirectory(options.directory, options.holder ?? `process ${process.pid}`);
  // On disk, commits are fsynced before they are acknowledged (./pglite-durable.ts).
  const durability = new WalDurability();
  let pglite: InstanceType<typeof PGlite>;
  try {
    pglite = new PGlite({
      fs: durableFilesystem(options.directory, durability),
      startParams: durableStartParams(PGlite.defaultStartParams),
      parsers: { [INT8_OID]: parseInt8 },
    });
  } catch (error) {
    lock.release();
    throw error;
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite, durability, () => lock.release()) });
  registerPGliteBulkCopy(db, pglite);
  return { db, kind: 'pglite', durability };
}
