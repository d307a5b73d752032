// The rankings (application-spec §7: answers per volunteer since the start of the hour, day, week
// or month in TIME_ZONE) kept as answers are written, instead of aggregated from every answer of
// the period at each call: that read grew with the answers of the period and, on PGlite's one
// connection, held every other request behind it.
//
// One row per course, period, period start and volunteer: the answers created in that period and
// the latest of their created_at, the instant the volunteer reached the count (ties in a ranking
// go to who reached it first). As with course_answer_counts (0006), a statement trigger on INSERT
// keeps the counts, so every writer of answers keeps them; its transition table holds only the
// inserted rows, also under ON CONFLICT DO UPDATE, so a re-post (which updates its row and keeps
// its created_at) counts once. A new game deletes quests, never answers, so it changes no count.
// An account's deletion removes its counts with the account (ON DELETE CASCADE), as its answers,
// unlinked from the person, leave the rankings.
//
// The period starts are those of ranking_time_zone's zone (date_trunc in that zone: ISO weeks
// start on Monday). The server writes TIME_ZONE there at start and recounts when it changed
// (server/game/ranking-counts.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table ranking_time_zone (
    id integer primary key check (id = 1),
    time_zone text not null
  )`.execute(db);
  await sql`insert into ranking_time_zone (id, time_zone) values (1, 'Asia/Tokyo')`.execute(db);
  await sql`create table ranking_counts (
    course_id text not null,
    period text not null check (period in ('hour', 'day', 'week', 'month')),
    period_start timestamptz not null,
    user_id bigint not null references users (id) on delete cascade,
    answers_count bigint not null,
    reached_at timestamptz not null,
    primary key (course_id, period, period_start, user_id)
  )`.execute(db);
  // The top of a ranking is the first rows of this index: its cost does not depend on how many
  // volunteers answered in the period.
  await sql`create index ranking_counts_order on ranking_counts
    (course_id, period, period_start, answers_count desc, reached_at, user_id)`.execute(db);
  // An account's deletion finds its counts by this index.
  await sql`create index ranking_counts_user on ranking_counts (user_id)`.execute(db);
  await sql`create function ranking_counts_add() returns trigger language plpgsql as $$
    declare
      zone text := (select time_zone from ranking_time_zone where id = 1);
    begin
      insert into ranking_counts (course_id, period, period_start, user_id, answers_count, reached_at)
        select answer.course_id, periods.period, date_trunc(periods.period, answer.created_at, zone),
          answer.user_id, count(*), max(answer.created_at)
        from inserted_answers answer
        cross join (values ('hour'), ('day'), ('week'), ('month')) as periods (period)
        where answer.user_id is not null
        group by 1, 2, 3, 4 order by 1, 2, 3, 4
        on conflict (course_id, period, period_start, user_id)
        do update set answers_count = ranking_counts.answers_count + excluded.answers_count,
          reached_at = greatest(ranking_counts.reached_at, excluded.reached_at);
      return null;
    end $$`.execute(db);
  await sql`create trigger answers_ranking_counts after insert on answers
    referencing new table as inserted_answers
    for each statement execute function ranking_counts_add()`.execute(db);
  await sql`insert into ranking_counts (course_id, period, period_start, user_id, answers_count, reached_at)
    select answer.course_id, periods.period, date_trunc(periods.period, answer.created_at, 'Asia/Tokyo'),
      answer.user_id, count(*), max(answer.created_at)
    from answers answer
    cross join (values ('hour'), ('day'), ('week'), ('month')) as periods (period)
    where answer.user_id is not null
    group by 1, 2, 3, 4`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger answers_ranking_counts on answers`.execute(db);
  await sql`drop function ranking_counts_add()`.execute(db);
  await sql`drop table ranking_counts`.execute(db);
  await sql`drop table ranking_time_zone`.execute(db);
}
