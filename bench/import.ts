// `galaxy-cruise bench import`: `galaxy-cruise import` (docs/import.md) run as the real command on
// a CSV list of N targets spread over the sky, into a fresh database (PGlite on disk, or a
// throw-away PostgreSQL), then again on the same list (an update: every object_id and answer
// kept); and a FITS mosaic made into a HiPS by the import, timed per GiB of FITS, on each number of
// worker threads asked for, beside the floor: the time to only read the same file (8 MiB blocks,
// every byte), as the page cache holds it for the import too. Each run is
// timed from the command's start to its exit (start-up and migrations included) and its peak
// resident memory is read from /proc (VmHWM, sampled every 20 ms until
// it exits), the figure a research group's server sees.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTemporaryPostgres } from '../server/db/temporary-postgres';
import { encodeFitsHeader } from '../skydata/fits';
import { runCommand } from './command-run';
import { timeCourseCalls, type CourseCallRow } from './course-calls';
import { formatColumns } from './harness';
import { createPostgresDatabase } from './load-database';
import { onInterrupt } from './load-server';

export type ImportDatabase = 'pglite' | 'postgres';

export interface ImportOptions {
  databases: ImportDatabase[];
  /** List lengths, one run (and its re-import) each. */
  sizes: number[];
  /** MiB of FITS imagery imported once (made into a HiPS) beside a small list; 0 for none. */
  fitsMiB: number;
  /** Worker threads of the FITS → HiPS runs (`galaxy-cruise import --workers N`), one run each. */
  fitsWorkers: number[];
  /** Timed requests of each volunteer's call on the largest list's course (./course-calls.ts); 0 for none. */
  callRequests: number;
  log(line: string): void;
}

export interface ImportRow {
  suite: 'import';
  database: ImportDatabase;
  targets: number;
  run: 'first' | 'again' | 'fits';
  seconds: number;
  secondsPer10000: number;
  /** A FITS run: its imagery's size and the time per GiB of it. */
  fitsMiB?: number;
  secondsPerGiB?: number;
  /** A FITS run: its worker threads, and the time per GiB to only read the same file. */
  workers?: number;
  readSecondsPerGiB?: number;
  peakRssMiB: number;
}

/** The id of the course the lists are imported as. */
const BENCH_COURSE = 'bench-survey';

/** A list of `count` targets spread evenly over the sphere (a Fibonacci lattice), with a manifest. */
function writeList(folder: string, count: number): string {
  const golden = Math.PI * (3 - Math.sqrt(5));
  const lines = ['id,ra,dec,galaxy_type'];
  for (let index = 0; index < count; index += 1) {
    const z = 1 - (2 * (index + 0.5)) / count;
    const ra = ((((index * golden * 180) / Math.PI) % 360) + 360) % 360;
    const dec = (Math.asin(z) * 180) / Math.PI;
    lines.push(`${index + 1},${ra.toFixed(6)},${dec.toFixed(6)},${index % 2 === 0 ? 'spiral' : 'elliptical'}`);
  }
  fs.writeFileSync(path.join(folder, 'targets.csv'), `${lines.join('\n')}\n`);
  const manifest = path.join(folder, 'survey.json');
  fs.writeFileSync(
    manifest,
    JSON.stringify({
      id: BENCH_COURSE,
      name: { en: 'Bench survey', ja: 'ベンチ サーベイ' },
      imagery: { hips: 'https://example.org/hips/' },
      targets: 'targets.csv',
    }),
  );
  return manifest;
}

/** FITS pixels per FITS_FIELD_WIDTH-wide row: the bench's mosaic is 4096 pixels wide. */
const FITS_FIELD_WIDTH = 4096;
/** The mosaic's pixel scale, arc-seconds: HSC's. */
const FITS_PIXEL_SCALE = 0.168;

/** Rows of the bench's mosaic made and written at a time. */
const FITS_BLOCK_ROWS = 256;

/**
 * A survey of one FITS mosaic of about `mebibytes` MiB (float32, a TAN WCS at HSC's scale, a sky
 * of noise with a galaxy-like blob every 256 pixels) and a list of 100 targets on it, with a
 * manifest; the whole file size in bytes. The mosaic is written FITS_BLOCK_ROWS rows at a time,
 * so that its size is not bounded by one buffer's (4 GiB) nor by the memory.
 */
