// The bench's arguments (cli/commands/bench.ts): what `npm run bench -- load …` will run.
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../../cli/commands/bench';
import { UsageError } from '../../cli/command';

describe('the bench arguments', () => {
  it('runs both modes on every database at the target rates by default', () => {
    const { loadArgs, suites } = parseBenchArgs(['load']);
    expect(suites).toEqual(['load']);
    expect(loadArgs).toMatchObject({
      databases: ['none', 'pglite', 'postgres'],
      sky: 'default',
      volunteers: 200,
      seconds: 15,
      warmupSeconds: 2,
      history: 500,
      paced: { none: 2000, pglite: 500, postgres: 2000 },
      closedLoop: true,
      statements: false,
    });
  });

  it("runs the load with the server's science on, or on and off with --science", () => {
    expect(parseBenchArgs(['load']).loadArgs.science).toEqual(['on']);
    expect(parseBenchArgs(['load', '--science', 'on,off']).loadArgs.science).toEqual(['on', 'off']);
    expect(() => parseBenchArgs(['load', '--science', 'maybe'])).toThrow(
      new UsageError("unknown science 'maybe': on, off"),
    );
  });

  it("runs the science suite at a project's scale and at Galaxy Zoo DECaLS's unless told smaller", () => {
    expect(parseBenchArgs(['science']).scienceArgs).toMatchObject({
      databases: ['pglite', 'postgres'],
      scales: [
        { targets: 100_000, votes: 10, volunteers: 1000 },
        { targets: 312_500, votes: 24, volunteers: 20_000 },
      ],
      postSeconds: 15,
      retirementTargets: 4_000,
      voyageTargets: 96,
      exportRows: 1_000_000,
    });
    expect(parseBenchArgs(['science', '--voyage-targets', '0']).scienceArgs.voyageTargets).toBe(0);
    expect(
      parseBenchArgs([
        'science',
        '--targets',
        '500',
        '--votes',
        '5',
        '--crowd',
        '50',
        '--databases',
        'pglite',
        '--export-rows',
        '0',
      ]).scienceArgs,
    ).toMatchObject({ databases: ['pglite'], scales: [{ targets: 500, votes: 5, volunteers: 50 }], exportRows: 0 });
    expect(() => parseBenchArgs(['science', '--targets', '500', '--votes', '60', '--crowd', '50'])).toThrow(
      new UsageError('--votes 60 needs at least as many volunteers (--crowd)'),
    );
  });

  it('runs one mode alone with --modes, whatever --rate says before or after it', () => {
    expect(parseBenchArgs(['--modes', 'closed', '--rate', '100']).loadArgs).toMatchObject({
      paced: {},
      closedLoop: true,
    });
    expect(parseBenchArgs(['--rate', '100', '--modes', 'paced']).loadArgs).toMatchObject({
      paced: { none: 100, pglite: 100, postgres: 100 },
      closedLoop: false,
    });
    expect(parseBenchArgs(['--modes', 'paced,closed', '--statements']).loadArgs).toMatchObject({
      paced: { postgres: 2000 },
      closedLoop: true,
      statements: true,
    });
  });

  it('plays the small test sky with --sky small, the sky npm start serves with --sky default', () => {
    expect(parseBenchArgs(['load', '--sky', 'small']).loadArgs.sky).toBe('small');
    expect(parseBenchArgs(['load', '--sky', 'default']).loadArgs.sky).toBe('default');
    expect(() => parseBenchArgs(['--sky', 'large'])).toThrow(new UsageError("unknown sky 'large': small, default"));
    expect(() => parseBenchArgs(['--sky'])).toThrow(new UsageError('--sky needs a value'));
  });

  it('sets the warm-up before the window with --warmup, none with 0', () => {
    expect(parseBenchArgs(['--warmup', '5']).loadArgs.warmupSeconds).toBe(5);
    expect(parseBenchArgs(['--warmup', '0']).loadArgs.warmupSeconds).toBe(0);
    expect(() => parseBenchArgs(['--warmup=-1'])).toThrow(new UsageError('--warmup needs a whole number of seconds'));
    // A value starting with '-' reads as an option unless joined to its name with '='.
    expect(() => parseBenchArgs(['--warmup', '-1'])).toThrow(
      new UsageError("--warmup needs a value (one starting with '-' is written --warmup=-…)"),
    );
    expect(() => parseBenchArgs(['--warmup', 'soon'])).toThrow(UsageError);
    expect(() => parseBenchArgs(['--warmup', ''])).toThrow(new UsageError('--warmup needs a whole number of seconds'));
  });

  it('sets the past volunteers in the database with --history, none with 0', () => {
    expect(parseBenchArgs(['--history', '20']).loadArgs.history).toBe(20);
    expect(parseBenchArgs(['--history', '0']).loadArgs.history).toBe(0);
    expect(() => parseBenchArgs(['--history', '1.5'])).toThrow(
      new UsageError('--history needs a whole number of past volunteers'),
    );
  });

  it('refuses an unknown mode or database with a usage error', () => {
    expect(() => parseBenchArgs(['--modes', 'open'])).toThrow(new UsageError("unknown mode 'open': closed, paced"));
    expect(() => parseBenchArgs(['--databases', 'mysql'])).toThrow(UsageError);
    expect(() => parseBenchArgs(['--modes'])).toThrow(new UsageError('--modes needs a value'));
  });

  it('refuses an unknown option, an unknown suite and a value given to a flag', () => {
    expect(() => parseBenchArgs(['load', '--volunters', '5'])).toThrow(
      /^unknown option '--volunters' \(options: --json, /,
    );
    expect(() => parseBenchArgs(['lode'])).toThrow(
      new UsageError(
        "unknown suite 'lode': crc32, inflate, fits, healpix, shiftmap, load, startup, season, science, client, globe, cruise, import, all",
      ),
    );
    expect(() => parseBenchArgs(['--json=yes'])).toThrow(new UsageError('--json takes no value'));
  });

  it('reads the suites in any order with the options, and --json', () => {
    const { suites, json, loadArgs } = parseBenchArgs(['--seconds', '3', 'load', '--json', 'startup']);
    expect(suites).toEqual(['load', 'startup']);
    expect(json).toBe(true);
    expect(loadArgs.seconds).toBe(3);
    expect(parseBenchArgs([]).json).toBe(false);
  });

  it('runs each start-up contender --runs times, 5 by default', () => {
    expect(parseBenchArgs(['startup']).startupArgs.runs).toBe(5);
    expect(parseBenchArgs(['startup', '--runs', '3']).startupArgs.runs).toBe(3);
    expect(() => parseBenchArgs(['startup', '--runs', '0'])).toThrow(
      new UsageError('--runs needs a positive whole number'),
    );
  });

  it('loads the client 3 times each at 4× CPU throttling by default; --runs and --throttle change them', () => {
    expect(parseBenchArgs(['client']).clientArgs).toEqual({ runs: 3, throttle: 4 });
    expect(parseBenchArgs(['client', '--runs', '5', '--throttle', '1']).clientArgs).toEqual({ runs: 5, throttle: 1 });
    expect(() => parseBenchArgs(['client', '--throttle', '0'])).toThrow(
      new UsageError('--throttle needs a positive whole number'),
    );
    expect(() => parseBenchArgs(['client', '--throttle', '2.5'])).toThrow(UsageError);
  });

  it('flies the globe 3 times each for 20 seconds, the CPU not slowed down; --runs, --seconds and --throttle change them', () => {
    expect(parseBenchArgs(['globe']).globeArgs).toEqual({ runs: 3, seconds: 20, throttle: 1 });
    expect(parseBenchArgs(['globe', '--runs', '1', '--seconds', '5', '--throttle', '4']).globeArgs).toEqual({
      runs: 1,
      seconds: 5,
      throttle: 4,
    });
    expect(() => parseBenchArgs(['globe', '--seconds', '0'])).toThrow(
      new UsageError('--seconds needs a positive whole number'),
    );
  });

  it('plays the cruise with 3 logins and 200 answers at 4× CPU throttling; --runs, --answers and --throttle change them', () => {
    expect(parseBenchArgs(['cruise']).cruiseArgs).toEqual({ runs: 3, answers: 200, throttle: 4, secondVisit: false });
    expect(parseBenchArgs(['cruise', '--runs', '1', '--answers', '10', '--throttle', '2']).cruiseArgs).toEqual({
      runs: 1,
      answers: 10,
      throttle: 2,
      secondVisit: false,
    });
    expect(() => parseBenchArgs(['cruise', '--answers', 'many'])).toThrow(
      new UsageError('--answers needs a positive whole number'),
    );
    expect(parseBenchArgs(['globe', 'cruise']).suites).toEqual(['globe', 'cruise']);
  });

  it('times a first and a second visit with --second-visit, of another build with --client-dist, beside a peer with --peer-dist', () => {
    expect(parseBenchArgs(['cruise', '--second-visit']).cruiseArgs).toMatchObject({ secondVisit: true, runs: 3 });
    expect(
      parseBenchArgs(['cruise', '--second-visit', '--client-dist', '/tmp/dist-before']).cruiseArgs.clientDist,
    ).toBe('/tmp/dist-before');
    expect(() => parseBenchArgs(['cruise', '--client-dist', '/tmp/dist-before'])).toThrow(
      new UsageError('--client-dist is an option of cruise --second-visit'),
    );
    expect(parseBenchArgs(['cruise', '--second-visit', '--peer-dist', '/tmp/dist-main']).cruiseArgs.peerDist).toBe(
      '/tmp/dist-main',
    );
    expect(() => parseBenchArgs(['cruise', '--peer-dist', '/tmp/dist-main'])).toThrow(
      new UsageError('--peer-dist is an option of cruise --second-visit'),
    );
  });
});
