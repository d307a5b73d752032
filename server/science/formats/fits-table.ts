// A FITS file holding a table as a binary table (FITS Standard 4.0, §7.3): a primary HDU without
// data whose header carries the provenance, then a BINTABLE extension whose header names each
// column (TTYPEn), its format (TFORMn: K 64-bit integer, J 32-bit integer, D double, L logical, nA
// characters), unit (TUNITn) and description (TCOMMn, the HEASARC convention TOPCAT reads, and the
// TTYPEn card's comment), the provenance again (astropy's Table.read keeps the table HDU's
// keywords as its meta), and the columns' descriptions once more in astropy's own header block
// (below), then the rows big-endian, padded to 2880-byte blocks. A null double is a NaN. The rows
// are written a block at a time from the block's columns, each column laid into the block's
// buffer at its offset in the row (one DataView, no value boxed), a string's bytes made once per
// distinct value: a million rows of 45 columns are a few hundred milliseconds.
//
// astropy's Table.read does not read TCOMMn; it reads a column's description from the YAML it
// writes itself into COMMENT cards between --BEGIN-ASTROPY-SERIALIZED-COLUMNS-- and
// --END-ASTROPY-SERIALIZED-COLUMNS-- (astropy.io.fits.connect, _decode_mixins): a `datatype` list
// of {name, datatype, description} and `meta: {__serialized_columns__: {}}`, each line at most 70
// characters, a longer one cut and continued on the next card after a backslash.
import type { ExportColumn } from '../export-columns';
import type { ColumnBlock, ProvenanceEntry, TableProvenance, TableWriter, ValuesOf } from './table-writer';

const BLOCK = 2880;
const CARD = 80;
/** Text of a COMMENT card after its keyword. */
const COMMENT_TEXT = 72;
/** astropy's serialized-columns lines: 70 characters, a 71st '\' continuing the line. */
const ASTROPY_LINE = 70;

/** A header card: the keyword, a value already formatted, an optional comment, 80 ASCII chars. */
function card(keyword: string, value?: string, comment?: string): string {
  let text = keyword.padEnd(8);
  if (value !== undefined) text += `= ${value}`;
  if (comment) text += ` / ${comment}`;
  return ascii(text).slice(0, CARD).padEnd(CARD);
}

/** A header holds printable ASCII only (§4.1.2): anything else becomes '?'. */
const ascii = (text: string) => text.replace(/[^\x20-\x7e]/g, '?');

/**
 * A string value (§4.2.1.1): quoted, quotes doubled, at most 68 characters inside the quotes (cut
 * after the doubling, never between the two quotes of a pair, so that the closing quote stays).
 */
