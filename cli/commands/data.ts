import { loadConfig } from '../../server/config';
import { buildSky } from '../../skydata/build';
import { UsageError, type Command } from '../command';

const OPTIONS = ['--if-stale', '--small'];

export const dataCommand: Command = {
  name: 'data',
  summary:
    'build the sky data repository under $VAR_DIR/sky (--if-stale skips an up-to-date one; --small builds the small test sky, also when GALAXY_CRUISE_SKY=small)',
  usage: 'galaxy-cruise data [--if-stale] [--small]',
  async run(args) {
    const unknown = args.filter((arg) => !OPTIONS.includes(arg));
    if (unknown.length) throw new UsageError(`unknown option ${unknown[0]}`);
    await buildSky({
      varDirectory: loadConfig().varDirectory,
      ifStale: args.includes('--if-stale'),
      small: args.includes('--small') || process.env.GALAXY_CRUISE_SKY === 'small',
    });
    return 0;
  },
};
