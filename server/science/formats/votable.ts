// A VOTable 1.4 document (IVOA Recommendation 2019-10-21) with the catalogue as TABLEDATA: each
// FIELD with its datatype, unit, UCD and DESCRIPTION, ra and dec referring to an ICRS COOSYS. An
// empty TD is a null (NaN for a double).
import type { CatalogueRow } from '../catalogue-rows';
import type { ExportColumn } from '../export-columns';
import type { TableWriter } from './table-writer';

const DATATYPES: Record<ExportColumn['kind'], string> = {
  long: 'long',
  int: 'int',
  double: 'double',
  boolean: 'boolean',
  string: 'char',
};

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function cell(column: ExportColumn, value: CatalogueRow[keyof CatalogueRow]): string {
  if (value === null || value === undefined) return '<TD/>';
  if (column.kind === 'boolean') return `<TD>${value ? 'T' : 'F'}</TD>`;
  if (typeof value === 'number' && !Number.isFinite(value)) return '<TD/>';
  return `<TD>${escapeXml(String(value))}</TD>`;
}

export function votableWriter(columns: readonly ExportColumn[], tableName: string, description: string): TableWriter {
  return {
    contentType: 'application/x-votable+xml',
    extension: 'vot',
    begin() {
      const fields = columns.map((column) => {
        const attributes = [
          `name="${column.name}"`,
          `datatype="${DATATYPES[column.kind]}"`,
          column.kind === 'string' ? 'arraysize="*"' : '',
          column.unit ? `unit="${escapeXml(column.unit)}"` : '',
          column.ucd ? `ucd="${column.ucd}"` : '',
          column.name === 'ra' || column.name === 'dec' ? 'ref="icrs"' : '',
        ].filter(Boolean);
        return `   <FIELD ${attributes.join(' ')}><DESCRIPTION>${escapeXml(column.description)}</DESCRIPTION></FIELD>\n`;
      });
      return Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
          '<VOTABLE version="1.4" xmlns="http://www.ivoa.net/xml/VOTable/v1.3"' +
          ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
          ' xsi:schemaLocation="http://www.ivoa.net/xml/VOTable/v1.3 http://www.ivoa.net/xml/VOTable/v1.3">\n' +
          ' <RESOURCE type="results">\n' +
          '  <COOSYS ID="icrs" system="ICRS"/>\n' +
          `  <TABLE name="${escapeXml(tableName)}">\n` +
          `   <DESCRIPTION>${escapeXml(description)}</DESCRIPTION>\n` +
          fields.join('') +
          '   <DATA>\n    <TABLEDATA>\n',
      );
    },
    rows: (rows) =>
      Buffer.from(
        rows
          .map((row) => `     <TR>${columns.map((column) => cell(column, row[column.name])).join('')}</TR>\n`)
          .join(''),
      ),
    end: () => Buffer.from('    </TABLEDATA>\n   </DATA>\n  </TABLE>\n </RESOURCE>\n</VOTABLE>\n'),
  };
}
