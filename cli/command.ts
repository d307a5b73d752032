// The shape every sub-command shares, and the one way its arguments are read: node:util's
// parseArgs in strict mode, with its errors reworded as this command line's usage errors.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A sub-command's module: its usage text and a runner that returns the process exit code. */
export interface Command {
  usage: string;
  run(args: string[]): Promise<number>;
}

/**
 * A sub-command as `galaxy-cruise --help` lists it. The module is imported only when the
 * command runs (or its own --help is asked for), so that listing the commands loads none of them.
 */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

/** Thrown for bad arguments: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * parseArgs (strict: an unknown option, a missing value or a value given to a flag is an error)
 * with positionals allowed; the caller checks how many it takes. Errors become UsageError.
 */
export function parseOptions<const T extends Options>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(error, options);
  }
}

function usageError(error: unknown, options: Options): unknown {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  // parseArgs names the option as it was declared, e.g. "'-o, --output <value>'": the long name.
  const option = /'(?:-\w, )?(--?[\w-]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const known = Object.entries(options).map(([name, { short }]) => (short ? `-${short}/--${name}` : `--${name}`));
    return new UsageError(
      `unknown option '${option}' (${known.length ? `options: ${known.join(', ')}` : 'it takes none'})`,
    );
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (message.includes('does not take an argument')) return new UsageError(`${option} takes no value`);
    // A value that starts with '-' reads as the next option unless it is joined with '='.
    if (message.includes('ambiguous'))
      return new UsageError(`${option} needs a value (one starting with '-' is written ${option}=-…)`);
    return new UsageError(`${option} needs a value`);
  }
  return error;
}

/** Refuses more than `count` positionals, naming the first one too many. */
export function atMostPositionals(values: string[], count: number): string[] {
  if (values.length > count) throw new UsageError(`unexpected argument '${values[count]}'`);
  return values;
}
