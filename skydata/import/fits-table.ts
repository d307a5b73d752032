// The first binary table (XTENSION = 'BINTABLE', FITS Standard 4.0 §7.3) of a FITS file, row by
// row, for target lists: the headers are walked by core/fits.ts, the rows read here. Scalar
// columns of type L, B, I, J, K, E and D (with TSCALn / TZEROn and TNULLn) and strings (rA) are
// read; a column the caller wants in another form (a vector, bits, complex numbers, a
// variable-length array) is refused with its name and TFORM.
import fs from 'node:fs/promises';
import { readFitsHdus, type FitsHdu } from '../../core/fits';
import { ImportError, quote } from './import-error';
import type { Cell, TableRows } from './table-rows';

const SIZES: Record<string, number> = { L: 1, B: 1, I: 2, J: 4, K: 8, A: 1, E: 4, D: 8, C: 8, M: 16, P: 8, Q: 16 };

interface Field {
  name: string;
  type: string;
  repeat: number;
  offset: number;
  scale: number;
  zero: number;
  blank: number | bigint | undefined;
}

function fieldsOf(file: string, hdu: FitsHdu): { fields: Field[]; units: (string | null)[] } {
  const { header } = hdu;
  const count = header.integer('TFIELDS');
  const fields: Field[] = [];
  const units: (string | null)[] = [];
  let offset = 0;
  for (let n = 1; n <= count; n++) {
    const form = header.string(`TFORM${n}`).trim();
    const match = /^(\d*)([LXBIJKAEDCMPQ])/.exec(form);
    if (!match) throw new ImportError(file, { column: `TFORM${n}` }, `${quote(form)} is not a FITS table format`);
    const repeat = match[1] === '' ? 1 : Number(match[1]);
    const type = match[2];
    const name = header.has(`TTYPE${n}`) ? header.string(`TTYPE${n}`).trim() : `col${n}`;
    const blankCard = header.card(`TNULL${n}`);
    fields.push({
      name,
      type,
      repeat,
      offset,
      scale: header.number(`TSCAL${n}`, 1),
      zero: header.number(`TZERO${n}`, 0),
      blank: typeof blankCard?.value === 'number' ? blankCard.value : undefined,
    });
    units.push(header.has(`TUNIT${n}`) ? header.string(`TUNIT${n}`).trim() || null : null);
    offset += type === 'X' ? Math.ceil(repeat / 8) : repeat * SIZES[type];
  }
  const width = header.integer('NAXIS1');
  if (offset !== width) {
    throw new ImportError(file, {}, `the table's columns take ${offset} bytes a row but NAXIS1 is ${width}`);
  }
  return { fields, units };
}

/** One scalar or string cell of a row. */
function cellOf(view: DataView, at: number, field: Field): Cell {
  const { type, repeat } = field;
  if (type === 'A') {
    let text = '';
    for (let i = 0; i < repeat; i++) {
      const byte = view.getUint8(at + i);
      if (byte === 0) break;
      text += String.fromCharCode(byte);
    }
    return text.replace(/ +$/, '');
  }
  if (repeat === 0) return null;
  if (type === 'L') {
    const byte = view.getUint8(at);
    return byte === 0x54 ? true : byte === 0x46 ? false : null;
  }
  if (type === 'E' || type === 'D') {
    const raw = type === 'E' ? view.getFloat32(at) : view.getFloat64(at);
    return Number.isNaN(raw) ? null : field.zero + field.scale * raw;
  }
  const raw: number | bigint =
    type === 'B'
      ? view.getUint8(at)
      : type === 'I'
        ? view.getInt16(at)
        : type === 'J'
          ? view.getInt32(at)
          : view.getBigInt64(at);
  if (field.blank !== undefined && BigInt(raw) === BigInt(field.blank)) return null;
  if (typeof raw === 'bigint') {
    // K columns hold 64-bit ids; the physical value is exact only as a BigInt.
    const value = BigInt(field.zero) + BigInt(field.scale) * raw;
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  }
  return field.zero + field.scale * raw;
}

/**
 * The rows of the file's first BINTABLE. Only the columns whose lower-cased names are in `wanted`
 * are read (the others come as null); those must be scalars or strings.
 */
export async function fitsTableRows(file: string, wanted: ReadonlySet<string>): Promise<TableRows> {
  const bytes = new Uint8Array(await fs.readFile(file));
  let hdus: FitsHdu[];
  try {
    hdus = readFitsHdus(bytes);
  } catch (error) {
    throw new ImportError(file, {}, (error as Error).message);
  }
  const hdu = hdus.find((each) => each.type === 'BINTABLE');
  if (!hdu) throw new ImportError(file, {}, 'the file has no binary table (XTENSION = BINTABLE)');
  const { fields, units } = fieldsOf(file, hdu);
  for (const field of fields) {
    const readable = field.type === 'A' || ('LBIJKED'.includes(field.type) && field.repeat <= 1);
    if (readable || !wanted.has(field.name.toLowerCase())) continue;
    throw new ImportError(
      file,
      { column: field.name },
      `TFORM ${field.repeat}${field.type} is not a single number, logical or string`,
    );
  }
  const [width, count] = hdu.axes;
  if (hdu.dataOffset + width * count > bytes.length) throw new ImportError(file, {}, 'FITS data unit is truncated');
  const view = new DataView(bytes.buffer, bytes.byteOffset + hdu.dataOffset, width * count);
  const used = fields.map((field) => wanted.has(field.name.toLowerCase()));
  async function* rows() {
    for (let i = 0; i < count; i++) {
      const start = i * width;
      yield {
        row: i + 1,
        cells: fields.map((field, k) => (used[k] ? cellOf(view, start + field.offset, field) : null)),
      };
    }
  }
  return { columns: fields.map((field) => field.name), units, rows: rows() };
}
