// CSV as ECSV 1.0 (astropy's Enhanced Character Separated Values, APE 6): a header of '#' lines
// holding YAML — every column's name, datatype, unit and description, and the provenance as the
// table's meta — then a line of column names and a line per row, comma-separated as RFC 4180
// (a field with a comma, a quote or a line break in double quotes, quotes doubled); an empty field
// is a null. astropy reads it whole (Table.read(…, format='ascii.ecsv')), TOPCAT and STILTS read
// it as ECSV, and a plain CSV reader that skips '#' lines (pandas' comment='#') reads the table.
// A block is written row by row straight into chunks of bytes: an integer's digits made in place,
// a double with a fraction by String (the shortest text that reads back as the same double), a
// text field quoted and encoded once per distinct value.
import type { ExportColumn } from '../export-columns';
import type { ColumnBlock, TableProvenance, TableWriter, ValuesOf } from './table-writer';

/** ECSV's datatypes (APE 6). */
const DATATYPES: Record<ExportColumn['kind'], string> = {
  long: 'int64',
  int: 'int32',
  double: 'float64',
  boolean: 'bool',
  string: 'string',
};

/** A text field as RFC 4180 writes it: quoted when it holds a comma, quote, line break or '#'. */
function textField(text: string | null): string {
  if (text === null) return '';
  return /[",\r\n#]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Characters of the longest field a number column writes (String of a double: '-1.2345678901234567e-308'). */
const NUMBER_WIDTH = 24;
/** Bytes a block's lines are gathered in before they are copied out. */
const CHUNK_BYTES = 1 << 22;

/** Output being written: a chunk filled byte by byte, full chunks kept. */
class Lines {
  chunks: Buffer[] = [];
  bytes = Buffer.allocUnsafe(CHUNK_BYTES);
  at = 0;

  /** Room for `size` more bytes: the chunk so far is kept and a new one begun when they do not fit. */
  room(size: number) {
    if (this.at + size <= this.bytes.length) return;
    this.chunks.push(this.bytes.subarray(0, this.at));
    this.bytes = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, size));
    this.at = 0;
  }

  /** An ASCII text, a character a byte (short texts: a loop costs less than a call into Buffer.write). */
  ascii(text: string) {
    const bytes = this.bytes;
    let at = this.at;
    for (let index = 0; index < text.length; index += 1) bytes[at++] = text.charCodeAt(index);
    this.at = at;
  }

  /** Bytes already encoded. */
  copy(field: Uint8Array) {
    if (field.length > 16) this.bytes.set(field, this.at);
    else for (let index = 0; index < field.length; index += 1) this.bytes[this.at + index] = field[index]!;
    this.at += field.length;
  }

  /** An integer of at most 2^53 in magnitude, as String writes it (no sign for −0). */
  integer(value: number) {
    const bytes = this.bytes;
    if (value < 0) {
      bytes[this.at++] = 0x2d;
      value = -value;
    }
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
    let at = this.at + digits;
    this.at = at;
    do {
      const next = Math.floor(value / 10);
      bytes[--at] = 0x30 + (value - next * 10);
      value = next;
    } while (value > 0);
  }

  /** A double as String writes it (the shortest text that reads back as the same double); NaN empty. */
  double(value: number) {
    if (Number.isInteger(value) && Math.abs(value) <= 9007199254740992) this.integer(value);
    else if (Number.isFinite(value)) this.ascii(String(value));
  }

  done(): Buffer {
    this.chunks.push(this.bytes.subarray(0, this.at));
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
  }
}

const TRUE = Buffer.from('True');
const FALSE = Buffer.from('False');

/**
 * A block's lines, row by row, written straight into chunks of bytes: a number's digits made in
 * place (String only for a double with a fraction), a text field encoded and quoted once per
 * distinct value. No string per field or line.
 */
function blockBytes(columns: readonly ExportColumn[], block: ColumnBlock): Buffer {
  const length = block.length;
  const values = columns.map((column) => block.columns[column.name]!);
  // A text column's fields, UTF-8, made once per distinct value; the widest sizes a row.
  let rowBytes = columns.length + 1;
  const texts = columns.map((column, index) => {
    if (column.kind !== 'string') {
      rowBytes += NUMBER_WIDTH;
      return undefined;
    }
    const made = new Map<string | null, Buffer>();
    let widest = 0;
    const fields = (values[index] as ValuesOf<'string'>).map((text) => {
      const key = text ?? null;
      let field = made.get(key);
      if (field === undefined) {
        field = Buffer.from(textField(key), 'utf8');
        made.set(key, field);
        widest = Math.max(widest, field.length);
      }
      return field;
    });
    rowBytes += widest;
    return fields;
  });
  const kinds = columns.map((column) => column.kind);
  const lines = new Lines();
  for (let row = 0; row < length; row += 1) {
    lines.room(rowBytes);
    for (let index = 0; index < kinds.length; index += 1) {
      if (index > 0) lines.bytes[lines.at++] = 0x2c;
      switch (kinds[index]) {
        case 'long':
        case 'double':
          lines.double((values[index] as ValuesOf<'double'>)[row]!);
          break;
        case 'int':
          lines.integer((values[index] as ValuesOf<'int'>)[row]!);
          break;
        case 'boolean':
          // ECSV's booleans are Python's.
          lines.copy((values[index] as ValuesOf<'boolean'>)[row] ? TRUE : FALSE);
          break;
        case 'string':
          lines.copy(texts[index]![row]!);
      }
    }
    lines.bytes[lines.at++] = 0x0d;
    lines.bytes[lines.at++] = 0x0a;
  }
  return lines.done();
}

/** A YAML scalar in single quotes, quotes doubled: any text, line breaks folded to spaces. */
const yaml = (text: string) => `'${text.replace(/[\r\n]+/g, ' ').replace(/'/g, "''")}'`;

function header(columns: readonly ExportColumn[], provenance: TableProvenance): string {
  const lines = [
    '%ECSV 1.0',
    '---',
    "delimiter: ','",
    'datatype:',
    ...columns.map(
      (column) =>
        `- {name: ${column.name}${column.unit ? `, unit: ${yaml(column.unit)}` : ''}, datatype: ${DATATYPES[column.kind]}, description: ${yaml(column.description)}}`,
    ),
    'meta: !!omap',
    `- {name: ${yaml(provenance.name)}}`,
    `- {description: ${yaml(provenance.description)}}`,
    ...provenance.entries.map(
      (entry) => `- {${entry.name}: ${typeof entry.value === 'number' ? entry.value : yaml(entry.value)}}`,
    ),
    `- {citation: ${yaml(provenance.citation)}}`,
    'schema: astropy-2.0',
  ];
  return `${lines.map((line) => `# ${line}`).join('\r\n')}\r\n`;
}

export function csvWriter(columns: readonly ExportColumn[], provenance: TableProvenance): TableWriter {
  return {
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    begin: () => Buffer.from(`${header(columns, provenance)}${columns.map((column) => column.name).join(',')}\r\n`),
    block: (block) => blockBytes(columns, block),
    end: () => Buffer.alloc(0),
  };
}
