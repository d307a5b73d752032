// The science (docs/science.md) against PGlite and PostgreSQL on a simulated crowd
// (bench/science-crowd.ts): a new answer moves its target's counts once the logged answers
// are summed; the Dawid–Skene consensus recovers the truth more often than the raw majority and
// measures each volunteer's rates within their statistical error; retirement reaches the same
// accuracy with fewer classifications; and the exports are read by astropy as they are.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { addVotes, crowdAccuracy, seedCrowd, type Crowd, type CrowdTarget } from '../../bench/science-crowd';
import { allCatalogueRows, catalogueRows } from '../../server/science/catalogue-rows';
import { refreshTargets, sumNewAnswers } from '../../server/science/consensus';
import { EXPORT_COLUMNS } from '../../server/science/export-columns';
import { exportCatalogue, type ExportFormat } from '../../server/science/export';
import { estimateReliability } from '../../server/science/reliability';
import { ScienceService } from '../../server/science/science-service';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../helpers/databases';

const helpers = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'helpers');

/** `rounds` votes for every target of the crowd, summed. */
async function vote(database: TestDatabase, crowd: Crowd, targets: readonly CrowdTarget[], rounds: number) {
  const answered = new Map<number, Set<number>>();
  let answers = 0;
  for (let round = 0; round < rounds; round += 1) answers += await addVotes(database.db, crowd, targets, answered);
  await sumNewAnswers(database.db);
  return { answered, answers };
}

