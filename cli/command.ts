// The shape every sub-command shares: a name, a one-line summary, usage text and a runner
// that returns the process exit code.
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[]): Promise<number>;
}

/** Thrown for bad arguments: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}
