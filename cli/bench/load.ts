// The load bench (issue 5): the real server process on 127.0.0.1, 200 simulated volunteers who
// log in (outside the timed window), fetch their current quest, post answers in a loop, poll
// GET /api/campaigns each second and GET /api/notifications each minute, for a fixed time, on
// PGlite and on a temporary PostgreSQL. It reports answers/s, p50/p99 latency of answer posts and
// of all calls, errors, and lost answers: after the server has stopped, every acknowledged answer
// must be in the database with the values of its last acknowledged post.
//
// The peer, 'none': the same calls answered from memory by Fastify with no database
// (./load-floor.ts), in the same run: what HTTP and this client alone cost on this machine.
//
// Two ways to load: closed loop (each volunteer posts its next answer as soon as the previous one
// is answered: the most the server sustains, with latency = volunteers / rate by Little's law)
// and paced (the volunteers together offer a fixed rate, so the latency is that of the server
// at that rate, not of a queue the bench builds).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { hashPassword } from '../../server/auth/passwords';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { catalogueFile, seedFromCatalogueFile } from '../../server/db/seed';
import type { Morphology } from '../../src/shared/catalogue';
import { GALAXY_TYPES, INTERACTIONS } from '../../src/shared/enums';
import { buildSky } from '../../skydata/build';
import { smallSky } from '../../skydata/small-sky';
import { formatColumns } from './harness';
import { openDiskFlushProbe, type DiskFlushProbe } from './disk-flush-probe';
import { Client, type Reply } from './load-client';
import { freeLoopbackPort, startTemporaryPostgres, type TemporaryPostgres } from './temporary-postgres';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export type LoadDatabase = 'pglite' | 'postgres' | 'none';

/**
 * The sky played. 'small' (the game tests' sky): four questions per area and one
 * area per level, so every fourth first answer turns a quest over, and the volunteers exhaust it
 * within seconds and re-post. 'default': the sky `npm start` serves (built into VAR_DIR's sky/ if
 * stale, as `galaxy-cruise data --if-stale` does), with 6 to 16 questions per area and 440 in
 * all, which 200 volunteers do not exhaust in a window: every answer is a first answer (the
 * command's default).
 */
export type LoadSky = 'small' | 'default';

export interface LoadOptions {
  databases: LoadDatabase[];
  sky: LoadSky;
  volunteers: number;
  /** The timed window, after the warm-up. */
  seconds: number;
  /** The same load before the window, timed apart (warmup_answer_p99_ms). */
  warmupSeconds: number;
  /** Past volunteers whose finished quests and answers the database holds when the run starts. */
  history: number;
  /** Offered answers/s per database for the paced runs; a database left out gets no paced run. */
  paced: Partial<Record<LoadDatabase, number>>;
  /** Closed-loop runs too. */
  closedLoop: boolean;
  /** Writes a V8 CPU profile of each server process into this folder. */
  profileDirectory?: string;
  /** PostgreSQL: load pg_stat_statements and report the costliest statements of each window. */
  statements?: boolean;
  log: (line: string) => void;
}

