// The start-up suite: whole processes, timed from their spawn to their exit (or, for the server,
// to its first answer), the way a user meets them. In-process suites time the work alone; here
// the start of Node, the loading of our modules and the wasm core's compilation count too.
//
// Three cases, each with its peers, run in interleaved rounds (every contender once per round)
// so that drift in machine speed hits all alike; min and median over the rounds are reported,
// of the wall-clock time and, for the processes that exit, of the CPU time (user + system, all
// threads) each reports at its exit: on a machine that other work keeps busy, the wall-clock
// time measures the machine as much as the process, the CPU time much less so.
//   no work   galaxy-cruise --help beside a bare `node -e 0` and the same help run from the
//             TypeScript sources through tsx
//   inflate   galaxy-cruise inflate of one gzip file (about 64 MiB, made by the real gzip from
//             random but compressible text) beside node:zlib and fflate one-liners, each writing
//             the bytes to stdout (/dev/null); every output is first checked against the text
//   serve     galaxy-cruise serve from spawn to the first answered GET /api/session on
//             127.0.0.1, beside the server run from its sources; stopped by pid after each run
// The command line is first brought up to date (`scripts/build.mjs node --if-stale`, as
// `npm start` does), so that `galaxy-cruise` runs its JavaScript build.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { projectRoot } from '../server/config';
import { freeLoopbackPort } from '../server/db/temporary-postgres';
import { formatColumns, median } from './harness';

const BIN = path.join(projectRoot, 'bin', 'galaxy-cruise.mjs');

/** The gzip file's size the inflate case aims at. */
const GZIP_BYTES = 64 * 1024 * 1024;
/** How long the server may take to answer before its run counts as failed. */
const SERVER_TIMEOUT_MS = 180_000;

export const CONTENDERS = {
  help: 'galaxy-cruise --help',
  bareNode: 'node -e 0',
  helpFromSources: 'galaxy-cruise --help, sources (tsx)',
  inflate: 'galaxy-cruise inflate',
  zlib: 'node:zlib one-liner',
  fflate: 'fflate one-liner',
  serve: 'galaxy-cruise serve',
  serveFromSources: 'galaxy-cruise serve, sources (tsx)',
} as const;

const OURS = new Set<string>([CONTENDERS.help, CONTENDERS.inflate, CONTENDERS.serve]);

/** A help run may take this much longer than a bare Node, and inflate this much longer than node:zlib. */
export const TARGETS = { helpOverBareNodeMs: 150, inflateOverZlib: 1.3 };

interface Timing {
  wallMs: number;
  /** User + system CPU time of the whole process; absent for the server, timed to its answer. */
  cpuMs?: number;
}

interface ProcessContender {
  name: string;
  /** Runs the process once. */
  time(): Promise<Timing>;
}

interface StartupCase {
  input: string;
  ours: ProcessContender;
  peers: ProcessContender[];
}

export interface StartupRow {
  suite: 'startup';
  input: string;
  contender: string;
  runs: number;
  minMs: number;
  medianMs: number;
  /** Median CPU time; null for the server. */
  cpuMedianMs: number | null;
  /** This contender's median wall-clock time ÷ ours, so > 1 means ours is faster; 1 for ours. */
  ratio: number;
}

export interface StartupOptions {
  /** Interleaved rounds per case. */
  runs: number;
  log: (line: string) => void;
}

/**
 * A script preloaded (`node --require`) into every timed process that exits: at its exit it
 * writes process.cpuUsage() to file descriptor 3, a pipe to this process.
 */
const CPU_REPORT = `process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  require('node:fs').writeSync(3, String((user + system) / 1000));
});
`;

