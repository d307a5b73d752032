// Dispatches `galaxy-cruise <sub-command>`. Sub-commands live in cli/commands/, one file each.
import { UsageError, type Command } from './command';
import { adminCommand } from './commands/admin';
import { benchCommand } from './commands/bench';
import { crc32Command } from './commands/crc32';
import { dataCommand } from './commands/data';
import { fitsCommand } from './commands/fits';
import { healpixCommand } from './commands/healpix';
import { inflateCommand } from './commands/inflate';
import { serveCommand } from './commands/serve';

const commands: Command[] = [
  serveCommand,
  dataCommand,
  crc32Command,
  inflateCommand,
  fitsCommand,
  healpixCommand,
  benchCommand,
  adminCommand,
];

function help(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'Usage: galaxy-cruise <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    "Run 'galaxy-cruise <command> --help' for a command's usage.",
    '',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help());
    return name ? 0 : 2;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    process.stderr.write(`galaxy-cruise: unknown command '${name}'\n\n${help()}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`Usage: ${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`galaxy-cruise ${name}: ${error.message}\nUsage: ${command.usage}\n`);
      return 2;
    }
    process.stderr.write(`galaxy-cruise ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