export interface LoadRow {
  suite: 'load';
  database: LoadDatabase;
  sky: LoadSky;
  mode: string;
  volunteers: number;
  seconds: number;
  /** Acknowledged answer posts (2xx). */
  answers: number;
  answers_per_s: number;
  /** Of those, first answers to an object (inserts) and re-posts (updates). */
  new_answers: number;
  replaced_answers: number;
  answer_p50_ms: number;
  answer_p99_ms: number;
  /**
   * The two kinds of answer apart. A first answer is the game itself: every few of them finish a
   * quest, unlock a level and fetch a new quest. A re-post only replaces an answer: the small sky
   * runs out of questions after a few quests, and the volunteers then re-post in turn.
   */
  new_answer_p99_ms: number;
  replaced_answer_p99_ms: number;
  /** Past volunteers in the database (their whole course finished), 0 for the peer. */
  history: number;
  /** The warm-up before the window: its length, its acknowledged answers and their p99. */
  warmup_seconds: number;
  warmup_answers: number;
  warmup_answer_p99_ms: number;
  /**
   * The game phase: from the window's start until the last first answer was acknowledged, and
   * the answers (first and re-posts) acknowledged per second within it. Its rate is what the
   * server sustains while quests turn over, which the whole window's rate hides.
   */
  game_phase_s: number;
  game_phase_answers_per_s: number;
  calls: number;
  calls_per_s: number;
  all_p50_ms: number;
  all_p99_ms: number;
  errors: number;
  error_samples: string[];
  /** Acknowledged answers missing from the database, or stored with other values (null: 'none'). */
  lost_answers: number | null;
  /** CPU seconds per second of the window (1 = one core busy). */
  cpu_server: number;
  cpu_database: number;
  cpu_bench: number;
  /**
   * Seconds per second of the window that the server's main thread, the database's processes
   * (summed) and the bench's main thread were ready to run but waited for a CPU. The three share
   * this machine's two cores: the server's wait delays every call, and the bench's wait is counted
   * in the latencies it measures. 0 where the kernel keeps no scheduler statistics.
   */
  run_queue_server: number;
  run_queue_database: number;
  run_queue_bench: number;
  /** The machine's 1-minute load average when the window opened: other work skews the numbers. */
  load_average: number;
  /**
   * The disk's time to make an 8 KiB write durable, probed every 50 ms of the window beside the
   * database's files, on a thread of its own (./disk-flush-probe.ts): each acknowledged answer
   * waits for such a flush, so a stalled disk shows here and in answer_p99_ms together.
   */
  disk_flush_p99_ms: number;
  disk_flush_max_ms: number;
  /**
   * PostgreSQL only: what the server's connections were doing, sampled from pg_stat_activity
   * every 100 ms of the window, as 'share state/wait_event: query' lines, most frequent first.
   */
  database_activity: string[];
  /**
   * PostgreSQL with --statements only: the statements that took the most of its time in the
   * window (pg_stat_statements), as 'calls, plans, planning and execution ms, mean: query' lines.
   */
  top_statements: string[];
}

const PASSWORD = 'load-bench-password';

/** A volunteer's calls in flight at once: an answer post and its two polls. */
const CONNECTIONS_PER_VOLUNTEER = 3;

/** A setup step (outside the window) for each volunteer, 8 at a time: quick, without a burst. */
async function inSetupGroups(volunteers: Volunteer[], step: (volunteer: Volunteer) => Promise<void>): Promise<void> {
  for (let start = 0; start < volunteers.length; start += 8)
    await Promise.all(volunteers.slice(start, start + 8).map(step));
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** utime + stime of a process in seconds, from /proc (Linux); 0 when it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * The seconds a process's main thread spent runnable but waiting for a CPU: the second field of
 * /proc/PID/schedstat (nanoseconds on the run queue; Linux's Documentation/scheduler/sched-stats).
 * 0 when it is gone or the kernel keeps no such statistics.
 */
export function parseRunQueueWait(schedstat: string): number {
  const waitNs = Number(schedstat.trim().split(/\s+/)[1]);
  return Number.isFinite(waitNs) ? waitNs / 1e9 : 0;
}

function runQueueWaitSeconds(pid: number): number {
  try {
    return parseRunQueueWait(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8'));
  } catch {
    return 0;
  }
}

/** A process and all its children (the PostgreSQL postmaster and its backends), from /proc. */
function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent)!.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  const tree: number[] = [];
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** CPU and run-queue seconds so far of the server, the database (all its processes) and the bench. */
function schedulerReadings(serverPid: number, postmasterPid: number) {
  const benchCpu = process.cpuUsage();
  const database = postmasterPid ? processTree(postmasterPid) : [];
  const sum = (read: (pid: number) => number) => database.reduce((total, pid) => total + read(pid), 0);
  return {
    cpu: {
      server: cpuSeconds(serverPid),
      database: sum(cpuSeconds),
      bench: (benchCpu.user + benchCpu.system) / 1e6,
    },
    wait: {
      server: runQueueWaitSeconds(serverPid),
      database: sum(runQueueWaitSeconds),
      bench: runQueueWaitSeconds(process.pid),
    },
  };
}

interface Server {
  port: number;
  child: ChildProcess;
  logFile: string;
  stop(): Promise<void>;
}

/** The real server, or the peer that answers from memory (./load-floor.ts). */
function serverCommand(database: LoadDatabase): string[] {
  return database === 'none'
    ? ['--import', 'tsx', path.join(root, 'cli', 'bench', 'load-floor.ts')]
    : [path.join(root, 'bin', 'galaxy-cruise.mjs'), 'serve'];
}

async function startServerProcess(
  command: string[],
  env: Record<string, string>,
  logFile: string,
  profileDirectory?: string,
) {
  const port = await freeLoopbackPort();
  const log = fs.openSync(logFile, 'a');
  const nodeArgs = profileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`] : [];
  const child = spawn(process.execPath, [...nodeArgs, ...command], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DIST_DIR: path.join(root, 'nonexistent-dist'),
      ...env,
    },
    // The server logs every request, as in production; the log goes to a file, not through the bench.
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const forget = onInterrupt(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
  });
  void exited.then(forget);
  const server: Server = {
    port,
    child,
    logFile,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGTERM');
      await Promise.race([exited, sleep(20_000)]);
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(child.pid!, 'SIGKILL');
        await exited;
      }
    },
  };
  const deadline = Date.now() + 120_000;
  const probe = new Client(port, 1);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: see ${logFile}`);
      try {
        if ((await probe.request('GET', '/api/session')).status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`server did not answer within 120 s: see ${logFile}`);
      }
      await sleep(100);
    }
  } finally {
    probe.close();
  }
  return server;
}

