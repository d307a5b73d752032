// A table of targets as every reader gives it (csv.ts through targets.ts, fits-table.ts,
// votable.ts): its column names and units, then its rows, read one at a time.

export type Cell = string | number | boolean | null;

/** A table read row by row: its column names (and units, where the format has them), then rows. */
export interface TableRows {
  columns: string[];
  units: (string | null)[];
  rows: AsyncIterable<{ row: number; cells: Cell[] }>;
}
