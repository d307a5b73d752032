// `galaxy-cruise healpix ang2pix|pix2ang|nest2ring|ring2nest|query_disc --nside N
//   [--scheme ring|nest] [--inclusive] [--fact F]`: the wasm HEALPix (core/healpix.ts) on
// JSON from stdin, one JSON array on stdout:
//   ang2pix     [[theta, phi], …]            → [pix, …]
//   pix2ang     [pix, …]                     → [[theta, phi], …]
//   nest2ring   [pix, …]                     → [pix, …]   (--scheme does not apply)
//   ring2nest   [pix, …]                     → [pix, …]
//   query_disc  {"theta", "phi", "radius"}   → [pix, …] sorted ascending (ring scheme unless
//               --scheme nest; --inclusive for every overlapping pixel, tested at nside·F,
//               F = --fact, default 4 as healpy)
// Angles in radians. Pixel ids are JSON numbers below 2^53 and decimal strings at or above it;
// both forms are read. Bad input exits 1 with the message on stderr; bad usage exits 2.
import { Healpix, checkNside, pixelArray, pixelList, type PixelId, type Scheme } from '../../core/healpix';
import { loadCore } from '../../core/wasm';
import { UsageError, atMostPositionals, parseOptions, type Command } from '../command';

const OPERATIONS = ['ang2pix', 'pix2ang', 'nest2ring', 'ring2nest', 'query_disc'] as const;
type Operation = (typeof OPERATIONS)[number];

interface Options {
  operation: Operation;
  nside: number;
  scheme: Scheme;
  inclusive: boolean;
  fact?: number;
}

/** A whole number written in decimal digits, or a usage error saying what `option` needs. */
function whole(text: string | undefined, option: string, needed: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`${option} needs ${needed}`);
  return Number(text);
}

function healpixOptions(args: string[]): Options {
  const { values, positionals } = parseOptions(args, {
    nside: { type: 'string' },
    scheme: { type: 'string', default: 'ring' },
    inclusive: { type: 'boolean', default: false },
    fact: { type: 'string' },
  });
  const [operation] = atMostPositionals(positionals, 1);
  if (operation === undefined) throw new UsageError(`healpix needs an operation (${OPERATIONS.join(', ')})`);
  if (!OPERATIONS.includes(operation as Operation)) throw new UsageError(`unknown operation '${operation}'`);
  const nside = whole(values.nside, '--nside', 'a power of two from 1 to 2^29');
  if (nside === undefined) throw new UsageError('healpix needs --nside N');
  try {
    checkNside(nside);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const scheme = values.scheme;
  if (scheme !== 'ring' && scheme !== 'nest') throw new UsageError("--scheme must be 'ring' or 'nest'");
  const fact = whole(values.fact, '--fact', 'an integer ≥ 1');
  if (fact === 0) throw new UsageError('--fact needs an integer ≥ 1');
  const inclusive = values.inclusive;
  if (operation !== 'query_disc' && (inclusive || fact !== undefined)) {
    throw new UsageError('--inclusive and --fact apply to query_disc');
  }
  if (fact !== undefined && !inclusive) throw new UsageError('--fact applies with --inclusive');
  return { operation: operation as Operation, nside, scheme, inclusive, fact };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`stdin is not JSON: ${(error as Error).message}`, { cause: error });
  }
}

function angles(input: unknown): { theta: Float64Array; phi: Float64Array } {
  if (!Array.isArray(input)) throw new Error('ang2pix reads a JSON array of [theta, phi] pairs');
  const theta = new Float64Array(input.length);
  const phi = new Float64Array(input.length);
  input.forEach((pair: unknown, i) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'number' || typeof pair[1] !== 'number') {
      throw new Error(`ang2pix: entry ${i} is not a [theta, phi] pair of numbers: ${JSON.stringify(pair)}`);
    }
    theta[i] = pair[0];
    phi[i] = pair[1];
  });
  return { theta, phi };
}

function ids(operation: string, input: unknown): (PixelId | string)[] {
  if (!Array.isArray(input)) throw new Error(`${operation} reads a JSON array of pixel ids`);
  return input as (PixelId | string)[];
}

function disc(input: unknown): { theta: number; phi: number; radius: number } {
  const value = input as Record<string, unknown> | null;
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    typeof value.theta !== 'number' ||
    typeof value.phi !== 'number' ||
    typeof value.radius !== 'number'
  ) {
    throw new Error('query_disc reads a JSON object {"theta", "phi", "radius"} of numbers (radians)');
  }
  return { theta: value.theta, phi: value.phi, radius: value.radius };
}

/** Ids as JSON: numbers below 2^53, decimal strings at or above it. */
function idsJson(list: PixelId[]): string {
  return `[${list.map((id) => (typeof id === 'bigint' ? `"${id}"` : String(id))).join(',')}]`;
}

export const healpixCommand: Command = {
  usage:
    'galaxy-cruise healpix ang2pix|pix2ang|nest2ring|ring2nest|query_disc --nside N [--scheme ring|nest] [--inclusive] [--fact F]',
  async run(args) {
    const options = healpixOptions(args);
    const input = parseJson(await readStdin());
    const core = await loadCore();
    const hp = new Healpix(core, options.nside, options.scheme);
    let output: string;
    switch (options.operation) {
      case 'ang2pix': {
        const { theta, phi } = angles(input);
        output = idsJson(pixelList(hp.ang2pixBatch(theta, phi)));
        break;
      }
      case 'pix2ang': {
        const { theta, phi } = hp.pix2angBatch(pixelArray(options.nside, ids('pix2ang', input)));
        output = JSON.stringify(Array.from(theta, (t, i) => [t, phi[i]]));
        break;
      }
      case 'nest2ring':
      case 'ring2nest': {
        const list = pixelArray(options.nside, ids(options.operation, input));
        const converted = options.operation === 'nest2ring' ? hp.nest2ringBatch(list) : hp.ring2nestBatch(list);
        output = idsJson(pixelList(converted));
        break;
      }
      case 'query_disc': {
        const { theta, phi, radius } = disc(input);
        const found = hp.queryDisc(theta, phi, radius, { inclusive: options.inclusive, fact: options.fact ?? 4 });
        output = idsJson(pixelList(found));
        break;
      }
    }
    process.stdout.write(`${output}\n`);
    return 0;
  },
};
