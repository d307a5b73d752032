// One process at a time on the embedded database (server/db/directory-lock.ts), with the real
// `galaxy-cruise` processes on PGlite under VAR_DIR/db: the command line refuses, in one line, a
// database the running server holds, and works once the server has stopped (which removes its
// lock); the server refuses to start on a database a command is using; a lock left by a process
// that is gone is taken over.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFileOf } from '../../server/db/directory-lock';
import { galaxyCruise } from '../helpers/command-line';
import { startServer, varDirectoryWithSmallSky } from '../helpers/serve';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('the embedded database is one process’s at a time', () => {
  let varDirectory: string;
  let env: NodeJS.ProcessEnv;
  const lockFile = () => lockFileOf(path.join(varDirectory, 'db'));

  const cli = (...args: string[]) => galaxyCruise(env, ...args);

  beforeAll(async () => {
    varDirectory = await varDirectoryWithSmallSky();
    env = { ...process.env, VAR_DIR: varDirectory, DATABASE_URL: '' };
  });
  afterAll(() => fs.rmSync(varDirectory, { recursive: true, force: true }));

  it('refuses the command line, in one line, while the server holds the database', async () => {
    const server = await startServer({ VAR_DIR: varDirectory });
    try {
      const held = JSON.parse(fs.readFileSync(lockFile(), 'utf8')) as { pid: number; holder: string };
      expect(held).toMatchObject({ pid: server.child.pid, holder: 'the server' });
      const refused = await cli('export', '--course', 'season2', '--format', 'csv');
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^galaxy-cruise export: the embedded database .*db is in use by the server \\(pid ${server.child.pid}, since .*\\); stop the server first`,
          ),
        ),
      ]);
      // Nothing of the export ran: the server still answers.
      expect((await fetch(`${server.url}/api/session`)).ok).toBe(true);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // The server's stop removed its lock: the command runs.
    expect(fs.existsSync(lockFile())).toBe(false);
    const exported = await cli('export', '--course', 'season2', '--format', 'csv');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('# %ECSV 1.0');
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('refuses to start the server on a database a command is using', async () => {
    const holder = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'tests', 'helpers', 'hold-database.ts')],
      {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        holder.stdout!.on('data', (chunk) => {
          out += chunk;
          if (out.includes('holding')) resolve();
        });
        holder.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
      });
      const refusal = await startServer({ VAR_DIR: varDirectory }).then(
        async (server) => {
          await server.stop();
          return '';
        },
        (error: Error) => error.message,
      );
      expect(refusal).toMatch(/server exited with 1/);
      expect(refusal).toMatch(
        new RegExp(
          `galaxy-cruise serve: the embedded database .*db is in use by galaxy-cruise import \\(pid ${holder.pid}, since .*\\); the server cannot start: wait until it has finished`,
        ),
      );
    } finally {
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGTERM');
      await exited;
    }
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('takes over a lock whose process is gone', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    fs.writeFileSync(
      lockFile(),
      JSON.stringify({ pid: gone.pid, holder: 'the server', since: new Date().toISOString(), started: null }),
    );
    const exported = await cli('export', '--course', 'season2', '--format', 'csv');
    expect(exported.code).toBe(0);
    expect(fs.existsSync(lockFile())).toBe(false);
  });
});
