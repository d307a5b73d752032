// `galaxy-cruise data [--if-stale] [--small]`: builds the sky data repository under
// $VAR_DIR/sky (skydata/build.ts), or the small test sky.
import { loadConfig } from '../../server/config';
import { buildSky } from '../../skydata/build';
import { atMostPositionals, parseOptions, type Command } from '../command';

export const dataCommand: Command = {
  usage: 'galaxy-cruise data [--if-stale] [--small]',
  async run(args) {
    const { values, positionals } = parseOptions(args, {
      'if-stale': { type: 'boolean', default: false },
      small: { type: 'boolean', default: false },
    });
    atMostPositionals(positionals, 0);
    await buildSky({
      varDirectory: loadConfig().varDirectory,
      ifStale: values['if-stale'],
      small: values.small || process.env.GALAXY_CRUISE_SKY === 'small',
    });
    return 0;
  },
};
