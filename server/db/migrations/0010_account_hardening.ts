// Issue 32's account defences that need columns (docs: the notes of server/auth/session-activity.ts
// and server/auth/nickname-key.ts):
//
// - sessions.last_used_at: a session unused for SESSION_IDLE_MS ends, whatever its expires_at;
//   written at most once an hour per session. Existing sessions count as used now.
// - sessions.authenticated_at: when the session's holder last gave the account's password (a
//   login); deleting the account asks for a recent one. Null for sessions that a mail link opened.
// - users.nickname_key: the nickname as uniqueness compares it, NFKC-normalised (full-width
//   letters are letters), without zero-width joiners, non-joiners and variation selectors,
//   white space runs as one space, lower-cased; a generated column, so every writer of users
//   keeps it. It replaces the unique index on lower(nickname). Names that already collide under
//   the new rule are told apart by the later account's id (' #<id>' appended), which its
//   volunteer may change; the index could not be built otherwise.
import { sql, type Kysely } from 'kysely';

/** Keep in step with server/auth/nickname-key.ts (a migration does not import code that may change). */
const keyOf = (column: string) =>
  sql.raw(
    `lower(regexp_replace(regexp_replace(normalize(${column}, NFKC), E'[\\u200c\\u200d\\ufe0e\\ufe0f]', '', 'g'), E'\\\\s+', ' ', 'g'))`,
  );

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions add column last_used_at timestamptz not null default now()`.execute(db);
  await sql`alter table sessions add column authenticated_at timestamptz`.execute(db);

  await sql`update users set nickname = nickname || ' #' || id where id in (
    select id from (
      select id, row_number() over (partition by ${keyOf('nickname')} order by id) as rank
      from users where nickname <> ''
    ) ranked where rank > 1
  )`.execute(db);
  await sql`alter table users add column nickname_key text generated always as (${keyOf('nickname')}) stored`.execute(
    db,
  );
  await sql`drop index users_nickname_lower`.execute(db);
  await sql`create unique index users_nickname_key on users (nickname_key) where nickname_key <> ''`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index users_nickname_key`.execute(db);
  await sql`alter table users drop column nickname_key`.execute(db);
  await sql`create unique index users_nickname_lower on users (lower(nickname)) where nickname <> ''`.execute(db);
  await sql`alter table sessions drop column authenticated_at`.execute(db);
  await sql`alter table sessions drop column last_used_at`.execute(db);
}
