// `galaxy-cruise bench [suite…] [options]`: the in-process suites time the wasm core beside its
// JavaScript and native peers; `load` plays volunteers against a running server; `startup` times
// whole processes (the command line and the server from their start); `client` loads the login
// screen in Chromium beside a bare Vite React page; `globe` flies a scripted cruise on our globe
// beside Aladin Lite; `cruise` plays a volunteer on the main screen under CPU throttling, or with
// --second-visit times a volunteer's first and second visit on a slow line; `import`
// times `galaxy-cruise import` of a target list and reads its peak memory.
import os from 'node:os';
import type { LoadDatabase, LoadSky } from '../../bench/load';
import { formatTable, runCase, type BenchCase, type Measurement } from '../../bench/harness';
import { UsageError, parseOptions, type Command } from '../command';

/** 'none' is the load suite's peer: the same calls answered from memory, no database. */
const LOAD_DATABASES: readonly LoadDatabase[] = ['none', 'pglite', 'postgres'];
/** The suites that start the real server run it on either database. */
const SERVER_DATABASES = ['pglite', 'postgres'] as const;

/** The suites that start processes or browsers of their own, rather than timing code in this one. */
const OUT_OF_PROCESS = ['load', 'startup', 'season', 'science', 'client', 'globe', 'cruise', 'import'] as const;

const SUITES = [
  'crc32',
  'inflate',
  'fits',
  'healpix',
  'shiftmap',
  'load',
  'startup',
  'season',
  'science',
  'client',
  'globe',
  'cruise',
  'import',
] as const;
type Suite = (typeof SUITES)[number];

export const benchCommand: Command = {
  usage: [
    `galaxy-cruise bench [${SUITES.join('|')}|all]... [--json]`,
    '  load:    [--seconds N] [--volunteers N] [--databases none,pglite,postgres] [--rate N] [--modes closed,paced]',
    '           [--sky small|default] [--warmup S] [--history N] [--profile DIR] [--statements] [--science on,off]',
    '  startup: [--runs N]',
    '  client:  [--runs N] [--throttle N]',
    '  globe:   [--runs N] [--seconds N] [--throttle N]',
    '  cruise:  [--runs N] [--answers N] [--throttle N] [--second-visit [--client-dist DIR] [--peer-dist DIR]]',
    '  season:  [--answers N] [--season-volunteers N] [--small] [--requests N] [--databases pglite,postgres]',
    '  science: [--targets N,N] [--votes N,N] [--crowd N,N] [--post-seconds N] [--retirement-targets N] [--voyage-targets N]',
    '           [--export-rows N] [--databases pglite,postgres]',
    '  import:  [--import-targets N] [--import-fits-mib N] [--import-workers N,N] [--import-call-requests N]',
    '           [--databases pglite,postgres]',
  ].join('\n'),
  async run(args) {
    const {
      suites,
      json,
      loadArgs,
      startupArgs,
      seasonArgs,
      scienceArgs,
      clientArgs,
      globeArgs,
      cruiseArgs,
      importArgs,
    } = parseBenchArgs(args);
    const wanted = (suite: Suite) => suites.length === 0 || suites.includes('all') || suites.includes(suite);
    const cases: BenchCase[] = [];
    // Each suite's module is loaded only when it runs: the peers (fflate, pako, fitsjs) are
    // development dependencies, and the load and start-up suites start processes of their own.
    const inProcess = SUITES.filter((suite) => !(OUT_OF_PROCESS as readonly string[]).includes(suite) && wanted(suite));
    if (inProcess.length > 0) {
      const core = await (await import('../../core/wasm')).loadCore();
      if (wanted('crc32')) cases.push(...(await import('../../bench/crc32')).crc32Cases(core));
      if (wanted('inflate')) cases.push(...(await import('../../bench/inflate')).inflateCases(core));
      if (wanted('fits')) cases.push(...(await import('../../bench/fits')).fitsCases(core));
      if (wanted('healpix')) cases.push(...(await import('../../bench/healpix')).healpixCases(core));
      if (wanted('shiftmap')) cases.push(...(await import('../../bench/shiftmap')).shiftmapCases(core));
    }
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const rows: Measurement[] = [];
    for (const bench of cases) {
      if (!json) log(`bench ${bench.suite}: ${bench.input}`);
      rows.push(...runCase(bench));
    }
    const loadRows = wanted('load') ? await (await import('../../bench/load')).runLoad({ ...loadArgs, log }) : [];
    const startup = wanted('startup') ? await import('../../bench/startup') : undefined;
    const startupRows = startup ? await startup.runStartup({ ...startupArgs, log }) : [];
    const season = wanted('season') ? await import('../../bench/season') : undefined;
    const seasonRows = season ? await season.runSeason({ ...seasonArgs, log }) : [];
    const science = wanted('science') ? await import('../../bench/science') : undefined;
    const scienceRows = science ? await science.runScience({ ...scienceArgs, log }) : [];
    const client = wanted('client') ? await import('../../bench/client') : undefined;
    const clientRows = client ? await client.runClient({ ...clientArgs, log }) : [];
    const globe = wanted('globe') ? await import('../../bench/globe') : undefined;
    const globeRows = globe ? await globe.runGlobe({ ...globeArgs, log }) : [];
    const cruise = wanted('cruise') && !cruiseArgs.secondVisit ? await import('../../bench/cruise') : undefined;
    const cruiseRows = cruise ? await cruise.runCruise({ ...cruiseArgs, log }) : [];
    const revisit = wanted('cruise') && cruiseArgs.secondVisit ? await import('../../bench/cruise-revisit') : undefined;
    const revisitRows = revisit ? await revisit.runSecondVisit({ ...cruiseArgs, log }) : [];
    const importBench = wanted('import') ? await import('../../bench/import') : undefined;
    const importRows = importBench ? await importBench.runImportBench({ ...importArgs, log }) : [];
    if (json)
      process.stdout.write(
        `${JSON.stringify([...rows, ...loadRows, ...startupRows, ...seasonRows, ...scienceRows, ...clientRows, ...globeRows, ...cruiseRows, ...revisitRows, ...importRows], null, 2)}\n`,
      );
    else {
      if (rows.length > 0) process.stdout.write(`${formatTable(rows)}\n`);
      if (loadRows.length > 0)
        process.stdout.write(`${(await import('../../bench/load-table')).formatLoadTable(loadRows)}\n`);
      if (startup) process.stdout.write(`${startup.formatStartupTable(startupRows)}\n`);
      if (season) process.stdout.write(`${season.formatSeasonTable(seasonRows)}\n`);
      if (science) process.stdout.write(`${science.formatScienceTable(scienceRows)}\n`);
      if (client) process.stdout.write(`${client.formatClientTable(clientRows)}\n`);
      if (globe) process.stdout.write(`${globe.formatGlobeTable(globeRows)}\n`);
      if (cruise) process.stdout.write(`${(await import('../../bench/cruise-table')).formatCruiseTable(cruiseRows)}\n`);
      if (revisit) process.stdout.write(`${revisit.formatSecondVisitTable(revisitRows)}\n`);
      if (importBench) process.stdout.write(`${importBench.formatImportTable(importRows)}\n`);
    }
    return 0;
  },
};

