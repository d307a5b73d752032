// The answer path under load.
//
// Campaign counters become sequences. A counter in the campaigns row would have every new answer
// add 1 to the same row(s) and hold that row lock until its COMMIT, WAL fsync included, so all
// answers of all volunteers would queue on one row: the server's answers per second could not
// exceed the commits per second of one row. A sequence
// per campaign (campaign_answers_<id>) gives each new answer its ordinal in the window with
// nextval, which takes no row lock and does not wait for other transactions. The answer that draws
// ordinal n is the n-th answer of the window, so new_record ("this answer reached a medal count")
// stays exact and is reported once. Sharded counter rows would spread the lock, but then no
// answer knows its exact ordinal, so new_record could be reported twice or never.
//
// What a sequence gives up, by design of PostgreSQL: nextval is not rolled back, so a statement
// that fails after its nextval leaves a gap (the count runs ahead by one and that ordinal's medal,
// if any, is never reported). The answer statement therefore draws nextval as its last step and
// commits at once (server/game/answer-batches.ts). A database crash may also move a sequence ahead (it
// logs 32 values ahead). campaigns.answers_count stays the count recounted from the answers at
// seeding, and a trigger sets the sequence to it whenever it is written: a re-seed (or
// `update campaigns set answers_count = …`) repairs both.
//
// quests.answer_posts counts the answers posted to a quest. The answer statement bumps it: when
// the value it gets back is not the one it read plus one, another answer to the same quest
// committed after its snapshot was taken, so its "is the quest complete" reading may be stale and
// the locked completion check runs (see server/routes/quests.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function campaign_counter_sync() returns trigger language plpgsql as $$
    begin
      execute format('create sequence if not exists %I minvalue 0 start 0', 'campaign_answers_' || new.id);
      perform setval(format('%I', 'campaign_answers_' || new.id)::regclass, new.answers_count, true);
      return null;
    end $$`.execute(db);
  await sql`create trigger campaigns_counter_sync after insert or update of answers_count on campaigns
    for each row execute function campaign_counter_sync()`.execute(db);
  // Existing campaigns get their sequence, at the count they have.
  await sql`update campaigns set answers_count = answers_count`.execute(db);
  await sql`alter table quests add column answer_posts integer not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table quests drop column answer_posts`.execute(db);
  await sql`drop trigger campaigns_counter_sync on campaigns`.execute(db);
  await sql`drop function campaign_counter_sync()`.execute(db);
  const { rows } = await sql<{
    name: string;
  }>`select sequencename as name from pg_sequences where sequencename like 'campaign\\_answers\\_%'`.execute(db);
  for (const { name } of rows) await sql`drop sequence ${sql.id(name)}`.execute(db);
}
