// The start-up suite's verdicts (bench/startup.ts): `galaxy-cruise --help` within 150 ms of
// a bare `node -e 0`; whole-process inflate faster than the fflate one-liner and within 1.3× of
// the node:zlib one-liner; judged on median wall-clock times, and on CPU times in brackets.
import { describe, expect, it } from 'vitest';
import { CONTENDERS, formatStartupTable, startupTargets, type StartupRow } from '../../bench/startup';

function row(contender: string, medianMs: number, cpuMedianMs: number | null = medianMs): StartupRow {
  return { suite: 'startup', input: 'case', contender, runs: 3, minMs: medianMs, medianMs, cpuMedianMs, ratio: 1 };
}

describe('the start-up targets', () => {
  it('hold when help is within 150 ms of node -e 0 and inflate beats fflate and stays within 1.3× of zlib', () => {
    const rows = [
      row(CONTENDERS.help, 190, 150),
      row(CONTENDERS.bareNode, 40, 35),
      row(CONTENDERS.inflate, 520, 500),
      row(CONTENDERS.zlib, 400, 390),
      row(CONTENDERS.fflate, 521, 800),
    ];
    expect(startupTargets(rows)).toEqual([
      'galaxy-cruise --help takes 150 ms more than node -e 0 (target ≤ 150 ms): holds (CPU: 115 ms more, holds)',
      'galaxy-cruise inflate takes 1.00× the time of the fflate one-liner (target < 1): holds (CPU: 0.63×, holds)',
      'galaxy-cruise inflate takes 1.30× the time of the node:zlib one-liner (target ≤ 1.3): holds (CPU: 1.28×, holds)',
    ]);
  });

  it('are missed past the limits, on either clock', () => {
    const rows = [
      row(CONTENDERS.help, 300, 100),
      row(CONTENDERS.bareNode, 40, 40),
      row(CONTENDERS.inflate, 800, 800),
      row(CONTENDERS.zlib, 600, 600),
      row(CONTENDERS.fflate, 800, 700),
    ];
    expect(startupTargets(rows)).toEqual([
      'galaxy-cruise --help takes 260 ms more than node -e 0 (target ≤ 150 ms): missed (CPU: 60 ms more, holds)',
      'galaxy-cruise inflate takes 1.00× the time of the fflate one-liner (target < 1): missed (CPU: 1.14×, missed)',
      'galaxy-cruise inflate takes 1.33× the time of the node:zlib one-liner (target ≤ 1.3): missed (CPU: 1.33×, missed)',
    ]);
  });

  it('are left out for the cases not run, and the server has no CPU time', () => {
    const rows = [row(CONTENDERS.serve, 2000, null), row(CONTENDERS.serveFromSources, 3000, null)];
    expect(startupTargets(rows)).toEqual([]);
    const table = formatStartupTable(rows);
    expect(table.split('\n')[0]).toMatch(/^suite +input +contender +runs +min +median +CPU median +ours ÷ it$/);
    expect(table).toMatch(/galaxy-cruise serve +3 +2000 ms +2000 ms +— +—/);
  });
});
