// Nicknames compared by their confusable skeleton (Unicode Technical Standard #39, "Unicode
// Security Mechanisms", §4 Confusable Detection), beside users.nickname_key (migration 0010):
// 'Vеga' with a Cyrillic е (U+0435), 'Vega' and 'VEGA' are one name, as are 'Vega1' and 'VegaI'.
//
// - nickname_confusables: confusables.txt's mapping, one row per source character with its
//   prototype (6,311 rows, Unicode 13.0), as the npm package unhomoglyph (MIT) ships it in
//   data.json. A migration reads the data of the version locked in package-lock.json; a newer
//   mapping is a migration of its own.
// - nickname_skeleton(text): the name NFKC-normalised, without zero-width joiners, non-joiners and
//   emoji variation selectors, white space runs as one space (as nickname_key), then without the
//   combining diacritics NFKC left unattached ('V' + U+0301: no letter of any orthography is
//   written so, as every accented Latin, Greek or Cyrillic letter in use has a precomposed form,
//   while such a mark can hide above or overlay its letter; the blocks Combining Diacritical
//   Marks, its Extended and Supplement, Cyrillic's combining marks, those for symbols and the half
//   marks, none of which another script's vowel signs or points are in); then UTS #39's
//   skeleton: NFD, each character replaced by its prototype, NFD again; lower-cased (so a capital
//   look-alike, 'VЕGA', is caught too; lower() follows the database's collation, as for
//   nickname_key).
// - users.nickname_skeleton, kept by a trigger on every write of the nickname (a generated column
//   cannot read a table), and its partial unique index. A name is taken when either key is.
//   Names that already share a skeleton when the migration runs are told apart by the later
//   account's id (' #<id>' appended), as in 0010.
//
// A name wholly in one script keeps its letters' identities within it (the mapping is
// per character): 'Вера' is not 'Bepa' unless someone is called 'Bepa', in which case the two do
// look alike.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import { sql, type Kysely } from 'kysely';

/** The combining diacritics that NFKC left unattached are dropped from the skeleton. */
const UNATTACHED_DIACRITICS =
  '[\\u0300-\\u036f\\u0483-\\u0489\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f]';

function confusablesJson(): string {
  return fs.readFileSync(createRequire(import.meta.url).resolve('unhomoglyph/data.json'), 'utf8');
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table nickname_confusables (source text primary key, prototype text not null)`.execute(db);
  await sql`insert into nickname_confusables (source, prototype)
    select key, value from jsonb_each_text(${confusablesJson()}::jsonb)`.execute(db);
  await sql`create function nickname_skeleton(nickname text) returns text language sql stable strict as $$
    select lower(normalize(coalesce(string_agg(coalesce(c.prototype, s.letter), '' order by s.position), ''), NFD))
    from regexp_split_to_table(
      normalize(
        regexp_replace(
          regexp_replace(
            regexp_replace(normalize(nickname, NFKC), E'[\\u200c\\u200d\\ufe0e\\ufe0f]', '', 'g'),
            E'\\\\s+', ' ', 'g'),
          E'${sql.raw(UNATTACHED_DIACRITICS)}', '', 'g'),
        NFD),
      '') with ordinality as s(letter, position)
    left join nickname_confusables c on c.source = s.letter
  $$`.execute(db);
  await sql`alter table users add column nickname_skeleton text not null default ''`.execute(db);
  await sql`create function users_nickname_skeleton() returns trigger language plpgsql as $$
    begin
      new.nickname_skeleton := coalesce(nickname_skeleton(new.nickname), '');
      return new;
    end
  $$`.execute(db);
  await sql`create trigger users_nickname_skeleton before insert or update of nickname, nickname_skeleton on users
    for each row execute function users_nickname_skeleton()`.execute(db);
  await sql`update users set nickname = nickname where nickname <> ''`.execute(db);
  await sql`update users set nickname = nickname || ' #' || id where id in (
    select id from (
      select id, row_number() over (partition by nickname_skeleton order by id) as rank
      from users where nickname_skeleton <> ''
    ) ranked where rank > 1
  )`.execute(db);
  await sql`create unique index users_nickname_skeleton on users (nickname_skeleton) where nickname_skeleton <> ''`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index users_nickname_skeleton`.execute(db);
  await sql`drop trigger users_nickname_skeleton on users`.execute(db);
  await sql`drop function users_nickname_skeleton()`.execute(db);
  await sql`alter table users drop column nickname_skeleton`.execute(db);
  await sql`drop function nickname_skeleton(text)`.execute(db);
  await sql`drop table nickname_confusables`.execute(db);
}
