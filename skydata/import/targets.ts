// A research group's target list (issue 30): a CSV file, a FITS BINTABLE or a VOTable
// (TABLEDATA) with the columns
//
//   id            a whole number from 1 to 2^53 − 1, unique in the list (required)
//   ra, dec       degrees, or sexagesimal strings "hh:mm:ss.s" and "±dd:mm:ss" (required);
//                 ICRS / J2000
//   name          text, at most 200 characters
//   galaxy_type   the true morphology, for training and accuracy: elliptical, spiral, not_sure
//   interaction   yes, no, not_sure
//   ring, fan, tail, distorted   true or false (the answer form's features)
//   captain_note  text for the captain's note, at most 2000 characters
//
// Column names are matched without regard to case; other columns are ignored; an empty cell of
// an optional column is left unset. Every malformed value is refused with an ImportError naming
// the file, the row and the column. Rows come one at a time (readTargets), so a list of any
// length is read with the memory of one row; readTargetList collects them and refuses a
// repeated id.
import path from 'node:path';
import type { ImportedTarget } from '../../shared/courses';
import { GALAXY_TYPES, INTERACTIONS } from '../../shared/enums';
import { csvRecords } from './csv';
import { fitsTableRows } from './fits-table';
import { ImportError, quote } from './import-error';
import type { Cell, TableRows } from './table-rows';
import { votableRows } from './votable';

export const REQUIRED_COLUMNS = ['id', 'ra', 'dec'] as const;
export const OPTIONAL_COLUMNS = [
  'name',
  'galaxy_type',
  'interaction',
  'ring',
  'fan',
  'tail',
  'distorted',
  'captain_note',
] as const;
type Column = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];

export const NAME_MAX = 200;
export const CAPTAIN_NOTE_MAX = 2000;

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const RA_SEXAGESIMAL = /^(\d{1,2})(?::|\s+)(\d{1,2})(?::|\s+)(\d{1,2}(?:\.\d*)?)$/;
const DEC_SEXAGESIMAL = /^([+\-−]?)(\d{1,2})(?::|\s+)(\d{1,2})(?::|\s+)(\d{1,2}(?:\.\d*)?)$/;
const DEGREE_UNITS = new Set(['deg', 'degree', 'degrees']);

/**
 * Right ascension in degrees, in [0, 360), from a number (degrees) or a string (degrees or
 * hh:mm:ss.s). 360° and 24:00:00 are taken as 0: astropy writes 24:00:00.000 for a right
 * ascension that rounds up to it.
 */
export function parseRightAscension(cell: Cell): number | undefined {
  if (typeof cell === 'number') return cell >= 0 && cell <= 360 ? cell % 360 : undefined;
  if (typeof cell !== 'string') return undefined;
  const text = cell.trim();
  if (DECIMAL.test(text)) return parseRightAscension(Number(text));
  const match = RA_SEXAGESIMAL.exec(text);
  if (!match) return undefined;
  const [h, m, s] = match.slice(1).map(Number);
  if (h > 24 || m >= 60 || s >= 60 || (h === 24 && (m > 0 || s > 0))) return undefined;
  return ((h + m / 60 + s / 3600) * 15) % 360;
}

/** Declination in degrees from a number (degrees) or a string (degrees or ±dd:mm:ss.s). */
export function parseDeclination(cell: Cell): number | undefined {
  if (typeof cell === 'number') return cell >= -90 && cell <= 90 ? cell : undefined;
  if (typeof cell !== 'string') return undefined;
  const text = cell.trim().replace(/^−/, '-');
  if (DECIMAL.test(text)) return parseDeclination(Number(text));
  const match = DEC_SEXAGESIMAL.exec(text);
  if (!match) return undefined;
  const [d, m, s] = match.slice(2).map(Number);
  if (m >= 60 || s >= 60) return undefined;
  const value = d + m / 60 + s / 3600;
  if (value > 90) return undefined;
  return match[1] === '' || match[1] === '+' ? value : -value;
}

function parseId(cell: Cell): number | undefined {
  const value = typeof cell === 'string' && /^\s*\d+\s*$/.test(cell) ? Number(cell) : cell;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : undefined;
}

function parseBoolean(cell: Cell): boolean | undefined {
  if (typeof cell === 'boolean') return cell;
  if (typeof cell === 'number') return cell === 1 ? true : cell === 0 ? false : undefined;
  const text = typeof cell === 'string' ? cell.trim().toLowerCase() : '';
  if (['true', 't', '1'].includes(text)) return true;
  if (['false', 'f', '0'].includes(text)) return false;
  return undefined;
}

function isEmpty(cell: Cell): boolean {
  return (
    cell === null ||
    (typeof cell === 'string' && cell.trim() === '') ||
    (typeof cell === 'number' && Number.isNaN(cell))
  );
}

