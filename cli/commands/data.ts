import { buildSky } from '../../skydata/build';
import { UsageError, type Command } from '../command';

export const dataCommand: Command = {
  name: 'data',
  summary: 'build the sky data repository under var/sky (--if-stale skips an up-to-date one)',
  usage: 'galaxy-cruise data [--if-stale]',
  async run(args) {
    const unknown = args.filter((arg) => arg !== '--if-stale');
    if (unknown.length) throw new UsageError(`unknown option ${unknown[0]}`);
    await buildSky({ ifStale: args.includes('--if-stale') });
    return 0;
  },
};
