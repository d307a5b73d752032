// A course's tables as streams of bytes in one of the export formats (docs/science.md): the
// catalogue (a row per target), the raw answers (a row per classification) and the volunteers'
// reliability (a row per volunteer, each a pseudonym), written a block of columns at a time from
// the database: neither the rows nor the file are ever whole in memory. Every file says where it
// comes from (its provenance, read once before the rows): when and by which version it was
// written, the course and its rule, the answers counted, the last estimate of the volunteers'
// reliability, and a citation line. Used by `galaxy-cruise export` and by the administrators'
// download (server/routes/science.ts).
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { projectRoot } from '../config';
import type { Database } from '../db/schema';
import { ANSWER_BLOCK_ROWS, answerBlock, countAnswers, volunteerBlock, type AnswerKey } from './answer-rows';
import { BLOCK_ROWS, catalogueBlock, catalogueCourse, longestTargetName } from './catalogue-rows';
import { VOLUNTEER_COLUMNS, answerColumns, catalogueColumns, type ExportColumn } from './export-columns';
import { csvWriter } from './formats/csv';
import { fitsTableWriter } from './formats/fits-table';
import type { ProvenanceEntry, TableProvenance, TableWriter } from './formats/table-writer';
import { votableWriter } from './formats/votable';
import {
  SCIENCE_EXPORT_FORMATS,
  type ScienceExportFormat,
  type ScienceExportTable as ExportTable,
} from '../../shared/science';

// The formats, as the dashboard's links name them (shared/science.ts): one list.
const EXPORT_FORMATS = SCIENCE_EXPORT_FORMATS;
type ExportFormat = ScienceExportFormat;
export { EXPORT_FORMATS, type ExportFormat };

export function isExportFormat(format: string): format is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(format);
}

/** The software that writes the files: galaxy-cruise and the version in package.json. */
export const SOFTWARE = `galaxy-cruise ${
  (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version
}`;

export { SCIENCE_EXPORT_TABLES as EXPORT_TABLES } from '../../shared/science';
export type { ScienceExportTable as ExportTable } from '../../shared/science';

/** A table in one format, with its columns and provenance. */
export function tableWriter(
  format: ExportFormat,
  columns: readonly ExportColumn[],
  provenance: TableProvenance,
): TableWriter {
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

/** The file name a download suggests: galaxy-cruise-COURSE.EXT, galaxy-cruise-COURSE-answers.EXT, … */
export function exportFileName(format: ExportFormat, courseId: string, table: ExportTable = 'catalogue'): string {
  return `galaxy-cruise-${courseId}${table === 'catalogue' ? '' : `-${table}`}.${EXTENSIONS[format]}`;
}

/** FITS's date format (Standard 4.0 §4.4.2.1): the ISO 8601 time to the second, UTC. */
const fitsDate = (date: Date) => date.toISOString().slice(0, 19);

/** The rule in words, as the dashboard states it. */
export function ruleText(rule: { min: number | null; confidence: number | null; max: number | null }): string {
  const parts: string[] = [];
  if (rule.min !== null) parts.push(`at least ${rule.min} volunteers and confidence >= ${rule.confidence}`);
  if (rule.max !== null) parts.push(`at least ${rule.max} volunteers`);
  return parts.length === 0 ? 'none' : `retired with ${parts.join(', or ')}`;
}

const TABLE_TEXT: Record<ExportTable, { rows: string; description: (course: string) => string; cited: string }> = {
  catalogue: {
    rows: 'rows: targets of the course',
    description: (course) =>
      `Galaxy Cruise consensus catalogue of the course ${course}: per target the vote counts, ` +
      'raw and reliability-weighted vote fractions, and the Dawid-Skene consensus with its confidence.',
    cited: 'consensus catalogue',
  },
  answers: {
    rows: 'rows: classifications in the course',
    description: (course) =>
      `Galaxy Cruise raw classifications of the course ${course}: one row per answer, with the volunteer's ` +
      "pseudonym (an HMAC of the account under the server's secret), every answer field, when it was given " +
      "and the volunteer's current weights.",
    cited: 'raw classifications',
  },
  volunteers: {
    rows: 'rows: volunteers who answered in the course',
    description: (course) =>
      `Galaxy Cruise volunteer reliability of the course ${course}: per volunteer (the pseudonym of the raw ` +
      'classifications) the answers, the Dawid-Skene sensitivity and specificity of each question and the weights.',
    cited: 'volunteer reliability',
  },
};

/** Where a course's table comes from, read now: the course, its rule, its answers, the estimate. */
export async function catalogueProvenance(
  db: Kysely<Database>,
  courseId: string,
  rows: number,
  now = new Date(),
  table: ExportTable = 'catalogue',
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
      keyword: table === 'catalogue' ? 'NTARGETS' : 'NROWS',
      name: table === 'catalogue' ? 'targets' : 'rows',
      value: rows,
      description: TABLE_TEXT[table].rows,
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
    name: table === 'catalogue' ? courseId : `${courseId}-${table}`,
    description: TABLE_TEXT[table].description(`${courseId} (${name})`),
    entries,
    citation:
      `Galaxy Cruise volunteers, ${name} (${courseId}) ${TABLE_TEXT[table].cited}, ${SOFTWARE}, written ${fitsDate(now)} UTC; ` +
      'reliability weighting after Dawid & Skene 1979, Appl. Statist. 28, 20.',
  };
}

