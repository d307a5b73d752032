// The raw answers and the volunteers' reliability as exported tables (docs/science.md, "Raw
// answers"), against PGlite and PostgreSQL: astropy reads each format (FITS verified, the VOTable
// through astropy's validator); a row per classification with its volunteer's pseudonym, its
// fields and the volunteer's current weights; the reliability table under the same pseudonyms;
// no byte of any file holds a volunteer's e-mail or nickname; another server's secret gives other
// pseudonyms. And the writers' large tables: a VOTable past TABLEDATA_ROWS as BINARY2, nulls,
// 64-bit ids and Unicode names included, read back by astropy value for value.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { addVotes, seedCrowd } from '../../bench/science-crowd';
import { sumNewAnswers } from '../../server/science/consensus';
import { VOLUNTEER_COLUMNS, answerColumns, type ExportColumn } from '../../server/science/export-columns';
import { exportTable, tableWriter, type ExportFormat, type ExportTable } from '../../server/science/export';
import type { ColumnBlock } from '../../server/science/formats/table-writer';
import { TABLEDATA_ROWS } from '../../server/science/formats/votable';
import { serverSecret, volunteerPseudonym } from '../../server/science/pseudonyms';
import { estimateReliability } from '../../server/science/reliability';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../helpers/databases';

const helpers = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'helpers');
const FORMATS = ['csv', 'fits', 'votable'] as const;
const EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', fits: 'fits', votable: 'vot' };

interface ReadTable {
  columns: string[];
  rows: number;
  values: Record<string, (string | number | boolean | null)[]>;
  serialization?: string;
}

/** Every file as astropy reads it (tests/helpers/read_tables.py). */
function readTables(files: string[]): Record<string, ReadTable> {
  return JSON.parse(
    execFileSync('/usr/bin/python3', [path.join(helpers, 'read_tables.py'), ...files], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    }),
  );
}

const youden = (sensitivity: number, specificity: number) => Math.max(0, sensitivity + specificity - 1);

describe.each(DATABASE_KINDS)('raw answers on %s', (kind) => {
  let database: TestDatabase | undefined;
  let directory: string | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    if (directory) fs.rmSync(directory, { recursive: true, force: true });
    directory = undefined;
  });

  it('exports every classification and every volunteer under a pseudonym, and no personal data', async () => {
    database = await openTestDatabase(kind);
    const { db } = database;
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-answers-'));
    const crowd = await seedCrowd(db, { targets: 300, volunteers: 12, seed: 5 });
    // Personal data no export may hold, in forms a grep cannot miss.
    await sql`update users set email = 'private.person' || id || '@mail.example.net',
      nickname = 'SecretNickname' || id`.execute(db);
    const answered = new Map<number, Set<number>>();
    for (let round = 0; round < 3; round += 1) await addVotes(db, crowd, crowd.targets, answered);
    await sumNewAnswers(db);
    await estimateReliability(db);

    const secret = serverSecret(path.join(directory, 'var'));
    expect(serverSecret(path.join(directory, 'var'))).toEqual(secret);
    const otherSecret = crypto.randomBytes(32);
    const write = async (table: ExportTable, format: ExportFormat, key: Buffer, name: string = table) => {
      const file = path.join(directory!, `${name}.${EXTENSIONS[format]}`);
      await pipeline(
        Readable.from(exportTable(db, crowd.courseId, table, format, () => key)),
        fs.createWriteStream(file),
      );
      return file;
    };
    const files: string[] = [];
    for (const format of FORMATS) files.push(await write('answers', format, secret));
    for (const format of FORMATS) files.push(await write('volunteers', format, secret));
    const other = await write('answers', 'csv', otherSecret, 'answers-other-server');
    files.push(other);
    const read = readTables(files);

    const answers = await sql<{
      object_id: number;
      user_id: number;
      galaxy_type: string;
      interaction: string;
      tail: boolean;
      updated_at: Date;
    }>`select object_id, user_id, galaxy_type, interaction, tail, updated_at from answers
       where course_id = ${crowd.courseId} order by created_at, id`.execute(db);
    expect(answers.rows).toHaveLength(900);
    const rates = new Map(
      (await db.selectFrom('volunteer_reliability').selectAll().execute()).map((row) => [Number(row.user_id), row]),
    );
    const names = answerColumns({ imported: false, nameWidth: 0 }).map((column: ExportColumn) => column.name);
    for (const format of FORMATS) {
      const table = read[path.join(directory, `answers.${EXTENSIONS[format]}`)]!;
      expect(table.columns, format).toEqual(names);
      expect(table.rows, format).toBe(answers.rows.length);
      expect(table.values.object_id, format).toEqual(answers.rows.map((row) => Number(row.object_id)));
      expect(table.values.volunteer, format).toEqual(
        answers.rows.map((row) => volunteerPseudonym(secret, Number(row.user_id))),
      );
      expect(table.values.galaxy_type, format).toEqual(answers.rows.map((row) => row.galaxy_type));
      expect(table.values.interaction, format).toEqual(answers.rows.map((row) => row.interaction));
      expect(table.values.tail, format).toEqual(answers.rows.map((row) => row.tail));
      expect(table.values.answered_at, format).toEqual(
        answers.rows.map((row) => new Date(row.updated_at).toISOString().slice(0, 23)),
      );
      table.values.galaxy_type_weight!.forEach((weight, index) => {
        const rate = rates.get(Number(answers.rows[index]!.user_id))!;
        expect(weight).toBeCloseTo(youden(rate.galaxy_type_sensitivity, rate.galaxy_type_specificity), 12);
      });
    }
    expect(read[path.join(directory, 'answers.vot')]!.serialization).toBe('tabledata');

    // The reliability table: a row per volunteer, under the pseudonyms of the answers.
    const pseudonyms = new Set(read[path.join(directory, 'answers.csv')]!.values.volunteer);
    expect(pseudonyms.size).toBe(12);
    for (const format of FORMATS) {
      const table = read[path.join(directory, `volunteers.${EXTENSIONS[format]}`)]!;
      expect(table.columns, format).toEqual(VOLUNTEER_COLUMNS.map((column) => column.name));
      expect(new Set(table.values.volunteer), format).toEqual(pseudonyms);
      expect(table.values.answers!.reduce((sum, count) => Number(sum) + Number(count), 0)).toBe(900);
      for (const [userId, rate] of rates) {
        const row = table.values.volunteer!.indexOf(volunteerPseudonym(secret, userId));
        expect(table.values.galaxy_type_sensitivity![row]).toBeCloseTo(rate.galaxy_type_sensitivity, 12);
        expect(table.values.interaction_specificity![row]).toBeCloseTo(rate.interaction_specificity, 12);
      }
    }

    // Another server's secret: every volunteer another pseudonym.
    const elsewhere = read[other]!.values.volunteer!;
    expect(elsewhere).toHaveLength(900);
    for (const [index, pseudonym] of elsewhere.entries()) {
      expect(pseudonym).not.toBe(read[path.join(directory, 'answers.csv')]!.values.volunteer![index]);
      expect(pseudonym).toBe(volunteerPseudonym(otherSecret, Number(answers.rows[index]!.user_id)));
    }

    // No e-mail or nickname in any byte of any file (nor its local part, nor in UCS-2).
    const personal = (await db.selectFrom('users').select(['email', 'nickname']).execute()).flatMap((user) => [
      user.email,
      user.email.split('@')[0]!,
      user.nickname,
    ]);
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      for (const text of [...personal, 'SecretNickname', 'mail.example.net']) {
        expect(bytes.includes(Buffer.from(text, 'latin1')), `${text} in ${file}`).toBe(false);
        expect(bytes.includes(Buffer.from(text, 'utf16le').swap16()), `${text} (UCS-2) in ${file}`).toBe(false);
      }
    }
  });
});

