// The door for bulk reads and writes: COPY in PostgreSQL's binary format (./copy-binary.ts) on
// one connection of the database, PGlite or PostgreSQL alike. The science reads every answer as
// columns and writes a million targets' sums this way (docs/science.md), and the exports read
// the catalogue so: row objects through the query protocol cost microseconds a row, COPY's bytes
// parsed into typed arrays a few nanoseconds.
//
// PGlite: COPY … TO '/dev/blob' hands the output back as a Blob, COPY … FROM '/dev/blob' reads
// the Blob given with the query (PGlite's own virtual device). The session holds the driver's one
// connection (./pglite-dialect.ts) for as long as it runs, so nothing else interleaves with its
// statements and the answer path waits for it: keep each session short. PostgreSQL: one client of
// the pool for the session, COPY … TO STDOUT / FROM STDIN through pg-copy-streams.
import type { PGlite } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

export interface BulkSession {
  /** The rows of `query` (a SELECT, no parameters) in COPY's binary format. */
  copyOut(query: string): Promise<Uint8Array>;
  /** Loads `data` (COPY binary) into `target`, a table with its column list: `t (a, b)`. */
  copyIn(target: string, data: Uint8Array): Promise<void>;
  /** A statement without parameters (transaction control, a temporary table, a set-based write). */
  execute(statement: string): Promise<void>;
}

type SessionOpener = <T>(work: (session: BulkSession) => Promise<T>) => Promise<T>;

const openers = new WeakMap<object, SessionOpener>();

/**
 * Runs `work` on one connection of `db` (opened by ./database.ts) with COPY at hand; with
 * `transaction`, inside one transaction (committed when `work` resolves, rolled back when it
 * throws).
 */
export function withBulkSession<T>(
  db: Kysely<any>, // eslint-disable-line @typescript-eslint/no-explicit-any -- any schema
  work: (session: BulkSession) => Promise<T>,
  { transaction = false }: { transaction?: boolean } = {},
): Promise<T> {
  const open = openers.get(db);
  if (!open) throw new Error('bulk copy: this database was not opened by openDatabase()');
  if (!transaction) return open(work);
  return open(async (session) => {
    await session.execute('begin');
    try {
      const result = await work(session);
      await session.execute('commit');
      return result;
    } catch (error) {
      await session.execute('rollback').catch(() => undefined);
      throw error;
    }
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema
export function registerPGliteBulkCopy(db: Kysely<any>, pglite: PGlite): void {
  openers.set(db, (work) =>
    // The driver's connection, held: PGlite's own queue would let a transaction's statements of
    // another caller come between ours.
    db.connection().execute(() =>
      work({
        async copyOut(query) {
          const result = await pglite.query(`copy (${query}) to '/dev/blob' with (format binary)`);
          return result.blob ? new Uint8Array(await result.blob.arrayBuffer()) : new Uint8Array();
        },
        async copyIn(target, data) {
          await pglite.query(`copy ${target} from '/dev/blob' with (format binary)`, [], {
            blob: new Blob([data as Uint8Array<ArrayBuffer>]),
          });
        },
        async execute(statement) {
          await pglite.exec(statement);
        },
      }),
    ),
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema
export function registerPostgresBulkCopy(db: Kysely<any>, pool: pg.Pool): void {
  openers.set(db, async (work) => {
    const client = await pool.connect();
    let broken = false;
    try {
      return await work({
        async copyOut(query) {
          const stream = client.query(copyTo(`copy (${query}) to stdout with (format binary)`));
          const chunks: Buffer[] = [];
          for await (const chunk of stream) chunks.push(chunk as Buffer);
          const joined = Buffer.concat(chunks);
          return new Uint8Array(joined.buffer, joined.byteOffset, joined.length);
        },
        async copyIn(target, data) {
          const stream = client.query(copyFrom(`copy ${target} from stdin with (format binary)`));
          await new Promise<void>((resolve, reject) => {
            stream.on('error', reject);
            stream.on('finish', resolve);
            stream.end(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
          });
        },
        async execute(statement) {
          await client.query(statement);
        },
      });
    } catch (error) {
      // A failed COPY or transaction may leave the connection mid-protocol: do not reuse it.
      broken = true;
      throw error;
    } finally {
      client.release(broken);
    }
  });
}
