// A course's catalogue as a stream of bytes in one of the export formats (docs/science.md),
// written page by page from the database: neither the rows nor the file are ever whole in memory.
// Every file says where it comes from (its provenance, read once before the rows): when and by
// which version it was written, the course and its rule, the answers counted, the last estimate
// of the volunteers' reliability, and a citation line. Used by `galaxy-cruise export` and by the
// administrators' download (server/routes/science.ts).
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { projectRoot } from '../config';
import type { Database } from '../db/schema';
import { PAGE_ROWS, catalogueRows, countCatalogueRows, longestTargetName, type CatalogueRow } from './catalogue-rows';
import { catalogueColumns, type ExportColumn } from './export-columns';
import { csvWriter } from './formats/csv';
import { fitsTableWriter } from './formats/fits-table';
import type { ProvenanceEntry, TableProvenance, TableRow, TableWriter } from './formats/table-writer';
import { votableWriter } from './formats/votable';

export const EXPORT_FORMATS = ['csv', 'fits', 'votable'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(format: string): format is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(format);
}

/** The software that writes the files: galaxy-cruise and the version in package.json. */
export const SOFTWARE = `galaxy-cruise ${
  (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version
}`;

/** A table in one format, with its columns and provenance (a raw-answer table would be another). */
export function tableWriter<Row extends TableRow>(
  format: ExportFormat,
  columns: readonly ExportColumn[],
  provenance: TableProvenance,
): TableWriter<Row> {
  switch (format) {
    case 'csv':
      return csvWriter(columns, provenance);
    case 'fits':
      return fitsTableWriter(columns, provenance);
    case 'votable':
      return votableWriter(columns, provenance);
  }
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  fits: 'application/fits',
  votable: 'application/x-votable+xml',
};
const EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', fits: 'fits', votable: 'vot' };

export function exportContentType(format: ExportFormat): string {
  return CONTENT_TYPES[format];
}

/** The file name a download suggests: galaxy-cruise-COURSE.EXT. */
export function exportFileName(format: ExportFormat, courseId: string): string {
  return `galaxy-cruise-${courseId}.${EXTENSIONS[format]}`;
}

/** FITS's date format (Standard 4.0 §4.4.2.1): the ISO 8601 time to the second, UTC. */
const fitsDate = (date: Date) => date.toISOString().slice(0, 19);

/** The rule in words, as the dashboard states it. */
function ruleText(rule: { min: number | null; confidence: number | null; max: number | null }): string {
  const parts: string[] = [];
  if (rule.min !== null) parts.push(`at least ${rule.min} volunteers and confidence >= ${rule.confidence}`);
  if (rule.max !== null) parts.push(`at least ${rule.max} volunteers`);
  return parts.length === 0 ? 'none' : `retired with ${parts.join(', or ')}`;
}

