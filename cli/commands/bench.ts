import { crc32Cases } from '../bench/crc32';
import { formatTable, runCase, type BenchCase, type Measurement } from '../bench/harness';
import { loadCore } from '../../src/core/wasm';
import { UsageError, type Command } from '../command';

const SUITES = ['crc32', 'inflate', 'fits', 'shiftmap'] as const;
type Suite = (typeof SUITES)[number];

export const benchCommand: Command = {
  name: 'bench',
  summary: `time the wasm core beside its JavaScript and native peers (${SUITES.join(', ')}, all)`,
  usage: `galaxy-cruise bench [${SUITES.join('|')}|all] [--json]`,
  async run(args) {
    const json = args.includes('--json');
    const names = args.filter((arg) => arg !== '--json');
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
    if (wanted('shiftmap')) cases.push(...(await import('../bench/shiftmap')).shiftmapCases(core));
    const rows: Measurement[] = [];
    for (const bench of cases) {
      if (!json) process.stderr.write(`bench ${bench.suite}: ${bench.input}\n`);
      rows.push(...runCase(bench));
    }
    process.stdout.write(json ? `${JSON.stringify(rows, null, 2)}\n` : `${formatTable(rows)}\n`);
    return 0;
  },
};
