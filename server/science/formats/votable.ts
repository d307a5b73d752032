// A VOTable 1.4 document (IVOA Recommendation 2019-10-21) with a table as TABLEDATA: the
// provenance as INFO elements of the RESOURCE (text: when, by what, which course) and PARAM
// elements of the TABLE (numbers: the rule, the answers counted), each FIELD with its datatype,
// unit, UCD and DESCRIPTION, ra and dec referring to an ICRS COOSYS. An empty TD is a null (NaN
// for a double).
import type { ExportColumn } from '../export-columns';
import type { ProvenanceEntry, TableProvenance, TableRow, TableWriter } from './table-writer';

const DATATYPES: Record<ExportColumn['kind'], string> = {
  long: 'long',
  int: 'int',
  double: 'double',
  boolean: 'boolean',
  string: 'char',
};

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function cell(column: ExportColumn, value: unknown): string {
  if (value === null || value === undefined) return '<TD/>';
  if (column.kind === 'boolean') return `<TD>${value ? 'T' : 'F'}</TD>`;
  if (typeof value === 'number' && !Number.isFinite(value)) return '<TD/>';
  return `<TD>${escapeXml(String(value))}</TD>`;
}

const attributes = (list: (string | false | undefined)[]) => list.filter(Boolean).join(' ');

/** A number is a PARAM (typed, with a unit and a UCD); text an INFO. */
function provenanceElement(entry: ProvenanceEntry, indent: string): string {
  const description = `<DESCRIPTION>${escapeXml(entry.description)}</DESCRIPTION>`;
  if (typeof entry.value === 'number') {
    const datatype = Number.isInteger(entry.value) ? 'long' : 'double';
    return `${indent}<PARAM ${attributes([
      `name="${escapeXml(entry.name)}"`,
      `datatype="${datatype}"`,
      `value="${entry.value}"`,
      entry.unit && `unit="${escapeXml(entry.unit)}"`,
      entry.ucd && `ucd="${entry.ucd}"`,
    ])}>${description}</PARAM>\n`;
  }
  return `${indent}<INFO name="${escapeXml(entry.name)}" value="${escapeXml(entry.value)}">${escapeXml(entry.description)}</INFO>\n`;
}

export function votableWriter<Row extends TableRow>(
  columns: readonly ExportColumn[],
  provenance: TableProvenance,
): TableWriter<Row> {
  return {
    contentType: 'application/x-votable+xml',
    extension: 'vot',
    begin() {
      const fields = columns.map((column) => {
        const list = [
          `name="${column.name}"`,
          `datatype="${column.kind === 'string' && column.unicode ? 'unicodeChar' : DATATYPES[column.kind]}"`,
          column.kind === 'string' && 'arraysize="*"',
          column.unit && `unit="${escapeXml(column.unit)}"`,
          column.ucd && `ucd="${column.ucd}"`,
          (column.name === 'ra' || column.name === 'dec') && 'ref="icrs"',
        ];
        return `   <FIELD ${attributes(list)}><DESCRIPTION>${escapeXml(column.description)}</DESCRIPTION></FIELD>\n`;
      });
      const text = provenance.entries.filter((entry) => typeof entry.value !== 'number');
      const numbers = provenance.entries.filter((entry) => typeof entry.value === 'number');
      return Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
          '<VOTABLE version="1.4" xmlns="http://www.ivoa.net/xml/VOTable/v1.3"' +
          ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
          ' xsi:schemaLocation="http://www.ivoa.net/xml/VOTable/v1.3 http://www.ivoa.net/xml/VOTable/v1.3">\n' +
          ' <RESOURCE type="results">\n' +
          `  <DESCRIPTION>${escapeXml(provenance.description)}</DESCRIPTION>\n` +
          text.map((entry) => provenanceElement(entry, '  ')).join('') +
          `  <INFO name="citation" value="${escapeXml(provenance.citation)}">How to cite this table</INFO>\n` +
          '  <COOSYS ID="icrs" system="ICRS"/>\n' +
          `  <TABLE name="${escapeXml(provenance.name)}">\n` +
          `   <DESCRIPTION>${escapeXml(provenance.description)}</DESCRIPTION>\n` +
          numbers.map((entry) => provenanceElement(entry, '   ')).join('') +
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