/** Where a course's catalogue comes from, read now: the course, its rule, its answers, the estimate. */
export async function catalogueProvenance(
  db: Kysely<Database>,
  courseId: string,
  rows: number,
  now = new Date(),
): Promise<TableProvenance> {
  const course = await db.selectFrom('courses').selectAll().where('id', '=', courseId).executeTakeFirstOrThrow();
  const counted = await sql<{ answers: number | null; volunteers: number | null }>`
    select (select sum(c.volunteers) from target_consensus c where c.course_id = ${courseId}) as answers,
      (select count(*) from course_answer_counts a where a.course_id = ${courseId} and a.answers_count > 0)
        as volunteers`.execute(db);
  const state = await db.selectFrom('science_state').select('estimated_at').where('id', '=', 1).executeTakeFirst();
  const name = (course.name as Record<string, string> | null)?.en ?? courseId;
  const rule = {
    min: course.retire_min_volunteers,
    confidence: course.retire_min_confidence,
    max: course.retire_max_volunteers,
  };
  const entries: ProvenanceEntry[] = [
    { keyword: 'DATE', name: 'date', value: fitsDate(now), description: 'when this file was written (UTC)' },
    { keyword: 'ORIGIN', name: 'origin', value: 'Galaxy Cruise', description: 'the citizen-science project' },
    { keyword: 'CREATOR', name: 'software', value: SOFTWARE, description: 'the software and its version' },
    { keyword: 'COURSE', name: 'course', value: courseId, description: 'the course the targets belong to' },
    { keyword: 'COURSENM', name: 'course_name', value: name, description: "the course's name" },
    { keyword: 'RETRULE', name: 'retirement_rule', value: ruleText(rule), description: "the course's retirement rule" },
    ...(rule.min !== null
      ? [
          {
            keyword: 'RETMINV',
            name: 'retire_min_volunteers',
            value: rule.min,
            description: 'rule: least volunteers with the confidence',
            ucd: 'meta.number',
          },
          {
            keyword: 'RETMINC',
            name: 'retire_min_confidence',
            value: rule.confidence!,
            description: 'rule: least consensus confidence on both questions',
            ucd: 'stat.probability',
          },
        ]
      : []),
    ...(rule.max !== null
      ? [
          {
            keyword: 'RETMAXV',
            name: 'retire_max_volunteers',
            value: rule.max,
            description: 'rule: volunteers that retire a target whatever they say',
            ucd: 'meta.number',
          },
        ]
      : []),
    {
      keyword: 'NANSWERS',
      name: 'answers',
      value: Number(counted.rows[0]?.answers ?? 0),
      description: 'answers counted in this catalogue',
      ucd: 'meta.number',
    },
    {
      keyword: 'NVOLUNT',
      name: 'volunteers',
      value: Number(counted.rows[0]?.volunteers ?? 0),
      description: 'volunteers who answered in the course',
      ucd: 'meta.number',
    },
    {
      keyword: 'NTARGETS',
      name: 'targets',
      value: rows,
      description: 'rows: targets of the course',
      ucd: 'meta.number',
    },
    {
      keyword: 'DATE-EST',
      name: 'estimated_at',
      value: state?.estimated_at ? fitsDate(new Date(state.estimated_at)) : 'never',
      description: "last estimate of the volunteers' reliability (UTC)",
    },
  ];
  return {
    name: courseId,
    description:
      `Galaxy Cruise consensus catalogue of the course ${courseId} (${name}): per target the vote counts, ` +
      'raw and reliability-weighted vote fractions, and the Dawid-Skene consensus with its confidence.',
    entries,
    citation:
      `Galaxy Cruise volunteers, ${name} (${courseId}) consensus catalogue, ${SOFTWARE}, written ${fitsDate(now)} UTC; ` +
      'reliability weighting after Dawid & Skene 1979, Appl. Statist. 28, 20.',
  };
}

/** The export's bytes, a page of rows per chunk. */
export async function* exportCatalogue(
  db: Kysely<Database>,
  courseId: string,
  format: ExportFormat,
): AsyncGenerator<Buffer> {
  const total = await countCatalogueRows(db, courseId);
  const course = await db.selectFrom('courses').select('imported').where('id', '=', courseId).executeTakeFirstOrThrow();
  const columns = catalogueColumns({
    imported: course.imported,
    nameWidth: course.imported ? await longestTargetName(db, courseId) : 0,
  });
  const writer = tableWriter<CatalogueRow & TableRow>(format, columns, await catalogueProvenance(db, courseId, total));
  yield writer.begin(total);
  let after = -1;
  let written = 0;
  for (;;) {
    // FITS announced its row count: a target added meanwhile is left for the next export.
    const limit = format === 'fits' ? Math.min(PAGE_ROWS, total - written) : PAGE_ROWS;
    if (limit <= 0) break;
    const page = await catalogueRows(db, courseId, after, limit);
    if (page.length > 0) yield writer.rows(page as (CatalogueRow & TableRow)[]);
    written += page.length;
    if (page.length < limit) break;
    after = page[page.length - 1]!.object_id;
  }
  yield writer.end();
}
