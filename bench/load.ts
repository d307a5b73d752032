// The load bench: the real server process on 127.0.0.1, simulated volunteers who log in (outside
// the timed window), fetch their current quest, post answers in a loop, poll GET /api/campaigns
// each second and GET /api/notifications each minute, for a fixed time, on PGlite and on a
// temporary PostgreSQL. It reports answers/s, p50/p99 latency of answer posts and of all calls,
// errors, and lost answers: after the server has stopped, every acknowledged answer must be in
// the database with the values of its last acknowledged post.
//
// The peer, 'none': the same calls answered from memory by Fastify with no database
// (./load-floor.ts), in the same run: what HTTP and this client alone cost on this machine.
//
// Two ways to load: closed loop (each volunteer posts its next answer as soon as the previous one
// is answered: the most the server sustains, with latency = volunteers / rate by Little's law)
// and paced (the volunteers together offer a fixed rate, so the latency is that of the server
// at that rate, not of a queue the bench builds).
//
// Its parts: ./load-server.ts (the server processes), ./load-volunteers.ts (the volunteers and
// their timing), ./load-database.ts (the database before and after a run), ./proc-sampling.ts (CPU
// and run-queue time from /proc), ./load-statistics.ts (PostgreSQL's statistics),
// ./disk-flush-probe.ts (the disk's flush time) and ./load-table.ts (the rows and their table).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { startTemporaryPostgres, type TemporaryPostgres } from '../server/db/temporary-postgres';
import { buildSky } from '../skydata/build';
import { smallSky } from '../skydata/small-sky';
import { openDiskFlushProbe, type DiskFlushProbe } from './disk-flush-probe';
import { Client } from './load-client';
import { countLost, createPostgresDatabase, prepareDatabase, settleSetupWrites } from './load-database';
import { onInterrupt, startLoadServer, type LoadDatabase, type LoadServer } from './load-server';
import { openActivitySampler, STATEMENT_STATISTICS, topStatements } from './load-statistics';
import type { LoadRow, LoadSky } from './load-table';
import {
  CONNECTIONS_PER_VOLUNTEER,
  newVolunteer,
  play,
  readyVolunteers,
  Recorder,
  type Acknowledged,
} from './load-volunteers';
import { schedulerReadings } from './proc-sampling';

export type { LoadDatabase, LoadRow, LoadSky };

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
  /**
   * The server's background science (docs/science.md) in each run: ['on'] as served; ['on', 'off']
   * runs every plan twice, one after the other, to compare the answer posts with it and without.
   */
  science?: ('on' | 'off')[];
  log: (line: string) => void;
}

interface RunPlan {
  database: LoadDatabase;
  mode: 'closed' | 'paced';
  rate: number;
  science: 'on' | 'off';
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  let server: LoadServer | undefined;
  let client: Client | undefined;
  let diskFlushProbe: DiskFlushProbe | undefined;
  try {
    fs.symlinkSync(skyDirectory, path.join(work, 'sky'));
    const databaseUrl = plan.database === 'postgres' ? await createPostgresDatabase(postgres!.url, work) : '';
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
    ).map(newVolunteer);

    log(`load ${plan.database}: starting the server`);
    server = await startLoadServer(
      plan.database,
      // Rate limits are per client address, and every volunteer here is 127.0.0.1.
      { VAR_DIR: work, DATABASE_URL: databaseUrl, RATE_LIMITS: 'off', SCIENCE: plan.science },
      path.join(work, 'server.log'),
      options.profileDirectory,
    );
    client = new Client(server.port, options.volunteers * CONNECTIONS_PER_VOLUNTEER);

    log(`load ${plan.database}: logging ${options.volunteers} volunteers in`);
    const acknowledged: Acknowledged = new Map();
    await readyVolunteers(client, volunteers, acknowledged);

    // As many connections as the volunteers use at once, open before the window as in a game
    // already running.
    await client.open(options.volunteers * CONNECTIONS_PER_VOLUNTEER);

    await settleSetupWrites(databaseUrl);

    // The warm-up runs the same load before the window, recorded apart: the first second after a
    // start (V8 compiling the hot paths, every session looked up again, the first plans) is slower
    // than the game that follows, and is reported as its own p99.
    const warmup = new Recorder();
    const recorder = new Recorder();
    const modeName =
      (plan.mode === 'closed' ? 'closed loop' : `paced ${plan.rate}/s`) +
      ((options.science ?? ['on']).length > 1 ? `, science ${plan.science}` : '');
    log(`load ${plan.database}: ${modeName}, ${options.warmupSeconds} s warm-up and ${options.seconds} s`);
    diskFlushProbe = await openDiskFlushProbe(work);
    const activitySampler = databaseUrl ? await openActivitySampler(databaseUrl) : undefined;
    const begin = performance.now();
    const start = begin + options.warmupSeconds * 1000;
    const end = start + options.seconds * 1000;
    const activity = activitySampler ? activitySampler(start, end) : Promise.resolve([]);
    // Read once the load ends; meanwhile a failure is not reported as unhandled.
    activity.catch(() => {});
    const interval = plan.mode === 'paced' ? (options.volunteers / plan.rate) * 1000 : 0;
    const load = play(client, volunteers, acknowledged, { begin, start, end, interval, warmup, window: recorder });
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
    for (const science of options.science ?? ['on']) {
      if (options.closedLoop) plans.push({ database, mode: 'closed', rate: 0, science });
      const rate = options.paced[database];
      if (rate) plans.push({ database, mode: 'paced', rate, science });
    }
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
