// Vitest global set-up: a real PostgreSQL server for the server tests, on 127.0.0.1 under a
// temporary data directory, stopped (pg_ctl, by its pid file) and removed after the run.
// initdb refuses to run as root, so as root the cluster is run by Debian's 'postgres' user.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './serve';
// @ts-expect-error plain ES module shared with scripts/test.mjs
import { findPostgresBin } from '../../scripts/system.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const initdb = findPostgresBin('initdb') as string | undefined;
  const pgCtl = findPostgresBin('pg_ctl') as string | undefined;
  if (!initdb || !pgCtl) throw new Error("PostgreSQL is not installed: run 'apt-get install -y postgresql'");
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-pg-'));
  const data = path.join(directory, 'data');
  const asRoot = process.getuid?.() === 0;
  const runAs = (command: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' })
      : execFileSync(command, args, { stdio: 'pipe' });
  if (asRoot) execFileSync('chown', ['postgres:postgres', directory]);
  const port = await freePort();
  runAs(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  runAs(pgCtl, [
    '-D',
    data,
    '-l',
    path.join(directory, 'server.log'),
    '-w',
    '-o',
    `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200`,
    'start',
  ]);
  project.provide('postgresUrl', `postgres://postgres@127.0.0.1:${port}/postgres`);
  return () => {
    try {
      runAs(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  };
}
