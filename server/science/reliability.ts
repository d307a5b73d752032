// Volunteer reliability by expectation–maximisation (Dawid & Skene 1979), estimated in memory:
// every answer is read once from the database as columns (COPY in binary, ../db/bulk-copy.ts),
// the iterations run over typed arrays (./dawid-skene.ts, on a worker thread when the answers are
// many), and only the results go back: each volunteer's rates, each course's priors and each
// target's sums (counts, weighted counts, evidence). docs/science.md says what is estimated and
// why; this file says how it is read and written beside a serving process.
//
// The answer path does not wait for it in a serving process. There the estimate runs at a `pace`
// (SERVING_PACE): the answers are read a small range of targets at a time (one statement each,
// SERVING_SIZES.answers answers, the ranges from the planner's histogram of answers.object_id),
// the targets' sums written back a few hundred at a time, and after each statement the estimate
// rests so that it takes at most that share of the database's time (PGlite's one connection): an
// answer post meets at most one short statement. The iterations run on another thread. The
// command (`galaxy-cruise science estimate`, which has the database to itself on PGlite) runs
// flat out, in larger statements (BULK_SIZES).
//
// Nothing counts twice or is lost. While an estimate runs (science_state.estimate_started_at,
// at most one at a time, across processes) the log of new answers is not summed
// (consensus.ts sumNewAnswers). Each range's read takes, in the same statement, the ids of the
// log rows of its targets: those answers are in what it read. Writing a range's sums back
// removes exactly those rows, in the same transaction; a log row written after the read stays,
// and is added on top of the new sums once the estimate ends.
import * as Comlink from 'comlink';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { withBulkSession } from '../db/bulk-copy';
import { CopyBinaryReader, encodeCopyBinary, type CopyColumn } from '../db/copy-binary';
import { crashGuard, startNodeWorker } from '../../core/node-worker';
import { ESTIMATE_PAUSE_MS, reviewRetirements } from './consensus';
import {
  ANSWER_CODE_SQL,
  DEFAULT_ACCURACY,
  TARGET_COUNT_COLUMNS,
  TARGET_WEIGHT_COLUMNS,
  estimateDawidSkene,
  type EstimateInput,
  type EstimateOutput,
} from './dawid-skene';
import type { DawidSkeneApi } from './dawid-skene-worker';

export { PRIOR_ANSWERS } from './dawid-skene';

/** Answers read per statement and targets written per transaction, flat out. */
export const BULK_SIZES = { answers: 50_000, targets: 10_000 };
/** The same beside the answer path: each statement a few milliseconds of PGlite's time. */
export const SERVING_SIZES = { answers: 4_000, targets: 400 };
/** The share of the database's time an estimate takes in a serving process. */
export const SERVING_PACE = 0.3;
/** From this many answers the iterations run on a worker thread (below, they take milliseconds). */
export const WORKER_ANSWERS = 200_000;

export interface EstimateOptions {
  /** Stop when no volunteer's rate moved more than this in an iteration. */
  tolerance?: number;
  maxIterations?: number;
  /** The iterations on a worker thread: by default from WORKER_ANSWERS answers. */
  worker?: boolean;
  /**
   * The share of the database's time to take (1: flat out, in BULK_SIZES statements; below 1,
   * SERVING_SIZES statements and a rest after each).
   */
  pace?: number;
}

export interface EstimateResult {
  iterations: number;
  volunteers: number;
  answers: number;
  /** The largest change of a rate in the last iteration. */
  change: number;
  /** Retired targets opened again because their confidence fell below their rule's. */
  reopened: number;
  /** Milliseconds spent reading the answers, iterating, writing the results back. */
  readMs: number;
  iterateMs: number;
  writeMs: number;
}

/** Another estimate holds the log (science_state.estimate_started_at). */
export class EstimateUnderWayError extends Error {
  constructor() {
    super('a reliability estimate is already under way');
  }
}

/**
 * Planner statistics of the tables the science reads. PGlite runs no autovacuum, so without this
 * its planner never learns that answers_object finds a target's answers, and the estimate's
 * ranges come from the histogram it keeps.
 */
export async function analyzeScienceTables(db: Kysely<Database>): Promise<void> {
  await sql`analyze answers, target_consensus, volunteer_reliability`.execute(db);
}

/** How an estimate shares the database: statement sizes, and the rest after a statement of `ms`. */
interface Pacing {
  answers: number;
  targets: number;
  rest(ms: number): Promise<void>;
}

