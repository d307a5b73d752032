// What an export format writes: a beginning (which may need the row count, as FITS does), the
// rows a page at a time, and an end, each as bytes, so that the export streams.
import type { CatalogueRow } from '../catalogue-rows';

export interface TableWriter {
  contentType: string;
  extension: string;
  begin(rowCount: number): Buffer;
  rows(rows: readonly CatalogueRow[]): Buffer;
  end(): Buffer;
}
