// Named prepared statements on PGlite.
//
// PGlite's query(sql, params) runs every query as an unnamed statement, in six calls into the
// wasm Postgres (Parse, Describe statement, Bind, Describe portal, Execute, Sync), so Postgres
// parses, analyses and plans the text anew each time. The game's hot statements are CTEs whose
// planning costs about as much as their execution (see ./named-statements.ts for the numbers on
// PostgreSQL). Here each distinct text is parsed once under a name (the names and their bound
// come from ./named-statements.ts) and then only bound and executed: PostgreSQL keeps the parse
// tree, and after five executions a generic plan when that is no costlier (PostgreSQL manual,
// PREPARE, "plan_cache_mode").
//
// Message flow: PostgreSQL manual, "Frontend/Backend Protocol", 55.2.3 Extended Query.
// - The first time: Parse (named) + Describe S + Sync. The ParameterDescription gives the
//   parameter type OIDs, which PGlite's own query() also asks for before every Bind, to pick the
//   text serializer of each value; they are cached with the name.
// - Every time: Bind (to the unnamed portal) + Describe P + Execute + Sync in ONE protocol call.
//   Describe P yields the RowDescription that PGlite's parseResults needs to name and parse the
//   columns, exactly as query() collects it. Should any of them fail, the backend skips the
//   rest up to the Sync, which ends the failed sequence and answers ReadyForQuery: the
//   connection is usable again when the call returns (55.2.3: "an error ... the backend ...
//   discards messages until a Sync is reached").
import type { messages, PGlite, Results } from '@electric-sql/pglite';
import { StatementNames, isStaleStatement } from './named-statements';

type PGliteModule = typeof import('@electric-sql/pglite');
type BackendMessage = messages.BackendMessage;

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** The prepared statements of one PGlite (one Postgres backend, one session). */
export class PGlitePreparedStatements {
  private readonly names = new StatementNames();
  /** Statements parsed in this session: name → parameter type OIDs. */
  private readonly parameterTypes = new Map<string, readonly number[]>();

  private constructor(
    private readonly db: PGlite,
    private readonly pglite: PGliteModule,
  ) {}

  private static readonly byDatabase = new WeakMap<PGlite, PGlitePreparedStatements>();

  /**
   * One cache per PGlite: its statements live in its one session, so every driver over it must
   * agree on what is parsed. The PGlite module is imported here, not at the top, so that a server
   * on PostgreSQL never loads it (as in ./database.ts).
   */
  static async of(db: PGlite): Promise<PGlitePreparedStatements> {
    const known = PGlitePreparedStatements.byDatabase.get(db);
    if (known) return known;
    const pglite = await import('@electric-sql/pglite');
    const created = PGlitePreparedStatements.byDatabase.get(db) ?? new PGlitePreparedStatements(db, pglite);
    PGlitePreparedStatements.byDatabase.set(db, created);
    return created;
  }

  /** What `db.query(sql, parameters)` gives, through a named statement where one is given. */
  async query<R>(sql: string, parameters: readonly unknown[]): Promise<Results<R>> {
    const name = this.names.nameOf(sql);
    // Transaction control, and texts past the bound, go the way they always went.
    if (name === undefined) return this.db.query<R>(sql, [...parameters]);
    try {
      // execProtocol does not take PGlite's query lock (query() does): hold it, so that nothing
      // else PGlite runs on its own can come between our Parse and Bind or into a batch.
      return await this.db.runExclusive(() => this.runNamed<R>(name, sql, parameters));
    } catch (error) {
      if (!(error instanceof this.pglite.messages.DatabaseError) || !isStaleStatement(error)) throw error;
      await this.forget(name);
      // In a transaction block the error has aborted the transaction: a retry could only fail with
      // 25P02, so the caller's rollback follows and the next use parses the text afresh.
      if (this.db.isInTransaction()) throw error;
      return this.db.query<R>(sql, [...parameters]);
    }
  }

  private async runNamed<R>(name: string, sql: string, parameters: readonly unknown[]): Promise<Results<R>> {
    const { serialize } = this.pglite.protocol;
    try {
      let types = this.parameterTypes.get(name);
      if (types === undefined) {
        const described = await this.db.execProtocolStream(
          concat([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]),
          { syncToFs: false },
        );
        types = this.pglite.parse.parseDescribeStatementResults(described);
        this.parameterTypes.set(name, types);
      }
      const values = this.serializeValues(parameters, types);
      const results: BackendMessage[] = await this.db.execProtocolStream(
        concat([
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      // query() writes the file system's image out after every query outside PGlite's own
      // transaction(); inside a transaction block the COMMIT (run by query()) does it.
      if (!this.db.isInTransaction()) await this.db.syncToFs();
      return this.pglite.parse.parseResults(results, this.db.parsers)[0] as Results<R>;
    } catch (error) {
      // The fields query() adds to its errors (PGlite's makeDetailedError).
      if (error instanceof this.pglite.messages.DatabaseError) {
        Object.assign(error, { query: sql, params: [...parameters], queryOptions: undefined });
      }
      throw error;
    }
  }

  /** As query() serializes: PGlite's serializer of the parameter's type, else toString; null stays null. */
  private serializeValues(parameters: readonly unknown[], types: readonly number[]): (string | null)[] {
    const serializers = this.db.serializers;
    return parameters.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = serializers[types[index]];
      return serializer ? serializer(value) : String(value);
    });
  }

  /** Closes the statement (not an error when it is gone, 55.2.3 Close) and drops it from the cache. */
  private async forget(name: string): Promise<void> {
    this.parameterTypes.delete(name);
    const { serialize } = this.pglite.protocol;
    await this.db.runExclusive(() =>
      this.db.execProtocolStream(concat([serialize.close({ type: 'S', name }), serialize.sync()]), {
        syncToFs: false,
        throwOnError: false,
      }),
    );
  }
}
