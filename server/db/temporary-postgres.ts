// A throw-away PostgreSQL server on 127.0.0.1 under a temporary data directory, for the server
// tests (tests/helpers/postgres-global.ts) and the load bench (cli/bench/): one home that both may
// import, and the production server never does. pg_ctl stops it through the pid file of its data
// directory, so only the server started here is stopped. initdb refuses to run as root, so as
// root the cluster is run by Debian's 'postgres' user.
import { execFileSync } from 'node:child_process';
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

export async function startTemporaryPostgres(
  options: { maxConnections?: number; settings?: Record<string, string> } = {},
): Promise<TemporaryPostgres> {
  const initdb = findPostgresBin('initdb');
  const pgCtl = findPostgresBin('pg_ctl');
  if (!initdb || !pgCtl) throw new Error("PostgreSQL is not installed: run 'apt-get install -y postgresql'");
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-pg-'));
  const data = path.join(directory, 'data');
  const asRoot = process.getuid?.() === 0;
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
    const serverOptions = [
      `-p ${port}`,
      `-k ${directory}`,
      ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`),
    ];
    runAs(pgCtl, ['-D', data, '-l', path.join(directory, 'server.log'), '-w', '-o', serverOptions.join(' '), 'start']);
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
        } finally {
          fs.rmSync(directory, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    fs.rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}
