// Dispatches `galaxy-cruise <sub-command>`. Sub-commands live in cli/commands/, one file each,
// imported only when they run: `galaxy-cruise --help` loads this file and nothing else of ours.
import { UsageError, type CommandEntry } from './command';

const commands: CommandEntry[] = [
  {
    name: 'serve',
    summary: 'serve the application, the API and the sky data (PORT, DATABASE_URL, DATA_HOST)',
    load: async () => (await import('./commands/serve')).serveCommand,
  },
  {
    name: 'data',
    summary:
      'build the sky data repository under $VAR_DIR/sky (--if-stale skips an up-to-date one; --small builds the small test sky, also when GALAXY_CRUISE_SKY=small)',
    load: async () => (await import('./commands/data')).dataCommand,
  },
  {
    name: 'crc32',
    summary: 'print the CRC-32 (gzip/zlib) of files, computed by the wasm core',
    load: async () => (await import('./commands/crc32')).crc32Command,
  },
  {
    name: 'inflate',
    summary: 'decompress a gzip file with the wasm inflater',
    load: async () => (await import('./commands/inflate')).inflateCommand,
  },
  {
    name: 'fits',
    summary: 'decode a FITS image with the wasm core and print its header values and statistics',
    load: async () => (await import('./commands/fits')).fitsCommand,
  },
  {
    name: 'healpix',
    summary: 'HEALPix ang2pix, pix2ang, nest2ring, ring2nest and query_disc on JSON from stdin',
    load: async () => (await import('./commands/healpix')).healpixCommand,
  },
  {
    name: 'bench',
    summary:
      "time the wasm core beside its peers, the server under load and whole-process start-up ('bench --help' lists the suites)",
    load: async () => (await import('./commands/bench')).benchCommand,
  },
  {
    name: 'export',
    summary: "a course's consensus catalogue as CSV, FITS or VOTable (--course C --format F [-o FILE])",
    load: async () => (await import('./commands/export')).exportCommand,
  },
  {
    name: 'science',
    summary: "re-estimate the volunteers' reliability now, or set a course's retirement rule",
    load: async () => (await import('./commands/science')).scienceCommand,
  },
  {
    name: 'import',
    summary: "import a research group's course from its manifest (targets, HiPS, retirement), or --open/--close one",
    load: async () => (await import('./commands/import')).importCommand,
  },
  {
    name: 'admin',
    summary: 'grant or revoke the admin role, or list administrators (DATABASE_URL or VAR_DIR/db)',
    load: async () => (await import('./commands/admin')).adminCommand,
  },
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
  const entry = commands.find((candidate) => candidate.name === name);
  if (!entry) {
    process.stderr.write(`galaxy-cruise: unknown command '${name}'\n\n${help()}`);
    return 2;
  }
  const command = await entry.load();
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
