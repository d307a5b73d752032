// `galaxy-cruise bench import` (bench/import.ts): its options and its table.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { formatImportTable } from '../../bench/import';
import { parseBenchArgs } from '../../cli/commands/bench';

describe('bench import', () => {
  it('imports lists of 10,000 and 100,000 targets on both databases unless told otherwise', () => {
    expect(parseBenchArgs(['import']).importArgs).toEqual({
      databases: ['pglite', 'postgres'],
      sizes: [10_000, 100_000],
      fitsMiB: 32,
      fitsWorkers: [os.availableParallelism()],
      callRequests: 100,
    });
    expect(
      parseBenchArgs(['import', '--import-targets', '500', '--import-fits-mib', '0', '--databases', 'postgres'])
        .importArgs,
    ).toEqual({
      databases: ['postgres'],
      sizes: [500],
      fitsMiB: 0,
      fitsWorkers: [os.availableParallelism()],
      callRequests: 100,
    });
    expect(parseBenchArgs(['import', '--import-call-requests', '0']).importArgs.callRequests).toBe(0);
    expect(parseBenchArgs(['import', '--import-workers', '1,2']).importArgs.fitsWorkers).toEqual([1, 2]);
    expect(() => parseBenchArgs(['import', '--import-workers', '0'])).toThrow(
      '--import-workers needs a positive whole number',
    );
    expect(() => parseBenchArgs(['import', '--import-targets', 'many'])).toThrow(
      '--import-targets needs a positive whole number',
    );
    expect(() => parseBenchArgs(['import', '--databases', 'none'])).toThrow(
      "unknown database 'none' for the import suite: pglite, postgres",
    );
  });

  it('tells the time per 10,000 targets, per GiB of FITS beside the time to only read it, and the peak memory of each run', () => {
    const table = formatImportTable([
      {
        suite: 'import',
        database: 'postgres',
        targets: 100_000,
        run: 'first',
        seconds: 18.3,
        secondsPer10000: 1.83,
        peakRssMiB: 376.4,
      },
      {
        suite: 'import',
        database: 'pglite',
        targets: 100,
        run: 'fits',
        seconds: 40,
        secondsPer10000: 4000,
        fitsMiB: 32,
        secondsPerGiB: 1280,
        workers: 2,
        readSecondsPerGiB: 0.52,
        peakRssMiB: 900,
      },
    ]);
    expect(table.split('\n')).toEqual([
      'import                database  targets  run                               time    per 10,000 targets  per GiB of FITS  reading it alone  peak RSS',
      '--------------------  --------  -------  --------------------------------  ------  ------------------  ---------------  ----------------  --------',
      'galaxy-cruise import  postgres  100000   first import                      18.3 s  1.83 s              -                -                 376 MiB',
      'galaxy-cruise import  pglite    100      FITS imagery (32 MiB, 2 workers)  40.0 s  -                   1280 s           0.52 s per GiB    900 MiB',
    ]);
  });

  it("tells each volunteer's call on the imported course beside season2's, with the ratio", () => {
    const table = formatImportTable([
      {
        suite: 'import',
        run: 'calls',
        database: 'pglite',
        call: 'GET /api/levels?course_id=',
        levels: 10_000,
        areas: 100_000,
        season_median_ms: 3.8,
        course_median_ms: 4.2,
        ratio: 4.2 / 3.8,
      },
    ]);
    expect(table.split('\n').slice(-3)).toEqual([
      'call                        database  imported course             season2, sky alone  imported course  ratio',
      '--------------------------  --------  --------------------------  ------------------  ---------------  -----',
      'GET /api/levels?course_id=  pglite    10000 levels, 100000 areas  3.80 ms             4.20 ms          1.11×',
    ]);
  });
});
