// The reliability estimate at a campaign's scale (docs/science.md, "The bench"): a simulated crowd
// (./science-crowd.ts) of `targets × votes` answers written with COPY into a fresh database, then
// `galaxy-cruise science estimate` run as the real command twice (the first estimate writes every
// target's sums, the second replaces them, as every later one does), each timed from its start to
// its exit with its peak resident memory; the consensus against the truth; and the answer POST's
// median latency while an estimate runs in the serving process beside it, against its median
// without one, in the same run.
import { sql, type Kysely } from 'kysely';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import type { Database } from '../server/db/schema';
import { SERVING_PACE, analyzeScienceTables, estimateReliability } from '../server/science/reliability';
import { ScienceService } from '../server/science/science-service';
import type { CurrentQuestResponse, Question } from '../shared/api';
import { runCommand } from './command-run';
import { median } from './harness';
import { copyVotes, crowdAccuracy, seedCrowd, type Crowd } from './science-crowd';
import { createVoyagers, seedVoyageCourse, THIRTY_VOLUNTEERS } from './science-voyage';

export interface ScaleOptions {
  targets: number;
  votes: number;
  volunteers: number;
  /** Seconds of answer posts timed without an estimate. */
  postSeconds: number;
  log(line: string): void;
}

/** Where the database is: a PGlite folder (VAR_DIR/db) or a PostgreSQL URL. */
export interface ScaleDatabase {
  varDirectory: string;
  databaseUrl?: string;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const percent = (share: number) => `${(share * 100).toFixed(2)} %`;

async function open(where: ScaleDatabase) {
  const { db } = await openDatabase({
    databaseUrl: where.databaseUrl,
    directory: `${where.varDirectory}/db`,
    holder: 'galaxy-cruise bench science',
  });
  await migrateToLatest(db);
  return db;
}

/** Share of volunteers whose estimated rates lie within three standard errors of the simulated ones. */
async function ratesWithin(db: Kysely<Database>, crowd: Crowd): Promise<string> {
  const measured = new Map(
    (await db.selectFrom('volunteer_reliability').selectAll().execute()).map((row) => [Number(row.user_id), row]),
  );
  let within = 0;
  let rates = 0;
  for (const volunteer of crowd.volunteers) {
    const row = measured.get(volunteer.id);
    if (!row) continue;
    const spiral = row.galaxy_type_answers * 0.6;
    for (const [estimated, truth, count] of [
      [row.galaxy_type_sensitivity, volunteer.galaxy_type_sensitivity, spiral],
      [row.galaxy_type_specificity, volunteer.galaxy_type_specificity, row.galaxy_type_answers - spiral],
    ] as const) {
      const p = Math.min(Math.max(truth, 0.01), 0.99);
      rates += 1;
      if (Math.abs(estimated - truth) <= 3 * Math.sqrt((p * (1 - p)) / count) + 4 / (count + 4)) within += 1;
    }
  }
  return `${within} / ${rates}`;
}

/**
 * Answer posts at a steady pace (`perSecond`) from thirty volunteers sailing a course of their own,
 * through the app's routes (its inject: schemas, hooks, the answer batches), while `during` runs:
 * each post's latency, ms.
 */
async function postWhile(
  db: Kysely<Database>,
  during: () => Promise<unknown>,
  perSecond: number,
  state: { app: Awaited<ReturnType<typeof buildApp>>; sailors: Sailor[]; next: number },
): Promise<number[]> {
  const latencies: number[] = [];
  let running = true;
  const work = during().finally(() => (running = false));
  const inFlight = new Set<Promise<void>>();
  const interval = 1000 / perSecond;
  let due = performance.now();
  while (running) {
    const sailor = state.sailors[state.next++ % state.sailors.length]!;
    const post = answerOne(state.app, sailor, latencies).finally(() => inFlight.delete(post));
    inFlight.add(post);
    due += interval;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  await work;
  await Promise.all(inFlight);
  return latencies;
}

interface Sailor {
  cookie: string;
  busy: boolean;
  questId: number | null;
  questions: Question[];
}

/** One answer of a volunteer (the next quest first when its quest is done); its latency recorded. */
async function answerOne(app: Awaited<ReturnType<typeof buildApp>>, sailor: Sailor, latencies: number[]) {
  if (sailor.busy) return;
  sailor.busy = true;
  try {
    if (sailor.questions.length === 0) {
      const reply = await app.inject({
        method: 'GET',
        url: '/api/courses/posts/quests/current',
        headers: { cookie: sailor.cookie },
      });
      const quest = reply.json() as CurrentQuestResponse;
      if (quest.no_more_available_objects) return;
      const answered = new Set(quest.answers.map((answer) => answer.object_id));
      sailor.questId = quest.id;
      sailor.questions = quest.questions.filter((question) => !answered.has(question.object_id));
      return;
    }
    const question = sailor.questions.shift()!;
    const started = performance.now();
    const reply = await app.inject({
      method: 'POST',
      url: `/api/quests/${sailor.questId}/answers`,
      headers: { cookie: sailor.cookie },
      payload: {
        object_id: question.object_id,
        galaxy_type: 'spiral',
        interaction: 'no',
        ring: false,
        fan: false,
        tail: false,
        distorted: false,
      },
    });
    if (reply.statusCode >= 300) throw new Error(`answer POST: ${reply.statusCode} ${reply.body}`);
    latencies.push(performance.now() - started);
  } finally {
    sailor.busy = false;
  }
}

/** The answer POST's median without an estimate and while one runs, in the serving process. */
async function postsBesideEstimate(db: Kysely<Database>, options: ScaleOptions): Promise<[string, string][]> {
  const app = await buildApp({
    config: loadConfig({ VAR_DIR: '/nonexistent-var', DIST_DIR: '/nonexistent-dist', RATE_LIMITS: 'off' }),
    db,
  });
  const quiet = { info: () => undefined, error: () => undefined };
  const service = new ScienceService(db, quiet as never, { estimateMs: Number.MAX_SAFE_INTEGER });
  try {
    await seedVoyageCourse(db, { courseId: 'posts', targets: 4000, perArea: 8, areasPerLevel: 10 });
    const voyagers = await createVoyagers(db, THIRTY_VOLUNTEERS, 'poster');
    const state = {
      app,
      sailors: voyagers.map((voyager) => ({ cookie: voyager.cookie, busy: false, questId: null, questions: [] })),
      next: 0,
    };
    service.start();
    const perSecond = 20;
    // A warm-up (plans, caches, the sessions' first reads), then the two windows.
    await postWhile(db, () => new Promise((resolve) => setTimeout(resolve, 3000)), perSecond, state);
    const without = await postWhile(
      db,
      () => new Promise((resolve) => setTimeout(resolve, options.postSeconds * 1000)),
      perSecond,
      state,
    );
    let estimateMs = 0;
    const during = await postWhile(
      db,
      async () => {
        const started = performance.now();
        await estimateReliability(db, { pace: SERVING_PACE });
        estimateMs = performance.now() - started;
      },
      perSecond,
      state,
    );
    const ratio = median(during) / median(without);
    return [
      [
        `answer POST median without an estimate (${without.length} posts at ${perSecond}/s)`,
        `${median(without).toFixed(1)} ms`,
      ],
      [
        `answer POST median during the estimate (${during.length} posts, estimate ${seconds(estimateMs)})`,
        `${median(during).toFixed(1)} ms`,
      ],
      ['answer POST median during ÷ without (target ≤ 1.2)', ratio.toFixed(2)],
    ];
  } finally {
    await service.stop();
    await app.close();
  }
}

/** The estimate at `targets × votes` answers on one database; the bench's rows. */
export async function estimateAtScale(where: ScaleDatabase, options: ScaleOptions): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  const answers = options.targets * options.votes;
  let db = await open(where);
  let crowd: Crowd;
  try {
    const started = performance.now();
    crowd = await seedCrowd(db, { targets: options.targets, volunteers: options.volunteers, seed: 2 });
    await copyVotes(db, crowd, options.votes, (line) => options.log(`science: ${line}`));
    await analyzeScienceTables(db);
    rows.push([
      `${answers} answers (${options.targets} targets × ${options.votes}, ${options.volunteers} volunteers) written by COPY`,
      seconds(performance.now() - started),
    ]);
  } finally {
    await db.destroy();
  }
  const env = {
    ...process.env,
    VAR_DIR: where.varDirectory,
    DATABASE_URL: where.databaseUrl ?? '',
  };
  for (const run of ['first', 'again'] as const) {
    const { ms, cpu, peak, stdout } = await runCommand(['science', 'estimate'], env);
    const iterations = /in (\d+) iterations/.exec(stdout)?.[1] ?? '?';
    const phases = /\((read .*)\)/.exec(stdout)?.[1] ?? '';
    rows.push([
      `galaxy-cruise science estimate, ${run === 'first' ? 'first (writes every target)' : 'again'}: time, CPU, iterations`,
      `${seconds(ms)}, ${cpu.toFixed(1)} s CPU, ${iterations} (${phases})`,
    ]);
    rows.push([`galaxy-cruise science estimate, ${run}: peak resident memory`, mib(peak)]);
    options.log(`science: estimate ${run} over ${answers} answers in ${seconds(ms)}, peak ${mib(peak)}`);
  }
  db = await open(where);
  try {
    const accuracy = await crowdAccuracy(db, crowd.courseId);
    rows.push([
      'galaxy_type accuracy: raw majority, weighted',
      `${percent(accuracy.raw)}, ${percent(accuracy.weighted)}`,
    ]);
    rows.push([
      'interaction accuracy: raw majority, weighted',
      `${percent(accuracy.rawInteraction)}, ${percent(accuracy.weightedInteraction)}`,
    ]);
    rows.push(['volunteer rates within 3σ of the simulated', await ratesWithin(db, crowd)]);
    if (options.postSeconds > 0) rows.push(...(await postsBesideEstimate(db, options)));
    const counted = await sql<{ answers: string }>`select count(*) as answers from answers`.execute(db);
    options.log(`science: ${counted.rows[0]!.answers} answers in the database`);
  } finally {
    await db.destroy();
  }
  return rows;
}
