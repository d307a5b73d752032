// The season bench: every GET of application-spec §7 and an answer POST timed against a database
// holding a season's answers (2 million from 20,000 volunteers by default) beside the same calls
// against one holding a thousandth of them, in the same run, on PGlite and on PostgreSQL; and
// GET /api/session while 8 clients reload the monthly ranking beside it idle. A call whose cost
// grows with the number of answers shows as a ratio above 2.
//
// The answers are written through SQL, not HTTP, before the server starts (PGlite is one
// process's): 20,000 volunteers answering through the server would take the bench hours. They
// answer targets of a retired level of their own (rows that left the catalogue, as seeding keeps
// them), so the live game the timed volunteer plays is the same small sky at both scales.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { hashPassword } from '../server/auth/passwords';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import type { Database } from '../server/db/schema';
import { catalogueFile, seedFromCatalogueFile } from '../server/db/seed';
import { startTemporaryPostgres, type TemporaryPostgres } from '../server/db/temporary-postgres';
import { smallSky } from '../skydata/small-sky';
import { formatColumns, median } from './harness';
import { Client } from './load-client';
import { createPostgresDatabase } from './load-database';
import { onInterrupt, startLoadServer, type LoadServer } from './load-server';

export type SeasonDatabase = 'pglite' | 'postgres';

export interface SeasonOptions {
  databases: SeasonDatabase[];
  /** The season's answers and volunteers; the small database holds `answers / 1000` of each. */
  answers: number;
  volunteers: number;
  /** Timed requests per call. */
  requests: number;
  log: (line: string) => void;
}

export interface SeasonRow {
  suite: 'season';
  database: SeasonDatabase;
  call: string;
  small_answers: number;
  large_answers: number;
  small_median_ms: number;
  large_median_ms: number;
  ratio: number;
}

/** How much smaller the small database is. */
const SMALL_FRACTION = 1000;
/** The season's answers spread over the 20 days before the fill. */
const SEASON_MS = 20 * 86_400_000;
/** Answers written per INSERT: the triggers' transition tables stay this size. */
const FILL_CHUNK = 100_000;
/** The clients reloading the monthly ranking beside GET /api/session. */
const RANKING_READERS = 8;
/** How often each of them reloads it: ten times a second, faster than anyone clicks. */
const RANKING_RELOAD_MS = 100;
const PASSWORD = 'season-bench-password';
const TIMED_EMAIL = 'timed@season.example.org';
const ARCHIVE_ID = 900_000;
const ARCHIVE_OBJECT = 9_000_000_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `volunteers` volunteers and `answers` answers between them, spread over the season: a retired
 * level, area and targets of season2 for them to answer, the volunteers, then the answers in
 * chunks (season2 three in four, illustris the rest). Returns the fill's seconds.
 */
async function fillSeason(db: Kysely<Database>, answers: number, volunteers: number): Promise<number> {
  const perVolunteer = Math.ceil(answers / volunteers);
  const started = performance.now();
  await sql`insert into levels (id, course_id, position, key, name_key, name, type, depth, survey, labels, retired)
    values (${ARCHIVE_ID}, 'season2', ${ARCHIVE_ID}, 'season-archive', 'season-archive', '{}', 'regular', 'wide', 'hsc', '[]', true)`.execute(
    db,
  );
  await sql`insert into areas (id, level_id, position, outlines, center_ra, center_dec, retired)
    values (${ARCHIVE_ID}, ${ARCHIVE_ID}, 0, '[]', 0, 0, true)`.execute(db);
  await sql`insert into targets (object_id, area_id, position, ra, dec, galaxy_type, interaction, ring, fan, tail, distorted, retired)
    select ${ARCHIVE_OBJECT}::bigint + k, ${ARCHIVE_ID}, k, k * 0.001, 0, 'spiral', 'no', false, false, false, false, true
    from generate_series(0, ${perVolunteer - 1}::int) k`.execute(db);
  await sql`insert into users (email, nickname, locale)
    select 'season' || v || '@season.example.org', 'season' || v, 'en' from generate_series(1, ${volunteers}::int) v`.execute(
    db,
  );
  const first = await db
    .selectFrom('users')
    .select((eb) => eb.fn.min('id').as('id'))
    .where('email', 'like', 'season%@season.example.org')
    .executeTakeFirstOrThrow();
  const firstId = Number(first.id);
  // The n-th answer of the season (n = volunteer × perVolunteer + k) is dated by a permutation of
  // n (a multiplier prime to the count), so that every hour of the season gets its share.
  const total = volunteers * perVolunteer;
  const multiplier = 1_000_003;
  const volunteersPerChunk = Math.max(1, Math.floor(FILL_CHUNK / perVolunteer));
  for (let from = 0; from < volunteers; from += volunteersPerChunk) {
    const to = Math.min(volunteers, from + volunteersPerChunk) - 1;
    await sql`insert into answers (user_id, quest_id, object_id, course_id, galaxy_type, interaction, ring, fan, tail, distorted, created_at, updated_at)
      select ${firstId}::bigint + v, null, ${ARCHIVE_OBJECT}::bigint + k,
        case when k % 4 = 3 then 'illustris' else 'season2' end, 'spiral', 'no', false, false, false, false,
        at, at
      from generate_series(${from}::int, ${to}::int) v
      cross join generate_series(0, ${perVolunteer - 1}::int) k
      cross join lateral (select now() - ((((v::bigint * ${perVolunteer} + k) * ${multiplier}) % ${total})
        * ${SEASON_MS / total}::float8 * interval '1 millisecond') as at) dated`.execute(db);
  }
  await sql`analyze`.execute(db);
  const seconds = (performance.now() - started) / 1000;
  const written = await db
    .selectFrom('answers')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  if (Number(written.count) !== total) throw new Error(`the fill wrote ${written.count} answers, not ${total}`);
  return seconds;
}

