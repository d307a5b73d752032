// CSV as ECSV 1.0 (astropy's Enhanced Character Separated Values, APE 6): a header of '#' lines
// holding YAML — every column's name, datatype, unit and description, and the provenance as the
// table's meta — then a line of column names and a line per row, comma-separated as RFC 4180
// (a field with a comma, a quote or a line break in double quotes, quotes doubled); an empty field
// is a null. astropy reads it whole (Table.read(…, format='ascii.ecsv')), TOPCAT and STILTS read
// it as ECSV, and a plain CSV reader that skips '#' lines (pandas' comment='#') reads the table.
import type { ExportColumn } from '../export-columns';
import type { TableProvenance, TableRow, TableWriter } from './table-writer';

/** ECSV's datatypes (APE 6). */
const DATATYPES: Record<ExportColumn['kind'], string> = {
  long: 'int64',
  int: 'int32',
  double: 'float64',
  boolean: 'bool',
  string: 'string',
};

function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  // ECSV's booleans are Python's.
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  const text = String(value);
  return /[",\r\n#]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
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

export function csvWriter<Row extends TableRow>(
  columns: readonly ExportColumn[],
  provenance: TableProvenance,
): TableWriter<Row> {
  return {
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    begin: () => Buffer.from(`${header(columns, provenance)}${columns.map((column) => column.name).join(',')}\r\n`),
    rows: (rows) =>
      Buffer.from(rows.map((row) => `${columns.map((column) => field(row[column.name])).join(',')}\r\n`).join('')),
    end: () => Buffer.alloc(0),
  };
}