function writeFitsSurvey(folder: string, mebibytes: number): { manifest: string; bytes: number } {
  const width = FITS_FIELD_WIDTH;
  const height = Math.max(2, Math.round((mebibytes * 2 ** 20) / 4 / width));
  const scale = FITS_PIXEL_SCALE / 3600;
  const file = path.join(folder, 'mosaic.fits');
  const header = encodeFitsHeader({
    width,
    height,
    bitpix: -32,
    keywords: [
      ['CTYPE1', 'RA---TAN'],
      ['CTYPE2', 'DEC--TAN'],
      ['CRVAL1', 150],
      ['CRVAL2', 2],
      ['CRPIX1', (width + 1) / 2],
      ['CRPIX2', (height + 1) / 2],
      ['CD1_1', -scale],
      ['CD1_2', 0],
      ['CD2_1', 0],
      ['CD2_2', scale],
    ],
  });
  const fd = fs.openSync(file, 'w');
  let bytes = 0;
  try {
    bytes += fs.writeSync(fd, header);
    const block = new Float32Array(width * FITS_BLOCK_ROWS);
    const out = Buffer.alloc(block.length * 4);
    let seed = 12345;
    for (let top = 0; top < height; top += FITS_BLOCK_ROWS) {
      const rows = Math.min(FITS_BLOCK_ROWS, height - top);
      for (let k = 0; k < rows * width; k += 1) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        block[k] = 10 + (seed / 2 ** 31 - 0.5) * 2;
      }
      // The blobs (25 × 25 pixels, 256 apart) whose rows fall in this block, from the first that reaches it.
      for (let y = 128 + 256 * Math.max(0, Math.ceil((top - 12 - 128) / 256)); y - 12 < top + rows; y += 256)
        for (let x = 128; x < width; x += 256)
          for (let dy = -12; dy <= 12; dy += 1)
            if (y + dy >= top && y + dy < top + rows)
              for (let dx = -12; dx <= 12; dx += 1)
                block[(y + dy - top) * width + x + dx]! += 200 * Math.exp(-(dx * dx + dy * dy) / 32);
      for (let k = 0; k < rows * width; k += 1) out.writeFloatBE(block[k]!, 4 * k);
      bytes += fs.writeSync(fd, out, 0, rows * width * 4);
    }
    // The data unit fills whole 2880-byte blocks.
    bytes += fs.writeSync(fd, Buffer.alloc((2880 - ((width * height * 4) % 2880)) % 2880));
  } finally {
    fs.closeSync(fd);
  }
  const lines = ['id,ra,dec'];
  const halfWidth = (width * scale) / 2;
  const halfHeight = (height * scale) / 2;
  for (let index = 0; index < 100; index += 1) {
    const ra = 150 + ((index % 10) / 10 - 0.45) * halfWidth * 1.8;
    const dec = 2 + (Math.floor(index / 10) / 10 - 0.45) * halfHeight * 1.8;
    lines.push(`${index + 1},${ra.toFixed(7)},${dec.toFixed(7)}`);
  }
  fs.writeFileSync(path.join(folder, 'targets.csv'), `${lines.join('\n')}\n`);
  const manifest = path.join(folder, 'survey.json');
  fs.writeFileSync(
    manifest,
    JSON.stringify({
      id: 'bench-fits',
      name: { en: 'Bench FITS survey', ja: 'ベンチ FITS サーベイ' },
      imagery: { fits: ['mosaic.fits'] },
      targets: 'targets.csv',
    }),
  );
  return { manifest, bytes };
}

/** Runs the import command; its wall time and peak resident memory. */
async function runImport(
  manifest: string,
  env: NodeJS.ProcessEnv,
  extra: string[] = [],
): Promise<{ ms: number; peak: number }> {
  return runCommand(['import', ...extra, manifest], env);
}

/** Seconds to read every byte of `file` in 8 MiB blocks: what no import of it can beat. */
function readSeconds(file: string): number {
  const started = performance.now();
  const block = Buffer.allocUnsafe(8 * 2 ** 20);
  const fd = fs.openSync(file, 'r');
  try {
    while (fs.readSync(fd, block, 0, block.length, null) > 0);
  } finally {
    fs.closeSync(fd);
  }
  return (performance.now() - started) / 1000;
}

