// A Kysely dialect over PGlite (Postgres compiled to wasm, in-process). The published
// kysely-pglite dialects do not fit our Kysely/PGlite versions, so this is the door
// (ARCHITECTURE.md). PGlite has one connection: the driver hands it out under a lock, so a
// transaction owns it until commit or rollback. Queries go out as named prepared statements
// (./pglite-prepared.ts).
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { PGlitePreparedStatements } from './pglite-prepared';

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly statements: PGlitePreparedStatements) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.statements.query<R>(query.sql, query.parameters);
    return {
      rows: result.rows,
      numAffectedRows: result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on PGlite');
  }
}

/**
 * Durable commits on disk (./pglite-durable.ts): `requests` counts the WAL syncs Postgres asked
 * for, `barrier()` resolves once they are on disk.
 */
export interface CommitDurability {
  readonly requests: number;
  barrier(): Promise<void>;
}

class PGliteDriver implements Driver {
  private connection: PGliteConnection | undefined;
  private queue: Promise<void> = Promise.resolve();
  private releaseCurrent: (() => void) | undefined;
  private requestsAtAcquire = 0;

  constructor(
    private readonly db: PGlite,
    private readonly durability?: CommitDurability,
    private readonly onClose?: () => void,
  ) {}

  async init(): Promise<void> {
    await this.db.waitReady;
    this.connection = new PGliteConnection(await PGlitePreparedStatements.of(this.db));
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = this.connection;
    if (!connection) throw new Error('the PGlite driver is used before init()');
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise((resolve) => (release = resolve));
    await previous;
    // One turn of the event loop before the next query: PGlite runs queries on this thread, and a
    // queue of them handing the connection on through promise callbacks alone would keep Node from
    // reading its sockets (requests waited seconds in the kernel's buffers under load).
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.releaseCurrent = release;
    this.requestsAtAcquire = this.durability?.requests ?? 0;
    return connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.releaseCurrent;
    this.releaseCurrent = undefined;
    const wroteWal = this.durability !== undefined && this.durability.requests !== this.requestsAtAcquire;
    release?.();
    // After the connection is handed on, so that the next transactions commit meanwhile and share
    // the next fsync (group commit); the caller is answered only once its commit is on disk.
    if (wroteWal) await this.durability!.barrier();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    try {
      await this.db.close();
    } finally {
      this.onClose?.();
    }
  }
}

export class PGliteDialect implements Dialect {
  /** `onClose` runs once the database is closed (the directory lock's release, ./directory-lock.ts). */
  constructor(
    private readonly db: PGlite,
    private readonly durability?: CommitDurability,
    private readonly onClose?: () => void,
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.db, this.durability, this.onClose);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