/** Node with `args`, from the project root; its stdout is discarded. Rejects on a failed exit. */
function timeExit(cpuReport: string, args: string[]): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--require', cpuReport, ...args], {
      cwd: projectRoot,
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let cpu = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => (cpu += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const wallMs = performance.now() - started;
      if (code === 0) resolve({ wallMs, cpuMs: Number(cpu) });
      else reject(new Error(`node ${args.join(' ')} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

/** The SHA-256 of what Node with `args` writes to stdout. */
function stdoutDigest(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    const hash = crypto.createHash('sha256');
    child.stdout.on('data', (chunk: Buffer) => hash.update(chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(hash.digest('hex')) : reject(new Error(`node ${args.join(' ')} exited with ${code}`)),
    );
  });
}

/** `--input-type=module --eval` code that runs `body` with tsx's loader registered. */
function fromSources(body: string): string[] {
  return ['--import', 'tsx', '--input-type=module', '--eval', body];
}

/**
 * Text that gzip shrinks about as it shrinks a catalogue: lines of numbers drawn from a fixed
 * pseudo-random sequence (so every run makes the same file), with names from a small vocabulary.
 */
function catalogueText(bytes: number): Buffer {
  const words = ['spiral', 'elliptical', 'merger', 'edge-on', 'barred', 'ring', 'clump', 'tidal', 'dwarf', 'lens'];
  let state = 0x2545f491;
  const next = () => {
    // xorshift32: fast, and deterministic so that the file is the same every time.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const chunks: Buffer[] = [];
  let total = 0;
  let id = 1;
  while (total < bytes) {
    const lines: string[] = [];
    for (let line = 0; line < 4096; line++, id++) {
      const ra = (next() * 360).toFixed(5);
      const dec = (next() * 180 - 90).toFixed(5);
      const magnitude = (14 + next() * 10).toFixed(2);
      lines.push(`${id},${ra},${dec},${magnitude},${words[Math.floor(next() * words.length)]}\n`);
    }
    const chunk = Buffer.from(lines.join(''));
    chunks.push(chunk);
    total += chunk.length;
  }
  return Buffer.concat(chunks, total).subarray(0, bytes);
}

/** Writes `directory`/text.gz, made by the system's gzip, about GZIP_BYTES long; answers its digest and sizes. */
function makeGzipFile(directory: string) {
  // The ratio of a sample at gzip's default level sets how much text makes the wanted file.
  const sample = catalogueText(16 * 1024 * 1024);
  const ratio = sample.length / zlib.gzipSync(sample).length;
  const text = catalogueText(Math.round(GZIP_BYTES * ratio));
  const textFile = path.join(directory, 'text');
  fs.writeFileSync(textFile, text);
  const gzip = spawnSync('gzip', ['--keep', '--force', textFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (gzip.error || gzip.status !== 0)
    throw new Error(`gzip failed: ${gzip.error?.message ?? gzip.stderr.toString().trim()}`);
  const file = `${textFile}.gz`;
  return {
    file,
    digest: crypto.createHash('sha256').update(text).digest('hex'),
    gzipBytes: fs.statSync(file).size,
    textBytes: text.length,
  };
}

/** Spawns a server with `args`, times it to the first answered GET /api/session, then stops it by pid. */
async function timeServer(args: string[], varDirectory: string): Promise<Timing> {
  const port = await freeLoopbackPort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      VAR_DIR: varDirectory,
      DATABASE_URL: '',
      // No client bundle: the time to the first answer is the server's own.
      DIST_DIR: path.join(varDirectory, 'no-client'),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr.trim()}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/session`);
        if (response.ok) return { wallMs: performance.now() - started };
      } catch {
        // not listening yet
      }
      if (performance.now() - started > SERVER_TIMEOUT_MS)
        throw new Error(`the server did not answer within ${SERVER_TIMEOUT_MS} ms: ${stderr.trim()}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
    const killer = setTimeout(
      () => child.pid !== undefined && child.exitCode === null && child.kill('SIGKILL'),
      10_000,
    );
    await exited;
    clearTimeout(killer);
  }
}

async function startupCases(directory: string, log: (line: string) => void): Promise<StartupCase[]> {
  const cpuReport = path.join(directory, 'cpu-report.cjs');
  fs.writeFileSync(cpuReport, CPU_REPORT);
  const timeExitOf = (args: string[]) => () => timeExit(cpuReport, args);
  const helpFromSources = fromSources("const { main } = await import('./cli/main.ts'); await main(['--help']);");
  const noWork: StartupCase = {
    input: 'no work',
    ours: { name: CONTENDERS.help, time: timeExitOf([BIN, '--help']) },
    peers: [
      { name: CONTENDERS.bareNode, time: timeExitOf(['-e', '0']) },
      { name: CONTENDERS.helpFromSources, time: timeExitOf(helpFromSources) },
    ],
  };

  log('bench startup: making the gzip file');
  const gzip = makeGzipFile(directory);
  const write = (decoder: string) =>
    `process.stdout.write(${decoder}(require('node:fs').readFileSync(process.argv[1])))`;
  const inflateArgs = [BIN, 'inflate', gzip.file];
  const zlibArgs = ['-e', write("require('node:zlib').gunzipSync"), gzip.file];
  const fflateArgs = ['-e', write("require('fflate').gunzipSync"), gzip.file];
  for (const [name, args] of [
    [CONTENDERS.inflate, inflateArgs],
    [CONTENDERS.zlib, zlibArgs],
    [CONTENDERS.fflate, fflateArgs],
  ] as const) {
    if ((await stdoutDigest([...args])) !== gzip.digest) throw new Error(`${name} did not write the gzipped text`);
  }
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  const inflate: StartupCase = {
    input: `gzip ${mib(gzip.gzipBytes)} MiB → ${mib(gzip.textBytes)} MiB`,
    ours: { name: CONTENDERS.inflate, time: timeExitOf(inflateArgs) },
    peers: [
      { name: CONTENDERS.zlib, time: timeExitOf(zlibArgs) },
      { name: CONTENDERS.fflate, time: timeExitOf(fflateArgs) },
    ],
  };

  // One untimed start makes the database and runs the migrations; the timed ones find it made.
  const varDirectory = path.join(directory, 'var');
  log('bench startup: making the server database');
  await timeServer([BIN, 'serve'], varDirectory);
  const serveFromSources = fromSources(
    "const { startServer } = await import('./server/main.ts'); await startServer();",
  );
  const serve: StartupCase = {
    input: 'to the first /api/session',
    ours: { name: CONTENDERS.serve, time: () => timeServer([BIN, 'serve'], varDirectory) },
    peers: [{ name: CONTENDERS.serveFromSources, time: () => timeServer(serveFromSources, varDirectory) }],
  };
  return [noWork, inflate, serve];
}

export async function runStartup({ runs, log }: StartupOptions): Promise<StartupRow[]> {
  const build = spawnSync(process.execPath, [path.join(projectRoot, 'scripts', 'build.mjs'), 'node', '--if-stale'], {
    cwd: projectRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('the build of the command line failed');
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-startup-'));
  try {
    const rows: StartupRow[] = [];
    for (const bench of await startupCases(directory, log)) {
      log(`bench startup: ${bench.input}`);
      const contenders = [bench.ours, ...bench.peers];
      // One untimed run each: files in the page cache, the first compilation caches warm.
      for (const contender of contenders) await contender.time();
      const timings = new Map<ProcessContender, Timing[]>(contenders.map((contender) => [contender, []]));
      for (let round = 0; round < runs; round++)
        for (const contender of contenders) timings.get(contender)!.push(await contender.time());
      const oursMedian = median(timings.get(bench.ours)!.map((timing) => timing.wallMs));
      for (const contender of contenders) {
        const measured = timings.get(contender)!;
        const wall = measured.map((timing) => timing.wallMs);
        const cpu = measured.flatMap((timing) => (timing.cpuMs === undefined ? [] : [timing.cpuMs]));
        rows.push({
          suite: 'startup',
          input: bench.input,
          contender: contender.name,
          runs,
          minMs: Math.min(...wall),
          medianMs: median(wall),
          cpuMedianMs: cpu.length > 0 ? median(cpu) : null,
          ratio: median(wall) / oursMedian,
        });
      }
    }
    return rows;
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * Whether each target holds, in words: judged on the median wall-clock times, as a user meets
 * them, and in brackets on the median CPU times, which a busy machine disturbs less.
 */
export function startupTargets(rows: StartupRow[]): string[] {
  const row = (name: string) => rows.find((candidate) => candidate.contender === name);
  const verdict = (holds: boolean) => (holds ? 'holds' : 'missed');
  const lines: string[] = [];
  const help = row(CONTENDERS.help);
  const bareNode = row(CONTENDERS.bareNode);
  if (help && bareNode) {
    const wall = help.medianMs - bareNode.medianMs;
    let line = `${CONTENDERS.help} takes ${wall.toFixed(0)} ms more than ${CONTENDERS.bareNode} (target ≤ ${TARGETS.helpOverBareNodeMs} ms): ${verdict(wall <= TARGETS.helpOverBareNodeMs)}`;
    if (help.cpuMedianMs !== null && bareNode.cpuMedianMs !== null) {
      const cpu = help.cpuMedianMs - bareNode.cpuMedianMs;
      line += ` (CPU: ${cpu.toFixed(0)} ms more, ${verdict(cpu <= TARGETS.helpOverBareNodeMs)})`;
    }
    lines.push(line);
  }
  const inflate = row(CONTENDERS.inflate);
  for (const [peerName, limit, strict] of [
    [CONTENDERS.fflate, 1, true],
    [CONTENDERS.zlib, TARGETS.inflateOverZlib, false],
  ] as const) {
    const peer = row(peerName);
    if (!inflate || !peer) continue;
    const holds = (ratio: number) => verdict(strict ? ratio < limit : ratio <= limit);
    const wall = inflate.medianMs / peer.medianMs;
    let line = `${CONTENDERS.inflate} takes ${wall.toFixed(2)}× the time of the ${peerName} (target ${strict ? '<' : '≤'} ${limit}): ${holds(wall)}`;
    if (inflate.cpuMedianMs !== null && peer.cpuMedianMs !== null) {
      const cpu = inflate.cpuMedianMs / peer.cpuMedianMs;
      line += ` (CPU: ${cpu.toFixed(2)}×, ${holds(cpu)})`;
    }
    lines.push(line);
  }
  return lines;
}

export function formatStartupTable(rows: StartupRow[]): string {
  const header = ['suite', 'input', 'contender', 'runs', 'min', 'median', 'CPU median', 'ours ÷ it'];
  const lines = rows.map((row) => [
    row.suite,
    row.input,
    row.contender,
    String(row.runs),
    `${row.minMs.toFixed(0)} ms`,
    `${row.medianMs.toFixed(0)} ms`,
    row.cpuMedianMs === null ? '—' : `${row.cpuMedianMs.toFixed(0)} ms`,
    OURS.has(row.contender) ? '—' : `${row.ratio.toFixed(2)}×`,
  ]);
  return [formatColumns(header, lines), '', ...startupTargets(rows)].join('\n');
}