function pacing(pace: number): Pacing {
  if (pace >= 1) return { ...BULK_SIZES, rest: () => new Promise((resolve) => setImmediate(resolve)) };
  return {
    ...SERVING_SIZES,
    rest: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min((ms * (1 - pace)) / pace, 1000))),
  };
}

const pauseLimit = sql`now() - ${sql.lit(ESTIMATE_PAUSE_MS / 1000)} * interval '1 second'`;

/**
 * Marks an estimate under way; the mark (its time as text, to the microsecond), or
 * EstimateUnderWayError while another estimate holds it.
 */
async function claim(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ mark: string }>`
    update science_state set estimate_started_at = clock_timestamp()
    where id = 1 and (estimate_started_at is null or estimate_started_at <= ${pauseLimit})
    returning estimate_started_at::text as mark`.execute(db);
  if (rows.length === 0) throw new EstimateUnderWayError();
  return rows[0]!.mark;
}

/** Whether the mark is still this estimate's and young enough for the log to have waited. */
async function stillHeld(db: Kysely<Database>, mark: string): Promise<boolean> {
  const { rows } = await sql<{ held: boolean }>`
    select estimate_started_at::text = ${mark} and estimate_started_at > ${pauseLimit} as held
    from science_state where id = 1`.execute(db);
  return rows[0]?.held === true;
}

async function release(db: Kysely<Database>, mark: string): Promise<void> {
  await sql`update science_state set estimate_started_at = null
    where id = 1 and estimate_started_at::text = ${mark}`.execute(db);
}

/**
 * Upper bounds of object_id ranges holding about `perRange` answers each: the buckets of the
 * equi-depth histogram ANALYZE keeps of answers.object_id (PostgreSQL manual, pg_stats), each
 * cut into equal spans of ids as many times as its share of the answers needs. The last range is
 * open above; without a histogram (few answers), one range.
 */
async function targetRanges(db: Kysely<Database>, perRange: number): Promise<number[]> {
  const { rows } = await sql<{ bounds: string | null; answers: number }>`
    select (select histogram_bounds::text from pg_stats
        where schemaname = current_schema() and tablename = 'answers' and attname = 'object_id') as bounds,
      (select reltuples from pg_class where oid = 'answers'::regclass)::float8 as answers`.execute(db);
  const bounds = (rows[0]?.bounds ?? '{}').replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
  const answers = Number(rows[0]?.answers ?? 0);
  const ranges: number[] = [];
  if (bounds.length > 2 && answers > perRange) {
    const cuts = Math.max(1, Math.round(answers / (bounds.length - 1) / perRange));
    for (let k = 0; k < bounds.length - 1; k += 1) {
      const [low, high] = [bounds[k]!, bounds[k + 1]!];
      for (let cut = 1; cut < cuts; cut += 1) {
        const bound = Math.floor(low + ((high - low) * cut) / cuts);
        if (bound > (ranges[ranges.length - 1] ?? -Infinity) && bound < high) ranges.push(bound);
      }
      if (k < bounds.length - 2) ranges.push(high);
    }
  }
  ranges.push(Number.MAX_SAFE_INTEGER);
  return ranges;
}

/** A range of targets as read: its targets' indices and the log rows its read took in. */
interface ReadRange {
  after: number;
  last: number;
  firstTarget: number;
  endTarget: number;
  logIds: number[];
}

interface ReadAnswers {
  input: EstimateInput;
  objectIds: Float64Array;
  userIds: number[];
  courseIds: string[];
  ranges: ReadRange[];
}

/** Growable typed columns of the answers. */
class AnswerBuffer {
  target = new Int32Array(1 << 16);
  volunteer = new Int32Array(1 << 16);
  code = new Uint8Array(1 << 16);
  length = 0;

  push(target: number, volunteer: number, code: number): void {
    if (this.length === this.target.length) {
      const grow = <T extends Int32Array | Uint8Array>(array: T): T => {
        const larger = new (array.constructor as new (length: number) => T)(array.length * 2);
        larger.set(array);
        return larger;
      };
      this.target = grow(this.target);
      this.volunteer = grow(this.volunteer);
      this.code = grow(this.code);
    }
    this.target[this.length] = target;
    this.volunteer[this.length] = volunteer;
    this.code[this.length] = code;
    this.length += 1;
  }
}

