// Accounts and server-side sessions: what GET /api/session reads.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('email', 'text', (column) => column.notNull().unique())
    .addColumn('nickname', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('locale', 'text', (column) => column.notNull().defaultTo('en'))
    .addColumn('password_hash', 'text')
    .addColumn('admin', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('gravatar_private', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('gravatar_public', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'bigint', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