/** The suites asked for, --json, and the options of the load and start-up suites. */
export function parseBenchArgs(args: string[]) {
  const { values, positionals } = parseOptions(args, {
    json: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    warmup: { type: 'string' },
    history: { type: 'string' },
    volunteers: { type: 'string' },
    profile: { type: 'string' },
    statements: { type: 'boolean', default: false },
    sky: { type: 'string' },
    rate: { type: 'string' },
    modes: { type: 'string' },
    databases: { type: 'string' },
    runs: { type: 'string' },
    answers: { type: 'string' },
    'season-volunteers': { type: 'string' },
    small: { type: 'boolean', default: false },
    requests: { type: 'string' },
    throttle: { type: 'string' },
    targets: { type: 'string' },
    votes: { type: 'string' },
    crowd: { type: 'string' },
    'retirement-targets': { type: 'string' },
    'voyage-targets': { type: 'string' },
    'export-rows': { type: 'string' },
    'post-seconds': { type: 'string' },
    science: { type: 'string' },
    'import-targets': { type: 'string' },
    'import-fits-mib': { type: 'string' },
    'import-workers': { type: 'string' },
    'import-call-requests': { type: 'string' },
    'second-visit': { type: 'boolean', default: false },
    'client-dist': { type: 'string' },
    'peer-dist': { type: 'string' },
  });
  for (const name of positionals)
    if (name !== 'all' && !(SUITES as readonly string[]).includes(name))
      throw new UsageError(`unknown suite '${name}': ${SUITES.join(', ')}, all`);

  /** A whole number of at least `minimum`, or a usage error that says what `option` needs. */
  const wholeNumber = (option: string, text: string, minimum: number, needed: string) => {
    const number = Number(text);
    if (text.trim() === '' || !Number.isInteger(number) || number < minimum)
      throw new UsageError(`--${option} needs ${needed}`);
    return number;
  };
  const count = (option: string, text: string) => wholeNumber(option, text, 1, 'a positive whole number');
  /** --databases for `suite`: a list of the kinds it runs on, or a usage error naming them. */
  const databasesOption = <Kind extends string>(suite: string, kinds: readonly Kind[]): Kind[] => {
    const databases = (values.databases ?? '').split(',');
    for (const database of databases)
      if (!(kinds as readonly string[]).includes(database))
        throw new UsageError(`unknown database '${database}' for the ${suite} suite: ${kinds.join(', ')}`);
    return databases as Kind[];
  };

  const loadArgs = {
    databases: [...LOAD_DATABASES],
    // The game itself: with the warm-up, the small sky's volunteers finish it before the window.
    sky: 'default' as LoadSky,
    volunteers: 200,
    seconds: 15,
    // Long enough for the first second after a start (JIT, sessions, plans) to pass; shown apart.
    warmupSeconds: 2,
    // A season behind the run: 500 volunteers who finished the course, so that the tables are
    // not those of a fresh install.
    history: 500,
    // The target rates: each database is also offered its own, and the peer without a database
    // the highest of them.
    paced: { none: 2000, pglite: 500, postgres: 2000 } as Partial<Record<LoadDatabase, number>>,
    closedLoop: true,
    profileDirectory: values.profile,
    statements: values.statements,
    science: ['on'] as ('on' | 'off')[],
  };
  // --science on,off: every run with the server's background science and again without it.
  if (values.science !== undefined) {
    const modes = values.science.split(',');
    for (const mode of modes)
      if (mode !== 'on' && mode !== 'off') throw new UsageError(`unknown science '${mode}': on, off`);
    loadArgs.science = modes as ('on' | 'off')[];
  }
  if (values.seconds !== undefined) loadArgs.seconds = count('seconds', values.seconds);
  if (values.warmup !== undefined)
    loadArgs.warmupSeconds = wholeNumber('warmup', values.warmup, 0, 'a whole number of seconds');
  if (values.history !== undefined)
    loadArgs.history = wholeNumber('history', values.history, 0, 'a whole number of past volunteers');
  if (values.volunteers !== undefined) loadArgs.volunteers = count('volunteers', values.volunteers);
  // The small test sky instead of the one `npm start` serves: re-posts once it is exhausted.
  if (values.sky !== undefined) {
    if (values.sky !== 'small' && values.sky !== 'default')
      throw new UsageError(`unknown sky '${values.sky}': small, default`);
    loadArgs.sky = values.sky;
  }
  // The paced runs at another offered rate (answers/s), e.g. the highest one that keeps p99 low.
  if (values.rate !== undefined) {
    const rate = count('rate', values.rate);
    loadArgs.paced = { none: rate, pglite: rate, postgres: rate };
  }
  // One mode alone, e.g. the paced run while trying a change that should lower its p99; applied
  // after --rate, so that --rate cannot bring back the paced runs that --modes left out.
  if (values.modes !== undefined) {
    const modes = values.modes.split(',');
    for (const mode of modes)
      if (mode !== 'closed' && mode !== 'paced') throw new UsageError(`unknown mode '${mode}': closed, paced`);
    loadArgs.closedLoop = modes.includes('closed');
    if (!modes.includes('paced')) loadArgs.paced = {};
  }
  // The load suite takes --databases whichever suites are named (none named: every suite).
  if (values.databases !== undefined) loadArgs.databases = databasesOption('load', LOAD_DATABASES);
  // Whole processes are noisy on a shared machine: several interleaved runs, min and median.
  const startupArgs = { runs: values.runs === undefined ? 5 : count('runs', values.runs) };
  // A season's volume: 2 million answers from 20,000 volunteers (--small: 20,000 from 200, for
  // tests), beside a thousandth of it; --databases picks among pglite and postgres.
  const seasonArgs = {
    databases: [...SERVER_DATABASES],
    answers: values.small ? 20_000 : 2_000_000,
    volunteers: values.small ? 200 : 20_000,
    requests: values.small ? 20 : 200,
  };
  if (values.answers !== undefined) seasonArgs.answers = count('answers', values.answers);
  if (values['season-volunteers'] !== undefined)
    seasonArgs.volunteers = count('season-volunteers', values['season-volunteers']);
  if (values.requests !== undefined) seasonArgs.requests = count('requests', values.requests);
  if (values.databases !== undefined && positionals.includes('season'))
    seasonArgs.databases = databasesOption('season', SERVER_DATABASES);
  // The science at a project's scale and at Galaxy Zoo DECaLS's (Walmsley et al. 2022: 7.5
  // million classifications of 314,000 galaxies): 100,000 targets with 10 votes each (1 million
  // answers) from 1,000 simulated volunteers, and 312,500 with 24 (7.5 million) from 20,000; or
  // the scales given as lists (--targets 500,2000 --votes 3,5 --crowd 50,50). Retirement's rules
  // on crowds of 4,000 targets (12 campaigns: a few minutes); exports of 1 million rows.
  const scaleList = (option: 'targets' | 'votes' | 'crowd', fallback: number[]) => {
    const text = values[option];
    return text === undefined ? fallback : text.split(',').map((entry) => count(option, entry));
  };
  const targets = scaleList('targets', [100_000, 312_500]);
  const votes = scaleList('votes', [10, 24]);
  const crowds = scaleList('crowd', [1000, 20_000]);
  const scales = targets.map((scaleTargets, index) => ({
    targets: scaleTargets,
    votes: votes[Math.min(index, votes.length - 1)]!,
    volunteers: crowds[Math.min(index, crowds.length - 1)]!,
  }));
  for (const scale of scales)
    if (scale.votes > scale.volunteers)
      throw new UsageError(`--votes ${scale.votes} needs at least as many volunteers (--crowd)`);
  const scienceArgs = {
    databases: [...SERVER_DATABASES],
    scales,
    postSeconds:
      values['post-seconds'] === undefined
        ? 15
        : wholeNumber('post-seconds', values['post-seconds'], 0, 'a whole number of seconds'),
    retirementTargets:
      values['retirement-targets'] === undefined
        ? 4_000
        : wholeNumber('retirement-targets', values['retirement-targets'], 0, 'a whole number of targets'),
    voyageTargets:
      values['voyage-targets'] === undefined
        ? 96
        : wholeNumber('voyage-targets', values['voyage-targets'], 0, 'a whole number of targets'),
    exportRows:
      values['export-rows'] === undefined
        ? 1_000_000
        : wholeNumber('export-rows', values['export-rows'], 0, 'a whole number of rows'),
  };
  if (values.databases !== undefined && positionals.includes('science'))
    scienceArgs.databases = databasesOption('science', SERVER_DATABASES);
  // Three interleaved cold loads each by default (a page load under 4× throttling takes seconds),
  // and the CPU slow-down of Chrome DevTools' Emulation.setCPUThrottlingRate.
  const clientArgs = {
    runs: values.runs === undefined ? 3 : count('runs', values.runs),
    throttle: values.throttle === undefined ? 4 : count('throttle', values.throttle),
  };
  // The globe: three interleaved runs each of a 20-second cruise, the CPU not slowed down (the
  // frame times are SwiftShader's already); --seconds shortens the cruise for a quick check.
  const globeArgs = {
    runs: values.runs === undefined ? 3 : count('runs', values.runs),
    seconds: values.seconds === undefined ? 20 : count('seconds', values.seconds),
    throttle: values.throttle === undefined ? 1 : count('throttle', values.throttle),
  };
  // The cruise: a low-end laptop (4× throttling), three interleaved logins beside Aladin Lite's
  // first view, then 200 answers; --answers gives fewer for a quick check. --second-visit: the
  // first and the second visit instead, on a slow line; --client-dist serves another build,
  // --peer-dist times another build beside it.
  const cruiseArgs = {
    runs: values.runs === undefined ? 3 : count('runs', values.runs),
    answers: values.answers === undefined ? 200 : count('answers', values.answers),
    throttle: values.throttle === undefined ? 4 : count('throttle', values.throttle),
    secondVisit: values['second-visit'],
    clientDist: values['client-dist'],
    peerDist: values['peer-dist'],
  };
  for (const option of ['client-dist', 'peer-dist'] as const)
    if (values[option] !== undefined && !cruiseArgs.secondVisit)
      throw new UsageError(`--${option} is an option of cruise --second-visit`);
  // The import: lists of 10,000 and 100,000 targets (the per-10,000 figure and its
  // 100,000-row list), or --import-targets N alone; and FITS imagery of 32 MiB made into a HiPS
  // (--import-fits-mib N, 0 for none) on every core, or on each count of --import-workers N,N; and
  // each call a volunteer makes, on the largest list's course against season2's (100 requests
  // each, --import-call-requests N, 0 for none).
  const importArgs = {
    databases: [...SERVER_DATABASES],
    sizes:
      values['import-targets'] === undefined ? [10_000, 100_000] : [count('import-targets', values['import-targets'])],
    fitsMiB:
      values['import-fits-mib'] === undefined
        ? 32
        : wholeNumber('import-fits-mib', values['import-fits-mib'], 0, 'a whole number'),
    fitsWorkers:
      values['import-workers'] === undefined
        ? [os.availableParallelism()]
        : values['import-workers'].split(',').map((text) => count('import-workers', text)),
    callRequests:
      values['import-call-requests'] === undefined
        ? 100
        : wholeNumber('import-call-requests', values['import-call-requests'], 0, 'a whole number'),
  };
  if (values.databases !== undefined && positionals.includes('import'))
    importArgs.databases = databasesOption('import', SERVER_DATABASES);
  return {
    suites: positionals,
    json: values.json,
    loadArgs,
    startupArgs,
    seasonArgs,
    scienceArgs,
    clientArgs,
    globeArgs,
    cruiseArgs,
    importArgs,
  };
}