interface Volunteer {
  id: number;
  email: string;
  cookie: string;
  questId: number | null;
  /** Questions of the current quest not yet answered in this run. */
  pending: number[];
  /** Every object answered, with its quest: re-posted in turn once the course is exhausted. */
  answered: { objectId: number; questId: number }[];
  replay: number;
  exhausted: boolean;
  counter: number;
}

type AnswerValues = Morphology;

/** A different answer for each post number, so that a re-post is distinguishable from the last. */
function answerValues(counter: number): AnswerValues {
  const bits = Math.floor(counter / 9) % 16;
  return {
    galaxy_type: GALAXY_TYPES[counter % 3],
    interaction: INTERACTIONS[Math.floor(counter / 3) % 3],
    ring: (bits & 1) !== 0,
    fan: (bits & 2) !== 0,
    tail: (bits & 4) !== 0,
    distorted: (bits & 8) !== 0,
  };
}

class Recorder {
  answerMs: number[] = [];
  /** When each answer post was sent (performance.now()), beside answerMs, for LOAD_KEEP_LOG. */
  answerSentAt: number[] = [];
  newAnswerMs: number[] = [];
  replacedMs: number[] = [];
  /** When the latest first answer was acknowledged (performance.now()), and the answers by then. */
  lastNewAnswerAt = 0;
  answersByLastNewAnswer = 0;
  allMs: number[] = [];
  errors = 0;
  samples: string[] = [];

  error(what: string) {
    this.errors++;
    if (this.samples.length < 5) this.samples.push(what);
  }
}

async function timed(
  client: Client,
  recorder: Recorder,
  method: string,
  url: string,
  options: { body?: unknown; cookie?: string },
): Promise<{ reply: Reply | null; ms: number }> {
  const start = performance.now();
  try {
    const reply = await client.request(method, url, options);
    const ms = performance.now() - start;
    recorder.allMs.push(ms);
    if (reply.status < 200 || reply.status >= 300) {
      recorder.error(`${method} ${url}: ${reply.status} ${reply.body.slice(0, 200)}`);
      return { reply: null, ms };
    }
    return { reply, ms };
  } catch (error) {
    const ms = performance.now() - start;
    recorder.allMs.push(ms);
    recorder.error(`${method} ${url}: ${(error as Error).message}`);
    return { reply: null, ms };
  }
}

async function fetchQuest(client: Client, recorder: Recorder, volunteer: Volunteer): Promise<boolean> {
  const { reply } = await timed(client, recorder, 'GET', '/api/courses/season2/quests/current', {
    cookie: volunteer.cookie,
  });
  if (!reply) return false;
  const quest = JSON.parse(reply.body) as {
    id: number | null;
    questions: { object_id: number }[];
    answers: { object_id: number }[];
    no_more_available_objects: boolean;
  };
  if (quest.no_more_available_objects || quest.id === null) {
    volunteer.exhausted = true;
    volunteer.questId = null;
    volunteer.pending = [];
    return true;
  }
  const done = new Set(quest.answers.map((answer) => answer.object_id));
  volunteer.questId = quest.id;
  volunteer.pending = quest.questions.map((question) => question.object_id).filter((id) => !done.has(id));
  return true;
}

/**
 * Posts the volunteer's next answer: the next question of its quest or, once the course is
 * exhausted, an earlier answer again. null: the call failed (recorded); 'nothing': nothing to post.
 */
