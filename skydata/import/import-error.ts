// The one shape of a refused import file: the file, then the row and the column where they are
// known, then what is wrong, e.g. "targets.csv: row 17, column dec: '-95.2' is not a declination
// (−90 to 90)". The file is named by its base name, as the research group sees it in the
// manifest. Rows are the n-th target of the table (a header line or header cards not counted);
// a JSON file's member is named by its path ("survey.json: name.ja: …").
import path from 'node:path';

export interface ImportErrorPlace {
  row?: number;
  column?: string;
  /** A JSON file's member, as a path: 'name.ja', 'retirement.min_confidence'. */
  field?: string;
}

export class ImportError extends Error {
  constructor(
    readonly file: string,
    readonly place: ImportErrorPlace,
    readonly reason: string,
  ) {
    const where = [
      place.row === undefined ? undefined : `row ${place.row}`,
      place.column === undefined ? undefined : `column ${place.column}`,
      place.field,
    ].filter((part) => part !== undefined);
    super(`${path.basename(file)}: ${where.length > 0 ? `${where.join(', ')}: ` : ''}${reason}`);
    this.name = 'ImportError';
  }
}

/** A value as a message quotes it: strings in single quotes, others as written. */
export function quote(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}
