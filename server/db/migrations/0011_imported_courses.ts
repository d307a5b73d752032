// A research group's own courses (issue 30; docs/import.md), seeded by `galaxy-cruise import`
// beside the catalogue's five:
//
// - courses.imported marks a course the import wrote (the catalogue's seeding never retires its
//   rows); name holds its names ({"en", "ja"}: the five of application-spec are named by the
//   client's strings and keep null); hips_url its imagery (an http(s) URL, or a path under
//   {dataRepository} for a HiPS folder the import copied); open whether volunteers may sail it.
// - imported_targets maps a group's own target id to the object_id the game uses, per course:
//   object_id is one primary key across every course, and a group's ids may collide with the
//   sky's or with another group's. Kept across imports, so an answer keeps its target when the
//   list is imported again. The target's name in the list is kept beside, for the group's own
//   catalogue (the game never shows it).
// - The sequences hand out the import's ids from ranges the sky's never reach: object ids from
//   5·10^15 (the sky's are 43·10^12 + area·1000 + index, below 4.5·10^13 for any int4 area) up
//   to 2^53 − 1, so that they stay exact JSON numbers; level and area ids from 10^6 (the sky's
//   levels count from 1 and its areas are level·100 + k).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table courses
    add column imported boolean not null default false,
    add column name jsonb,
    add column hips_url text,
    add column open boolean not null default true,
    add column source text`.execute(db);

  await sql`create table imported_targets (
    course_id text not null references courses (id),
    source_id bigint not null,
    object_id bigint not null unique,
    name text,
    primary key (course_id, source_id)
  )`.execute(db);

  await sql`create sequence imported_object_ids as bigint start with 5000000000000000
    minvalue 5000000000000000 maxvalue 9007199254740991`.execute(db);
  await sql`create sequence imported_level_ids as integer start with 1000000 minvalue 1000000`.execute(db);
  await sql`create sequence imported_area_ids as integer start with 1000000 minvalue 1000000`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const sequence of ['imported_area_ids', 'imported_level_ids', 'imported_object_ids'])
    await sql`drop sequence ${sql.raw(sequence)}`.execute(db);
  await sql`drop table imported_targets`.execute(db);
  await sql`alter table courses drop column imported, drop column name, drop column hips_url, drop column open,
    drop column source`.execute(db);
}
