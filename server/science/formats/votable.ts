// A VOTable 1.4 document (IVOA Recommendation 2019-10-21): the provenance as INFO elements of the
// RESOURCE (text: when, by what, which course) and PARAM elements of the TABLE (numbers: the rule,
// the answers counted), each FIELD with its datatype, unit, UCD and DESCRIPTION, ra and dec
// referring to an ICRS COOSYS. The rows:
//   - up to TABLEDATA_ROWS as TABLEDATA (§5.1): XML a person can read, an empty TD a null;
//   - more as BINARY2 (§5.4, new in 1.3): each row a null mask (a bit per field, the first field
//     in the high bit of the first byte) then every field big-endian as in FITS — long 8 bytes,
//     int 4, double 8, boolean one character 'T' or 'F', char[*] a 4-byte count then the bytes,
//     unicodeChar[*] a count then UCS-2 big-endian — base64-encoded in a STREAM in lines
//     of 65,536 characters (VOTable asks for no line length, and XML parsers skip the breaks:
//     lines of MIME's 76 would cost a string per 57 bytes). Text is the byte of slow XML parsing; a million rows
//     of TABLEDATA are half a gigabyte that astropy reads in minutes, BINARY2 a tenth of it.
import type { ExportColumn } from '../export-columns';
import type { ColumnBlock, ProvenanceEntry, TableProvenance, TableWriter, ValuesOf } from './table-writer';

/** Tables longer than this are written as BINARY2. */
export const TABLEDATA_ROWS = 10_000;

const DATATYPES: Record<ExportColumn['kind'], string> = {
  long: 'long',
  int: 'int',
  double: 'double',
  boolean: 'boolean',
  string: 'char',
};

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Row `row`'s TABLEDATA cell of `column`. */
function cell(column: ExportColumn, values: ColumnBlock['columns'][string], row: number): string {
  switch (column.kind) {
    case 'boolean':
      return (values as ValuesOf<'boolean'>)[row] ? '<TD>T</TD>' : '<TD>F</TD>';
    case 'string': {
      const text = (values as ValuesOf<'string'>)[row];
      return text === null || text === undefined ? '<TD/>' : `<TD>${escapeXml(text)}</TD>`;
    }
    default: {
      const value = (values as Float64Array | Int32Array)[row]!;
      return Number.isFinite(value) ? `<TD>${value}</TD>` : '<TD/>';
    }
  }
}

const BINARY_WIDTHS: Record<Exclude<ExportColumn['kind'], 'string'>, number> = {
  long: 8,
  int: 4,
  double: 8,
  boolean: 1,
};

