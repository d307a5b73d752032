// CSV (RFC 4180) read record by record from a stream, so that a list of any length is read in
// bounded memory: fields separated by commas, a field in double quotes may hold commas, line
// breaks and doubled quotes (""), lines end in LF or CRLF, a UTF-8 byte order mark is dropped,
// blank lines are skipped. The first record is the header.
import fs from 'node:fs';
import readline from 'node:readline';
import { ImportError } from './import-error';

/** The longest record accepted (a quoted field left open would otherwise swallow the file). */
export const CSV_MAX_RECORD = 64 * 1024;

export interface CsvRecord {
  /** 0 for the header, then the n-th record after it. */
  row: number;
  fields: string[];
}

/**
 * Splits one record's text: its fields, 'open' while a quoted field is still open (the record
 * goes on on the next line), or 'stray' for text after a closing quote.
 */
function splitRecord(text: string): string[] | 'open' | 'stray' {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  let start = true; // at the start of a field
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        if (i < text.length && text[i] !== ',') return 'stray';
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && start) {
      quoted = true;
      start = false;
      i++;
      continue;
    }
    if (c === ',') {
      fields.push(field);
      field = '';
      start = true;
      i++;
      continue;
    }
    field += c;
    start = false;
    i++;
  }
  if (quoted) return 'open';
  fields.push(field);
  return fields;
}

/** The records of a CSV file, header first. */
export async function* csvRecords(file: string): AsyncGenerator<CsvRecord> {
  const lines = readline.createInterface({
    input: fs.createReadStream(file, { encoding: 'utf8' }),
    crlfDelay: Infinity,
  });
  let row = 0;
  let pending: string | undefined;
  let first = true;
  for await (let line of lines) {
    if (first) {
      line = line.replace(/^\uFEFF/, '');
      first = false;
    }
    const text: string = pending === undefined ? line : `${pending}\n${line}`;
    if (pending === undefined && text.trim() === '') continue;
    const fields = splitRecord(text);
    if (fields === 'open') {
      if (text.length > CSV_MAX_RECORD) {
        throw new ImportError(
          file,
          row === 0 ? {} : { row },
          `a quoted field is not closed within ${CSV_MAX_RECORD} characters`,
        );
      }
      pending = text;
      continue;
    }
    pending = undefined;
    if (fields === 'stray') {
      throw new ImportError(
        file,
        row === 0 ? {} : { row },
        `${row === 0 ? 'the header: ' : ''}a closing quote must end its field`,
      );
    }
    yield { row, fields };
    row++;
  }
  if (pending !== undefined) {
    throw new ImportError(file, row === 0 ? {} : { row }, 'a quoted field is not closed at the end of the file');
  }
}
