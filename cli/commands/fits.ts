// `galaxy-cruise fits IN [--hdu N] [--f64 OUT]`: decodes one image HDU of a FITS file (gzip
// or not) with the wasm core and prints {"BITPIX","NAXIS","NAXIS1","NAXIS2","BZERO","BSCALE",
// "min","max","mean"}: header values as written (BZERO 0 and BSCALE 1 when absent, null for a
// missing axis) and statistics of the physical values ignoring NaN (null when none is left).
// --f64 writes the physical values as little-endian float64, NAXIS1 fastest.
import fs from 'node:fs/promises';
import { decodeFits } from '../../core/fits';
import { loadCore } from '../../core/wasm';
import { UsageError, atMostPositionals, parseOptions, type Command } from '../command';

export const fitsCommand: Command = {
  usage: 'galaxy-cruise fits IN [--hdu N] [--f64 OUT]',
  async run(args) {
    const { values, positionals } = parseOptions(args, { hdu: { type: 'string' }, f64: { type: 'string' } });
    const [input] = atMostPositionals(positionals, 1);
    if (values.hdu !== undefined && !/^\d+$/.test(values.hdu)) throw new UsageError('--hdu needs a 0-based HDU index');
    const hdu = values.hdu === undefined ? undefined : Number(values.hdu);
    const f64Out = values.f64;
    if (input === undefined) throw new UsageError('fits needs an input file');
    const core = await loadCore();
    const image = decodeFits(await fs.readFile(input), core, { hdu, f64: true });
    const pixels = image.pixels;
    let min = Infinity;
    let max = -Infinity;
    let sum = 0;
    let n = 0;
    for (let i = 0; i < pixels.length; i++) {
      const value = pixels[i];
      if (Number.isNaN(value)) continue;
      if (value < min) min = value;
      if (value > max) max = value;
      sum += value;
      n++;
    }
    const header = image.hdu.header;
    const written = (keyword: string) => (header.has(keyword) ? header.integer(keyword) : null);
    const summary = {
      BITPIX: image.bitpix,
      NAXIS: image.axes.length,
      NAXIS1: written('NAXIS1'),
      NAXIS2: written('NAXIS2'),
      BZERO: image.bzero,
      BSCALE: image.bscale,
      min: n ? min : null,
      max: n ? max : null,
      mean: n ? sum / n : null,
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    if (f64Out !== undefined) {
      const little = new Float64Array(pixels);
      await fs.writeFile(f64Out, new Uint8Array(little.buffer, little.byteOffset, little.byteLength));
    }
    return 0;
  },
};
