// A course's catalogue as a stream of bytes in one of the export formats (docs/science.md),
// written page by page from the database: neither the rows nor the file are ever whole in memory.
// Used by `galaxy-cruise export` and by the administrators' download (server/routes/science.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { PAGE_ROWS, catalogueRows, countCatalogueRows } from './catalogue-rows';
import { EXPORT_COLUMNS } from './export-columns';
import { csvWriter } from './formats/csv';
import { fitsTableWriter } from './formats/fits-table';
import type { TableWriter } from './formats/table-writer';
import { votableWriter } from './formats/votable';

export const EXPORT_FORMATS = ['csv', 'fits', 'votable'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(format: string): format is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(format);
}

export function exportWriter(format: ExportFormat, courseId: string): TableWriter {
  switch (format) {
    case 'csv':
      return csvWriter(EXPORT_COLUMNS);
    case 'fits':
      return fitsTableWriter(EXPORT_COLUMNS, courseId.toUpperCase());
    case 'votable':
      return votableWriter(
        EXPORT_COLUMNS,
        courseId,
        `Galaxy Cruise consensus catalogue of the course ${courseId}: vote counts, raw and reliability-weighted vote fractions, Dawid-Skene consensus and confidence per target`,
      );
  }
}

/** The file name a download suggests: galaxy-cruise-COURSE.EXT. */
export function exportFileName(format: ExportFormat, courseId: string): string {
  return `galaxy-cruise-${courseId}.${exportWriter(format, courseId).extension}`;
}

/** The export's bytes, a page of rows per chunk. */
export async function* exportCatalogue(
  db: Kysely<Database>,
  courseId: string,
  format: ExportFormat,
): AsyncGenerator<Buffer> {
  const writer = exportWriter(format, courseId);
  const total = format === 'fits' ? await countCatalogueRows(db, courseId) : 0;
  yield writer.begin(total);
  let after = -1;
  let written = 0;
  for (;;) {
    // FITS announced its row count: a target added meanwhile is left for the next export.
    const limit = format === 'fits' ? Math.min(PAGE_ROWS, total - written) : PAGE_ROWS;
    if (limit <= 0) break;
    const page = await catalogueRows(db, courseId, after, limit);
    if (page.length > 0) yield writer.rows(page);
    written += page.length;
    if (page.length < limit) break;
    after = page[page.length - 1]!.object_id;
  }
  yield writer.end();
}
