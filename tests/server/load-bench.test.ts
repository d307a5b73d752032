// The load bench (bench/load.ts) in miniature: a few volunteers for a second against the real
// server on PGlite and against its peer without a database, closed loop and paced. It must count
// what happened (answers, errors, lost answers) and pace in answers, not in calls.
import { describe, expect, it } from 'vitest';
import { runLoad, type LoadRow } from '../../bench/load';

describe('the load bench', () => {
  it('runs the real server and its peer, with no error and no lost answer', { timeout: 420_000 }, async () => {
    const rows: LoadRow[] = await runLoad({
      databases: ['none', 'pglite'],
      sky: 'small',
      volunteers: 4,
      seconds: 2,
      warmupSeconds: 0,
      history: 3,
      paced: { none: 40, pglite: 20 },
      closedLoop: true,
      log: () => {},
    });
    expect(rows.map((row) => [row.database, row.sky, row.mode])).toEqual([
      ['none', 'small', 'closed loop'],
      ['none', 'small', 'paced 40/s'],
      ['pglite', 'small', 'closed loop'],
      ['pglite', 'small', 'paced 20/s'],
    ]);
    for (const row of rows) {
      expect(row.error_samples).toEqual([]);
      expect(row.errors).toBe(0);
      expect(row.answers).toBeGreaterThan(0);
      expect(row.answers).toBe(row.new_answers + row.replaced_answers);
      expect(row.answer_p50_ms).toBeLessThanOrEqual(row.answer_p99_ms);
      expect(row.lost_answers).toBe(row.database === 'none' ? null : 0);
      expect(row.history).toBe(row.database === 'none' ? 0 : 3);
      // The disk was probed through the window.
      expect(row.disk_flush_p99_ms).toBeGreaterThan(0);
      expect(row.disk_flush_p99_ms).toBeLessThanOrEqual(row.disk_flush_max_ms);
      // First answers and re-posts timed apart; the game phase ends with the last first answer.
      expect(Number.isFinite(row.new_answer_p99_ms)).toBe(row.new_answers > 0);
      expect(Number.isFinite(row.replaced_answer_p99_ms)).toBe(row.replaced_answers > 0);
      expect(row.game_phase_s).toBeGreaterThan(0);
      expect(row.game_phase_s).toBeLessThanOrEqual(row.seconds + 0.01); // seconds is rounded to 0.01
      expect(row.game_phase_answers_per_s * row.game_phase_s).toBeGreaterThanOrEqual(row.new_answers - 0.5);
      expect(row.game_phase_answers_per_s * row.game_phase_s).toBeLessThanOrEqual(row.answers + 0.5);
    }
    // Paced runs offer their rate in answers: a quest fetch does not take an answer's slot.
    const pacedNone = rows[1];
    // 80 slots in 2 s; when a fetch took a slot, only 4 in 5 of them were answers (64).
    expect(pacedNone.answers).toBeGreaterThanOrEqual(0.9 * 80);
    expect(pacedNone.answers).toBeLessThanOrEqual(80);
  });

  it(
    'reports the statements that took PostgreSQL its time with --statements, after a warm-up timed apart',
    { timeout: 420_000 },
    async () => {
      const [peer, row] = await runLoad({
        // The peer as well: it has no statements to report, and asking must not fail it.
        databases: ['none', 'postgres'],
        sky: 'small',
        volunteers: 4,
        seconds: 2,
        warmupSeconds: 1,
        history: 3,
        paced: { none: 20, postgres: 20 },
        closedLoop: false,
        statements: true,
        log: () => {},
      });
      expect(peer).toMatchObject({ database: 'none', errors: 0, top_statements: [] });
      expect(row).toMatchObject({
        database: 'postgres',
        mode: 'paced 20/s',
        errors: 0,
        lost_answers: 0,
        warmup_seconds: 1,
      });
      // 20 slots in the warm-up and 40 in the window, each counted where it fell.
      expect(row.warmup_answers).toBeGreaterThanOrEqual(0.9 * 20);
      expect(row.warmup_answers).toBeLessThanOrEqual(20 + 4);
      expect(Number.isFinite(row.warmup_answer_p99_ms)).toBe(true);
      expect(row.answers).toBeGreaterThanOrEqual(0.9 * 40);
      expect(row.answers).toBeLessThanOrEqual(40 + 4);
      expect(row.top_statements.length).toBeGreaterThan(0);
      expect(row.top_statements.length).toBeLessThanOrEqual(10);
      // The answer batch ran in the window, once per batch: at most one call per answer.
      const batch = row.top_statements.find((line) => line.includes('with input as ( select input.* from ('));
      expect(batch).toBeDefined();
      const calls = Number(/^(\d+) calls, (\d+) plans, /.exec(batch!)?.[1]);
      expect(calls).toBeGreaterThan(0);
      expect(calls).toBeLessThanOrEqual(row.answers);
    },
  );
});