/** One database, filled, with its server up and the timed volunteer logged in. */
interface Prepared {
  answers: number;
  fillSeconds: number;
  startSeconds: number;
  client: Client;
  cookie: string;
  /** The captain message made for the notification calls. */
  notificationId: number;
  /** Stops the server, then removes the run's folder. */
  close(): Promise<void>;
}

async function login(client: Client, email: string): Promise<string> {
  const reply = await client.request('POST', '/api/session', { body: { email, password: PASSWORD } });
  if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.body}`);
  return ([] as string[])
    .concat(reply.headers['set-cookie'] ?? [])
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

async function prepare(
  database: SeasonDatabase,
  postgres: TemporaryPostgres | undefined,
  skyDirectory: string,
  answers: number,
  volunteers: number,
  log: (line: string) => void,
): Promise<Prepared> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-season-'));
  const forgetWork = onInterrupt(() => fs.rmSync(work, { recursive: true, force: true }));
  let server: LoadServer | undefined;
  const close = async () => {
    await server?.stop();
    forgetWork();
    fs.rmSync(work, { recursive: true, force: true });
  };
  try {
    fs.symlinkSync(skyDirectory, path.join(work, 'sky'));
    const databaseUrl = database === 'postgres' ? await createPostgresDatabase(postgres!.url, work) : '';
    const { db } = await openDatabase({ databaseUrl: databaseUrl || undefined, directory: path.join(work, 'db') });
    let fillSeconds: number;
    try {
      await migrateToLatest(db);
      const seeded = await seedFromCatalogueFile(db, catalogueFile(work));
      if ('missing' in seeded) throw new Error(`no sky catalogue at ${seeded.missing}`);
      log(`season ${database}: filling ${answers} answers from ${volunteers} volunteers`);
      fillSeconds = await fillSeason(db, answers, volunteers);
      log(`season ${database}: filled in ${fillSeconds.toFixed(1)} s`);
      await db
        .insertInto('users')
        .values({
          email: TIMED_EMAIL,
          nickname: 'timed',
          locale: 'en',
          password_hash: await hashPassword(PASSWORD),
        })
        .execute();
    } finally {
      await db.destroy();
    }
    const started = performance.now();
    server = await startLoadServer(
      database,
      // The timed volunteer is also an administrator, for the admin notification calls.
      { VAR_DIR: work, DATABASE_URL: databaseUrl, RATE_LIMITS: 'off', ADMIN_EMAILS: TIMED_EMAIL },
      path.join(work, 'server.log'),
    );
    const startSeconds = (performance.now() - started) / 1000;
    const client = new Client(server.port, RANKING_READERS + 2);
    const cookie = await login(client, TIMED_EMAIL);
    // One captain message, so that the notification calls have something to list and preview.
    const created = await client.request('POST', '/api/notifications', {
      cookie,
      body: { type: 'captain_message', title: { en: 'Ahoy', ja: 'ようこそ' }, message: { en: 'Hello crew' } },
    });
    if (created.status !== 201) throw new Error(`POST /api/notifications: ${created.status} ${created.body}`);
    const notificationId = (JSON.parse(created.body) as { id: number }).id;
    return {
      answers: volunteers * Math.ceil(answers / volunteers),
      fillSeconds,
      startSeconds,
      client,
      cookie,
      notificationId,
      close: async () => {
        client.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** One timed call: its milliseconds, or an error naming it when it does not answer 200. */
async function timed(prepared: Prepared, method: string, url: string, body?: unknown): Promise<number> {
  const start = performance.now();
  const reply = await prepared.client.request(method, url, { cookie: prepared.cookie, body });
  const ms = performance.now() - start;
  if (reply.status !== 200) throw new Error(`${method} ${url}: ${reply.status} ${reply.body}`);
  return ms;
}

/**
 * `requests` calls of `url` on each database, alternating between them so that both meet the
 * same load from the rest of the machine; one untimed call each first.
 */
async function timeCall(pair: Prepared[], url: string, requests: number): Promise<number[][]> {
  return timeCallEach(pair, () => url, requests);
}

/** timeCall with an address of each database's own. */
async function timeCallEach(
  pair: Prepared[],
  urlOf: (prepared: Prepared) => string,
  requests: number,
): Promise<number[][]> {
  for (const prepared of pair) await timed(prepared, 'GET', urlOf(prepared));
  const ms: number[][] = pair.map(() => []);
  for (let i = 0; i < requests; i++)
    for (const [index, prepared] of pair.entries()) ms[index].push(await timed(prepared, 'GET', urlOf(prepared)));
  return ms;
}

/** The volunteer's next unanswered questions of its current season2 quest. */
async function pendingQuestions(prepared: Prepared): Promise<{ questId: number; objectId: number }[]> {
  const reply = await prepared.client.request('GET', '/api/courses/season2/quests/current', {
    cookie: prepared.cookie,
  });
  const quest = JSON.parse(reply.body) as {
    id: number | null;
    questions: { object_id: number }[] | null;
    answers: { object_id: number }[] | null;
  };
  if (quest.id === null || !quest.questions) throw new Error('the timed volunteer has no quest left in season2');
  const answered = new Set((quest.answers ?? []).map((answer) => answer.object_id));
  return quest.questions
    .filter((question) => !answered.has(question.object_id))
    .map((question) => ({ questId: quest.id!, objectId: question.object_id }));
}

/**
 * Answer posts to the volunteer's current quests, alternating between the databases: up to
 * `requests` new answers each, while the season2 course has questions left; then `requests`
 * re-posts of those answers, which replace an answer and count nothing. The two are timed apart:
 * a new answer also advances the kept counts.
 */
async function timeAnswers(pair: Prepared[], requests: number): Promise<{ fresh: number[][]; repost: number[][] }> {
  type Target = { questId: number; objectId: number };
  const post = (prepared: Prepared, target: Target, i: number) =>
    timed(prepared, 'POST', `/api/quests/${target.questId}/answers`, {
      object_id: target.objectId,
      galaxy_type: i % 2 === 0 ? 'spiral' : 'elliptical',
      interaction: 'no',
    });
  const fresh: number[][] = pair.map(() => []);
  const posted = pair.map(() => [] as Target[]);
  const pending = pair.map(() => [] as Target[]);
  const open = pair.map(() => true);
  for (let i = 0; i < requests && open.some(Boolean); i++)
    for (const [index, prepared] of pair.entries()) {
      if (!open[index]) continue;
      if (pending[index].length === 0) pending[index] = await pendingQuestions(prepared).catch(() => []);
      const next = pending[index].shift();
      if (!next) {
        open[index] = false;
        continue;
      }
      posted[index].push(next);
      fresh[index].push(await post(prepared, next, i));
    }
  const repost: number[][] = pair.map(() => []);
  for (let i = 0; i < requests; i++)
    for (const [index, prepared] of pair.entries())
      repost[index].push(await post(prepared, posted[index][i % posted[index].length], i + 1));
  return { fresh, repost };
}

/**
 * GET /api/session's times on `prepared` while `RANKING_READERS` clients reload the monthly
 * ranking, each every RANKING_RELOAD_MS (or at once when its reply took longer): a ranking that
 * holds the database delays the session call by its own time, whatever the machine; readers
 * without a pause would instead measure how the machine's cores are shared.
 */
async function timeSessionUnderRankings(prepared: Prepared, requests: number): Promise<number[]> {
  let running = true;
  const readers = Array.from({ length: RANKING_READERS }, async (_, index) => {
    // Spread over the reload interval, not in step.
    await sleep((index * RANKING_RELOAD_MS) / RANKING_READERS);
    while (running) {
      const start = performance.now();
      const reply = await prepared.client.request('GET', '/api/courses/season2/rankings/month', {
        cookie: prepared.cookie,
      });
      if (reply.status !== 200) throw new Error(`GET ranking: ${reply.status}`);
      await sleep(Math.max(0, RANKING_RELOAD_MS - (performance.now() - start)));
    }
  });
  try {
    await sleep(2 * RANKING_RELOAD_MS);
    const ms: number[] = [];
    for (let i = 0; i < requests; i++) ms.push(await timed(prepared, 'GET', '/api/session'));
    return ms;
  } finally {
    running = false;
    await Promise.all(readers);
  }
}

const GETS = [
  '/api/session',
  '/api/server_info',
  '/api/my_record/season2',
  '/api/my_records',
  '/api/levels?course_id=season2',
  '/api/levels/{level_id}',
  '/api/courses/season2/quests/current',
  '/api/campaigns',
  '/api/courses/season2/rankings/hour',
  '/api/courses/season2/rankings/day',
  '/api/courses/season2/rankings/week',
  '/api/courses/season2/rankings/month',
  '/api/notifications',
  '/api/notifications?include_old=true',
  '/api/nicknames/season1',
  '/api/present202501/stat',
  '/api/admin/notifications',
  '/api/admin/notifications/{notification_id}/preview?locale=ja',
];

export async function runSeason(options: SeasonOptions): Promise<SeasonRow[]> {
  const { log, requests } = options;
  const skyDirectory = path.join((await smallSky()).varDirectory, 'sky');
  const rows: SeasonRow[] = [];
  for (const database of options.databases) {
    const postgres = database === 'postgres' ? await startTemporaryPostgres({ maxConnections: 100 }) : undefined;
    const forget = postgres ? onInterrupt(() => postgres.stop()) : () => false;
    const pair: Prepared[] = [];
    try {
      pair.push(
        await prepare(
          database,
          postgres,
          skyDirectory,
          Math.max(1, Math.round(options.answers / SMALL_FRACTION)),
          Math.max(1, Math.round(options.volunteers / SMALL_FRACTION)),
          log,
        ),
      );
      pair.push(await prepare(database, postgres, skyDirectory, options.answers, options.volunteers, log));
      const [small, large] = pair;
      const row = (call: string, smallMs: number, largeMs: number): SeasonRow => ({
        suite: 'season',
        database,
        call,
        small_answers: small.answers,
        large_answers: large.answers,
        small_median_ms: smallMs,
        large_median_ms: largeMs,
        ratio: largeMs / smallMs,
      });
      const add = (call: string, [smallMs, largeMs]: number[][]) =>
        rows.push(row(call, median(smallMs), median(largeMs)));
      log(`season ${database}: timing ${GETS.length + 2} calls, ${requests} requests each`);
      const answersMs = await timeAnswers(pair, requests);
      add('POST /api/quests/{quest_id}/answers (new answers)', answersMs.fresh);
      add('POST /api/quests/{quest_id}/answers (re-posts)', answersMs.repost);
      const levels = JSON.parse((await small.client.request('GET', '/api/levels', { cookie: small.cookie })).body) as {
        id: number;
      }[];
      for (const url of GETS) {
        const filled = url.replace('{level_id}', String(levels[0].id));
        // Each database's own notification (their ids agree on fresh databases, but need not).
        const ms = filled.includes('{notification_id}')
          ? await timeCallEach(
              pair,
              (prepared) => filled.replace('{notification_id}', String(prepared.notificationId)),
              requests,
            )
          : await timeCall(pair, filled, requests);
        add(`GET ${url}`, ms);
      }
      const smallBusy = await timeSessionUnderRankings(small, requests);
      const largeBusy = await timeSessionUnderRankings(large, requests);
      rows.push(
        row(
          `GET /api/session, ${RANKING_READERS} clients reloading the monthly ranking`,
          median(smallBusy),
          median(largeBusy),
        ),
      );
      // The large database's GET /api/session idle (small column) beside itself under the readers.
      const idle = rows.find((candidate) => candidate.database === database && candidate.call === 'GET /api/session')!;
      rows.push({
        ...row(
          `GET /api/session on ${large.answers} answers: idle, then under the ranking readers`,
          idle.large_median_ms,
          median(largeBusy),
        ),
        small_answers: large.answers,
      });
      rows.push(row('server start to first reply (s)', small.startSeconds * 1000, large.startSeconds * 1000));
      rows.push(row('fill through SQL (s)', small.fillSeconds * 1000, large.fillSeconds * 1000));
    } finally {
      for (const prepared of pair) await prepared.close();
      forget();
      postgres?.stop();
    }
  }
  return rows;
}

export function formatSeasonTable(rows: SeasonRow[]): string {
  const header = ['database', 'call', 'answers', 'median', 'answers', 'median', 'ratio'];
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const lines = rows.map((row) => {
    const seconds = row.call.endsWith('(s)');
    const format = seconds ? (value: number) => `${(value / 1000).toFixed(1)} s` : ms;
    return [
      row.database,
      row.call,
      String(row.small_answers),
      format(row.small_median_ms),
      String(row.large_answers),
      format(row.large_median_ms),
      row.ratio.toFixed(2),
    ];
  });
  return formatColumns(header, lines);
}
