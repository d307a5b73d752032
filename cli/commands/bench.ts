import { crc32Cases } from '../bench/crc32';
import type { LoadDatabase, LoadSky } from '../bench/load';
import { formatTable, runCase, type BenchCase, type Measurement } from '../bench/harness';
import { loadCore } from '../../src/core/wasm';
import { UsageError, type Command } from '../command';

/** 'none' is the load suite's peer: the same calls answered from memory, no database. */
const LOAD_DATABASES: readonly LoadDatabase[] = ['none', 'pglite', 'postgres'];

const SUITES = ['crc32', 'inflate', 'fits', 'healpix', 'shiftmap', 'load'] as const;
type Suite = (typeof SUITES)[number];

export const benchCommand: Command = {
  name: 'bench',
  summary: `time the wasm core beside its JavaScript and native peers (${SUITES.join(', ')}, all)`,
  usage: `galaxy-cruise bench [${SUITES.join('|')}|all] [--json] [--seconds N] [--volunteers N] [--databases none,pglite,postgres] [--rate N] [--modes closed,paced] [--sky small|default] [--warmup S] [--history N] [--profile DIR] [--statements]`,
  async run(args) {
    const json = args.includes('--json');
    const { loadArgs, rest } = splitLoadArgs(args);
    const names = rest.filter((arg) => arg !== '--json');
    for (const name of names) {
      if (name !== 'all' && !SUITES.includes(name as Suite)) throw new UsageError(`unknown suite '${name}'`);
    }
    const wanted = (suite: Suite) => names.length === 0 || names.includes('all') || names.includes(suite);
    const core = await loadCore();
    const cases: BenchCase[] = [];
    if (wanted('crc32')) cases.push(...crc32Cases(core));
    // Loaded on demand: their peers (fflate, pako, fitsjs) are development dependencies.
    if (wanted('inflate')) cases.push(...(await import('../bench/inflate')).inflateCases(core));
    if (wanted('fits')) cases.push(...(await import('../bench/fits')).fitsCases(core));
    if (wanted('healpix')) cases.push(...(await import('../bench/healpix')).healpixCases(core));
    if (wanted('shiftmap')) cases.push(...(await import('../bench/shiftmap')).shiftmapCases(core));
    const rows: Measurement[] = [];
    for (const bench of cases) {
      if (!json) process.stderr.write(`bench ${bench.suite}: ${bench.input}\n`);
      rows.push(...runCase(bench));
    }
    // The load run starts server processes (and a PostgreSQL): loaded on demand like the peers.
    const loadRows = wanted('load')
      ? await (await import('../bench/load')).runLoad({ ...loadArgs, log: (line) => process.stderr.write(`${line}\n`) })
      : [];
    if (json) process.stdout.write(`${JSON.stringify([...rows, ...loadRows], null, 2)}\n`);
    else {
      if (rows.length > 0) process.stdout.write(`${formatTable(rows)}\n`);
      if (loadRows.length > 0) process.stdout.write(`${(await import('../bench/load-table')).formatLoadTable(loadRows)}\n`);
    }
    return 0;
  },
};

/** --seconds, --warmup, --history, --volunteers, --databases, --rate, --modes, --sky, --profile and --statements of the load suite; the rest is left. */
export function splitLoadArgs(args: string[]) {
  const loadArgs = {
    databases: [...LOAD_DATABASES],
    // The game itself: with the warm-up, the small sky's volunteers finish it before the window.
    sky: 'default' as LoadSky,
    volunteers: 200,
    seconds: 15,
    // Long enough for the first second after a start (JIT, sessions, plans) to pass; shown apart.
    warmupSeconds: 2,
    // A season behind the run: 500 volunteers who finished the course (27 000 quests and 220 000
    // answers on the default sky), so that the tables are not those of a fresh install.
    history: 500,
    // The targets: each database is also offered its target rate, and the peer without
    // a database the highest of them.
    paced: { none: 2000, pglite: 500, postgres: 2000 } as Partial<Record<LoadDatabase, number>>,
    closedLoop: true,
    profileDirectory: undefined as string | undefined,
    statements: false,
  };
  const rest: string[] = [];
  // Applied after the loop, so that --rate cannot bring back the paced runs --modes left out.
  let pacedRuns = true;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    const value = () => {
      const next = args[++index];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    /** A whole number of at least `minimum`; `needed` words the usage error. */
    const wholeNumber = (text: string, minimum: number, needed: string) => {
      const number = Number(text);
      if (!Number.isInteger(number) || number < minimum) throw new UsageError(`${arg} needs ${needed}`);
      return number;
    };
    const count = (text: string) => wholeNumber(text, 1, 'a positive whole number');
    if (arg === '--seconds') loadArgs.seconds = count(value());
    else if (arg === '--warmup') loadArgs.warmupSeconds = wholeNumber(value(), 0, 'a whole number of seconds');
    else if (arg === '--history') loadArgs.history = wholeNumber(value(), 0, 'a whole number of past volunteers');
    else if (arg === '--volunteers') loadArgs.volunteers = count(value());
    else if (arg === '--profile') loadArgs.profileDirectory = value();
    else if (arg === '--statements') loadArgs.statements = true;
    // The small test sky instead of the one `npm start` serves: re-posts once it is exhausted.
    else if (arg === '--sky') {
      const sky = value();
      if (sky !== 'small' && sky !== 'default') throw new UsageError(`unknown sky '${sky}': small, default`);
      loadArgs.sky = sky;
    }
    // The paced runs at another offered rate (answers/s), e.g. the highest one that keeps p99 low.
    else if (arg === '--rate') {
      const rate = count(value());
      loadArgs.paced = { none: rate, pglite: rate, postgres: rate };
    }
    // One mode alone, e.g. the paced run while trying a change that should lower its p99.
    else if (arg === '--modes') {
      const modes = value().split(',');
      for (const mode of modes)
        if (mode !== 'closed' && mode !== 'paced') throw new UsageError(`unknown mode '${mode}': closed, paced`);
      loadArgs.closedLoop = modes.includes('closed');
      pacedRuns = modes.includes('paced');
    } else if (arg === '--databases') {
      const databases = value().split(',');
      for (const database of databases)
        if (!(LOAD_DATABASES as readonly string[]).includes(database))
          throw new UsageError(`unknown database '${database}': ${LOAD_DATABASES.join(', ')}`);
      loadArgs.databases = databases as LoadDatabase[];
    } else rest.push(arg);
  }
  if (!pacedRuns) loadArgs.paced = {};
  return { loadArgs, rest };
}