/** A block's rows in BINARY2's layout (before base64). */
function binaryRows(columns: readonly ExportColumn[], block: ColumnBlock): Buffer {
  const maskBytes = Math.ceil(columns.length / 8);
  const values = columns.map((column) => block.columns[column.name]!);
  // Strings vary in length: their bytes first, so the block's size is known.
  const encoded = columns.map((column, index) => {
    if (column.kind !== 'string') return undefined;
    const made = new Map<string, Buffer>();
    return (values[index] as ValuesOf<'string'>).map((text) => {
      if (text === null) return null;
      let bytes = made.get(text);
      if (!bytes) {
        bytes = column.unicode
          ? Buffer.from(text, 'utf16le').swap16()
          : Buffer.from(text.replace(/[\u0080-\uffff]/g, '?'), 'latin1');
        made.set(text, bytes);
      }
      return bytes;
    });
  });
  let size = block.length * maskBytes;
  columns.forEach((column, index) => {
    if (column.kind === 'string') for (const bytes of encoded[index]!) size += 4 + (bytes?.length ?? 0);
    else size += block.length * BINARY_WIDTHS[column.kind];
  });
  const bytes = Buffer.alloc(size);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  let at = 0;
  for (let row = 0; row < block.length; row += 1) {
    const mask = at;
    at += maskBytes;
    for (let index = 0; index < columns.length; index += 1) {
      const column = columns[index]!;
      switch (column.kind) {
        case 'long': {
          const value = (values[index] as ValuesOf<'long'>)[row]!;
          if (Number.isNaN(value)) bytes[mask + (index >> 3)]! |= 0x80 >> (index & 7);
          else {
            view.setInt32(at, Math.floor(value / 4294967296));
            view.setUint32(at + 4, value >>> 0);
          }
          at += 8;
          break;
        }
        case 'int':
          view.setInt32(at, (values[index] as ValuesOf<'int'>)[row]!);
          at += 4;
          break;
        case 'double': {
          const value = (values[index] as ValuesOf<'double'>)[row]!;
          if (Number.isNaN(value)) bytes[mask + (index >> 3)]! |= 0x80 >> (index & 7);
          view.setFloat64(at, value);
          at += 8;
          break;
        }
        case 'boolean':
          bytes[at] = (values[index] as ValuesOf<'boolean'>)[row] ? 0x54 : 0x46;
          at += 1;
          break;
        case 'string': {
          const text = encoded[index]![row]!;
          if (text === null) {
            bytes[mask + (index >> 3)]! |= 0x80 >> (index & 7);
            at += 4;
          } else {
            view.setUint32(at, column.unicode ? text.length / 2 : text.length);
            bytes.set(text, at + 4);
            at += 4 + text.length;
          }
        }
      }
    }
  }
  return bytes;
}

/** Bytes of a base64 line: a multiple of 3, so that lines join without padding inside. */
const LINE_BYTES = 3 * 16_384;

/** Base64 lines of 65,536 characters (LINE_BYTES each, the last one shorter), written into one buffer. */
function base64Lines(bytes: Buffer): Buffer {
  const out = Buffer.allocUnsafe(Math.ceil(bytes.length / 3) * 4 + Math.ceil(bytes.length / LINE_BYTES));
  let at = 0;
  for (let start = 0; start < bytes.length; start += LINE_BYTES) {
    at += out.write(bytes.toString('base64', start, Math.min(start + LINE_BYTES, bytes.length)), at, 'latin1');
    out[at++] = 0x0a;
  }
  return out.subarray(0, at);
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

export function votableWriter(columns: readonly ExportColumn[], provenance: TableProvenance): TableWriter {
  let binary = false;
  /** BINARY2 bytes not yet encoded (fewer than a line's LINE_BYTES, carried to the next block). */
  let carried = Buffer.alloc(0);
  return {
    contentType: 'application/x-votable+xml',
    extension: 'vot',
    begin(rowCount) {
      binary = rowCount > TABLEDATA_ROWS;
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
          (binary ? '   <DATA>\n    <BINARY2>\n     <STREAM encoding="base64">\n' : '   <DATA>\n    <TABLEDATA>\n'),
      );
    },
    block(block) {
      if (binary) {
        const bytes = Buffer.concat([carried, binaryRows(columns, block)]);
        const whole = bytes.length - (bytes.length % LINE_BYTES);
        carried = Buffer.from(bytes.subarray(whole));
        return base64Lines(bytes.subarray(0, whole));
      }
      const lines: string[] = [];
      for (let row = 0; row < block.length; row += 1)
        lines.push(
          `     <TR>${columns.map((column) => cell(column, block.columns[column.name]!, row)).join('')}</TR>\n`,
        );
      return Buffer.from(lines.join(''));
    },
    end: () =>
      binary
        ? Buffer.concat([
            base64Lines(carried),
            Buffer.from('     </STREAM>\n    </BINARY2>\n   </DATA>\n  </TABLE>\n </RESOURCE>\n</VOTABLE>\n'),
          ])
        : Buffer.from('    </TABLEDATA>\n   </DATA>\n  </TABLE>\n </RESOURCE>\n</VOTABLE>\n'),
  };
}
