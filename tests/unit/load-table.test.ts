// The load bench's table (bench/load-table.ts formatLoadTable): each row's disk flush column,
// and a line for each window whose disk stalled, since its answers waited for that flush; the
// run-queue column, read from Linux's /proc/PID/schedstat (bench/proc-sampling.ts).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DISK_STALL_MS, formatLoadTable, type LoadRow } from '../../bench/load-table';
import { parseRunQueueWait } from '../../bench/proc-sampling';

function row(database: LoadRow['database'], diskFlushMaxMs: number): LoadRow {
  return {
    suite: 'load',
    database,
    sky: 'default',
    mode: 'paced 2000/s',
    volunteers: 200,
    seconds: 15,
    answers: 29_800,
    answers_per_s: 1986.7,
    new_answers: 29_800,
    replaced_answers: 0,
    answer_p50_ms: 6,
    answer_p99_ms: 40,
    new_answer_p99_ms: 40,
    replaced_answer_p99_ms: NaN,
    history: 500,
    warmup_seconds: 2,
    warmup_answers: 3900,
    warmup_answer_p99_ms: 120,
    game_phase_s: 15,
    game_phase_answers_per_s: 1990,
    calls: 36_000,
    calls_per_s: 2400,
    all_p50_ms: 5,
    all_p99_ms: 38,
    errors: 0,
    error_samples: [],
    lost_answers: 0,
    cpu_server: 0.5,
    cpu_database: 0.8,
    cpu_bench: 0.2,
    run_queue_server: 0.17,
    run_queue_database: 0.38,
    run_queue_bench: 0.125,
    load_average: 1.5,
    disk_flush_p99_ms: diskFlushMaxMs / 2,
    disk_flush_max_ms: diskFlushMaxMs,
    database_activity: [],
    top_statements: [],
  };
}

describe('the load bench table', () => {
  it("shows each window's disk flush p99 and max", () => {
    const table = formatLoadTable([row('postgres', 9.4)]);
    expect(table.split('\n')[0]).toMatch(/disk flush p99\/max$/);
    expect(table.split('\n')[2]).toMatch(/4\.7\/9 ms$/);
  });

  it("shows each window's run-queue wait of the server, the database and the bench", () => {
    const [header, , line] = formatLoadTable([row('postgres', 9.4)]).split('\n');
    const column = header.indexOf('run queue srv/db/bench');
    expect(column).toBeGreaterThan(header.indexOf('cpu srv/db/bench'));
    expect(line.slice(column).split(/\s+/)[0]).toBe('0.17/0.38/0.13');
  });

  it('reads the run-queue wait, the second field of schedstat, in seconds', () => {
    // run time, run-queue wait (both in ns) and time slices, as Linux writes them.
    expect(parseRunQueueWait('3117000000 1361328000 7476\n')).toBe(1.361328);
    expect(parseRunQueueWait('')).toBe(0);
  });

  it.runIf(fs.existsSync('/proc/thread-self/schedstat'))(
    'reads schedstat as Linux lays it out: run time, then wait',
    () => {
      const read = () => fs.readFileSync('/proc/thread-self/schedstat', 'utf8');
      const before = read();
      // 30 ms of this process's CPU, however long the machine takes to give it.
      const cpuAtStart = process.cpuUsage();
      while (process.cpuUsage(cpuAtStart).user < 30_000);
      const after = read();
      const runNs = (text: string) => Number(text.trim().split(/\s+/)[0]);
      // The first field is this thread's run time, so it grew by about what the thread spun.
      expect(runNs(after) - runNs(before)).toBeGreaterThanOrEqual(15e6);
      expect(parseRunQueueWait(after)).toBeGreaterThanOrEqual(parseRunQueueWait(before));
    },
  );

  it('says which windows met a stalled disk, and only those of a database', () => {
    const table = formatLoadTable([
      row('postgres', DISK_STALL_MS - 1),
      row('pglite', 382),
      row('postgres', DISK_STALL_MS),
      row('none', 400),
    ]);
    const notes = table.split('\n').filter((line) => line.includes('the disk stalled'));
    expect(notes).toEqual([
      expect.stringMatching(/^pglite paced 2000\/s: the disk stalled in the window \(a flush took 382 ms\)/),
      expect.stringMatching(/^postgres paced 2000\/s: the disk stalled in the window \(a flush took 50 ms\)/),
    ]);
  });
});
