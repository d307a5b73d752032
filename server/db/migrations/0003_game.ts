// The game model of ARCHITECTURE.md: courses → levels → areas → targets seeded from the sky
// catalogue, campaigns with their medals, and per user the quests and answers. Catalogue rows are
// never deleted: a re-seed that drops one marks it retired, so quests and answers that point at
// it stay intact.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row: the digest of the catalogue seeded last (seeding is skipped while it is unchanged).
  await db.schema
    .createTable('catalogue_state')
    .addColumn('id', 'integer', (column) => column.primaryKey().check(sql`id = 1`))
    .addColumn('digest', 'text', (column) => column.notNull())
    .addColumn('seeded_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('courses')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('position', 'integer', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('levels')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('course_id', 'text', (column) => column.notNull().references('courses.id'))
    .addColumn('position', 'integer', (column) => column.notNull())
    .addColumn('key', 'text', (column) => column.notNull().unique())
    .addColumn('name_key', 'text', (column) => column.notNull())
    .addColumn('name', 'jsonb', (column) => column.notNull())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('depth', 'text', (column) => column.notNull())
    .addColumn('survey', 'text', (column) => column.notNull())
    .addColumn('labels', 'jsonb', (column) => column.notNull())
    .addColumn('retired', 'boolean', (column) => column.notNull().defaultTo(false))
    .execute();
  await db.schema.createIndex('levels_course').on('levels').columns(['course_id', 'position']).execute();

  await db.schema
    .createTable('areas')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('level_id', 'integer', (column) => column.notNull().references('levels.id'))
    .addColumn('position', 'integer', (column) => column.notNull())
    .addColumn('outlines', 'jsonb', (column) => column.notNull())
    // Centre of the outline (degrees): "nearest area" is measured between centres.
    .addColumn('center_ra', 'double precision', (column) => column.notNull())
    .addColumn('center_dec', 'double precision', (column) => column.notNull())
    .addColumn('retired', 'boolean', (column) => column.notNull().defaultTo(false))
    .execute();
  await db.schema.createIndex('areas_level').on('areas').columns(['level_id', 'position']).execute();

  // The true morphology is the gold standard of training and review: it never leaves the server
  // except as a captain note's reference answer.
  await db.schema
    .createTable('targets')
    .addColumn('object_id', 'bigint', (column) => column.primaryKey())
    .addColumn('area_id', 'integer', (column) => column.notNull().references('areas.id'))
    .addColumn('position', 'integer', (column) => column.notNull())
    .addColumn('ra', 'double precision', (column) => column.notNull())
    .addColumn('dec', 'double precision', (column) => column.notNull())
    .addColumn('galaxy_type', 'text', (column) => column.notNull())
    .addColumn('interaction', 'text', (column) => column.notNull())
    .addColumn('ring', 'boolean', (column) => column.notNull())
    .addColumn('fan', 'boolean', (column) => column.notNull())
    .addColumn('tail', 'boolean', (column) => column.notNull())
    .addColumn('distorted', 'boolean', (column) => column.notNull())
    .addColumn('captain_note', 'jsonb')
    .addColumn('retired', 'boolean', (column) => column.notNull().defaultTo(false))
    .execute();
  await db.schema.createIndex('targets_area').on('targets').columns(['area_id', 'position']).execute();

  // answers_count is the community count of the window, kept by the answer transaction so that
  // GET /api/campaigns (polled every second by every client) reads one small row per campaign.
  await db.schema
    .createTable('campaigns')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('name', 'jsonb', (column) => column.notNull())
    .addColumn('period_begin', 'timestamptz', (column) => column.notNull())
    .addColumn('period_end', 'timestamptz', (column) => column.notNull())
    .addColumn('medals', 'jsonb', (column) => column.notNull())
    .addColumn('answers_count', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('retired', 'boolean', (column) => column.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('quests')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    // SET NULL: deleting an account keeps its classification results, unlinked from the person.
    .addColumn('user_id', 'bigint', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('course_id', 'text', (column) => column.notNull().references('courses.id'))
    .addColumn('level_id', 'integer', (column) => column.notNull().references('levels.id'))
    .addColumn('area_id', 'integer', (column) => column.notNull().references('areas.id'))
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // At most one unfinished quest per user and course: two concurrent GET …/quests/current
  // cannot both create one.
  await sql`create unique index quests_current on quests (user_id, course_id) where finished_at is null`.execute(db);
  await db.schema
    .createIndex('quests_user_course')
    .on('quests')
    .columns(['user_id', 'course_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('answers')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('user_id', 'bigint', (column) => column.references('users.id').onDelete('set null'))
    // SET NULL: a new game deletes the quests but keeps what was answered.
    .addColumn('quest_id', 'bigint', (column) => column.references('quests.id').onDelete('set null'))
    .addColumn('object_id', 'bigint', (column) => column.notNull().references('targets.object_id'))
    .addColumn('course_id', 'text', (column) => column.notNull())
    .addColumn('galaxy_type', 'text', (column) => column.notNull())
    .addColumn('interaction', 'text', (column) => column.notNull())
    .addColumn('ring', 'boolean', (column) => column.notNull())
    .addColumn('fan', 'boolean', (column) => column.notNull())
    .addColumn('tail', 'boolean', (column) => column.notNull())
    .addColumn('distorted', 'boolean', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('answers_user_object', ['user_id', 'object_id'])
    .execute();
  await db.schema.createIndex('answers_quest').on('answers').column('quest_id').execute();
  await db.schema.createIndex('answers_user_course').on('answers').columns(['user_id', 'course_id']).execute();
  // Rankings: answers of a course since the start of the hour/day/week/month.
  await db.schema.createIndex('answers_course_created').on('answers').columns(['course_id', 'created_at']).execute();
  // Campaign counts are recomputed from this at seeding.
  await db.schema.createIndex('answers_created').on('answers').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['answers', 'quests', 'campaigns', 'targets', 'areas', 'levels', 'courses', 'catalogue_state'])
    await db.schema.dropTable(table).execute();
}