describe.each(DATABASE_KINDS)('science on %s', (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('adds a new answer and a changed one to its target once the log is summed', async () => {
    database = await openTestDatabase(kind);
    const crowd = await seedCrowd(database.db, { targets: 20, volunteers: 10 });
    const target = crowd.targets[0]!;
    const answered = new Map<number, Set<number>>();
    await addVotes(database.db, crowd, [target], answered);
    await addVotes(database.db, crowd, [target], answered);
    const marked = await database.db.selectFrom('science_log').select(['object_id', 'sign']).execute();
    expect(marked.map((row) => [Number(row.object_id), row.sign])).toEqual([
      [target.object_id, 1],
      [target.object_id, 1],
    ]);
    expect(await sumNewAnswers(database.db)).toBe(1);
    const [row] = await catalogueRows(database.db, crowd.courseId, target.object_id - 1, 1);
    expect(row!.volunteers).toBe(2);
    expect(row!.n_spiral + row!.n_elliptical + row!.n_type_not_sure).toBe(2);
    expect(row!.f_spiral! + row!.f_elliptical! + row!.f_type_not_sure!).toBeCloseTo(1, 12);
    expect(row!.fw_spiral! + row!.fw_elliptical! + row!.fw_type_not_sure!).toBeCloseTo(1, 12);
    expect(row!.f_interaction_yes! + row!.f_interaction_no! + row!.f_interaction_not_sure!).toBeCloseTo(1, 12);
    // A feature's fraction is over the interaction yes answers (null when there are none).
    expect(row!.f_ring).toBe(row!.n_interaction_yes === 0 ? null : row!.n_ring / row!.n_interaction_yes);
    expect(row!.true_galaxy_type).toBe(target.spiral ? 'spiral' : 'elliptical');
    // A re-post (one answer per volunteer and object) changes the vote, not the count.
    const [user] = [...answered.get(target.object_id)!];
    const flipped = row!.n_spiral > 0 ? 'elliptical' : 'spiral';
    await database.db
      .updateTable('answers')
      .set({ galaxy_type: flipped, updated_at: new Date() })
      .where('user_id', '=', user!)
      .where('object_id', '=', target.object_id)
      .execute();
    await sumNewAnswers(database.db);
    const [after] = await catalogueRows(database.db, crowd.courseId, target.object_id - 1, 1);
    expect(after!.volunteers).toBe(2);
    expect(after!.n_spiral).not.toBe(row!.n_spiral);
    // What the log added is what summing every answer again gives.
    await refreshTargets(database.db, [target.object_id]);
    const [full] = await catalogueRows(database.db, crowd.courseId, target.object_id - 1, 1);
    for (const [name, value] of Object.entries(full!))
      if (typeof value === 'number') expect(after![name as keyof typeof after], name).toBeCloseTo(value, 9);
      else expect(after![name as keyof typeof after], name).toEqual(value);
    // A target nobody answered is still a row, with no consensus.
    const [unanswered] = await catalogueRows(database.db, crowd.courseId, crowd.targets[1]!.object_id - 1, 1);
    expect(unanswered).toMatchObject({ volunteers: 0, consensus_galaxy_type: 'not_sure', f_spiral: null });
  });

  it('sums new answers and re-estimates in the background of a serving process', async () => {
    database = await openTestDatabase(kind);
    const crowd = await seedCrowd(database.db, { targets: 60, volunteers: 10 });
    const logged: unknown[] = [];
    const log = { info: (line: unknown) => logged.push(line), error: (line: unknown) => logged.push(line) };
    const service = new ScienceService(database.db, log as never, { refreshMs: 50, estimateMs: 0 });
    service.start();
    try {
      const answered = new Map<number, Set<number>>();
      for (let round = 0; round < 2; round += 1) await addVotes(database.db, crowd, crowd.targets, answered);
      await expect
        .poll(
          async () =>
            (await database!.db.selectFrom('science_state').selectAll().executeTakeFirstOrThrow()).estimated_at,
          {
            timeout: 20_000,
          },
        )
        .not.toBeNull();
      await expect
        .poll(async () => (await database!.db.selectFrom('science_log').selectAll().execute()).length)
        .toBe(0);
      const summed = await database.db.selectFrom('target_consensus').select('volunteers').execute();
      expect(summed).toHaveLength(60);
      expect(summed.every((row) => row.volunteers === 2)).toBe(true);
      expect(await database.db.selectFrom('volunteer_reliability').selectAll().execute()).toHaveLength(10);
    } finally {
      await service.stop();
    }
    expect(logged.some((line) => (line as { err?: unknown }).err !== undefined)).toBe(false);
  });

  it("vacuums the log's summed rows away when asked (as on PGlite, which has no autovacuum)", async () => {
    database = await openTestDatabase(kind);
    const crowd = await seedCrowd(database.db, { targets: 500, volunteers: 30 });
    const answered = new Map<number, Set<number>>();
    for (let round = 0; round < 20; round += 1) await addVotes(database.db, crowd, crowd.targets, answered);
    const size = async () =>
      Number(
        (await sql<{ bytes: string }>`select pg_relation_size('science_log') as bytes`.execute(database!.db)).rows[0]!
          .bytes,
      );
    const logged = await size();
    // 10,000 log rows: a few hundred kilobytes that a delete alone leaves in the table.
    expect(logged).toBeGreaterThan(200_000);
    const log = { info: () => undefined, error: () => undefined };
    const service = new ScienceService(database.db, log as never, { refreshMs: 50, vacuumLog: true });
    service.start();
    try {
      await expect.poll(size, { timeout: 20_000 }).toBeLessThan(logged / 20);
    } finally {
      await service.stop();
    }
    expect((await database.db.selectFrom('target_consensus').select('volunteers').execute()).length).toBe(500);
  });

  it('recovers the truth better than the raw majority and measures each volunteer within its error', async () => {
    database = await openTestDatabase(kind);
    const crowd = await seedCrowd(database.db, { targets: 1500, volunteers: 40, seed: 7 });
    await vote(database, crowd, crowd.targets, 7);
    const before = await crowdAccuracy(database.db);
    const estimate = await estimateReliability(database.db);
    expect(estimate.iterations).toBeGreaterThan(1);
    expect(estimate.change).toBeLessThanOrEqual(1e-3);
    const after = await crowdAccuracy(database.db);
    expect(after.targets).toBe(1500);
    // The raw majority is what the unweighted consensus gives; the weighted one beats it.
    expect(after.weighted).toBeGreaterThan(after.raw + 0.03);
    expect(after.weightedInteraction).toBeGreaterThan(after.rawInteraction + 0.015);
    expect(after.weighted).toBeGreaterThan(before.weighted);
    const measured = await database.db.selectFrom('volunteer_reliability').selectAll().execute();
    expect(measured).toHaveLength(40);
    for (const volunteer of crowd.volunteers) {
      const row = measured.find((candidate) => Number(candidate.user_id) === volunteer.id)!;
      const spiralAnswers = row.galaxy_type_answers * 0.6;
      for (const [estimated, truth, answers] of [
        [row.galaxy_type_sensitivity, volunteer.galaxy_type_sensitivity, spiralAnswers],
        [row.galaxy_type_specificity, volunteer.galaxy_type_specificity, row.galaxy_type_answers - spiralAnswers],
      ] as const) {
        const p = Math.min(Math.max(truth, 0.01), 0.99);
        // Three standard errors of a binomial rate, plus the pull of the prior (4 answers).
        const allowed = 3 * Math.sqrt((p * (1 - p)) / answers) + 4 / (answers + 4);
        expect(Math.abs(estimated - truth), `${volunteer.kind} volunteer ${volunteer.id}`).toBeLessThanOrEqual(allowed);
      }
    }
  });

  it('writes CSV, FITS and VOTable that astropy reads with their columns, units and rows', async () => {
    database = await openTestDatabase(kind);
    const crowd = await seedCrowd(database.db, { targets: 2300, volunteers: 12, seed: 3 });
    await vote(database, crowd, crowd.targets.slice(0, 500), 3);
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-export-'));
    try {
      const files: Record<ExportFormat, string> = {
        csv: path.join(directory, 'crowd.csv'),
        fits: path.join(directory, 'crowd.fits'),
        votable: path.join(directory, 'crowd.vot'),
      };
      for (const format of ['csv', 'fits', 'votable'] as const)
        await pipeline(
          Readable.from(exportCatalogue(database.db, crowd.courseId, format)),
          fs.createWriteStream(files[format]),
        );
      // CSV: an ECSV header of '#' lines, then the names and a line per target.
      const csv = fs.readFileSync(files.csv, 'utf8').trimEnd().split('\r\n');
      expect(csv[0]).toBe('# %ECSV 1.0');
      const data = csv.filter((line) => !line.startsWith('#'));
      expect(data[0]).toBe(EXPORT_COLUMNS.map((column) => column.name).join(','));
      expect(data).toHaveLength(2301);
      expect(fs.statSync(files.fits).size % 2880).toBe(0);

      const read = JSON.parse(
        execFileSync(
          '/usr/bin/python3',
          [path.join(helpers, 'read_catalogue_exports.py'), files.fits, files.votable, files.csv],
          { encoding: 'utf8' },
        ),
      );
      const names = EXPORT_COLUMNS.map((column) => column.name);
      const first = (await catalogueRows(database.db, crowd.courseId, -1, 1))[0]!;
      for (const format of ['fits', 'votable', 'csv'] as const) {
        expect(read[format].columns).toEqual(names);
        expect(read[format].rows).toBe(2300);
        expect(read[format].units).toEqual({ ra: 'deg', dec: 'deg' });
        expect(read[format].descriptions.ra).toBe('Right ascension (ICRS)');
        expect(read[format].descriptions.fw_spiral).toBe('Reliability-weighted vote fraction: galaxy_type spiral');
        expect(read[format].descriptions.true_galaxy_type).toBe("The sky catalogue's galaxy_type (truth)");
        expect(read[format].first.object_id).toBe(first.object_id);
        expect(read[format].first.ra).toBeCloseTo(first.ra, 10);
        expect(read[format].first.volunteers).toBe(3);
        expect(read[format].first.consensus_galaxy_type).toBe(first.consensus_galaxy_type);
        expect(read[format].first.fw_spiral).toBeCloseTo(first.fw_spiral!, 10);
        expect(read[format].first.retired).toBe(false);
        expect(read[format].first.removed).toBe(false);
      }
      expect(read.csv.plain_rows).toBe(2300);
      expect(read.fits.tcomm.fw_spiral).toBe('Reliability-weighted vote fraction: galaxy_type spiral');

      // Provenance: the same facts in the FITS primary header and table, the VOTable's INFO and
      // PARAM, and the ECSV meta.
      const answers = 500 * 3;
      for (const keywords of [read.fits.primary, read.fits.meta]) {
        expect(keywords).toMatchObject({
          ORIGIN: 'Galaxy Cruise',
          CREATOR: expect.stringMatching(/^galaxy-cruise \d+\.\d+\.\d+/),
          COURSE: crowd.courseId,
          RETRULE: 'none',
          NANSWERS: answers,
          NTARGETS: 2300,
          'DATE-EST': 'never',
        });
        expect(Date.parse(`${keywords.DATE}Z`)).toBeGreaterThan(Date.now() - 3600_000);
      }
      expect(read.fits.primary_comments.join(' ')).toContain('Dawid & Skene 1979');
      expect(read.votable.infos).toMatchObject({
        origin: 'Galaxy Cruise',
        course: crowd.courseId,
        estimated_at: 'never',
      });
      expect(read.votable.infos.citation).toContain('Galaxy Cruise volunteers');
      expect(read.votable.params).toMatchObject({ answers, targets: 2300 });
      expect(read.csv.meta).toMatchObject({ origin: 'Galaxy Cruise', course: crowd.courseId, answers, targets: 2300 });
      expect(read.csv.meta.citation).toContain('Dawid & Skene 1979');
      expect(read.votable.ucds.ra).toBe('pos.eq.ra;meta.main');
      // Every row of the stream, in order, with the targets nobody answered.
      let rows = 0;
      for await (const row of allCatalogueRows(database.db, crowd.courseId)) {
        rows += 1;
        expect(row.volunteers).toBe(row.object_id < crowd.targets[500]!.object_id ? 3 : 0);
      }
      expect(rows).toBe(2300);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});
