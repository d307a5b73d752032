// PostgreSQL plans an unnamed statement anew at every execution. The game's hot statements (the
// answer path, the quest state, the session look-up) are CTEs whose planning cost as much as
// their execution (pg_stat_statements shows both). Kysely sends every query unnamed, so this pool
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

/**
 * Errors that say a cached statement no longer fits the database, not that the query is wrong:
 * - 0A000 "cached plan must not change result type": a migration (perhaps run by another
 *   server process) altered a table a `select *` reads; PostgreSQL will not re-plan a named
 *   statement into another row shape.
 * - 26000: the statement is gone (DEALLOCATE, DISCARD ALL).
 * - 42P05: a statement of that name already exists (a cache missed a Parse).
 */
export function isStaleStatement(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === '26000' || code === '42P05' || (code === '0A000' && message === 'cached plan must not change result type')
  );
}

/**
 * A Kysely pool over a pg.Pool whose queries go out as named statements (see above). When a
 * connection's statement has gone stale (isStaleStatement), the query is run again unnamed and the
 * connection is closed on release, so the pool opens a fresh one that prepares anew. Inside a
 * transaction the failed statement has aborted it: the retry's error is the caller's.
 */
export function namedStatementPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let stale = false;
      async function named<R>(name: string, text: string, values: unknown[]): Promise<PostgresQueryResult<R>> {
        try {
          return (await client.query({ name, text, values })) as unknown as PostgresQueryResult<R>;
        } catch (error) {
          if (!isStaleStatement(error)) throw error;
          stale = true;
          return (await client.query(text, values)) as unknown as PostgresQueryResult<R>;
        }
      }
      function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
      function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
      function query<R>(
        sqlOrCursor: string | PostgresCursor<R>,
        parameters?: ReadonlyArray<unknown>,
      ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
        if (isCursor<R>(sqlOrCursor)) return client.query(sqlOrCursor as never) as PostgresCursor<R>;
        const name = names.nameOf(sqlOrCursor);
        const values = [...(parameters ?? [])];
        return name === undefined
          ? (client.query(sqlOrCursor, values) as unknown as Promise<PostgresQueryResult<R>>)
          : named<R>(name, sqlOrCursor, values);
      }
      return { query, release: () => client.release(stale) };
    },
    end: () => pool.end(),
  };
}
