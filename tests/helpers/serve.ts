// Starts the real server (`galaxy-cruise serve`) as a child process on 127.0.0.1 and stops it
// by pid. Used by tests that need the process itself: start-up migrations, kills, restarts.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort } from '../../server/db/temporary-postgres';
import { smallSky } from './sky';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface RunningServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServer(env: Record<string, string>, timeoutMs = 120_000): Promise<RunningServer> {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, [path.join(root, 'bin', 'galaxy-cruise.mjs'), 'serve'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (chunk) => (log += chunk));
  child.stderr!.on('data', (chunk) => (log += chunk));
  // 'close' rather than 'exit': the output is then read to its end (the log's last lines).
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log}`);
    try {
      const response = await fetch(`${url}/api/session`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within ${timeoutMs} ms:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    output: () => log,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) process.kill(child.pid!, signal);
      return exited;
    },
  };
}

/**
 * A fresh VAR_DIR whose sky/ is the small sky, so that the server seeds the game from it at
 * start. The caller removes the folder (the sky itself is a link to the shared one).
 */
export async function varDirectoryWithSmallSky(): Promise<string> {
  const { varDirectory: sky } = await smallSky();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-serve-'));
  fs.symlinkSync(path.join(sky, 'sky'), path.join(directory, 'sky'));
  return directory;
}
