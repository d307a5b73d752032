// The new-record response's answers_count (application-spec §7: the volunteer's answers in the
// course) kept per user and course, instead of counted at every answer. Counting reads every
// answer of the volunteer in the course, so an answer would cost more the more its volunteer had
// answered, and the volunteers who answer most are those with the most answers: for them the
// count would cost more than the rest of the answer.
//
// A statement trigger keeps the count, so every writer of answers (the answer batch, the load
// bench's history, a restore) keeps it right. Answers are never deleted (an account's deletion
// unlinks them from the person, a new game from the quest) and a re-post updates its row without
// changing its course, so a count only grows, by the rows an INSERT inserted: its transition
// table holds only those, under ON CONFLICT DO UPDATE as well (PostgreSQL manual, CREATE TRIGGER).
// The counts are written in key order, so two statements lock them in the same order.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table course_answer_counts (
    user_id bigint not null references users (id) on delete cascade,
    course_id text not null,
    answers_count bigint not null,
    primary key (user_id, course_id)
  )`.execute(db);
  await sql`create function course_answer_counts_add() returns trigger language plpgsql as $$
    begin
      insert into course_answer_counts (user_id, course_id, answers_count)
        select user_id, course_id, count(*) from inserted_answers where user_id is not null
        group by user_id, course_id order by user_id, course_id
        on conflict (user_id, course_id)
        do update set answers_count = course_answer_counts.answers_count + excluded.answers_count;
      return null;
    end $$`.execute(db);
  await sql`create trigger answers_course_counts after insert on answers
    referencing new table as inserted_answers
    for each statement execute function course_answer_counts_add()`.execute(db);
  await sql`insert into course_answer_counts (user_id, course_id, answers_count)
    select user_id, course_id, count(*) from answers where user_id is not null
    group by user_id, course_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger answers_course_counts on answers`.execute(db);
  await sql`drop function course_answer_counts_add()`.execute(db);
  await sql`drop table course_answer_counts`.execute(db);
}
