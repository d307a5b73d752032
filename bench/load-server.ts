// The processes the load bench starts and must stop: the server under load (the real one, or its
// peer that answers from memory, ./load-floor.ts) on 127.0.0.1, each with its log in a file, and
// what to clean up if the bench itself is interrupted while they run.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../server/config';
import { freeLoopbackPort } from '../server/db/temporary-postgres';
import { Client } from './load-client';

/** Which server answers: the real one on PGlite or PostgreSQL, or 'none', the peer without a database. */
export type LoadDatabase = 'pglite' | 'postgres' | 'none';

export interface LoadServer {
  port: number;
  child: ChildProcess;
  logFile: string;
  /** SIGTERM, then SIGKILL if it has not exited within 20 s. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What to stop if the bench itself is interrupted (Ctrl-C) while servers are up. */
const interruptCleanups = new Set<() => void>();
let interruptHandlers = false;

/**
 * Runs `cleanup` if the bench is interrupted (SIGINT, SIGTERM) before the returned function is
 * called; the last registered runs first.
 */
export function onInterrupt(cleanup: () => void): () => void {
  if (!interruptHandlers) {
    interruptHandlers = true;
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => {
        // Last registered first: servers die before their folders and database go.
        for (const pending of [...interruptCleanups].reverse()) pending();
        process.exit(130);
      });
  }
  interruptCleanups.add(cleanup);
  return () => interruptCleanups.delete(cleanup);
}

/** The real server, or the peer that answers from memory (./load-floor.ts). */
function serverCommand(database: LoadDatabase): string[] {
  return database === 'none'
    ? ['--import', 'tsx', path.join(projectRoot, 'bench', 'load-floor.ts')]
    : [path.join(projectRoot, 'bin', 'galaxy-cruise.mjs'), 'serve'];
}

/**
 * Starts the server for `database` on a free loopback port with `env` added to the bench's
 * environment, and waits (at most 120 s) until it answers GET /api/session. Its stdout and stderr
 * go to `logFile`; with `profileDirectory`, V8 writes a CPU profile of it there.
 */
export async function startLoadServer(
  database: LoadDatabase,
  env: Record<string, string>,
  logFile: string,
  profileDirectory?: string,
): Promise<LoadServer> {
  const port = await freeLoopbackPort();
  const log = fs.openSync(logFile, 'a');
  const nodeArgs = profileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`] : [];
  const child = spawn(process.execPath, [...nodeArgs, ...serverCommand(database)], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DIST_DIR: path.join(projectRoot, 'nonexistent-dist'),
      ...env,
    },
    // The server logs every request, as in production; the log goes to a file, not through the bench.
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const forget = onInterrupt(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
  });
  void exited.then(forget);
  const server: LoadServer = {
    port,
    child,
    logFile,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGTERM');
      await Promise.race([exited, sleep(20_000)]);
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(child.pid!, 'SIGKILL');
        await exited;
      }
    },
  };
  const deadline = Date.now() + 120_000;
  const probe = new Client(port, 1);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: see ${logFile}`);
      try {
        if ((await probe.request('GET', '/api/session')).status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`server did not answer within 120 s: see ${logFile}`);
      }
      await sleep(100);
    }
  } finally {
    probe.close();
  }
  return server;
}
