// A FITS writer (FITS Standard 4.0): one primary HDU, 80-character header cards in 2880-byte
// blocks, big-endian data padded to a whole block. Used for HiPS FITS tiles (BITPIX 8) and the
// pretty-picture tiles (BITPIX −32).

export type FitsValue = number | string | boolean;

function card(key: string, value: FitsValue, comment = ''): string {
  let text: string;
  if (typeof value === 'boolean') text = (value ? 'T' : 'F').padStart(20);
  else if (typeof value === 'number')
    text = (
      Number.isInteger(value)
        ? String(value)
        : value
            .toPrecision(12)
            .replace(/0+e/, 'e')
            .replace(/\.?0+$/, '')
    ).padStart(20);
  else text = `'${value.replace(/'/g, "''").padEnd(8)}'`.padEnd(20);
  const line = `${key.padEnd(8)}= ${text}${comment ? ` / ${comment}` : ''}`;
  return line.slice(0, 80).padEnd(80);
}

export interface FitsImage {
  width: number;
  height: number;
  /** Rows in FITS order: first row = lowest y. */
  data: Uint8Array | Float32Array;
  keywords?: [string, FitsValue, string?][];
}

/** The primary header of a 2-axis image, padded to whole 2880-byte blocks. */
export function encodeFitsHeader({
  width,
  height,
  bitpix,
  keywords = [],
}: Omit<FitsImage, 'data'> & { bitpix: 8 | -32 }): Buffer {
  const cards = [
    card('SIMPLE', true, 'conforms to FITS standard'),
    card('BITPIX', bitpix),
    card('NAXIS', 2),
    card('NAXIS1', width),
    card('NAXIS2', height),
    ...keywords.map(([key, value, comment]) => card(key, value, comment)),
    'END'.padEnd(80),
  ];
  const headerLength = Math.ceil((cards.length * 80) / 2880) * 2880;
  return Buffer.from(cards.join('').padEnd(headerLength), 'latin1');
}

export function encodeFits({ width, height, data, keywords = [] }: FitsImage): Buffer {
  const bitpix = data instanceof Float32Array ? -32 : 8;
  const header = encodeFitsHeader({ width, height, bitpix, keywords });
  const headerLength = header.length;
  const dataBytes = width * height * (bitpix === 8 ? 1 : 4);
  const out = Buffer.alloc(headerLength + Math.ceil(dataBytes / 2880) * 2880);
  header.copy(out, 0);
  if (data instanceof Float32Array)
    for (let k = 0; k < data.length; k++) out.writeFloatBE(data[k], headerLength + 4 * k);
  else out.set(data, headerLength);
  return out;
}
