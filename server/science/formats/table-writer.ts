// What an export format writes: a beginning (which may need the row count, as FITS does), the
// rows a block at a time, and an end, each as bytes, so that the export streams with memory that
// does not grow with the rows. A block holds its rows as columns (typed arrays), as they were
// read from the database (../catalogue-rows.ts, ../answer-rows.ts): the writers never build an
// object per row. Every format carries the same provenance (where the table comes from: when and
// by what it was written, the course, the rule, the answers counted, the last estimate, and how
// to cite it), each in its own way: FITS keywords and COMMENT cards, VOTable INFO and PARAM,
// ECSV's YAML header.
import type { ColumnKind } from '../export-columns';

/**
 * A column's values in a block, by its kind: `long` and `double` a Float64Array (NaN a null; ids
 * stay below 2^53), `int` an Int32Array, `boolean` a Uint8Array (0 or 1), `string` a list (null a
 * null).
 */
export type ColumnValues = Float64Array | Int32Array | Uint8Array | readonly (string | null)[];

export interface ColumnBlock {
  length: number;
  /** By column name. */
  columns: Readonly<Record<string, ColumnValues>>;
}

/** The values of a column of `kind` in a block (the writers' one reading of ColumnValues). */
export type ValuesOf<K extends ColumnKind> = K extends 'long' | 'double'
  ? Float64Array
  : K extends 'int'
    ? Int32Array
    : K extends 'boolean'
      ? Uint8Array
      : readonly (string | null)[];

export interface TableWriter {
  contentType: string;
  extension: string;
  begin(rowCount: number): Buffer;
  block(block: ColumnBlock): Buffer;
  end(): Buffer;
}

/** One fact of the provenance. */
export interface ProvenanceEntry {
  /** The FITS keyword (at most 8 of A-Z, 0-9, '-', '_'). */
  keyword: string;
  /** The name in VOTable and ECSV. */
  name: string;
  value: string | number;
  /** What it is, in a line (FITS comment, VOTable DESCRIPTION). */
  description: string;
  ucd?: string;
  unit?: string;
}

export interface TableProvenance {
  /** The table's name (FITS EXTNAME, VOTable TABLE name). */
  name: string;
  /** What the table is, in a sentence. */
  description: string;
  entries: ProvenanceEntry[];
  /** How to cite the table, in a line. */
  citation: string;
}