async function postNextAnswer(
  client: Client,
  recorder: Recorder,
  volunteer: Volunteer,
  acknowledged: Map<string, AnswerValues>,
): Promise<{ ms: number; first: boolean } | null | 'nothing'> {
  let objectId: number;
  let questId: number;
  const first = volunteer.pending.length > 0;
  if (first) {
    objectId = volunteer.pending[0];
    questId = volunteer.questId!;
  } else {
    if (volunteer.answered.length === 0) return 'nothing';
    const replay = volunteer.answered[volunteer.replay++ % volunteer.answered.length];
    objectId = replay.objectId;
    questId = replay.questId;
  }
  const values = answerValues(volunteer.counter++);
  const { reply, ms } = await timed(client, recorder, 'POST', `/api/quests/${questId}/answers`, {
    cookie: volunteer.cookie,
    body: { object_id: objectId, ...values },
  });
  if (!reply) return null;
  acknowledged.set(`${volunteer.id}:${objectId}`, values);
  if (first) {
    volunteer.pending.shift();
    volunteer.answered.push({ objectId, questId });
  }
  return { ms, first };
}

type OpenBenchDatabase = () => ReturnType<typeof openDatabase>;

/**
 * The bench database as a running season leaves it, written before the server starts (PGlite is
 * one process's): the game seeded from the sky catalogue (as the server does at start, which then
 * finds it up to date), `history` past volunteers who finished every area of every course (a
 * week ago), the statistics taken as autovacuum would have, and this run's volunteers with a
 * password. On an empty database the plans a connection caches in its first second are those of
 * tables with a few hundred rows (a sequential scan of all quests for each answer batch), kept
 * while the window grows them tenfold: a young-table cost a running game does not pay.
 */
async function prepareDatabase(
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
    await sql`analyze`.execute(db);
    return created;
  } finally {
    await db.destroy();
  }
}

