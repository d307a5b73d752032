// A throw-away PostgreSQL server on 127.0.0.1 under a temporary data directory, for the server
// tests (tests/helpers/postgres-global.ts) and the load bench (bench/): one home that both may
// import, and the production server never does. pg_ctl stops it through the pid file of its data
// directory, so only the server started here is stopped; one started `attached` (the e2e
// server's) also dies with its parent's process group. initdb refuses to run as root, so as
// root the cluster is run by Debian's 'postgres' user.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface TemporaryPostgres {
  /** The 'postgres' database of the superuser 'postgres' (trust authentication, loopback only). */
  url: string;
  port: number;
  directory: string;
  /** Stops the server (fast shutdown) and removes its directory. */
  stop(): void;
}

/**
 * A PostgreSQL server binary (initdb, pg_ctl, postgres) in Debian's versioned folders
 * (/usr/lib/postgresql/VERSION/bin), the newest version first; undefined when none is installed.
 */
export function findPostgresBin(name: string): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const candidate = path.join(root, version, 'bin', name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** A TCP port free on 127.0.0.1 now, chosen by the kernel. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once the postmaster of `data` reports itself ready in its pid file. */
async function postmasterReady(data: string, exited: () => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited()) throw new Error(`postgres exited before it was ready (see ${path.dirname(data)}/server.log)`);
    try {
      // The eighth line of postmaster.pid is its status: 'starting', 'ready' or 'stopping'.
      if (fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[7]?.trim() === 'ready') return;
    } catch {
      // not written yet
    }
    if (Date.now() > deadline) throw new Error(`postgres was not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startTemporaryPostgres(
  options: {
    maxConnections?: number;
    settings?: Record<string, string>;
    /**
     * Run postgres as a child of this process, in its process group, instead of in a session of
     * its own (pg_ctl start): a kill of the whole group, SIGKILL included, then takes it along.
     */
    attached?: boolean;
  } = {},
): Promise<TemporaryPostgres> {
  const initdb = findPostgresBin('initdb');
  const pgCtl = findPostgresBin('pg_ctl');
  if (!initdb || !pgCtl) throw new Error("PostgreSQL is not installed: run 'apt-get install -y postgresql'");
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-pg-'));
  const data = path.join(directory, 'data');
  const asRoot = process.getuid?.() === 0;
  let child: ChildProcess | undefined;
  const runAs = (command: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' })
      : execFileSync(command, args, { stdio: 'pipe' });
  try {
    if (asRoot) execFileSync('chown', ['postgres:postgres', directory]);
    const port = await freeLoopbackPort();
    runAs(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    // fsync stays on: an acknowledged answer must survive a crash, in tests and in the bench alike.
    const settings = {
      listen_addresses: '127.0.0.1',
      fsync: 'on',
      max_connections: String(options.maxConnections ?? 200),
      ...options.settings,
    };
    const serverArgs = [
      ...['-p', String(port), '-k', directory],
      ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    ];
    if (options.attached) {
      const postgres = findPostgresBin('postgres');
      if (!postgres) throw new Error("PostgreSQL is not installed: run 'apt-get install -y postgresql'");
      const args = ['-D', data, ...serverArgs];
      const log = fs.openSync(path.join(directory, 'server.log'), 'a');
      child = asRoot
        ? spawn('runuser', ['-u', 'postgres', '--', postgres, ...args], { stdio: ['ignore', log, log] })
        : spawn(postgres, args, { stdio: ['ignore', log, log] });
      fs.closeSync(log);
      const started = child;
      await postmasterReady(data, () => started.exitCode !== null || started.signalCode !== null);
    } else
      runAs(pgCtl, ['-D', data, '-l', path.join(directory, 'server.log'), '-w', '-o', serverArgs.join(' '), 'start']);
    let stopped = false;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      directory,
      stop() {
        if (stopped) return;
        stopped = true;
        try {
          runAs(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']);
        } catch (error) {
          // An attached postgres may have been stopped already by a signal to its group.
          if (fs.existsSync(path.join(data, 'postmaster.pid'))) throw error;
        } finally {
          fs.rmSync(directory, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    child?.kill('SIGKILL');
    fs.rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}