/** Every answer, read once, a range of targets per statement, with the starting rates and priors. */
async function readAnswers(db: Kysely<Database>, pace: Pacing): Promise<ReadAnswers> {
  const courses = await db
    .selectFrom('courses')
    .select(['id', 'spiral_prior', 'interaction_prior'])
    .orderBy('id')
    .execute();
  const courseIds = courses.map((course) => course.id);
  // A course's index is its place in id order, so the least index of a target's answers is the
  // least id, as target_consensus.course_id was (min(course_id)).
  const courseArray = `array[${courseIds.map((id) => `'${id.replace(/'/g, "''")}'`).join(',')}]::text[]`;
  const answers = new AnswerBuffer();
  const objectIds: number[] = [];
  const targetCourse: number[] = [];
  const users = new Map<number, number>();
  const userIds: number[] = [];
  const ranges: ReadRange[] = [];
  let after = -1;
  for (const last of await targetRanges(db, pace.answers)) {
    const started = performance.now();
    const range: ReadRange = { after, last, firstTarget: objectIds.length, endTarget: 0, logIds: [] };
    // One statement: the range's answers and the log rows not yet summed for its targets, seen
    // at the same moment. Log rows carry kind 1 and their id in place of the user.
    const bytes = await withBulkSession(db, (session) =>
      session.copyOut(`
        select 0::int2, a.object_id, a.user_id, ${ANSWER_CODE_SQL},
          (array_position(${courseArray}, a.course_id) - 1)::int2
        from answers a where a.object_id > ${after} and a.object_id <= ${last}
        union all
        select 1::int2, l.object_id, l.id, 0::int2, 0::int2
        from science_log l where l.object_id > ${after} and l.object_id <= ${last}`),
    );
    const reader = new CopyBinaryReader(bytes);
    let lastObject = -1;
    let lastTarget = -1;
    const targetOf = new Map<number, number>();
    while (reader.tuple() >= 0) {
      const kind = reader.integer();
      const objectId = reader.integer();
      const key = reader.integer(-1);
      const code = reader.integer();
      const course = reader.integer();
      if (kind === 1) {
        range.logIds.push(key);
        continue;
      }
      // Answers come in object_id order (the index), so a lookup is rare.
      if (objectId !== lastObject) {
        lastObject = objectId;
        let index = targetOf.get(objectId);
        if (index === undefined) {
          index = objectIds.length;
          targetOf.set(objectId, index);
          objectIds.push(objectId);
          targetCourse.push(course);
        } else targetCourse[index] = Math.min(targetCourse[index]!, course);
        lastTarget = index;
      }
      let volunteer = -1;
      if (key >= 0) {
        volunteer = users.get(key) ?? -1;
        if (volunteer < 0) {
          volunteer = userIds.length;
          users.set(key, volunteer);
          userIds.push(key);
        }
      }
      answers.push(lastTarget, volunteer, code);
    }
    range.endTarget = objectIds.length;
    ranges.push(range);
    after = last;
    await pace.rest(performance.now() - started);
  }

  // The rates estimated before (the first E-step starts from them), DEFAULT_ACCURACY otherwise.
  const rates = new Float64Array(4 * userIds.length).fill(DEFAULT_ACCURACY);
  for (let first = 0; first < userIds.length; first += 10_000) {
    const batch = userIds.slice(first, first + 10_000);
    const stored = await db
      .selectFrom('volunteer_reliability')
      .select([
        'user_id',
        'galaxy_type_sensitivity',
        'galaxy_type_specificity',
        'interaction_sensitivity',
        'interaction_specificity',
      ])
      .where('user_id', '=', sql<number>`any(${`{${batch.join(',')}}`}::bigint[])`)
      .execute();
    for (const row of stored) {
      const v = users.get(Number(row.user_id))!;
      rates.set(
        [
          row.galaxy_type_sensitivity,
          row.galaxy_type_specificity,
          row.interaction_sensitivity,
          row.interaction_specificity,
        ],
        4 * v,
      );
    }
  }
  const priors = new Float64Array(2 * courses.length);
  courses.forEach((course, c) => {
    priors[2 * c] = course.spiral_prior;
    priors[2 * c + 1] = course.interaction_prior;
  });
  return {
    input: {
      target: answers.target,
      volunteer: answers.volunteer,
      code: answers.code,
      answers: answers.length,
      targetCourse: Int32Array.from(targetCourse),
      targets: objectIds.length,
      volunteers: userIds.length,
      courses: courses.length,
      rates,
      priors,
      tolerance: 1e-3,
      maxIterations: 30,
    },
    objectIds: Float64Array.from(objectIds),
    userIds,
    courseIds,
    ranges,
  };
}

