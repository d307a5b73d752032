// Accounts beyond the session: one-time mail links, the welcome questionnaire, rate-limit
// counters shared by every server process, and the uniqueness rules of application-spec §5.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Sign-up and password-reset links. Only the SHA-256 of the token is kept, so a database
  // leak does not hand out live links; used_at makes a link single use.
  await db.schema
    .createTable('email_tokens')
    .addColumn('token_hash', 'text', (column) => column.primaryKey())
    .addColumn('purpose', 'text', (column) => column.notNull().check(sql`purpose in ('signup', 'password_reset')`))
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('user_id', 'bigint', (column) => column.references('users.id').onDelete('cascade'))
    .addColumn('locale', 'text', (column) => column.notNull().defaultTo('en'))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('email_tokens_email').on('email_tokens').column('email').execute();

  await db.schema
    .createTable('private_informations')
    .addColumn('user_id', 'bigint', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('birth_year', 'integer', (column) => column.notNull())
    .addColumn('country_code', 'integer', (column) => column.notNull())
    .addColumn('gender', 'text', (column) => column.notNull().check(sql`gender in ('man', 'woman', 'other')`))
    .addColumn('reasons_for_participation', sql`text[]`, (column) => column.notNull())
    .addColumn('relation_to_astronomy', 'smallint', (column) =>
      column.notNull().check(sql`relation_to_astronomy between 1 and 4`),
    )
    .addColumn('time_spent_in_astronomy', 'smallint', (column) =>
      column.notNull().check(sql`time_spent_in_astronomy between 1 and 4`),
    )
    .addColumn('way_to_know_this_site', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();

  // @fastify/rate-limit counters in the database rather than in process memory, so that several
  // server processes behind one proxy count together.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('count', 'integer', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_expires_at').on('rate_limits').column('expires_at').execute();

  // Addresses are compared case-insensitively (Vega@Example.org is vega@example.org), and so are
  // nicknames ('already taken'); a new account's empty nickname is not a nickname yet.
  await sql`create unique index users_email_lower on users (lower(email))`.execute(db);
  await sql`create unique index users_nickname_lower on users (lower(nickname)) where nickname <> ''`.execute(db);
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sessions_expires_at').execute();
  await db.schema.dropIndex('users_nickname_lower').execute();
  await db.schema.dropIndex('users_email_lower').execute();
  await db.schema.dropTable('rate_limits').execute();
  await db.schema.dropTable('private_informations').execute();
  await db.schema.dropTable('email_tokens').execute();
}
