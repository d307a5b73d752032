// A retired target (docs/science.md) in a table of its own, retired_targets, instead of a column
// of target_consensus. Every answer post asks whether each target of its quest's area is retired
// (target_open_for_quest); target_consensus is rewritten every second for the targets being
// answered, so on PostgreSQL that question walked the fresh row versions of the busiest targets
// under concurrent snapshots, and the answer statement took twice its time with the science on.
// A retirement is written once and never changed, so the question now reads a table that only
// grows when a target is settled.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table retired_targets (
    object_id bigint primary key,
    course_id text not null,
    retired_at timestamptz not null default now()
  )`.execute(db);
  await sql`insert into retired_targets (object_id, course_id, retired_at)
    select object_id, course_id, retired_at from target_consensus where retired_at is not null`.execute(db);
  await sql`create or replace function target_open_for_quest(target_object_id bigint, quest_created_at timestamptz)
    returns boolean language sql stable as $$
      select not exists (
        select 1 from retired_targets r where r.object_id = target_object_id and r.retired_at < quest_created_at)
    $$`.execute(db);
  await sql`alter table target_consensus drop column retired_at`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table target_consensus add column retired_at timestamptz`.execute(db);
  await sql`update target_consensus c set retired_at = r.retired_at from retired_targets r
    where r.object_id = c.object_id`.execute(db);
  await sql`create or replace function target_open_for_quest(target_object_id bigint, quest_created_at timestamptz)
    returns boolean language sql stable as $$
      select not exists (
        select 1 from target_consensus c where c.object_id = target_object_id and c.retired_at < quest_created_at)
    $$`.execute(db);
  await sql`drop table retired_targets`.execute(db);
}
