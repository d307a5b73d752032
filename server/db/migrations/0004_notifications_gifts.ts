// Captain messages (notifications) with per-user reads, and the present202501 gift applications.
// notifications.user_id NULL means "for everyone"; a set user_id is a personal notification
// (level_unlocked) that disappears with its user, as do reads and gift applications.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('user_id', 'bigint', (column) => column.references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (column) =>
      column.notNull().check(sql`type in ('campaign_start', 'captain_message', 'level_unlocked', 'no_group')`),
    )
    // Locale → text maps ({"en": ..., "ja": ...}).
    .addColumn('title', 'jsonb', (column) => column.notNull())
    .addColumn('message', 'jsonb', (column) => column.notNull())
    .addColumn('html', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('locale_fallback', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('custom_component', 'text')
    .addColumn('valid_after', 'timestamptz')
    .addColumn('valid_before', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'notifications_valid_window',
      sql`valid_after is null or valid_before is null or valid_after < valid_before`,
    )
    .execute();
  await db.schema.createIndex('notifications_user_id').on('notifications').column('user_id').execute();

  await db.schema
    .createTable('notification_reads')
    .addColumn('notification_id', 'bigint', (column) =>
      column.notNull().references('notifications.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'bigint', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('notification_reads_pkey', ['user_id', 'notification_id'])
    .execute();
  await db.schema
    .createIndex('notification_reads_notification_id')
    .on('notification_reads')
    .column('notification_id')
    .execute();

  await db.schema
    .createTable('present_applications')
    .addColumn('user_id', 'bigint', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('country_code', 'integer', (column) => column.notNull())
    .addColumn('zip_code', 'text', (column) => column.notNull())
    .addColumn('address1', 'text', (column) => column.notNull())
    .addColumn('address2', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('address3', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('message', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('present_applications').execute();
  await db.schema.dropTable('notification_reads').execute();
  await db.schema.dropTable('notifications').execute();
}
