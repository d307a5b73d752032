// Named statements on PostgreSQL (server/db/named-statements.ts): each distinct text gets one
// stable name, transaction control and texts past the bound go unnamed, and on a real server a
// repeated query is prepared once per connection and stays correct.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatementNames } from '../../server/db/named-statements';
import { openDatabase } from '../../server/db/database';
import { createPostgresDatabase, openTestDatabase, type TestDatabase } from '../helpers/databases';

describe('StatementNames', () => {
  it('gives a text one stable name and different texts different names', () => {
    const names = new StatementNames();
    const first = names.nameOf('select $1::int');
    expect(first).toMatch(/^gc_[0-9a-f]{24}$/);
    expect(names.nameOf('select $1::int')).toBe(first);
    expect(new StatementNames().nameOf('select $1::int')).toBe(first);
    expect(names.nameOf('select $1::bigint')).not.toBe(first);
  });

  it('leaves transaction control unnamed', () => {
    const names = new StatementNames();
    for (const text of ['begin', 'BEGIN ISOLATION LEVEL SERIALIZABLE', 'commit', 'rollback', 'savepoint a'])
      expect(names.nameOf(text)).toBeUndefined();
  });

  it('names at most 500 texts, and keeps naming the ones it named', () => {
    const names = new StatementNames();
    const kept = names.nameOf('select 0');
    for (let index = 1; index < 500; index++) expect(names.nameOf(`select ${index}`)).toBeDefined();
    expect(names.nameOf('select 500')).toBeUndefined();
    expect(names.nameOf('select 0')).toBe(kept);
  });
});

describe('named statements on PostgreSQL', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
  });
  afterAll(async () => {
    await database?.close();
  });

  it('prepares a repeated query once per connection and binds new values each time', async () => {
    await database.db.connection().execute(async (connection) => {
      for (let value = 0; value < 8; value++) {
        const { rows } = await sql<{ doubled: number }>`select ${value}::int * 2 as doubled`.execute(connection);
        expect(rows).toEqual([{ doubled: value * 2 }]);
      }
      const prepared = await sql<{ name: string; statement: string }>`
        select name, statement from pg_prepared_statements where statement like ${'select $1::int * 2%'}
      `.execute(connection);
      expect(prepared.rows).toHaveLength(1);
      expect(prepared.rows[0].name).toBe(new StatementNames().nameOf('select $1::int * 2 as doubled'));
    });
  });

  it('reports errors with their SQLSTATE and leaves the connection usable', async () => {
    await database.db.connection().execute(async (connection) => {
      const failing = sql`select 1 / ${0}::int`.execute(connection);
      await expect(failing).rejects.toMatchObject({ code: '22012' });
      const { rows } = await sql<{ one: number }>`select ${1}::int as one`.execute(connection);
      expect(rows).toEqual([{ one: 1 }]);
    });
  });

  it('runs a statement that a migration made stale again, on its connection and on later ones', async () => {
    await sql`create table stale_probe (id int primary key)`.execute(database.db);
    await sql`insert into stale_probe values (1)`.execute(database.db);
    const select = (connection: typeof database.db) =>
      sql<Record<string, unknown>>`select * from stale_probe where id = ${1}::int`.execute(connection);
    await database.db.connection().execute(async (connection) => {
      expect((await select(connection)).rows).toEqual([{ id: 1 }]);
      // Another process's migration: the prepared `select *` may no longer change its row shape.
      const other = await openDatabase({ databaseUrl: database.url, directory: 'memory://' });
      try {
        await sql`alter table stale_probe add column note text default 'added'`.execute(other.db);
      } finally {
        await other.db.destroy();
      }
      expect((await select(connection)).rows).toEqual([{ id: 1, note: 'added' }]);
    });
    // The connection that held the stale statement is closed on release; later ones prepare anew.
    for (let round = 0; round < 12; round++)
      expect((await select(database.db)).rows).toEqual([{ id: 1, note: 'added' }]);
  });

  it(`keeps an idle connection and its prepared statements through a volunteer's pause`, async () => {
    const handle = await openDatabase({ databaseUrl: await createPostgresDatabase(), directory: 'memory://' });
    try {
      const backend = async () =>
        (
          await sql<{ pid: number; prepared: number }>`
            select pg_backend_pid() as pid, (select count(*)::int from pg_prepared_statements) as prepared
          `.execute(handle.db)
        ).rows[0];
      const before = await backend();
      // Past pg.Pool's default idle timeout (10 s), which had closed the connection.
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      const after = await backend();
      expect(after.pid).toBe(before.pid);
      expect(after.prepared).toBe(before.prepared);
      expect(before.prepared).toBeGreaterThan(0);
    } finally {
      await handle.db.destroy();
    }
  });

  it('sends nothing named when NAMED_STATEMENTS=off', async () => {
    const handle = await openDatabase({
      databaseUrl: await createPostgresDatabase(),
      directory: 'memory://',
      namedStatements: false,
    });
    try {
      await handle.db.connection().execute(async (connection) => {
        await sql`select ${1}::int`.execute(connection);
        const prepared = await sql`select name from pg_prepared_statements`.execute(connection);
        expect(prepared.rows).toEqual([]);
      });
    } finally {
      await handle.db.destroy();
    }
  });
});
