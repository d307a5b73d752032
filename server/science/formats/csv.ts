// CSV as ECSV 1.0 (astropy's Enhanced Character Separated Values, APE 6): a header of '#' lines
// holding YAML — every column's name, datatype, unit and description, and the provenance as the
// table's meta — then a line of column names and a line per row, comma-separated as RFC 4180
// (a field with a comma, a quote or a line break in double quotes, quotes doubled); an empty field
// is a null. astropy reads it whole (Table.read(…, format='ascii.ecsv')), TOPCAT and STILTS read
// it as ECSV, and a plain CSV reader that skips '#' lines (pandas' comment='#') reads the table.
// A block's lines are made column by column into per-row arrays of fields: a number is written by
// String (the shortest text that reads back as the same double), a text field is quoted once per
// distinct value.
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

/** Each row's field of `column` appended to its line so far. */
function addFields(lines: string[], column: ExportColumn, values: ColumnBlock['columns'][string], first: boolean) {
  const separator = first ? '' : ',';
  switch (column.kind) {
    case 'long':
    case 'double': {
      const numbers = values as ValuesOf<'double'>;
      for (let row = 0; row < lines.length; row += 1) {
        const value = numbers[row]!;
        lines[row] += Number.isFinite(value) ? `${separator}${value}` : separator;
      }
      return;
    }
    case 'int': {
      const ints = values as ValuesOf<'int'>;
      for (let row = 0; row < lines.length; row += 1) lines[row] += `${separator}${ints[row]!}`;
      return;
    }
    case 'boolean': {
      // ECSV's booleans are Python's.
      const flags = values as ValuesOf<'boolean'>;
      for (let row = 0; row < lines.length; row += 1)
        lines[row] += flags[row] ? `${separator}True` : `${separator}False`;
      return;
    }
    case 'string': {
      const texts = values as ValuesOf<'string'>;
      const quoted = new Map<string | null, string>();
      for (let row = 0; row < lines.length; row += 1) {
        const text = texts[row] ?? null;
        let field = quoted.get(text);
        if (field === undefined) {
          field = separator + textField(text);
          quoted.set(text, field);
        }
        lines[row] += field;
      }
    }
  }
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
    block(block) {
      const lines = new Array<string>(block.length).fill('');
      columns.forEach((column, index) => addFields(lines, column, block.columns[column.name]!, index === 0));
      return Buffer.from(lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`);
    },
    end: () => Buffer.alloc(0),
  };
}