describe('a large table', () => {
  it('is written by every writer a block at a time as astropy reads it, the VOTable as BINARY2', () => {
    const rows = TABLEDATA_ROWS + 2345;
    const columns: ExportColumn[] = [
      { name: 'object_id', kind: 'long', description: 'an id past 2^32' },
      { name: 'count', kind: 'int', description: 'a count' },
      { name: 'share', kind: 'double', unit: 'deg', description: 'a double, every seventh null' },
      { name: 'flag', kind: 'boolean', description: 'a flag' },
      { name: 'name', kind: 'string', width: 12, unicode: true, description: 'a Unicode name, every fifth null' },
      { name: 'label', kind: 'string', width: 8, description: 'an ASCII label' },
    ];
    const value = {
      object_id: (row: number) => 900_000_000_000 + row * 3,
      count: (row: number) => row - 500,
      share: (row: number) => (row % 7 === 0 ? null : row / 8),
      flag: (row: number) => row % 3 === 0,
      name: (row: number) => (row % 5 === 0 ? null : row % 2 === 0 ? `銀河${row}` : `NGC ${row}`),
      label: (row: number) => ['spiral', 'ellipse', 'not_sure'][row % 3]!,
    };
    /** Rows [start, end) as a block of columns. */
    const block = (start: number, end: number): ColumnBlock => {
      const indices = Array.from({ length: end - start }, (_, index) => start + index);
      return {
        length: indices.length,
        columns: {
          object_id: Float64Array.from(indices, value.object_id),
          count: Int32Array.from(indices, value.count),
          share: Float64Array.from(indices, (row) => value.share(row) ?? NaN),
          flag: Uint8Array.from(indices, (row) => (value.flag(row) ? 1 : 0)),
          name: indices.map(value.name),
          label: indices.map(value.label),
        },
      };
    };
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-large-table-'));
    try {
      const files = FORMATS.map((format) => {
        const writer = tableWriter(format, columns, {
          name: 'large',
          description: 'A large table',
          entries: [{ keyword: 'ORIGIN', name: 'origin', value: 'Galaxy Cruise', description: 'the project' }],
          citation: 'none',
        });
        // Blocks of uneven sizes, one of them empty, so that BINARY2's base64 lines cross blocks.
        const cuts = [0, 1, 4001, 4001, 9000, rows];
        const chunks = [writer.begin(rows)];
        for (let index = 1; index < cuts.length; index += 1)
          chunks.push(writer.block(block(cuts[index - 1]!, cuts[index]!)));
        chunks.push(writer.end());
        const file = path.join(directory, `large.${EXTENSIONS[format]}`);
        fs.writeFileSync(file, Buffer.concat(chunks));
        return file;
      });
      const read = readTables(files);
      expect(read[files[2]!]!.serialization).toBe('binary2');
      for (const file of files) {
        const table = read[file]!;
        expect(table.columns, file).toEqual(columns.map((column) => column.name));
        expect(table.rows, file).toBe(rows);
        const all = Array.from({ length: rows }, (_, row) => row);
        expect(table.values.object_id, file).toEqual(all.map(value.object_id));
        expect(table.values.count, file).toEqual(all.map(value.count));
        expect(table.values.share, file).toEqual(all.map(value.share));
        expect(table.values.flag, file).toEqual(all.map(value.flag));
        expect(table.values.label, file).toEqual(all.map(value.label));
        // FITS holds ASCII only (a null an empty field); the others every character and the null.
        expect(table.values.name, file).toEqual(
          all.map((row) => {
            const name = value.name(row);
            return file.endsWith('.fits') ? (name?.replace(/[^\x20-\x7e]/g, '?') ?? null) : name;
          }),
        );
      }
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});