/** Acknowledged answers missing from the database, or not with the values of their last post. */
async function countLost(open: OpenBenchDatabase, acknowledged: Map<string, AnswerValues>): Promise<number> {
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

interface RunPlan {
  database: LoadDatabase;
  mode: 'closed' | 'paced';
  rate: number;
}

async function runOne(
  plan: RunPlan,
  options: LoadOptions,
  postgres: TemporaryPostgres | undefined,
  skyDirectory: string,
): Promise<LoadRow> {
  const { log } = options;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-load-'));
  // Registered before the server's, so run after it on an interrupt.
  const forgetWork = onInterrupt(() => fs.rmSync(work, { recursive: true, force: true }));
  let server: Server | undefined;
  let client: Client | undefined;
  let diskFlushProbe: DiskFlushProbe | undefined;
  try {
    fs.symlinkSync(skyDirectory, path.join(work, 'sky'));
    let databaseUrl = '';
    if (plan.database === 'postgres') {
      const name = `load_${path
        .basename(work)
        .replace(/[^a-z0-9]/gi, '_')
        .toLowerCase()}`;
      const admin = new pg.Client({ connectionString: postgres!.url });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(postgres!.url);
      url.pathname = `/${name}`;
      databaseUrl = url.href;
    }
    const openBenchDatabase = () =>
      openDatabase({ databaseUrl: databaseUrl || undefined, directory: path.join(work, 'db') });

    log(
      `load ${plan.database}: creating ${options.volunteers} volunteers` +
        (plan.database === 'none' ? '' : ` and the history of ${options.history} past ones`),
    );
    const volunteers = (
      plan.database === 'none'
        ? Array.from({ length: options.volunteers }, (_, index) => ({
            id: index + 1,
            email: `volunteer${index}@load.example.org`,
          }))
        : await prepareDatabase(openBenchDatabase, work, options)
    ).map(({ id, email }): Volunteer => ({
      id,
      email,
      cookie: '',
      questId: null,
      pending: [],
      answered: [],
      replay: 0,
      exhausted: false,
      counter: 0,
    }));

    log(`load ${plan.database}: starting the server`);
    server = await startServerProcess(
      serverCommand(plan.database),
      // Rate limits are per client address, and every volunteer here is 127.0.0.1.
      { VAR_DIR: work, DATABASE_URL: databaseUrl, RATE_LIMITS: 'off' },
      path.join(work, 'server.log'),
      options.profileDirectory,
    );
    client = new Client(server.port, options.volunteers * CONNECTIONS_PER_VOLUNTEER);
    const setup = new Recorder();

    log(`load ${plan.database}: logging ${options.volunteers} volunteers in`);
    await inSetupGroups(volunteers, async (volunteer) => {
      const reply = await client!.request('POST', '/api/session', {
        body: { email: volunteer.email, password: PASSWORD },
      });
      if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.body}`);
      const cookies = ([] as string[]).concat(reply.headers['set-cookie'] ?? []);
      volunteer.cookie = cookies.map((cookie) => cookie.split(';')[0]).join('; ');
    });
    for (const volunteer of volunteers)
      if (!(await fetchQuest(client, setup, volunteer))) throw new Error(`no current quest: ${setup.samples[0]}`);
    // Volunteers who all opened the same first quest at the same instant would finish every quest
    // in the same slot: 200 quest turnovers and fetches within 100 ms, once a quest, a burst that
    // a population of independent players never makes. So each is already partway through its
    // first quest when the window opens (answers posted here, outside the window like the logins,
    // and checked for loss like the rest), and their turnovers spread over a quest's length.
    const acknowledged = new Map<string, AnswerValues>();
    await inSetupGroups(volunteers, async (volunteer) => {
      for (let left = Math.floor(Math.random() * volunteer.pending.length); left > 0; left--)
        if (!(await postNextAnswer(client!, setup, volunteer, acknowledged)))
          throw new Error(`a setup answer failed: ${setup.samples[0]}`);
    });

    // As many connections as the volunteers use at once, open before the window as in a game
    // already running.
    await client.open(options.volunteers * CONNECTIONS_PER_VOLUNTEER);

    await settleSetupWrites(databaseUrl);

    // The warm-up runs the same load before the window, recorded apart: the first second after a
    // start (V8 compiling the hot paths, every session looked up again, the first plans) is slower
    // than the game that follows, and is reported as its own p99.
    const warmup = new Recorder();
    const recorder = new Recorder();
    const modeName = plan.mode === 'closed' ? 'closed loop' : `paced ${plan.rate}/s`;
    log(`load ${plan.database}: ${modeName}, ${options.warmupSeconds} s warm-up and ${options.seconds} s`);
    diskFlushProbe = await openDiskFlushProbe(work);
    const activitySampler = databaseUrl ? await openActivitySampler(databaseUrl) : undefined;
    const begin = performance.now();
    const start = begin + options.warmupSeconds * 1000;
    const end = start + options.seconds * 1000;
    const activity = activitySampler ? activitySampler(start, end) : Promise.resolve([]);
    // Read once the load ends; meanwhile a failure is not reported as unhandled.
    activity.catch(() => {});
    // A paced call belongs to the warm-up or the window by its slot's time, not by when its timer
    // fired: a timer may fire a millisecond early, and a slot just past the window's end then ran
    // inside it (81 answers in a window of 80 slots).
    const recorderAt = (time: number) => (time < start ? warmup : recorder);
    const interval = plan.mode === 'paced' ? (options.volunteers / plan.rate) * 1000 : 0;

    const answerLoop = async (volunteer: Volunteer) => {
      let next = begin + Math.random() * interval;
      while (performance.now() < end) {
        let slot = performance.now();
        if (interval > 0) {
          slot = next;
          if (slot >= end) break;
          const wait = slot - performance.now();
          if (wait > 0) await sleep(wait);
          next += interval;
        }
        const current = recorderAt(slot);
        // A new quest is fetched within the same slot, before its first answer: a paced run offers
        // its rate in answers, not in calls.
        if (!volunteer.exhausted && volunteer.pending.length === 0) {
          if (!(await fetchQuest(client!, current, volunteer))) continue;
          if (volunteer.pending.length === 0 && !volunteer.exhausted) continue;
        }
        const posted = await postNextAnswer(client!, current, volunteer, acknowledged);
        if (posted === 'nothing') return;
        if (!posted) continue;
        current.answerMs.push(posted.ms);
        current.answerSentAt.push(performance.now() - posted.ms);
        if (posted.first) {
          current.newAnswerMs.push(posted.ms);
          current.lastNewAnswerAt = performance.now();
          current.answersByLastNewAnswer = current.answerMs.length;
        } else current.replacedMs.push(posted.ms);
      }
    };
    const poll = async (volunteer: Volunteer, url: string, everyMs: number) => {
      // A random phase: volunteers do not all poll in the same millisecond.
      let next = begin + Math.random() * everyMs;
      for (;;) {
        const wait = next - performance.now();
        if (next >= end) return;
        if (wait > 0) await sleep(wait);
        await timed(client!, recorderAt(next), 'GET', url, { cookie: volunteer.cookie });
        next += everyMs;
      }
    };
    const load = Promise.all(
      volunteers.flatMap((volunteer) => [
        answerLoop(volunteer),
        poll(volunteer, '/api/campaigns', 1000),
        poll(volunteer, '/api/notifications', 60_000),
      ]),
    );
    await sleep(start - performance.now());
    const loadAverage = os.loadavg()[0];
    const postmasterPid = postgres
      ? Number(fs.readFileSync(path.join(postgres.directory, 'data', 'postmaster.pid'), 'utf8').split('\n')[0])
      : 0;
    const scheduler0 = schedulerReadings(server.child.pid!, postmasterPid);
    // PostgreSQL's own statistics: the peer and PGlite have none to read.
    const countStatements = options.statements === true && databaseUrl !== '';
    if (countStatements) await topStatements(databaseUrl, 'reset');
    diskFlushProbe.start();
    await load;
    const diskFlushMs = (await diskFlushProbe.stop()).sort((a, b) => a - b);
    diskFlushProbe = undefined;
    const elapsed = (performance.now() - start) / 1000;
    // LOAD_KEEP_LOG=PREFIX: the bench's view of each answer post, from the warm-up's start:
    // 'sent_ms latency_ms' lines, to lay beside the server's log below.
    if (process.env.LOAD_KEEP_LOG)
      fs.writeFileSync(
        `${process.env.LOAD_KEEP_LOG}-${plan.database}-${plan.mode}.answers`,
        [warmup, recorder]
          .flatMap(({ answerSentAt, answerMs }) =>
            answerSentAt.map((sent, index) => `${(sent - begin).toFixed(1)} ${answerMs[index].toFixed(2)}\n`),
          )
          .join(''),
      );
    const databaseActivity = await activity;
    const statements = countStatements ? await topStatements(databaseUrl, 'read') : [];
    const scheduler1 = schedulerReadings(server.child.pid!, postmasterPid);
    const perSecond = (reading: 'cpu' | 'wait', part: 'server' | 'database' | 'bench') =>
      (scheduler1[reading][part] - scheduler0[reading][part]) / elapsed;

    client.close();
    client = undefined;
    await server.stop();
    server = undefined;

    const lost = plan.database === 'none' ? null : await countLost(openBenchDatabase, acknowledged);

    const answerMs = recorder.answerMs.sort((a, b) => a - b);
    const allMs = recorder.allMs.sort((a, b) => a - b);
    const answers = recorder.answerMs.length;
    const gamePhase = recorder.lastNewAnswerAt > 0 ? (recorder.lastNewAnswerAt - start) / 1000 : 0;
    return {
      suite: 'load',
      database: plan.database,
      sky: options.sky,
      mode: modeName,
      volunteers: options.volunteers,
      seconds: Number(elapsed.toFixed(2)),
      answers,
      answers_per_s: answers / elapsed,
      new_answers: recorder.newAnswerMs.length,
      replaced_answers: recorder.replacedMs.length,
      answer_p50_ms: percentile(answerMs, 50),
      answer_p99_ms: percentile(answerMs, 99),
      new_answer_p99_ms: percentile(
        recorder.newAnswerMs.sort((a, b) => a - b),
        99,
      ),
      replaced_answer_p99_ms: percentile(
        recorder.replacedMs.sort((a, b) => a - b),
        99,
      ),
      history: plan.database === 'none' ? 0 : options.history,
      warmup_seconds: options.warmupSeconds,
      warmup_answers: warmup.answerMs.length,
      warmup_answer_p99_ms: percentile(
        warmup.answerMs.sort((a, b) => a - b),
        99,
      ),
      game_phase_s: gamePhase,
      game_phase_answers_per_s: gamePhase > 0 ? recorder.answersByLastNewAnswer / gamePhase : 0,
      calls: allMs.length,
      calls_per_s: allMs.length / elapsed,
      all_p50_ms: percentile(allMs, 50),
      all_p99_ms: percentile(allMs, 99),
      // An error is one whenever it happens: the warm-up's count too.
      errors: warmup.errors + recorder.errors,
      error_samples: [...warmup.samples, ...recorder.samples].slice(0, 5),
      lost_answers: lost,
      cpu_server: perSecond('cpu', 'server'),
      cpu_database: perSecond('cpu', 'database'),
      cpu_bench: perSecond('cpu', 'bench'),
      run_queue_server: perSecond('wait', 'server'),
      run_queue_database: perSecond('wait', 'database'),
      run_queue_bench: perSecond('wait', 'bench'),
      load_average: loadAverage,
      disk_flush_p99_ms: percentile(diskFlushMs, 99),
      disk_flush_max_ms: diskFlushMs.at(-1) ?? NaN,
      database_activity: databaseActivity,
      top_statements: statements,
    };
  } finally {
    client?.close();
    await diskFlushProbe?.stop().catch(() => []);
    await server?.stop();
    forgetWork();
    // LOAD_KEEP_LOG=PREFIX keeps each run's server log (one JSON line per request, with its
    // responseTime): the server's own view of latency, next to the bench's.
    if (process.env.LOAD_KEEP_LOG)
      fs.copyFileSync(path.join(work, 'server.log'), `${process.env.LOAD_KEEP_LOG}-${plan.database}-${plan.mode}.log`);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Before the warm-up: the setup's writes (initdb's files, left unsynced; the history; the logins)
 * go to the disk now rather than in the window. Left dirty, the kernel writes them back 30 s
 * after they were made, which is inside the window: in one traced run 70 MB of them went out
 * while answers committed, and writes slowed to tens of milliseconds each. A running game has no
 * backlog from a setup. PostgreSQL checkpoints first, so that its buffers from the setup go out
 * too.
 */
async function settleSetupWrites(databaseUrl: string): Promise<void> {
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

/** pg_stat_statements, with planning time too: how --statements asks PostgreSQL to count. */
const STATEMENT_STATISTICS = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track': 'all',
  'pg_stat_statements.track_planning': 'on',
};

/**
 * 'reset' empties pg_stat_statements when the window opens; 'read' lists the ten statements of the
 * bench database that took the most planning and execution time since. This is how the finish
 * statement's plan and the answer batch's quadratic joins were found (README, load bench).
 */
async function topStatements(databaseUrl: string, action: 'reset' | 'read'): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    if (action === 'reset') {
      await client.query('create extension if not exists pg_stat_statements');
      await client.query('select pg_stat_statements_reset()');
      return [];
    }
    const { rows } = await client.query<{
      calls: string;
      plans: string;
      plan_ms: number;
      exec_ms: number;
      query: string;
    }>(
      `select calls, plans, total_plan_time as plan_ms, total_exec_time as exec_ms,
          left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query
         from pg_stat_statements
        where dbid = (select oid from pg_database where datname = current_database())
        order by total_plan_time + total_exec_time desc limit 10`,
    );
    return rows.map(
      (row) =>
        `${row.calls} calls, ${row.plans} plans, ${row.plan_ms.toFixed(0)} + ${row.exec_ms.toFixed(0)} ms ` +
        `(${(row.exec_ms / Math.max(1, Number(row.calls))).toFixed(3)} ms a call): ${row.query}`,
    );
  } finally {
    await client.end();
  }
}

/**
 * Connects a sampler of the bench database's pg_stat_activity (see LoadRow.database_activity),
 * before the load: see openDiskFlushProbe for why nothing is started in the bench's process as
 * the window opens. The function it returns samples from `start` until `end`.
 */
async function openActivitySampler(databaseUrl: string): Promise<(start: number, end: number) => Promise<string[]>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return (start, end) => sampleActivity(client, start, end);
}

async function sampleActivity(client: pg.Client, start: number, end: number): Promise<string[]> {
  const counts = new Map<string, number>();
  let samples = 0;
  try {
    await sleep(start - performance.now());
    while (performance.now() < end) {
      const { rows } = await client.query<{ state: string; wait: string | null; query: string }>(
        `select state, wait_event_type || '/' || wait_event as wait, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) as query
           from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      samples++;
      for (const row of rows) {
        const key = `${row.state}${row.wait ? ` ${row.wait}` : ''}: ${row.query}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      // Each sample costs PostgreSQL about 1 ms: every 20 ms that was 5 % of a core taken from
      // the database being measured; every 100 ms still gives 150 samples in 15 s.
      await sleep(100);
    }
  } finally {
    await client.end();
  }
  // Average number of connections in each state, as a share of the samples.
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([key, count]) => `${(count / samples).toFixed(2)} ${key}`);
}

/** What to stop if the bench itself is interrupted (Ctrl-C) while servers are up. */
const interruptCleanups = new Set<() => void>();
let interruptHandlers = false;

function onInterrupt(cleanup: () => void): () => void {
  if (!interruptHandlers) {
    interruptHandlers = true;
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => {
        // Last registered first: servers die before their folders and database go.
        for (const pending of [...interruptCleanups].reverse()) pending();
        process.exit(130);
      });
  }
  interruptCleanups.add(cleanup);
  return () => interruptCleanups.delete(cleanup);
}

async function skyVarDirectory({ sky, log }: LoadOptions): Promise<string> {
  if (sky === 'small') return (await smallSky()).varDirectory;
  const { varDirectory } = loadConfig();
  await buildSky({ varDirectory, ifStale: true, log });
  return varDirectory;
}

export async function runLoad(options: LoadOptions): Promise<LoadRow[]> {
  options.log(`load: building (or reusing) the ${options.sky} sky`);
  const skyDirectory = path.join(await skyVarDirectory(options), 'sky');
  const rows: LoadRow[] = [];
  for (const database of options.databases) {
    const plans: RunPlan[] = [];
    if (options.closedLoop) plans.push({ database, mode: 'closed', rate: 0 });
    const rate = options.paced[database];
    if (rate) plans.push({ database, mode: 'paced', rate });
    if (plans.length === 0) continue;
    const postgres =
      database === 'postgres'
        ? await startTemporaryPostgres({
            maxConnections: 100,
            settings: options.statements ? STATEMENT_STATISTICS : {},
          })
        : undefined;
    const forget = postgres ? onInterrupt(() => postgres.stop()) : () => false;
    try {
      for (const plan of plans) rows.push(await runOne(plan, options, postgres, skyDirectory));
    } finally {
      forget();
      postgres?.stop();
    }
  }
  return rows;
}

/**
 * A flush slower than the answer p99 target (50 ms): every answer committed meanwhile waited for
 * it, so such a window's tail says more about the disk than about the game.
 */
export const DISK_STALL_MS = 50;

export function formatLoadTable(rows: LoadRow[]): string {
  const header = [
    'database',
    'sky',
    'mode',
    'answers/s',
    'answer p50',
    'answer p99',
    'new/re-post p99',
    'warm-up p99',
    'game phase',
    'calls/s',
    'all p50',
    'all p99',
    'errors',
    'lost',
    'new+replaced',
    'cpu srv/db/bench',
    'run queue srv/db/bench',
    'load avg',
    'disk flush p99/max',
  ];
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const wholeMs = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(0));
  const lines = rows.map((row) => [
    row.database,
    row.sky,
    row.mode,
    row.answers_per_s.toFixed(0),
    ms(row.answer_p50_ms),
    ms(row.answer_p99_ms),
    `${wholeMs(row.new_answer_p99_ms)}/${wholeMs(row.replaced_answer_p99_ms)} ms`,
    row.warmup_seconds > 0 ? `${wholeMs(row.warmup_answer_p99_ms)} ms in ${row.warmup_seconds} s` : '-',
    `${row.game_phase_s.toFixed(1)} s at ${row.game_phase_answers_per_s.toFixed(0)}/s`,
    row.calls_per_s.toFixed(0),
    ms(row.all_p50_ms),
    ms(row.all_p99_ms),
    String(row.errors),
    row.lost_answers === null ? '-' : String(row.lost_answers),
    `${row.new_answers}+${row.replaced_answers}`,
    `${row.cpu_server.toFixed(2)}/${row.cpu_database.toFixed(2)}/${row.cpu_bench.toFixed(2)}`,
    `${row.run_queue_server.toFixed(2)}/${row.run_queue_database.toFixed(2)}/${row.run_queue_bench.toFixed(2)}`,
    row.load_average.toFixed(1),
    `${row.disk_flush_p99_ms.toFixed(1)}/${row.disk_flush_max_ms.toFixed(0)} ms`,
  ]);
  const samples = rows.flatMap((row) => row.error_samples.map((sample) => `  ${row.database} ${row.mode}: ${sample}`));
  const stalls = rows
    // The peer commits nothing, so its answers never wait on the disk.
    .filter((row) => row.database !== 'none' && row.disk_flush_max_ms >= DISK_STALL_MS)
    .map(
      (row) =>
        `${row.database} ${row.mode}: the disk stalled in the window (a flush took ${row.disk_flush_max_ms.toFixed(0)} ms); ` +
        "the answers committed meanwhile waited for it, so this p99 is partly the disk's",
    );
  const activity = rows.flatMap((row) => [
    ...(row.database_activity.length > 0
      ? [
          `${row.database} ${row.mode}: PostgreSQL connections by activity (average count)`,
          ...row.database_activity.map((line) => `  ${line}`),
        ]
      : []),
    ...(row.top_statements.length > 0
      ? [
          `${row.database} ${row.mode}: the statements that took PostgreSQL's time (pg_stat_statements)`,
          ...row.top_statements.map((line) => `  ${line}`),
        ]
      : []),
  ]);
  return [
    formatColumns(header, lines),
    ...(samples.length > 0 ? ['errors (first of each run):', ...samples] : []),
    ...stalls,
    ...activity,
  ].join('\n');
}
