// The load suite's arguments (cli/commands/bench.ts): what `npm run bench -- load …` will run.
import { describe, expect, it } from 'vitest';
import { splitLoadArgs } from '../../cli/commands/bench';
import { UsageError } from '../../cli/command';

describe('the load bench arguments', () => {
  it('runs both modes on every database at the issue targets by default', () => {
    const { loadArgs, rest } = splitLoadArgs(['load']);
    expect(rest).toEqual(['load']);
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

  it('runs one mode alone with --modes, whatever --rate says before or after it', () => {
    expect(splitLoadArgs(['--modes', 'closed', '--rate', '100']).loadArgs).toMatchObject({
      paced: {},
      closedLoop: true,
    });
    expect(splitLoadArgs(['--rate', '100', '--modes', 'paced']).loadArgs).toMatchObject({
      paced: { none: 100, pglite: 100, postgres: 100 },
      closedLoop: false,
    });
    expect(splitLoadArgs(['--modes', 'paced,closed', '--statements']).loadArgs).toMatchObject({
      paced: { postgres: 2000 },
      closedLoop: true,
      statements: true,
    });
  });

  it('plays the small test sky with --sky small, the sky npm start serves with --sky default', () => {
    expect(splitLoadArgs(['load', '--sky', 'small']).loadArgs.sky).toBe('small');
    expect(splitLoadArgs(['load', '--sky', 'default']).loadArgs.sky).toBe('default');
    expect(() => splitLoadArgs(['--sky', 'large'])).toThrow(new UsageError("unknown sky 'large': small, default"));
    expect(() => splitLoadArgs(['--sky'])).toThrow(new UsageError('--sky needs a value'));
  });

  it('sets the warm-up before the window with --warmup, none with 0', () => {
    expect(splitLoadArgs(['--warmup', '5']).loadArgs.warmupSeconds).toBe(5);
    expect(splitLoadArgs(['--warmup', '0']).loadArgs.warmupSeconds).toBe(0);
    expect(() => splitLoadArgs(['--warmup', '-1'])).toThrow(new UsageError('--warmup needs a whole number of seconds'));
    expect(() => splitLoadArgs(['--warmup', 'soon'])).toThrow(UsageError);
  });

  it('sets the past volunteers in the database with --history, none with 0', () => {
    expect(splitLoadArgs(['--history', '20']).loadArgs.history).toBe(20);
    expect(splitLoadArgs(['--history', '0']).loadArgs.history).toBe(0);
    expect(() => splitLoadArgs(['--history', '1.5'])).toThrow(
      new UsageError('--history needs a whole number of past volunteers'),
    );
  });

  it('refuses an unknown mode or database with a usage error', () => {
    expect(() => splitLoadArgs(['--modes', 'open'])).toThrow(new UsageError("unknown mode 'open': closed, paced"));
    expect(() => splitLoadArgs(['--databases', 'mysql'])).toThrow(UsageError);
    expect(() => splitLoadArgs(['--modes'])).toThrow(new UsageError('--modes needs a value'));
  });
});
