// The command line's arguments (cli/main.ts, cli/command.ts, cli/commands/*): every
// sub-command reads them with node:util parseArgs, and bad ones exit 2 with a message that
// names the flag and the command's usage, before any work (no server, database or build).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main';

/** Runs `galaxy-cruise ...args` in this process: its exit code and what it wrote. */
async function cli(...args: string[]) {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

let directory: string;
beforeAll(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-cli-args-'));
});
afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('galaxy-cruise --help', () => {
  it('lists every command and exits 0; no command at all prints the list and exits 2', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    for (const name of ['serve', 'data', 'crc32', 'inflate', 'fits', 'healpix', 'bench', 'admin'])
      expect(help.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect((await cli()).code).toBe(2);
  });

  it("answers a command's --help with its usage, and refuses an unknown command", async () => {
    expect(await cli('inflate', '--help')).toEqual({
      code: 0,
      stdout: 'Usage: galaxy-cruise inflate IN|- [-o OUT]\n',
      stderr: '',
    });
    const unknown = await cli('deflate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^galaxy-cruise: unknown command 'deflate'/);
  });
});

describe('bad flags exit 2 with the flag named and the usage', () => {
  it.each([
    ['fits', ['in.fits', '--hdus', '1'], "unknown option '--hdus' (options: --hdu, --f64)"],
    ['inflate', ['in.gz', '--out', 'x'], "unknown option '--out' (options: -o/--output)"],
    ['inflate', ['in.gz', '-x'], "unknown option '-x' (options: -o/--output)"],
    ['healpix', ['ang2pix', '--nside', '4', '--nest'], "unknown option '--nest' (options: --nside, --scheme, "],
    ['data', ['--smal'], "unknown option '--smal' (options: --if-stale, --small)"],
    ['crc32', ['--quiet', 'a'], "unknown option '--quiet' (it takes none)"],
    ['serve', ['--port', '80'], "unknown option '--port' (it takes none)"],
    ['bench', ['load', '--second', '3'], "unknown option '--second' (options: --json, --seconds, "],
  ])('%s %j', async (name, args, message) => {
    const run = await cli(name, ...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`galaxy-cruise ${name}: ${message}`);
    expect(run.stderr).toContain(`\nUsage: galaxy-cruise ${name}`);
    expect(run.stdout).toBe('');
  });

  it.each([
    ['fits', ['in.fits', '--hdu'], '--hdu needs a value'],
    ['fits', ['in.fits', '--hdu', 'primary'], '--hdu needs a 0-based HDU index'],
    ['inflate', ['in.gz', '-o'], '--output needs a value'],
    ['inflate', ['a.gz', 'b.gz'], "unexpected argument 'b.gz'"],
    ['inflate', [], 'inflate needs an input file'],
    ['healpix', ['ang2pix', '--nside', '3'], 'nside'],
    ['healpix', ['ang2pix', '--nside', '-4'], "--nside needs a value (one starting with '-' is written --nside=-…)"],
    ['healpix', ['ang2pix', '--nside', '4', '--scheme', 'diagonal'], "--scheme must be 'ring' or 'nest'"],
    ['healpix', ['query_disc', '--nside', '4', '--inclusive', '--fact', '0'], '--fact needs an integer ≥ 1'],
    ['healpix', ['ang2pix', 'pix2ang', '--nside', '4'], "unexpected argument 'pix2ang'"],
    ['data', ['--small=yes'], '--small takes no value'],
    ['data', ['small'], "unexpected argument 'small'"],
    ['admin', ['promote', 'vega@example.org'], "unknown action 'promote'"],
  ])('%s %j', async (name, args, message) => {
    const run = await cli(name, ...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`galaxy-cruise ${name}: `);
    expect(run.stderr).toContain(message);
  });
});

describe('good flags do the work', () => {
  it('inflate IN -o OUT and IN --output=OUT write the gzip file’s bytes', async () => {
    const text = Buffer.from('Galaxy Cruise '.repeat(1000));
    const input = path.join(directory, 'text.gz');
    fs.writeFileSync(input, zlib.gzipSync(text));
    for (const args of [
      [input, '-o', path.join(directory, 'short')],
      [`--output=${path.join(directory, 'long')}`, input],
    ]) {
      const run = await cli('inflate', ...args);
      expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    }
    expect(fs.readFileSync(path.join(directory, 'short'))).toEqual(text);
    expect(fs.readFileSync(path.join(directory, 'long'))).toEqual(text);
  });

  it('crc32 prints the CRC-32 of each file', async () => {
    const file = path.join(directory, 'check');
    fs.writeFileSync(file, '123456789');
    // The CRC-32 check value of "123456789" (the catalogue of CRC parameters, CRC-32/ISO-HDLC).
    expect(await cli('crc32', file)).toEqual({ code: 0, stdout: `cbf43926  ${file}\n`, stderr: '' });
  });
});
