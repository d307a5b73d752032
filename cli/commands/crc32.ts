// `galaxy-cruise crc32 FILE...`: the CRC-32 of each file (the gzip and zlib checksum), as cksum
// tools print it: eight hex digits, two spaces, the name.
import fs from 'node:fs/promises';
import { loadCore } from '../../core/wasm';
import { UsageError, parseOptions, type Command } from '../command';

export const crc32Command: Command = {
  usage: 'galaxy-cruise crc32 FILE...',
  async run(args) {
    const files = parseOptions(args, {}).positionals;
    if (files.length === 0) throw new UsageError('crc32 needs at least one FILE');
    const core = await loadCore();
    for (const file of files) {
      const bytes = await fs.readFile(file);
      process.stdout.write(`${core.crc32(bytes).toString(16).padStart(8, '0')}  ${file}\n`);
    }
    return 0;
  },
};