/** The catalogue's bytes, a block of rows per chunk. */
export async function* exportCatalogue(
  db: Kysely<Database>,
  courseId: string,
  format: ExportFormat,
): AsyncGenerator<Buffer> {
  const course = await catalogueCourse(db, courseId);
  const total = course.total;
  const columns = catalogueColumns({
    imported: course.imported,
    nameWidth: course.imported ? await longestTargetName(db, courseId) : 0,
  });
  const writer = tableWriter(format, columns, await catalogueProvenance(db, courseId, total));
  yield writer.begin(total);
  let after = -1;
  let written = 0;
  for (;;) {
    // Every format is cut at the count announced (FITS must be): a target added meanwhile is left
    // for the next export.
    const limit = Math.min(BLOCK_ROWS, total - written);
    if (limit <= 0) break;
    const { block, last, done } = await catalogueBlock(db, course, after, limit);
    if (block.length > 0) yield writer.block(block);
    written += block.length;
    if (done) break;
    after = last;
  }
  yield writer.end();
}

/** The raw answers' bytes (a row per classification, in the order they were made), a block per chunk. */
export async function* exportAnswers(
  db: Kysely<Database>,
  courseId: string,
  format: ExportFormat,
  secret: Buffer,
): AsyncGenerator<Buffer> {
  const total = await countAnswers(db, courseId);
  const course = await db.selectFrom('courses').select('imported').where('id', '=', courseId).executeTakeFirstOrThrow();
  const columns = answerColumns({
    imported: course.imported,
    nameWidth: course.imported ? await longestTargetName(db, courseId) : 0,
  });
  const writer = tableWriter(format, columns, await catalogueProvenance(db, courseId, total, new Date(), 'answers'));
  yield writer.begin(total);
  let after: AnswerKey | undefined;
  let written = 0;
  for (;;) {
    const limit = Math.min(ANSWER_BLOCK_ROWS, total - written);
    if (limit <= 0) break;
    const { block, last } = await answerBlock(db, courseId, secret, after, limit);
    if (block.length > 0) yield writer.block(block);
    written += block.length;
    if (block.length < limit) break;
    after = last;
  }
  // FITS announced its rows: answers removed meanwhile (none are: answers are never deleted) would
  // leave it short, and the writer says so.
  yield writer.end();
}

/** The volunteers' reliability table's bytes. */
export async function* exportVolunteers(
  db: Kysely<Database>,
  courseId: string,
  format: ExportFormat,
  secret: Buffer,
): AsyncGenerator<Buffer> {
  const block = await volunteerBlock(db, courseId, secret);
  const writer = tableWriter(
    format,
    VOLUNTEER_COLUMNS,
    await catalogueProvenance(db, courseId, block.length, new Date(), 'volunteers'),
  );
  yield writer.begin(block.length);
  if (block.length > 0) yield writer.block(block);
  yield writer.end();
}

/** One of a course's tables; `secret` (the server's, for the pseudonyms) is asked for only when needed. */
export function exportTable(
  db: Kysely<Database>,
  courseId: string,
  table: ExportTable,
  format: ExportFormat,
  secret: () => Buffer,
): AsyncGenerator<Buffer> {
  if (table === 'answers') return exportAnswers(db, courseId, format, secret());
  if (table === 'volunteers') return exportVolunteers(db, courseId, format, secret());
  return exportCatalogue(db, courseId, format);
}
