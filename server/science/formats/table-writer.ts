// What an export format writes: a beginning (which may need the row count, as FITS does), the
// rows a page at a time, and an end, each as bytes, so that the export streams. Every format
// carries the same provenance (where the table comes from: when and by what it was written, the
// course, the rule, the answers counted, the last estimate, and how to cite it), each in its own
// way: FITS keywords and COMMENT cards, VOTable INFO and PARAM, ECSV's YAML header.

/** A row: the writers read `row[column.name]`. */
export type TableRow = Readonly<Record<string, unknown>>;

export interface TableWriter<Row extends TableRow = TableRow> {
  contentType: string;
  extension: string;
  begin(rowCount: number): Buffer;
  rows(rows: readonly Row[]): Buffer;
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
