// CSV (RFC 4180): a header line of column names, then a line per row; an empty field is a null.
import type { CatalogueRow } from '../catalogue-rows';
import type { ExportColumn } from '../export-columns';
import type { TableWriter } from './table-writer';

function field(value: CatalogueRow[keyof CatalogueRow]): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvWriter(columns: readonly ExportColumn[]): TableWriter {
  return {
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    begin: () => Buffer.from(`${columns.map((column) => column.name).join(',')}\r\n`),
    rows: (rows) =>
      Buffer.from(rows.map((row) => `${columns.map((column) => field(row[column.name])).join(',')}\r\n`).join('')),
    end: () => Buffer.alloc(0),
  };
}
