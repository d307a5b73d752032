// The load bench's database, before and after a run: a database of its own on the temporary
// PostgreSQL (or PGlite files in the run's folder), filled as a running season leaves it; the
// setup's writes flushed before the load; and, after the server has stopped, the acknowledged
// answers looked up.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { hashPassword } from '../server/auth/passwords';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { catalogueFile, seedFromCatalogueFile } from '../server/db/seed';
import { sumNewAnswers, vacuumScienceLog } from '../server/science/consensus';
import { PASSWORD, type Acknowledged } from './load-volunteers';

export type OpenBenchDatabase = () => ReturnType<typeof openDatabase>;

/**
 * A new database on the PostgreSQL at `serverUrl`, named after the run's folder `work`, and its
 * URL.
 */
export async function createPostgresDatabase(serverUrl: string, work: string): Promise<string> {
  const name = `load_${path
    .basename(work)
    .replace(/[^a-z0-9]/gi, '_')
    .toLowerCase()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * The bench database as a running season leaves it, written before the server starts (PGlite is
 * one process's): the game seeded from the sky catalogue (as the server does at start, which then
 * finds it up to date), `history` past volunteers who finished every area of every course (a
 * week ago), the statistics taken as autovacuum would have, and this run's volunteers with a
 * password. On an empty database the plans a connection caches in its first second are those of
 * tables with a few hundred rows (a sequential scan of all quests for each answer batch), kept
 * while the window grows them many times over: a young-table cost a running game does not pay.
 */
export async function prepareDatabase(
  open: OpenBenchDatabase,
  varDirectory: string,
  { volunteers, history }: { volunteers: number; history: number },
): Promise<{ id: number; email: string }[]> {
  const passwordHash = await hashPassword(PASSWORD);
  const { db } = await open();
  try {
    await migrateToLatest(db);
    const seeded = await seedFromCatalogueFile(db, catalogueFile(varDirectory));
    if ('missing' in seeded) throw new Error(`no sky catalogue at ${seeded.missing}`);
    if (history > 0)
      await db.transaction().execute(async (trx) => {
        await sql`
          insert into users (email, nickname, locale, created_at)
          select 'past' || g || '@load.example.org', 'past' || g, 'en', now() - interval '7 days'
          from generate_series(1, ${history}::int) g`.execute(trx);
        await sql`
          insert into quests (user_id, course_id, level_id, area_id, type, created_at, finished_at)
          select users.id, levels.course_id, levels.id, areas.id, levels.type, now() - interval '7 days', now() - interval '7 days'
          from users cross join areas join levels on levels.id = areas.level_id
          where users.email like 'past%@load.example.org' and not areas.retired and not levels.retired`.execute(trx);
        await sql`
          insert into answers (user_id, quest_id, object_id, course_id, galaxy_type, interaction, ring, fan, tail, distorted, created_at, updated_at)
          select quests.user_id, quests.id, targets.object_id, quests.course_id, 'spiral', 'no', false, false, false, false,
            quests.finished_at, quests.finished_at
          from quests join targets on targets.area_id = quests.area_id and not targets.retired
          where quests.finished_at is not null`.execute(trx);
      });
    const created = await db
      .insertInto('users')
      .values(
        Array.from({ length: volunteers }, (_, index) => ({
          email: `volunteer${index}@load.example.org`,
          nickname: `volunteer${index}`,
          locale: index % 2 === 0 ? 'en' : 'ja',
          password_hash: passwordHash,
        })),
      )
      .returning(['id', 'email'])
      .execute();
    // The history's answers summed into the science's consensus, as a serving process would have
    // long before (docs/science.md): the window times the answers of the run, not that backlog.
    await sumNewAnswers(db);
    await vacuumScienceLog(db);
    await sql`analyze`.execute(db);
    return created;
  } finally {
    await db.destroy();
  }
}

/**
 * Before the warm-up: the setup's writes (initdb's files, left unsynced; the history; the logins)
 * go to the disk now rather than in the window. Left dirty, the kernel writes them back some
 * seconds after they were made, which is inside the window, and the answers committing meanwhile
 * queue behind that write-back. A running game has no backlog from a setup. PostgreSQL
 * checkpoints first, so that its buffers from the setup go out too.
 */
export async function settleSetupWrites(databaseUrl: string): Promise<void> {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query('checkpoint');
    } finally {
      await client.end();
    }
  }
  // sync(1): every file system's dirty pages, as the kernel's own write-back would.
  execFileSync('sync');
}

/** Acknowledged answers missing from the database, or not with the values of their last post. */
export async function countLost(open: OpenBenchDatabase, acknowledged: Acknowledged): Promise<number> {
  let lost = 0;
  const { db } = await open();
  try {
    const rows = await db
      .selectFrom('answers')
      .select(['user_id', 'object_id', 'galaxy_type', 'interaction', 'ring', 'fan', 'tail', 'distorted'])
      .execute();
    const stored = new Map(rows.map((row) => [`${row.user_id}:${row.object_id}`, row]));
    for (const [key, values] of acknowledged) {
      const row = stored.get(key);
      if (
        !row ||
        row.galaxy_type !== values.galaxy_type ||
        row.interaction !== values.interaction ||
        row.ring !== values.ring ||
        row.fan !== values.fan ||
        row.tail !== values.tail ||
        row.distorted !== values.distorted
      )
        lost++;
    }
  } finally {
    await db.destroy();
  }
  return lost;
}
