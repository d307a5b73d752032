// Retirement that follows the science (docs/science.md, "Retirement"):
//
// - target_retired(object_id) says whether a target is retired now. A quest's questions and its
//   completion leave out every target retired now, not only those retired before the quest was
//   created, so a target settled while volunteers sail together leaves their quests at once. An
//   answer is still taken for a target retired after the quest was created (the one on a
//   volunteer's screen), as target_open_for_quest (0012) says.
// - retired_targets_course finds a course's retirements: the areas whose every target is retired
//   (passed over as a volunteer sails, server/game/model-reads.ts settledAreaIds) are read from
//   it, so a course without retirements costs one probe of an empty range.
// - reopened_targets keeps the targets an estimate opened again (their confidence fell below the
//   rule's), with when they had been retired and when they were opened, for the dashboard; the
//   retirement itself leaves retired_targets, so the target is asked again.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index retired_targets_course on retired_targets (course_id)`.execute(db);
  await sql`create function target_retired(target_object_id bigint)
    returns boolean language sql stable as $$
      select exists (select 1 from retired_targets r where r.object_id = target_object_id)
    $$`.execute(db);
  await sql`create table reopened_targets (
    object_id bigint primary key,
    course_id text not null,
    retired_at timestamptz not null,
    reopened_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index reopened_targets_course on reopened_targets (course_id, reopened_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table reopened_targets`.execute(db);
  await sql`drop function target_retired(bigint)`.execute(db);
  await sql`drop index retired_targets_course`.execute(db);
}
