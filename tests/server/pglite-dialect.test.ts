// The PGlite dialect's named prepared statements (server/db/pglite-prepared.ts): every query
// gives what PGlite's own query() gives — rows, parsed values, affected rows, errors — while
// Postgres keeps each text parsed under a name.
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { PGliteDialect } from '../../server/db/pglite-dialect';

const INT8_OID = 20;

/** As server/db/database.ts parses int8. */
function parseInt8(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new Error(`int8 value ${value} exceeds 2^53`);
  return parsed;
}

interface PreparedRow {
  name: string;
  generic_plans: number;
  custom_plans: number;
}

describe('PGlite dialect: named prepared statements', () => {
  let pglite: PGlite;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- ad-hoc tables, no schema type
  let db: Kysely<any>;

  beforeAll(async () => {
    pglite = new PGlite('memory://', { parsers: { [INT8_OID]: parseInt8 } });
    db = new Kysely({ dialect: new PGliteDialect(pglite) });
    await sql`create table items (
      id bigserial primary key,
      name text not null unique,
      price numeric(10, 2),
      data jsonb,
      doc json,
      created timestamptz,
      active boolean,
      tags text[],
      counts int8[]
    )`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  /** The query through the dialect (twice: the Parse and the Bind-only paths) and through query(). */
  async function expectSameAsQuery(compiled: CompiledQuery) {
    const first = await db.executeQuery(compiled);
    const second = await db.executeQuery(compiled);
    const plain = await pglite.query(compiled.sql, [...compiled.parameters]);
    expect(first.rows).toEqual(plain.rows);
    expect(second.rows).toEqual(plain.rows);
    return first.rows;
  }

  async function prepared(): Promise<PreparedRow[]> {
    const { rows } = await pglite.query<PreparedRow>(
      'select name, generic_plans::int, custom_plans::int from pg_prepared_statements',
    );
    return rows;
  }

  it('inserts with parameters of every type our code passes, and reads back what query() reads', async () => {
    const created = new Date('2025-01-02T03:04:05.678Z');
    const inserted = await db
      .insertInto('items')
      .values([
        {
          name: 'first',
          price: 12.5,
          data: JSON.stringify({ a: 1, nested: { b: [1, 2] }, s: 'x"y' }),
          doc: JSON.stringify([1, 'two', null]),
          created,
          active: true,
          tags: ['a', 'b c', 'd"e'],
          counts: [1, 2, 3],
        },
        { name: 'second', price: '7.25', data: null, doc: null, created: null, active: false, tags: [], counts: null },
        {
          name: 'third',
          price: null,
          data: '"just a string"',
          doc: '{}',
          created,
          active: null,
          tags: null,
          counts: [],
        },
      ])
      .returning(['id', 'name', 'created', 'active'])
      .execute();
    expect(inserted).toEqual([
      { id: 1, name: 'first', created, active: true },
      { id: 2, name: 'second', created: null, active: false },
      { id: 3, name: 'third', created, active: null },
    ]);

    const rows = await expectSameAsQuery(db.selectFrom('items').selectAll().orderBy('id').compile());
    expect(rows[0]).toMatchObject({
      id: 1,
      price: '12.50',
      data: { a: 1, nested: { b: [1, 2] }, s: 'x"y' },
      doc: [1, 'two', null],
      tags: ['a', 'b c', 'd"e'],
      counts: [1, 2, 3],
    });
    expect(rows[2]).toMatchObject({ data: 'just a string', doc: {} });
  });

  it('binds numbers, strings, booleans, dates and nulls the way query() serializes them', async () => {
    const at = new Date('2024-12-31T23:59:59.999Z');
    await expectSameAsQuery(
      sql`select ${1}::int4 as i, ${2 ** 40}::int8 as big, ${1.25}::float8 as f, ${'3.10'}::numeric as n,
        ${'text ünïcode'}::text as t, ${true}::boolean as yes, ${false}::boolean as no, ${at}::timestamptz as at,
        ${at}::date as day, ${null}::text as nothing, ${null}::int8 as no_id, ${JSON.stringify({ k: [1] })}::jsonb as j,
        ${JSON.stringify('s')}::json as js, count(*) as n_items, sum(price) as total
        from items`.compile(db),
    );
    const [row] = await expectSameAsQuery(
      sql`select id, name from items where name = any(${['first', 'third']}::text[]) and id > ${0} order by id`.compile(
        db,
      ),
    );
    expect(row).toEqual({ id: 1, name: 'first' });
  });

  it('counts affected rows as query() does', async () => {
    const updated = await db.updateTable('items').set({ active: true }).where('price', 'is not', null).execute();
    expect(updated[0].numUpdatedRows).toBe(2n);
    const none = await db.deleteFrom('items').where('name', '=', 'nobody').execute();
    expect(none[0].numDeletedRows).toBe(0n);
  });

  it('reuses one named statement: parsed once, planned from its cache', async () => {
    const query = (id: number) => sql`with picked as (select id, name from items where id = ${id}::bigint)
      select picked.name, (select count(*) from items) as total from picked`;
    for (let i = 0; i < 50; i += 1) {
      const { rows } = await query((i % 3) + 1).execute(db);
      expect(rows).toEqual([{ name: ['first', 'second', 'third'][i % 3], total: 3 }]);
    }
    const text = query(1).compile(db).sql;
    const statements = await prepared();
    const mine = statements.filter((statement) => statement.name.startsWith('gc_'));
    expect(mine.length).toBeGreaterThan(0);
    // The statement of this text ran 50 times from one Parse: its plans were counted there.
    const { rows } = await pglite.query<PreparedRow & { statement: string }>(
      'select name, statement, generic_plans::int, custom_plans::int from pg_prepared_statements where statement = $1',
      [text],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].generic_plans + rows[0].custom_plans).toBe(50);
  });

  it('surfaces a unique violation as query() does, and the connection works after it', async () => {
    const insert = db.insertInto('items').values({ name: 'first' }).compile();
    const plain = await pglite.query(insert.sql, [...insert.parameters]).catch((error: unknown) => error);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await db.executeQuery(insert).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      const fields = ['code', 'constraint', 'message', 'detail', 'severity', 'table', 'schema', 'query', 'params'];
      for (const field of fields)
        expect((error as Record<string, unknown>)[field]).toEqual((plain as Record<string, unknown>)[field]);
      expect(error).toMatchObject({ code: '23505', constraint: 'items_name_key', table: 'items', query: insert.sql });
      expect(plain).toMatchObject({ code: '23505', constraint: 'items_name_key', table: 'items', query: insert.sql });
      expect((error as Error).constructor).toBe((plain as Error).constructor);
      const { rows } = await sql`select count(*) as n from items where id > ${0}`.execute(db);
      expect(rows).toEqual([{ n: 3 }]);
    }
    expect(pglite.isInTransaction()).toBe(false);
  });

  it('surfaces an error of a text that does not parse, and works after it', async () => {
    await expect(sql`select nosuchcolumn from items where id = ${1}`.execute(db)).rejects.toMatchObject({
      code: '42703',
    });
    await expect(sql`select frobnicate(${1})`.execute(db)).rejects.toMatchObject({ code: '42883' });
    const { rows } = await sql`select name from items where id = ${1}`.execute(db);
    expect(rows).toEqual([{ name: 'first' }]);
  });

  it('commits and rolls back transactions, including after an error inside one', async () => {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ name: 'committed' }).execute();
      expect(pglite.isInTransaction()).toBe(true);
    });
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ name: 'rolled back' }).execute();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ name: 'rolled back too' }).execute();
        await trx.insertInto('items').values({ name: 'first' }).execute();
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(pglite.isInTransaction()).toBe(false);
    const names = await db.selectFrom('items').select('name').where('name', 'like', '%ed%').orderBy('name').execute();
    expect(names).toEqual([{ name: 'committed' }]);
  });

  it('keeps a statement parsed inside a rolled-back transaction usable afterwards', async () => {
    const query = (n: number) => sql`select ${n}::int * 2 as doubled, 'rolled-back-parse' as tag`;
    await expect(
      db.transaction().execute(async (trx) => {
        expect((await query(1).execute(trx)).rows).toEqual([{ doubled: 2, tag: 'rolled-back-parse' }]);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect((await query(4).execute(db)).rows).toEqual([{ doubled: 8, tag: 'rolled-back-parse' }]);
  });

  it('re-prepares a statement whose result type a migration changed', async () => {
    await sql`create table shapes (id int primary key)`.execute(db);
    await sql`insert into shapes values (1)`.execute(db);
    const select = sql`select * from shapes where id = ${1}`;
    expect((await select.execute(db)).rows).toEqual([{ id: 1 }]);
    await sql`alter table shapes add column label text default 'x'`.execute(db);
    // "cached plan must not change result type": retried unnamed, then parsed anew.
    expect((await select.execute(db)).rows).toEqual([{ id: 1, label: 'x' }]);
    expect((await select.execute(db)).rows).toEqual([{ id: 1, label: 'x' }]);

    // In a transaction the error aborts it, so it surfaces; the next use parses afresh.
    await sql`alter table shapes add column weight int default 3`.execute(db);
    await expect(db.transaction().execute((trx) => select.execute(trx))).rejects.toMatchObject({ code: '0A000' });
    expect((await select.execute(db)).rows).toEqual([{ id: 1, label: 'x', weight: 3 }]);
  });

  it('re-prepares a statement deallocated behind its back', async () => {
    const select = sql`select name from items where id = ${2} and 'dealloc' = 'dealloc'`;
    expect((await select.execute(db)).rows).toEqual([{ name: 'second' }]);
    await pglite.query('deallocate all');
    expect((await select.execute(db)).rows).toEqual([{ name: 'second' }]);
    expect((await select.execute(db)).rows).toEqual([{ name: 'second' }]);
  });

  it('serves more distinct texts than the bound of named ones', async () => {
    for (let i = 0; i < 520; i += 1) {
      const { rows } = await sql`select ${i}::int + ${sql.lit(i)} as v`.execute(db);
      expect(rows).toEqual([{ v: 2 * i }]);
    }
    const { rows } = await sql`select ${7}::int + ${sql.lit(519)} as v`.execute(db);
    expect(rows).toEqual([{ v: 526 }]);
    expect((await prepared()).length).toBeLessThanOrEqual(500);
  });
});

describe('PGlite dialect through openDatabase', () => {
  it('migrates, and parses int8 to numbers through named statements', async () => {
    const handle = await openDatabase({ directory: 'memory://' });
    try {
      await migrateToLatest(handle.db);
      for (let i = 0; i < 3; i += 1) {
        const { rows } = await sql<{ n: unknown; id: unknown }>`select count(*) as n, ${2 ** 40}::int8 as id
          from users where id > ${0}`.execute(handle.db);
        expect(rows).toEqual([{ n: 0, id: 2 ** 40 }]);
      }
      await expect(sql`select ${'9007199254740993'}::int8 as too_big`.execute(handle.db)).rejects.toThrow(
        'exceeds 2^53',
      );
      expect((await sql`select 1 as one`.execute(handle.db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await handle.db.destroy();
    }
  });
});
