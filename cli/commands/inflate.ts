// `galaxy-cruise inflate IN|- [-o OUT]`: decompresses a gzip file (or stdin, every member) with
// the wasm inflater and writes the bytes to OUT or stdout. Errors (viewer-spec §5 messages) exit 1.
import fs from 'node:fs';
import { loadCore } from '../../core/wasm';
import { UsageError, atMostPositionals, parseOptions, type Command } from '../command';

export const inflateCommand: Command = {
  usage: 'galaxy-cruise inflate IN|- [-o OUT]',
  async run(args) {
    const { values, positionals } = parseOptions(args, { output: { type: 'string', short: 'o' } });
    const [input] = atMostPositionals(positionals, 1);
    const output = values.output;
    if (input === undefined) throw new UsageError('inflate needs an input file');
    // One read of the whole file (its size known up front), and the bytes written straight from
    // the wasm memory they were inflated into: no copy of either is made in between.
    const bytes = input === '-' ? await readStdin() : fs.readFileSync(input);
    const core = await loadCore();
    const result = core.gunzipView(bytes);
    if (output === undefined) await writeStdout(result);
    else await fs.promises.writeFile(output, result);
    return 0;
  },
};

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function writeStdout(bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(bytes, (error) => (error ? reject(error) : resolve()));
  });
}
