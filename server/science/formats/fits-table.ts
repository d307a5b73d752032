// A FITS file holding the catalogue as a binary table (FITS Standard 4.0, §7.3): an empty primary
// HDU, then a BINTABLE extension whose header names each column (TTYPEn), its format (TFORMn: K
// 64-bit integer, J 32-bit integer, D double, L logical, nA characters), unit (TUNITn) and
// description (TCOMMn, the HEASARC convention TOPCAT reads, and the TTYPEn card's comment), then
// the rows big-endian, padded to 2880-byte blocks. A null double is a NaN.
import type { ExportColumn } from '../export-columns';
import type { TableWriter } from './table-writer';

const BLOCK = 2880;
const CARD = 80;

/** A header card: the keyword, a value already formatted, an optional comment, 80 ASCII chars. */
function card(keyword: string, value?: string, comment?: string): string {
  let text = keyword.padEnd(8);
  if (value !== undefined) text += `= ${value}`;
  if (comment) text += ` / ${comment}`;
  return text.slice(0, CARD).padEnd(CARD);
}

const fitsString = (text: string) => `'${text.replace(/'/g, "''").padEnd(8)}'`.padEnd(20);
const fitsNumber = (value: number) => String(value).padStart(20);
const fitsLogical = (value: boolean) => (value ? 'T' : 'F').padStart(20);

function padded(cards: string[]): Buffer {
  const text = cards.join('');
  const length = Math.ceil(text.length / BLOCK) * BLOCK;
  return Buffer.from(text.padEnd(length), 'ascii');
}

const FORMS: Record<
  ExportColumn['kind'],
  { form: (column: ExportColumn) => string; bytes: (column: ExportColumn) => number }
> = {
  long: { form: () => 'K', bytes: () => 8 },
  int: { form: () => 'J', bytes: () => 4 },
  double: { form: () => 'D', bytes: () => 8 },
  boolean: { form: () => 'L', bytes: () => 1 },
  string: { form: (column) => `${column.width}A`, bytes: (column) => column.width! },
};

export function fitsTableWriter(columns: readonly ExportColumn[], extensionName: string): TableWriter {
  const widths = columns.map((column) => FORMS[column.kind].bytes(column));
  const rowBytes = widths.reduce((sum, width) => sum + width, 0);
  let rowsExpected = 0;
  let rowsWritten = 0;
  return {
    contentType: 'application/fits',
    extension: 'fits',
    begin(rowCount) {
      rowsExpected = rowCount;
      const primary = padded([
        card('SIMPLE', fitsLogical(true), 'conforms to FITS standard'),
        card('BITPIX', fitsNumber(8)),
        card('NAXIS', fitsNumber(0)),
        card('EXTEND', fitsLogical(true)),
        card('END'),
      ]);
      const cards = [
        card('XTENSION', fitsString('BINTABLE'), 'binary table extension'),
        card('BITPIX', fitsNumber(8)),
        card('NAXIS', fitsNumber(2)),
        card('NAXIS1', fitsNumber(rowBytes), 'bytes per row'),
        card('NAXIS2', fitsNumber(rowCount), 'rows'),
        card('PCOUNT', fitsNumber(0)),
        card('GCOUNT', fitsNumber(1)),
        card('TFIELDS', fitsNumber(columns.length)),
        card('EXTNAME', fitsString(extensionName)),
      ];
      columns.forEach((column, index) => {
        const n = index + 1;
        cards.push(card(`TTYPE${n}`, fitsString(column.name), column.description));
        cards.push(card(`TFORM${n}`, fitsString(FORMS[column.kind].form(column))));
        if (column.unit) cards.push(card(`TUNIT${n}`, fitsString(column.unit)));
        cards.push(card(`TCOMM${n}`, fitsString(column.description.slice(0, 66))));
      });
      cards.push(card('END'));
      return Buffer.concat([primary, padded(cards)]);
    },
    rows(rows) {
      const buffer = Buffer.alloc(rows.length * rowBytes);
      let offset = 0;
      for (const row of rows) {
        columns.forEach((column, index) => {
          const value = row[column.name];
          switch (column.kind) {
            case 'long':
              buffer.writeBigInt64BE(BigInt(value as number), offset);
              break;
            case 'int':
              buffer.writeInt32BE(Number(value), offset);
              break;
            case 'double':
              buffer.writeDoubleBE(value === null ? NaN : Number(value), offset);
              break;
            case 'boolean':
              buffer.write(value ? 'T' : 'F', offset, 'ascii');
              break;
            case 'string':
              buffer.write(
                String(value ?? '')
                  .padEnd(widths[index]!)
                  .slice(0, widths[index]),
                offset,
                'ascii',
              );
              break;
          }
          offset += widths[index]!;
        });
      }
      rowsWritten += rows.length;
      if (rowsWritten > rowsExpected) throw new Error(`FITS table: more rows than the ${rowsExpected} announced`);
      return buffer;
    },
    end() {
      if (rowsWritten !== rowsExpected)
        throw new Error(`FITS table: ${rowsWritten} rows written, ${rowsExpected} announced`);
      const data = rowsWritten * rowBytes;
      return Buffer.alloc((BLOCK - (data % BLOCK)) % BLOCK);
    },
  };
}