/** Where each known column lies in a table's columns; refuses a missing or repeated one. */
function columnIndexes(file: string, table: TableRows): Map<Column, number> {
  const indexes = new Map<Column, number>();
  const known = new Set<string>([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);
  table.columns.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if (!known.has(name)) return;
    if (indexes.has(name as Column)) throw new ImportError(file, { column: name }, 'the column appears twice');
    indexes.set(name as Column, index);
  });
  for (const column of REQUIRED_COLUMNS) {
    if (!indexes.has(column)) {
      const have = table.columns.length > 0 ? `the table has ${table.columns.join(', ')}` : 'the table has no columns';
      throw new ImportError(file, { column }, `the column is missing (${have})`);
    }
  }
  for (const column of ['ra', 'dec'] as const) {
    const unit = table.units[indexes.get(column)!];
    if (unit && !DEGREE_UNITS.has(unit.trim().toLowerCase())) {
      throw new ImportError(file, { column }, `unit ${quote(unit)} is not degrees`);
    }
  }
  return indexes;
}

/** One row's cells → a target; throws an ImportError naming the row and the column. */
function targetOf(file: string, row: number, cells: Cell[], indexes: Map<Column, number>): ImportedTarget {
  const cell = (column: Column): Cell => {
    const index = indexes.get(column);
    return index === undefined ? null : (cells[index] ?? null);
  };
  const refuse = (column: Column, reason: string): never => {
    throw new ImportError(file, { row, column }, `${quote(cell(column))} ${reason}`);
  };
  const id = parseId(cell('id')) ?? refuse('id', 'is not an id (a whole number from 1 to 2^53 − 1)');
  const ra = parseRightAscension(cell('ra')) ?? refuse('ra', 'is not a right ascension (0 to 360, or hh:mm:ss.s)');
  const dec = parseDeclination(cell('dec')) ?? refuse('dec', 'is not a declination (−90 to 90)');
  const text = (column: 'name' | 'captain_note', max: number): string | null => {
    const value = cell(column);
    if (isEmpty(value)) return null;
    const string = String(value).trim();
    if (string.length > max) {
      throw new ImportError(file, { row, column }, `${string.length} characters, at most ${max} allowed`);
    }
    return string;
  };
  const choice = <T extends string>(column: 'galaxy_type' | 'interaction', values: readonly T[]): T | null => {
    const value = cell(column);
    if (isEmpty(value)) return null;
    const string = String(value).trim();
    return (values as readonly string[]).includes(string)
      ? (string as T)
      : refuse(column, `is not one of ${values.join(', ')}`);
  };
  const flag = (column: 'ring' | 'fan' | 'tail' | 'distorted'): boolean | null => {
    const value = cell(column);
    if (isEmpty(value)) return null;
    return parseBoolean(value) ?? refuse(column, 'is not true or false');
  };
  return {
    row,
    id,
    ra,
    dec,
    name: text('name', NAME_MAX),
    galaxyType: choice('galaxy_type', GALAXY_TYPES),
    interaction: choice('interaction', INTERACTIONS),
    ring: flag('ring'),
    fan: flag('fan'),
    tail: flag('tail'),
    distorted: flag('distorted'),
    captainNote: text('captain_note', CAPTAIN_NOTE_MAX),
  };
}

export type TargetListFormat = 'csv' | 'fits' | 'votable';

/** The format a file name says: .csv; .fits, .fit, .fts; .vot, .votable, .xml. */
export function targetListFormat(file: string): TargetListFormat {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (['.fits', '.fit', '.fts'].includes(extension)) return 'fits';
  if (['.vot', '.votable', '.xml'].includes(extension)) return 'votable';
  throw new ImportError(file, {}, 'a target list is a .csv, .fits or .vot (VOTable) file');
}

async function csvTable(file: string): Promise<TableRows> {
  const records = csvRecords(file)[Symbol.asyncIterator]();
  const header = await records.next();
  if (header.done) throw new ImportError(file, {}, 'the file is empty (a header line of column names comes first)');
  const columns = header.value.fields;
  async function* rows() {
    for (let next = await records.next(); !next.done; next = await records.next()) {
      const { row, fields } = next.value;
      if (fields.length !== columns.length) {
        throw new ImportError(file, { row }, `${fields.length} fields, the header has ${columns.length}`);
      }
      yield { row, cells: fields as Cell[] };
    }
  }
  return { columns, units: columns.map(() => null), rows: rows() };
}

/** The targets of a list, one at a time, each checked (repeated ids are readTargetList's check). */
export async function* readTargets(file: string): AsyncGenerator<ImportedTarget> {
  const format = targetListFormat(file);
  const table =
    format === 'csv'
      ? await csvTable(file)
      : format === 'fits'
        ? await fitsTableRows(file, new Set([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]))
        : await votableRows(file);
  const indexes = columnIndexes(file, table);
  for await (const { row, cells } of table.rows) yield targetOf(file, row, cells, indexes);
}

/** Every target of a list; refuses an empty list and a repeated id. */
export async function readTargetList(file: string): Promise<ImportedTarget[]> {
  const targets: ImportedTarget[] = [];
  const rowOfId = new Map<number, number>();
  for await (const target of readTargets(file)) {
    const first = rowOfId.get(target.id);
    if (first !== undefined) {
      throw new ImportError(file, { row: target.row, column: 'id' }, `${target.id} repeats the id of row ${first}`);
    }
    rowOfId.set(target.id, target.row);
    targets.push(target);
  }
  if (targets.length === 0) throw new ImportError(file, {}, 'the list has no targets');
  return targets;
}
