// CSV as ECSV 1.0 (astropy's Enhanced Character Separated Values, APE 6): a header of '#' lines
// holding YAML — every column's name, datatype, unit and description, and the provenance as the
// table's meta — then a line of column names and a line per row, comma-separated as RFC 4180
// (a field with a comma, a quote or a line break in double quotes, quotes doubled); an empty field
// is a null. astropy reads it whole (Table.read(…, format='ascii.ecsv')), TOPCAT and STILTS read
// it as ECSV, and a plain CSV reader that skips '#' lines (pandas' comment='#') reads the table.
// A block's fields are made column by column (a number by String, the shortest text that reads
// back as the same double; a text field quoted once per distinct value), then written row by row
// straight into one buffer of the block's exact size.
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

/** Each row's field of `column`, as text. */
function fields(column: ExportColumn, values: ColumnBlock['columns'][string], length: number): string[] {
  const out = new Array<string>(length);
  switch (column.kind) {
    case 'long':
    case 'double': {
      const numbers = values as ValuesOf<'double'>;
      for (let row = 0; row < length; row += 1) {
        const value = numbers[row]!;
        out[row] = Number.isFinite(value) ? String(value) : '';
      }
      return out;
    }
    case 'int': {
      const ints = values as ValuesOf<'int'>;
      for (let row = 0; row < length; row += 1) out[row] = String(ints[row]!);
      return out;
    }
    case 'boolean': {
      // ECSV's booleans are Python's.
      const flags = values as ValuesOf<'boolean'>;
      for (let row = 0; row < length; row += 1) out[row] = flags[row] ? 'True' : 'False';
      return out;
    }
    case 'string': {
      const texts = values as ValuesOf<'string'>;
      const quoted = new Map<string | null, string>();
      for (let row = 0; row < length; row += 1) {
        const text = texts[row] ?? null;
        let field = quoted.get(text);
        if (field === undefined) {
          field = textField(text);
          quoted.set(text, field);
        }
        out[row] = field;
      }
      return out;
    }
  }
}

/**
 * A block's lines written straight into one buffer of their exact size: no string per line. A
 * number's or a flag's text is ASCII (a byte a character); a text column's is UTF-8.
 */
function blockBytes(columns: readonly ExportColumn[], block: ColumnBlock): Buffer {
  const length = block.length;
  const texts = columns.map((column) => fields(column, block.columns[column.name]!, length));
  const unicode = columns.map((column) => column.kind === 'string');
  // Separators and line ends: a comma between fields, CR LF after each row.
  let size = length * (columns.length - 1 + 2);
  texts.forEach((column, index) => {
    if (unicode[index]) for (const text of column) size += Buffer.byteLength(text, 'utf8');
    else for (const text of column) size += text.length;
  });
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (let row = 0; row < length; row += 1) {
    for (let index = 0; index < texts.length; index += 1) {
      if (index > 0) bytes[at++] = 0x2c;
      const text = texts[index]![row]!;
      at += bytes.write(text, at, unicode[index] ? 'utf8' : 'latin1');
    }
    bytes[at++] = 0x0d;
    bytes[at++] = 0x0a;
  }
  return bytes;
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
