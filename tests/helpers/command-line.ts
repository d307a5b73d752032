// The real command line (bin/galaxy-cruise.mjs) run as a child process, for the server tests that
// check what it prints and its exit status.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, '..', '..', 'bin', 'galaxy-cruise.mjs');

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `galaxy-cruise …args` with `env` as its whole environment: its exit status and output, never a throw. */
export async function galaxyCruise(env: NodeJS.ProcessEnv, ...args: string[]): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CommandResult;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
