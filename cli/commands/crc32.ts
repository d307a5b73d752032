import fs from 'node:fs/promises';
import { loadCore } from '../../src/core/wasm';
import { UsageError, type Command } from '../command';

export const crc32Command: Command = {
  name: 'crc32',
  summary: 'print the CRC-32 (gzip/zlib) of files, computed by the wasm core',
  usage: 'galaxy-cruise crc32 FILE...',
  async run(args) {
    if (args.length === 0) throw new UsageError('crc32 needs at least one FILE');
    const core = await loadCore();
    for (const file of args) {
      const bytes = await fs.readFile(file);
      process.stdout.write(`${core.crc32(bytes).toString(16).padStart(8, '0')}  ${file}\n`);
    }
    return 0;
  },
};