function fitsString(text: string): string {
  let inside = ascii(text).replace(/'/g, "''");
  if (inside.length > 68) {
    inside = inside.slice(0, 68);
    if ((/'+$/.exec(inside)?.[0].length ?? 0) % 2 === 1) inside = inside.slice(0, -1);
  }
  return `'${inside.padEnd(8)}'`.padEnd(20);
}
const fitsNumber = (value: number) => String(value).padStart(20);
const fitsLogical = (value: boolean) => (value ? 'T' : 'F').padStart(20);

/** A COMMENT card of exactly this text (at most 72 characters). */
const commentLine = (text: string) => `COMMENT ${ascii(text)}`.slice(0, CARD).padEnd(CARD);

/** COMMENT cards holding `text`, cut at word boundaries into lines of at most 72 characters. */
function commentCards(text: string): string[] {
  const cards: string[] = [];
  let line = '';
  for (const word of ascii(text).split(' ')) {
    if (line && line.length + 1 + word.length > COMMENT_TEXT) {
      cards.push(commentLine(line));
      line = '';
    }
    line = line ? `${line} ${word}` : word.slice(0, COMMENT_TEXT);
  }
  if (line) cards.push(commentLine(line));
  return cards;
}

function provenanceCards(provenance: TableProvenance): string[] {
  const cards = provenance.entries.map((entry: ProvenanceEntry) =>
    card(
      entry.keyword,
      typeof entry.value === 'number' ? fitsNumber(entry.value) : fitsString(entry.value),
      entry.description,
    ),
  );
  return [...cards, ...commentCards(provenance.description), ...commentCards(provenance.citation)];
}

function padded(cards: string[]): Buffer {
  const text = cards.join('');
  const length = Math.ceil(text.length / BLOCK) * BLOCK;
  return Buffer.from(text.padEnd(length), 'ascii');
}

const FORMS: Record<
  ExportColumn['kind'],
  { form: (column: ExportColumn) => string; bytes: (column: ExportColumn) => number; astropy: string }
> = {
  long: { form: () => 'K', bytes: () => 8, astropy: 'int64' },
  int: { form: () => 'J', bytes: () => 4, astropy: 'int32' },
  double: { form: () => 'D', bytes: () => 8, astropy: 'float64' },
  boolean: { form: () => 'L', bytes: () => 1, astropy: 'bool' },
  string: { form: (column) => `${column.width}A`, bytes: (column) => column.width!, astropy: 'string' },
};

/** A YAML string in single quotes (quotes doubled), as astropy's header reader parses it. */
const yamlString = (text: string) => `'${ascii(text).replace(/'/g, "''")}'`;

/** astropy's serialized-columns block: every column's description, for Table.read. */
function astropyColumnCards(columns: readonly ExportColumn[]): string[] {
  const lines = [
    'datatype:',
    ...columns.map(
      (column) =>
        `- {name: ${column.name}, datatype: ${FORMS[column.kind].astropy}, description: ${yamlString(column.description)}}`,
    ),
    'meta:',
    '  __serialized_columns__: {}',
  ];
  const cards = [commentLine('--BEGIN-ASTROPY-SERIALIZED-COLUMNS--')];
  for (const line of lines) {
    for (let start = 0; start < line.length; start += ASTROPY_LINE) {
      const piece = line.slice(start, start + ASTROPY_LINE);
      cards.push(commentLine(start + ASTROPY_LINE < line.length ? `${piece}\\` : piece));
    }
  }
  cards.push(commentLine('--END-ASTROPY-SERIALIZED-COLUMNS--'));
  return cards;
}

/** Lays `values` (a column of `kind`) into `view` at `offset` in each row of `rowBytes`. */
function layColumn(
  view: DataView,
  bytes: Buffer,
  column: ExportColumn,
  values: ColumnBlock['columns'][string],
  length: number,
  offset: number,
  rowBytes: number,
) {
  switch (column.kind) {
    case 'long': {
      const longs = values as ValuesOf<'long'>;
      for (let row = 0, at = offset; row < length; row += 1, at += rowBytes) {
        // A null long (an id of no list) is 0: the column declares no TNULLn.
        const value = Number.isNaN(longs[row]!) ? 0 : longs[row]!;
        view.setInt32(at, Math.floor(value / 4294967296));
        view.setUint32(at + 4, value >>> 0);
      }
      return;
    }
    case 'int': {
      const ints = values as ValuesOf<'int'>;
      for (let row = 0, at = offset; row < length; row += 1, at += rowBytes) view.setInt32(at, ints[row]!);
      return;
    }
    case 'double': {
      const doubles = values as ValuesOf<'double'>;
      for (let row = 0, at = offset; row < length; row += 1, at += rowBytes) view.setFloat64(at, doubles[row]!);
      return;
    }
    case 'boolean': {
      const flags = values as ValuesOf<'boolean'>;
      for (let row = 0, at = offset; row < length; row += 1, at += rowBytes) bytes[at] = flags[row] ? 0x54 : 0x46;
      return;
    }
    case 'string': {
      const texts = values as ValuesOf<'string'>;
      const width = column.width!;
      const made = new Map<string, Buffer>();
      for (let row = 0, at = offset; row < length; row += 1, at += rowBytes) {
        const text = texts[row] ?? '';
        let field = made.get(text);
        if (!field) {
          field = Buffer.from(ascii(text).padEnd(width).slice(0, width), 'ascii');
          made.set(text, field);
        }
        bytes.set(field, at);
      }
    }
  }
}

export function fitsTableWriter(columns: readonly ExportColumn[], provenance: TableProvenance): TableWriter {
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
        ...provenanceCards(provenance),
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
        card('EXTNAME', fitsString(provenance.name)),
      ];
      columns.forEach((column, index) => {
        const n = index + 1;
        cards.push(card(`TTYPE${n}`, fitsString(column.name), column.description));
        cards.push(card(`TFORM${n}`, fitsString(FORMS[column.kind].form(column))));
        if (column.unit) cards.push(card(`TUNIT${n}`, fitsString(column.unit)));
        cards.push(card(`TCOMM${n}`, fitsString(column.description)));
      });
      cards.push(...provenanceCards(provenance), ...astropyColumnCards(columns), card('END'));
      return Buffer.concat([primary, padded(cards)]);
    },
    block(block) {
      const bytes = Buffer.alloc(block.length * rowBytes);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
      let offset = 0;
      columns.forEach((column, index) => {
        layColumn(view, bytes, column, block.columns[column.name]!, block.length, offset, rowBytes);
        offset += widths[index]!;
      });
      rowsWritten += block.length;
      if (rowsWritten > rowsExpected) throw new Error(`FITS table: more rows than the ${rowsExpected} announced`);
      return bytes;
    },
    end() {
      if (rowsWritten !== rowsExpected)
        throw new Error(`FITS table: ${rowsWritten} rows written, ${rowsExpected} announced`);
      const data = rowsWritten * rowBytes;
      return Buffer.alloc((BLOCK - (data % BLOCK)) % BLOCK);
    },
  };
}