/** The iterations, on a worker thread when asked (the arrays move there and back, not copied). */
async function iterate(input: EstimateInput, onWorker: boolean): Promise<EstimateOutput> {
  if (!onWorker) return estimateDawidSkene(input);
  const worker = startNodeWorker(new URL('./dawid-skene-worker.ts', import.meta.url));
  try {
    const api = Comlink.wrap<DawidSkeneApi>(worker.endpoint);
    // Copies go to the worker (the caller keeps its columns for the write-back).
    return await crashGuard(worker)(api.estimate(input));
  } finally {
    worker.terminate();
  }
}

/**
 * Each range's targets' sums, replacing what target_consensus held, in transactions of
 * `pace.targets` targets; the last of a range also removes the log rows its read took in.
 */
async function writeTargets(db: Kysely<Database>, read: ReadAnswers, output: EstimateOutput, pace: Pacing) {
  for (const range of read.ranges) {
    for (let first = range.firstTarget; ; first += pace.targets) {
      const end = Math.min(range.endTarget, first + pace.targets);
      const last = end === range.endTarget;
      const logIds = last ? range.logIds : [];
      if (end > first || logIds.length > 0) {
        const started = performance.now();
        await writeTargetSlice(db, read, output, first, end, logIds);
        await pace.rest(performance.now() - started);
      }
      if (last) break;
    }
  }
}

const SUM_COLUMNS = [...TARGET_COUNT_COLUMNS, ...TARGET_WEIGHT_COLUMNS, 'galaxy_type_evidence', 'interaction_evidence'];

/** Targets [first, end)'s sums upserted and `logIds` removed from the log, in one transaction. */
async function writeTargetSlice(
  db: Kysely<Database>,
  read: ReadAnswers,
  output: EstimateOutput,
  first: number,
  end: number,
  logIds: readonly number[],
): Promise<void> {
  const { counts, weights, galaxyTypeEvidence, interactionEvidence } = output.sums;
  const slice = <T extends Int32Array | Float64Array>(column: T) => column.subarray(first, end);
  const sums = encodeCopyBinary(
    [
      { type: 'int8', values: read.objectIds.subarray(first, end) },
      {
        type: 'text',
        values: Array.from({ length: end - first }, (_, k) => read.courseIds[read.input.targetCourse[first + k]!]!),
      },
      ...counts.map((column): CopyColumn => ({ type: 'int4', values: slice(column) })),
      ...weights.map((column): CopyColumn => ({ type: 'float8', values: slice(column) })),
      { type: 'float8', values: slice(galaxyTypeEvidence) },
      { type: 'float8', values: slice(interactionEvidence) },
    ],
    end - first,
  );
  await withBulkSession(
    db,
    async (session) => {
      if (end > first) {
        await session.execute(`create temporary table science_sums (object_id bigint, course_id text,
          ${TARGET_COUNT_COLUMNS.map((column) => `${column} integer`).join(', ')},
          ${[...TARGET_WEIGHT_COLUMNS, 'galaxy_type_evidence', 'interaction_evidence'].map((column) => `${column} double precision`).join(', ')}
        ) on commit drop`);
        await session.copyIn(`science_sums (object_id, course_id, ${SUM_COLUMNS.join(', ')})`, sums);
        await session.execute(`insert into target_consensus (object_id, course_id, ${SUM_COLUMNS.join(', ')}, updated_at)
          select object_id, course_id, ${SUM_COLUMNS.join(', ')}, now() from science_sums
          on conflict (object_id) do update set course_id = excluded.course_id,
            ${SUM_COLUMNS.map((column) => `${column} = excluded.${column}`).join(', ')}, updated_at = excluded.updated_at`);
      }
      if (logIds.length > 0) {
        await session.execute('create temporary table science_taken (id bigint) on commit drop');
        await session.copyIn('science_taken (id)', encodeCopyBinary([{ type: 'int8', values: logIds }], logIds.length));
        await session.execute('delete from science_log l using science_taken t where l.id = t.id');
      }
    },
    { transaction: true },
  );
}

