// The first table of a VOTable (IVOA VOTable 1.x) in the TABLEDATA serialisation, for target
// lists. The project has no XML library, so this is a small strict reader of the XML a VOTable
// is: elements, attributes, character data, CDATA sections, comments and processing
// instructions; the five predefined entities and character references. A DOCTYPE (and with it
// any entity of the file's own) is refused, as is a tag that does not close, so that a file is
// either read as its writer meant or not at all. Namespace prefixes are dropped.
import fs from 'node:fs/promises';
import { ImportError } from './import-error';
import type { Cell, TableRows } from './table-rows';

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

interface FieldInfo {
  name: string;
  datatype: string;
  unit: string | null;
  nullValue: string | null;
}

function decodeText(file: string, text: string): string {
  return text.replace(/&([^;&\s]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new ImportError(file, {}, `XML: '&' does not start an entity: ${whole}`);
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    const entity = ENTITIES[name];
    if (entity === undefined) throw new ImportError(file, {}, `XML: unknown entity &${name};`);
    return entity;
  });
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function parseAttributes(file: string, text: string, tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const pattern = /\s*([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) throw new ImportError(file, {}, `XML: unreadable attributes in <${tag}>`);
    attributes.set(localName(match[1]), decodeText(file, match[2] ?? match[3]));
    at = pattern.lastIndex;
  }
  return attributes;
}

/** A TD's text as the FIELD's datatype says; unparseable text is kept so the message shows it. */
function cellOf(text: string, field: FieldInfo): Cell {
  if (text === '' || text === field.nullValue) return null;
  switch (field.datatype) {
    case 'boolean':
    case 'bit': {
      const lower = text.trim().toLowerCase();
      if (['t', 'true', '1'].includes(lower)) return true;
      if (['f', 'false', '0'].includes(lower)) return false;
      return lower === '?' || lower === '' ? null : text;
    }
    case 'unsignedByte':
    case 'short':
    case 'int':
    case 'long':
    case 'float':
    case 'double': {
      const trimmed = text.trim();
      if (/^[+-]?nan$/i.test(trimmed)) return null;
      const value = Number(trimmed);
      return trimmed !== '' && Number.isFinite(value) ? value : text;
    }
    default:
      return text;
  }
}

/** The rows of the first TABLE's TABLEDATA. */
export async function votableRows(file: string): Promise<TableRows> {
  const xml = (await fs.readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  const fields: FieldInfo[] = [];
  const rows: { row: number; cells: Cell[] }[] = [];
  const stack: string[] = [];
  let tables = 0;
  let sawVotable = false;
  let sawData = false;
  let cells: Cell[] | undefined;
  let text: string | undefined; // the TD being read
  let at = 0;
  const inFirstTable = () => tables === 1 && stack.includes('TABLE');
  while (at < xml.length) {
    const open = xml.indexOf('<', at);
    const chunk = xml.slice(at, open < 0 ? xml.length : open);
    if (text !== undefined) text += decodeText(file, chunk);
    else if (chunk.trim() !== '' && stack.length === 0)
      throw new ImportError(file, {}, 'XML: text outside the root element');
    if (open < 0) break;
    if (xml.startsWith('<!--', open)) {
      const end = xml.indexOf('-->', open + 4);
      if (end < 0) throw new ImportError(file, {}, 'XML: a comment is not closed');
      at = end + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', open)) {
      const end = xml.indexOf(']]>', open + 9);
      if (end < 0) throw new ImportError(file, {}, 'XML: a CDATA section is not closed');
      if (text !== undefined) text += xml.slice(open + 9, end);
      at = end + 3;
      continue;
    }
    if (xml.startsWith('<?', open)) {
      const end = xml.indexOf('?>', open + 2);
      if (end < 0) throw new ImportError(file, {}, 'XML: a processing instruction is not closed');
      at = end + 2;
      continue;
    }
    if (xml.startsWith('<!', open))
      throw new ImportError(file, {}, 'XML: a DOCTYPE or other declaration is not accepted');
    const close = xml.indexOf('>', open);
    if (close < 0) throw new ImportError(file, {}, 'XML: a tag is not closed');
    const body = xml.slice(open + 1, close);
    at = close + 1;
    if (body.startsWith('/')) {
      const name = localName(body.slice(1).trim());
      const top = stack.pop();
      if (top !== name) throw new ImportError(file, {}, `XML: </${name}> closes <${top ?? 'nothing'}>`);
      if (name === 'TD' && cells && text !== undefined) {
        cells.push(cellOf(text, fields[cells.length] ?? { name: '', datatype: 'char', unit: null, nullValue: null }));
        text = undefined;
      } else if (name === 'TR' && cells) {
        const row = rows.length + 1;
        if (cells.length !== fields.length) {
          throw new ImportError(file, { row }, `${cells.length} cells, the table has ${fields.length} fields`);
        }
        rows.push({ row, cells });
        cells = undefined;
      }
      continue;
    }
    const selfClosing = body.endsWith('/');
    const inner = selfClosing ? body.slice(0, -1) : body;
    const nameMatch = /^[^\s/>]+/.exec(inner);
    if (!nameMatch) throw new ImportError(file, {}, 'XML: a tag without a name');
    const name = localName(nameMatch[0]);
    const attributes = parseAttributes(file, inner.slice(nameMatch[0].length), name);
    if (stack.length === 0) {
      if (name !== 'VOTABLE' || sawVotable)
        throw new ImportError(file, {}, `the root element is <${name}>, not <VOTABLE>`);
      sawVotable = true;
    }
    if (name === 'TABLE') tables++;
    if (inFirstTable() || (name === 'TABLE' && tables === 1)) {
      if (name === 'FIELD' && stack.at(-1) === 'TABLE') {
        fields.push({
          name: attributes.get('name') ?? `col${fields.length + 1}`,
          datatype: attributes.get('datatype') ?? 'char',
          unit: attributes.get('unit') ?? null,
          nullValue: null,
        });
      } else if (name === 'VALUES' && stack.at(-1) === 'FIELD' && fields.length > 0) {
        fields[fields.length - 1].nullValue = attributes.get('null') ?? null;
      } else if (stack.at(-1) === 'DATA' && name !== 'INFO') {
        if (name !== 'TABLEDATA') {
          throw new ImportError(file, {}, `the table is serialised as ${name}: only TABLEDATA is read`);
        }
        sawData = true;
      } else if (name === 'TR' && stack.at(-1) === 'TABLEDATA') {
        cells = [];
      } else if (name === 'TD' && cells) {
        if (selfClosing)
          cells.push(cellOf('', fields[cells.length] ?? { name: '', datatype: 'char', unit: null, nullValue: null }));
        else text = '';
      }
    }
    if (!selfClosing) stack.push(name);
  }
  if (stack.length > 0) throw new ImportError(file, {}, `XML: <${stack.at(-1)}> is not closed at the end of the file`);
  if (!sawVotable) throw new ImportError(file, {}, 'the file is not a VOTable (no <VOTABLE> element)');
  if (tables === 0) throw new ImportError(file, {}, 'the VOTable has no TABLE');
  if (!sawData && rows.length === 0 && fields.length === 0) throw new ImportError(file, {}, 'the VOTable has no TABLE');
  async function* each() {
    yield* rows;
  }
  return { columns: fields.map((field) => field.name), units: fields.map((field) => field.unit), rows: each() };
}
