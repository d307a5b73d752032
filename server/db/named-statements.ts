// PostgreSQL plans an unnamed statement anew at every execution. The game's hot statements (the
// answer path, the quest state, the session look-up) are CTEs whose planning cost as much as
// their execution: measured with pg_stat_statements under the load bench, 0.7 ms of planning
// per answer on top of 0.66 ms of execution. Kysely sends every query unnamed, so this pool
// adapter gives each distinct SQL text a name (its hash): node-postgres then parses it once per
// connection and only binds and executes it afterwards, and PostgreSQL keeps its plan (a generic
// one after five executions when that is no costlier, see "plan_cache_mode" in the PostgreSQL
// manual, PREPARE).
//
// Behind PgBouncer in transaction mode, named statements need its max_prepared_statements
// (PgBouncer 1.21 and later); NAMED_STATEMENTS=off turns this off.
import { createHash } from 'node:crypto';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/**
 * Distinct texts named per process. Kysely's texts are fixed by the code except for `in (...)`
 * lists and multi-row inserts, whose length varies: past this many, new texts go unnamed, so a
 * stream of one-off texts cannot fill every connection's memory with prepared statements.
 */
const MAX_NAMED_TEXTS = 500;

/** Transaction control has no plan to keep, and runs through the simple-query protocol. */
const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release|start transaction)\b/i;

export class StatementNames {
  private readonly names = new Map<string, string>();

  /** The statement's name, or undefined when it goes unnamed. */
  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined) return known;
    if (this.names.size >= MAX_NAMED_TEXTS || TRANSACTION_CONTROL.test(text)) return undefined;
    const name = `gc_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    this.names.set(text, name);
    return name;
  }
}

function isCursor<R>(query: unknown): query is PostgresCursor<R> {
  return typeof query === 'object' && query !== null;
}

/** A Kysely pool over a pg.Pool whose queries go out as named statements (see above). */
export function namedStatementPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
      function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
      function query<R>(
        sqlOrCursor: string | PostgresCursor<R>,
        parameters?: ReadonlyArray<unknown>,
      ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
        if (isCursor<R>(sqlOrCursor)) return client.query(sqlOrCursor as never) as PostgresCursor<R>;
        const name = names.nameOf(sqlOrCursor);
        const values = [...(parameters ?? [])];
        return (name === undefined
          ? client.query(sqlOrCursor, values)
          : client.query({ name, text: sqlOrCursor, values })) as unknown as Promise<PostgresQueryResult<R>>;
      }
      return { query, release: () => client.release() };
    },
    end: () => pool.end(),
  };
}
