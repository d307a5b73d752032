// The load bench's rows and the table that shows them: one row per run (a database and a mode),
// each column explained on its field below.
import { formatColumns } from './harness';
import type { LoadDatabase } from './load-server';

/**
 * The sky played. 'small' (the game tests' sky): four questions per area and one
 * area per level, so every fourth first answer turns a quest over, and the volunteers exhaust it
 * within seconds and re-post. 'default': the sky `npm start` serves (built into VAR_DIR's sky/ if
 * stale, as `galaxy-cruise data --if-stale` does), with 6 to 16 questions per area and 440 in
 * all, which 200 volunteers do not exhaust in a window: every answer is a first answer (the
 * command's default).
 */
export type LoadSky = 'small' | 'default';

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