/** Every volunteer's rates, and every course's priors that were estimated. */
async function writeRates(db: Kysely<Database>, read: ReadAnswers, output: EstimateOutput, pace: Pacing) {
  const estimated: number[] = [];
  for (let v = 0; v < read.userIds.length; v += 1) if (output.allAnswers[v]! > 0) estimated.push(v);
  for (let first = 0; first < estimated.length; first += pace.targets) {
    const started = performance.now();
    const batch = estimated.slice(first, first + pace.targets);
    const rate = (k: number): CopyColumn => ({ type: 'float8', values: batch.map((v) => output.rates[4 * v + k]!) });
    await withBulkSession(
      db,
      async (session) => {
        await session.execute(`create temporary table science_rates (user_id bigint,
          galaxy_type_sensitivity double precision, galaxy_type_specificity double precision,
          interaction_sensitivity double precision, interaction_specificity double precision,
          galaxy_type_answers integer, interaction_answers integer) on commit drop`);
        await session.copyIn(
          'science_rates (user_id, galaxy_type_sensitivity, galaxy_type_specificity, interaction_sensitivity, interaction_specificity, galaxy_type_answers, interaction_answers)',
          encodeCopyBinary(
            [
              { type: 'int8', values: batch.map((v) => read.userIds[v]!) },
              rate(0),
              rate(1),
              rate(2),
              rate(3),
              { type: 'int4', values: batch.map((v) => output.galaxyTypeAnswers[v]!) },
              { type: 'int4', values: batch.map((v) => output.interactionAnswers[v]!) },
            ],
            batch.length,
          ),
        );
        // A volunteer whose account went meanwhile has no row to rate.
        await session.execute(`insert into volunteer_reliability (user_id, galaxy_type_sensitivity,
            galaxy_type_specificity, interaction_sensitivity, interaction_specificity, galaxy_type_answers,
            interaction_answers, estimated_at)
          select r.*, now() from science_rates r join users u on u.id = r.user_id
          on conflict (user_id) do update set
            galaxy_type_sensitivity = excluded.galaxy_type_sensitivity,
            galaxy_type_specificity = excluded.galaxy_type_specificity,
            interaction_sensitivity = excluded.interaction_sensitivity,
            interaction_specificity = excluded.interaction_specificity,
            galaxy_type_answers = excluded.galaxy_type_answers,
            interaction_answers = excluded.interaction_answers,
            estimated_at = excluded.estimated_at`);
      },
      { transaction: true },
    );
    await pace.rest(performance.now() - started);
  }
  for (let c = 0; c < read.courseIds.length; c += 1) {
    if (!output.priorsEstimated[c]) continue;
    await db
      .updateTable('courses')
      .set({ spiral_prior: output.priors[2 * c]!, interaction_prior: output.priors[2 * c + 1]! })
      .where('id', '=', read.courseIds[c]!)
      .execute();
  }
}

/**
 * Re-estimates every volunteer's rates and every course's priors until they settle, writes every
 * target's sums with the final rates, then holds every course's retirements against its rule
 * again (reviewRetirements: a target whose confidence fell below it is opened again). Runs beside
 * the answer path (see the top of this file); EstimateUnderWayError while another estimate runs.
 */
export async function estimateReliability(
  db: Kysely<Database>,
  { tolerance = 1e-3, maxIterations = 30, worker, pace: share = 1 }: EstimateOptions = {},
): Promise<EstimateResult> {
  const pace = pacing(share);
  await analyzeScienceTables(db);
  const mark = await claim(db);
  let output: EstimateOutput;
  let read: ReadAnswers;
  const timings = { readMs: 0, iterateMs: 0, writeMs: 0 };
  try {
    let started = performance.now();
    read = await readAnswers(db, pace);
    read.input.tolerance = tolerance;
    read.input.maxIterations = maxIterations;
    timings.readMs = performance.now() - started;
    started = performance.now();
    output = await iterate(read.input, worker ?? read.input.answers >= WORKER_ANSWERS);
    timings.iterateMs = performance.now() - started;
    // An estimate that outlived its mark (the log was summed again meanwhile) writes nothing.
    if (!(await stillHeld(db, mark))) throw new Error('the reliability estimate took longer than its hold on the log');
    started = performance.now();
    await writeTargets(db, read, output, pace);
    await writeRates(db, read, output, pace);
    timings.writeMs = performance.now() - started;
  } finally {
    await release(db, mark);
  }
  const reopened = await reviewRetirements(db);
  const counted = await db
    .selectFrom('course_answer_counts')
    .select((eb) => eb.fn.sum<number>('answers_count').as('answers'))
    .executeTakeFirstOrThrow();
  const answers = Number(counted.answers ?? 0);
  await db
    .updateTable('science_state')
    .set({ estimated_at: new Date(), answers_at_estimate: answers, iterations: output.iterations })
    .where('id', '=', 1)
    .execute();
  let volunteers = 0;
  for (let v = 0; v < read.userIds.length; v += 1) if (output.allAnswers[v]! > 0) volunteers += 1;
  return { iterations: output.iterations, volunteers, answers, change: output.change, reopened, ...timings };
}
