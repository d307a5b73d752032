// The science kept beside the game (docs/science.md): per target the vote counts, the vote weights
// summed and the Dawid–Skene evidence of its answers (target_consensus), per volunteer the
// estimated sensitivity and specificity of each question (volunteer_reliability), per course the
// class priors and an optional retirement rule, and the answers not yet summed (science_log).
//
// science_log is filled by statement triggers on answers, so every writer of answers (the answer
// batch, a re-post, an account's deletion unlinking its answers, the load bench's history) logs
// what changed without the answer path knowing about the science: a row per answer written (+1),
// and for an answer changed its old values (−1) and its new ones (+1). The science adds the log's
// rows to the targets' sums, so summing costs the new answers, not every answer of a target. The
// log has no unique key on the target: concurrent answer batches never wait on one another's rows
// (a unique key would make the second writer of a target wait for the first's commit), nor on the
// science taking them. Transition tables allow one event per trigger, hence two triggers.
//
// target_open_for_quest says whether a target belongs to a quest created at a given time: a target
// retired by its course's rule before then does not (it is no longer put into new quests), one
// retired later stays in the quest that already showed it.
//
// consensus_probability turns a target's evidence (the sum of its answers' log-likelihood ratios)
// and the course's prior into P(positive class), clamped so that exp() cannot overflow.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table courses
    add column spiral_prior double precision not null default 0.5,
    add column interaction_prior double precision not null default 0.5,
    add column retire_min_volunteers integer,
    add column retire_min_confidence double precision,
    add column retire_max_volunteers integer`.execute(db);

  await sql`create table target_consensus (
    object_id bigint primary key references targets (object_id),
    course_id text not null,
    volunteers integer not null,
    n_spiral integer not null,
    n_elliptical integer not null,
    n_type_not_sure integer not null,
    n_interaction_yes integer not null,
    n_interaction_no integer not null,
    n_interaction_not_sure integer not null,
    n_ring integer not null,
    n_fan integer not null,
    n_tail integer not null,
    n_distorted integer not null,
    w_spiral double precision not null,
    w_elliptical double precision not null,
    w_type_not_sure double precision not null,
    w_interaction_yes double precision not null,
    w_interaction_no double precision not null,
    w_interaction_not_sure double precision not null,
    w_ring double precision not null,
    w_fan double precision not null,
    w_tail double precision not null,
    w_distorted double precision not null,
    galaxy_type_evidence double precision not null,
    interaction_evidence double precision not null,
    retired_at timestamptz,
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index target_consensus_course on target_consensus (course_id, object_id)`.execute(db);

  await sql`create table volunteer_reliability (
    user_id bigint primary key references users (id) on delete cascade,
    galaxy_type_sensitivity double precision not null,
    galaxy_type_specificity double precision not null,
    interaction_sensitivity double precision not null,
    interaction_specificity double precision not null,
    galaxy_type_answers integer not null,
    interaction_answers integer not null,
    estimated_at timestamptz not null default now()
  )`.execute(db);

  await sql`create table science_state (
    id integer primary key check (id = 1),
    estimated_at timestamptz,
    answers_at_estimate bigint not null default 0,
    iterations integer not null default 0
  )`.execute(db);
  await sql`insert into science_state (id) values (1)`.execute(db);

  // A target's answers are summed by object_id (the refresh and the E-step).
  await sql`create index answers_object on answers (object_id)`.execute(db);

  await sql`create table science_log (
    id bigserial primary key,
    object_id bigint not null,
    course_id text not null,
    user_id bigint,
    sign smallint not null,
    galaxy_type text not null,
    interaction text not null,
    ring boolean not null,
    fan boolean not null,
    tail boolean not null,
    distorted boolean not null
  )`.execute(db);
  const logged = (table: string, sign: number) =>
    `select object_id, course_id, user_id, ${sign}, galaxy_type, interaction, ring, fan, tail, distorted from ${table}`;
  await sql`create function science_log_inserted() returns trigger language plpgsql as $$
    begin
      insert into science_log (object_id, course_id, user_id, sign, galaxy_type, interaction, ring, fan, tail, distorted)
        ${sql.raw(logged('new_answers', 1))};
      return null;
    end $$`.execute(db);
  await sql`create function science_log_updated() returns trigger language plpgsql as $$
    begin
      insert into science_log (object_id, course_id, user_id, sign, galaxy_type, interaction, ring, fan, tail, distorted)
        ${sql.raw(logged('old_answers', -1))} union all ${sql.raw(logged('new_answers', 1))};
      return null;
    end $$`.execute(db);
  await sql`create trigger answers_science_insert after insert on answers
    referencing new table as new_answers
    for each statement execute function science_log_inserted()`.execute(db);
  await sql`create trigger answers_science_update after update on answers
    referencing old table as old_answers new table as new_answers
    for each statement execute function science_log_updated()`.execute(db);
  await sql`insert into science_log (object_id, course_id, user_id, sign, galaxy_type, interaction, ring, fan, tail, distorted)
    ${sql.raw(logged('answers', 1))}`.execute(db);

  await sql`create function target_open_for_quest(target_object_id bigint, quest_created_at timestamptz)
    returns boolean language sql stable as $$
      select not exists (
        select 1 from target_consensus c where c.object_id = target_object_id and c.retired_at < quest_created_at)
    $$`.execute(db);
  await sql`create function consensus_probability(evidence double precision, prior double precision)
    returns double precision language sql immutable as $$
      select 1 / (1 + exp(-least(greatest(ln(prior / (1 - prior)) + evidence, -700), 700)))
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function consensus_probability(double precision, double precision)`.execute(db);
  await sql`drop function target_open_for_quest(bigint, timestamptz)`.execute(db);
  await sql`drop trigger answers_science_update on answers`.execute(db);
  await sql`drop trigger answers_science_insert on answers`.execute(db);
  await sql`drop function science_log_updated()`.execute(db);
  await sql`drop function science_log_inserted()`.execute(db);
  await sql`drop table science_log`.execute(db);
  await sql`drop index answers_object`.execute(db);
  await sql`drop table science_state`.execute(db);
  await sql`drop table volunteer_reliability`.execute(db);
  await sql`drop table target_consensus`.execute(db);
  await sql`alter table courses
    drop column spiral_prior, drop column interaction_prior, drop column retire_min_volunteers,
    drop column retire_min_confidence, drop column retire_max_volunteers`.execute(db);
}