export async function runImportBench(options: ImportOptions): Promise<(ImportRow | CourseCallRow)[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-bench-import-'));
  const postgres = options.databases.includes('postgres') ? await startTemporaryPostgres() : undefined;
  const forget = onInterrupt(() => {
    postgres?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });
  const rows: (ImportRow | CourseCallRow)[] = [];
  const largest = Math.max(...options.sizes);
  try {
    for (const targets of options.sizes) {
      const folder = fs.mkdtempSync(path.join(work, 'list-'));
      const manifest = writeList(folder, targets);
      for (const database of options.databases) {
        const varDirectory = fs.mkdtempSync(path.join(work, 'var-'));
        const env = {
          ...process.env,
          VAR_DIR: varDirectory,
          DATABASE_URL: database === 'postgres' ? await createPostgresDatabase(postgres!.url, varDirectory) : '',
        };
        for (const run of ['first', 'again'] as const) {
          const { ms, peak } = await runImport(manifest, env);
          rows.push({
            suite: 'import',
            database,
            targets,
            run,
            seconds: ms / 1000,
            secondsPer10000: (ms / 1000 / targets) * 10_000,
            peakRssMiB: peak / 2 ** 20,
          });
          options.log(`import ${database}: ${targets} targets (${run}) in ${(ms / 1000).toFixed(1)} s`);
        }
        if (targets === largest && options.callRequests > 0) {
          const skyVarDirectory = fs.mkdtempSync(path.join(work, 'var-'));
          rows.push(
            ...(await timeCourseCalls({
              database,
              courseVarDirectory: varDirectory,
              courseDatabaseUrl: env.DATABASE_URL,
              courseId: BENCH_COURSE,
              skyVarDirectory,
              skyDatabaseUrl:
                database === 'postgres' ? await createPostgresDatabase(postgres!.url, skyVarDirectory) : '',
              requests: options.callRequests,
              log: options.log,
            })),
          );
          fs.rmSync(skyVarDirectory, { recursive: true, force: true });
        }
        fs.rmSync(varDirectory, { recursive: true, force: true });
      }
    }
    if (options.fitsMiB > 0) {
      // The imagery's cost does not depend on the database: one run, on the first one asked for.
      const database = options.databases[0]!;
      const folder = fs.mkdtempSync(path.join(work, 'fits-'));
      const { manifest, bytes } = writeFitsSurvey(folder, options.fitsMiB);
      const gibibytes = bytes / 2 ** 30;
      for (const workers of options.fitsWorkers) {
        const readPerGiB = readSeconds(path.join(folder, 'mosaic.fits')) / gibibytes;
        const varDirectory = fs.mkdtempSync(path.join(work, 'var-'));
        const env = {
          ...process.env,
          VAR_DIR: varDirectory,
          DATABASE_URL: database === 'postgres' ? await createPostgresDatabase(postgres!.url, varDirectory) : '',
        };
        const { ms, peak } = await runImport(manifest, env, ['--workers', String(workers)]);
        rows.push({
          suite: 'import',
          database,
          targets: 100,
          run: 'fits',
          seconds: ms / 1000,
          secondsPer10000: (ms / 1000 / 100) * 10_000,
          fitsMiB: bytes / 2 ** 20,
          secondsPerGiB: ms / 1000 / gibibytes,
          workers,
          readSecondsPerGiB: readPerGiB,
          peakRssMiB: peak / 2 ** 20,
        });
        options.log(
          `import ${database}: ${(bytes / 2 ** 20).toFixed(0)} MiB of FITS on ${workers} workers in ` +
            `${(ms / 1000).toFixed(1)} s (reading it alone: ${(readPerGiB * gibibytes).toFixed(2)} s)`,
        );
        fs.rmSync(varDirectory, { recursive: true, force: true });
      }
    }
  } finally {
    forget();
    postgres?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
  return rows;
}

export function formatImportTable(all: (ImportRow | CourseCallRow)[]): string {
  const rows = all.filter((row): row is ImportRow => row.run !== 'calls');
  const calls = all.filter((row): row is CourseCallRow => row.run === 'calls');
  const table = formatImportRuns(rows);
  if (calls.length === 0) return table;
  return `${table}\n${formatColumns(
    ['call', 'database', 'imported course', 'season2, sky alone', 'imported course', 'ratio'],
    calls.map((row) => [
      row.call,
      row.database,
      `${row.levels} levels, ${row.areas} areas`,
      `${row.season_median_ms.toFixed(2)} ms`,
      `${row.course_median_ms.toFixed(2)} ms`,
      `${row.ratio.toFixed(2)}×`,
    ]),
  )}`;
}

function formatImportRuns(rows: ImportRow[]): string {
  const runs = { first: 'first import', again: 'imported again', fits: 'FITS imagery' };
  return formatColumns(
    [
      'import',
      'database',
      'targets',
      'run',
      'time',
      'per 10,000 targets',
      'per GiB of FITS',
      'reading it alone',
      'peak RSS',
    ],
    rows.map((row) => [
      'galaxy-cruise import',
      row.database,
      String(row.targets),
      row.run === 'fits' ? `${runs.fits} (${row.fitsMiB!.toFixed(0)} MiB, ${row.workers} workers)` : runs[row.run],
      `${row.seconds.toFixed(1)} s`,
      row.run === 'fits' ? '-' : `${row.secondsPer10000.toFixed(2)} s`,
      row.secondsPerGiB === undefined ? '-' : `${row.secondsPerGiB.toFixed(0)} s`,
      row.readSecondsPerGiB === undefined ? '-' : `${row.readSecondsPerGiB.toFixed(2)} s per GiB`,
      `${row.peakRssMiB.toFixed(0)} MiB`,
    ]),
  );
}
