// `galaxy-cruise import` (issue 30; docs/import.md) on PGlite and PostgreSQL: a manifest and a
// CSV list seeded beside the small sky's five courses, played over HTTP, imported again after the
// list changed, refused whole when a row is malformed, and left alone by the sky's seeding.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS_PER_LEVEL, importCourse } from '../../cli/commands/import';
import { LEVEL_WINDOW } from '../../server/game/levels';
import type { LevelSummary } from '../../shared/api';
import { seedCatalogue } from '../../server/db/seed';
import { setCourseOpen } from '../../server/db/admin-courses';
import { sumNewAnswers } from '../../server/science/consensus';
import { exportCatalogue } from '../../server/science/export';
import { createTestUser, type TestUser } from '../helpers/accounts';
import { DATABASE_KINDS } from '../helpers/databases';
import {
  SMALL_HIPS_PROPERTIES,
  targetCluster,
  writeSurvey,
  writeTargetList,
  type FixtureTarget,
  type SurveyFolder,
} from '../helpers/import-fixture';
import { copyCatalogue, smallSky } from '../helpers/sky';
import { targetListReferences } from '../helpers/target-list-references';
import { startTestApp, type TestApp } from '../helpers/test-app';

const COURSE = 'lsb-dwarfs';
/** The first object_id the import gives (migration 0011): far above the sky's. */
const IMPORTED_OBJECT_IDS = 5_000_000_000_000_000;

describe.each(DATABASE_KINDS)('galaxy-cruise import on %s', (kind) => {
  let testApp: TestApp;
  let survey: SurveyFolder;
  let targets: FixtureTarget[];
  const surveys: SurveyFolder[] = [];

  beforeAll(async () => {
    testApp = await startTestApp(kind, { RATE_LIMITS: 'off' });
    await seedCatalogue(testApp.database.db, (await smallSky()).catalogue);
    targets = targetCluster(20, 40, 30, 101);
    targets[0].captain_note = 'A dwarf, faint and "diffuse".';
    targets[1].name = 'LSB J0240+3000, the first';
    survey = writeSurvey({
      id: COURSE,
      targets,
      retirement: { min_volunteers: 5, min_confidence: 0.9, max_volunteers: 20 },
    });
    surveys.push(survey);
    await importCourse({ db: testApp.database.db, manifestFile: survey.manifest, varDirectory: testApp.varDirectory });
  });
  afterAll(async () => {
    await testApp?.close();
    for (const folder of surveys) folder.remove();
  });

  const db = () => testApp.database.db;
  const get = (user: TestUser, url: string) => testApp.inject({ method: 'GET', url, cookies: user.cookies });
  const objectIds = async (course = COURSE) =>
    new Map(
      (
        await db()
          .selectFrom('imported_targets')
          .select(['source_id', 'object_id'])
          .where('course_id', '=', course)
          .execute()
      ).map((row) => [row.source_id, row.object_id]),
    );
  const courseRows = async () => ({
    courses: await db().selectFrom('courses').selectAll().orderBy('id').execute(),
    levels: await db().selectFrom('levels').selectAll().orderBy('id').execute(),
    areas: await db().selectFrom('areas').selectAll().orderBy('id').execute(),
    targets: await db().selectFrom('targets').selectAll().orderBy('object_id').execute(),
    map: await db().selectFrom('imported_targets').selectAll().orderBy('object_id').execute(),
  });

  it('seeds the course beside the five: listed by GET /api/courses, /api/my_records and /api/server_info', async () => {
    const user = await createTestUser(db());
    const courses = await get(user, '/api/courses');
    expect(courses.statusCode).toBe(200);
    expect(courses.json().map((course: { id: string }) => course.id)).toEqual([
      'training',
      'season2',
      'illustris',
      'illustris_review',
      'final_campaign',
      COURSE,
    ]);
    expect(courses.json()[5]).toEqual({
      id: COURSE,
      name: { en: `Survey ${COURSE}`, ja: `サーベイ ${COURSE}` },
      imported: true,
      open: true,
      hips_url: `imports/${COURSE}/hips/`,
    });
    const records = await get(user, '/api/my_records');
    expect(records.json()[COURSE]).toEqual({ course_id: COURSE, quests: [], answers_count: 0 });
    const info = await get(user, '/api/server_info');
    // 20 targets, 8 to an area: 3 areas in one level.
    expect(info.json().number_of_areas[COURSE]).toEqual({ [`${COURSE}/1`]: 3 });
    const levels = await get(user, `/api/levels?course_id=${COURSE}`);
    expect(levels.statusCode).toBe(200);
    expect(levels.json()).toHaveLength(1);
  });

  it("serves the course's targets in its quests, at their positions, with object_ids of the import's range", async () => {
    const user = await createTestUser(db());
    const response = await get(user, `/api/courses/${COURSE}/quests/current`);
    expect(response.statusCode).toBe(200);
    const quest = response.json();
    expect(quest).toMatchObject({
      course_id: COURSE,
      type: 'regular',
      depth: 'wide',
      no_more_available_objects: false,
    });
    expect(quest.questions).toHaveLength(8);
    const ids = await objectIds();
    const bySource = new Map(targets.map((target) => [ids.get(target.id), target]));
    for (const question of quest.questions) {
      expect(question.object_id).toBeGreaterThanOrEqual(IMPORTED_OBJECT_IDS);
      const target = bySource.get(question.object_id)!;
      expect(question.ra).toBeCloseTo(target.ra, 9);
      expect(question.dec).toBeCloseTo(target.dec, 9);
    }
    // Every area's outline holds its targets' centre (the planner's 4 % inset keeps them inside).
    const areas = await db()
      .selectFrom('areas')
      .innerJoin('levels', 'levels.id', 'areas.level_id')
      .select(['areas.id', 'areas.outlines'])
      .where('levels.course_id', '=', COURSE)
      .execute();
    expect(areas).toHaveLength(3);
    const noted = await db()
      .selectFrom('targets')
      .select('captain_note')
      .where('object_id', '=', ids.get(targets[0].id)!)
      .executeTakeFirstOrThrow();
    expect(noted.captain_note).toMatchObject({
      review_type: 'training',
      comments: { en: 'A dwarf, faint and "diffuse".' },
      answer: { galaxy_type: 'spiral' },
    });
  });

  it("keeps the targets' names of the list in the id map", async () => {
    const rows = await db()
      .selectFrom('imported_targets')
      .select(['source_id', 'name'])
      .where('course_id', '=', COURSE)
      .where('name', 'is not', null)
      .execute();
    expect(rows).toEqual([{ source_id: targets[1].id, name: 'LSB J0240+3000, the first' }]);
  });

  it('writes the manifest’s retirement rule to the course', async () => {
    const course = await db().selectFrom('courses').selectAll().where('id', '=', COURSE).executeTakeFirstOrThrow();
    expect(course).toMatchObject({
      imported: true,
      retire_min_volunteers: 5,
      retire_min_confidence: 0.9,
      retire_max_volunteers: 20,
    });
  });

  it('still answers an unknown course with 404 Unknown course', async () => {
    const user = await createTestUser(db());
    for (const url of [
      '/api/courses/season3/quests/current',
      '/api/my_record/no-such-survey',
      '/api/levels?course_id=x',
    ]) {
      const response = await get(user, url);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toMatch(/^Unknown course '/);
    }
  });

  it('closes and opens the course: a closed course refuses quests (403) and is listed as closed', async () => {
    const user = await createTestUser(db());
    await setCourseOpen(db(), COURSE, false);
    expect((await get(user, `/api/courses/${COURSE}/quests/current`)).statusCode).toBe(403);
    expect((await get(user, '/api/courses')).json()[5].open).toBe(false);
    await setCourseOpen(db(), COURSE, true);
    expect((await get(user, `/api/courses/${COURSE}/quests/current`)).statusCode).toBe(200);
    expect(await setCourseOpen(db(), 'season2', false)).toBe(false);
  });

  it('refuses a malformed row whole, naming the file, row and column, and leaves the database as it was', async () => {
    const before = await courseRows();
    const broken = targets.map((target) => ({ ...target }));
    broken[4] = { ...broken[4], dec: 95.5 };
    broken.push({ id: 999, ra: 41, dec: 30 });
    writeTargetList(survey.targets, broken);
    await expect(
      importCourse({ db: db(), manifestFile: survey.manifest, varDirectory: testApp.varDirectory }),
    ).rejects.toThrow("targets.csv: row 5, column dec: '95.5' is not a declination (−90 to 90)");
    expect(await courseRows()).toEqual(before);

    // A course whose first import fails is not created at all.
    const other = writeSurvey({ id: 'broken-survey', targets: broken });
    surveys.push(other);
    await expect(
      importCourse({ db: db(), manifestFile: other.manifest, varDirectory: testApp.varDirectory }),
    ).rejects.toThrow('row 5, column dec');
    expect(await courseRows()).toEqual(before);
    writeTargetList(survey.targets, targets);
  });

  it('keeps every answer when the list is imported again with a target added, one removed and one moved', async () => {
    const user = await createTestUser(db());
    const quest = (await get(user, `/api/courses/${COURSE}/quests/current`)).json();
    const before = await objectIds();
    const answered = quest.questions.slice(0, 3).map((question: { object_id: number }) => question.object_id);
    for (const objectId of answered) {
      const response = await testApp.inject({
        method: 'POST',
        url: `/api/quests/${quest.id}/answers`,
        cookies: user.cookies,
        payload: { object_id: objectId, galaxy_type: 'spiral', interaction: 'no' },
      });
      expect(response.statusCode).toBe(200);
    }
    const sourceOf = new Map([...before].map(([source, object]) => [object, source]));
    const [removed, moved] = answered.map((objectId: number) => sourceOf.get(objectId)!);
    const changed = targets
      .filter((target) => target.id !== removed)
      .map((target) => (target.id === moved ? { ...target, ra: target.ra + 0.01, dec: target.dec - 0.01 } : target));
    changed.push({ id: 500, ra: 40.05, dec: 30.05 });
    writeTargetList(survey.targets, changed);
    const report = await importCourse({ db: db(), manifestFile: survey.manifest, varDirectory: testApp.varDirectory });
    expect(report).toMatchObject({ targets: 20, added: 1, retired: 1 });

    const after = await objectIds();
    for (const [source, object] of before) expect(after.get(source)).toBe(object);
    expect(after.get(500)).toBeGreaterThan(Math.max(...before.values()));
    const answers = await db().selectFrom('answers').select('object_id').where('user_id', '=', user.id).execute();
    expect(answers.map((row) => row.object_id).sort()).toEqual([...answered].sort());
    const rows = await db()
      .selectFrom('targets')
      .select(['object_id', 'ra', 'dec', 'retired'])
      .where('object_id', 'in', [before.get(removed)!, before.get(moved)!, after.get(500)!])
      .execute();
    const byId = new Map(rows.map((row) => [row.object_id, row]));
    expect(byId.get(before.get(removed)!)!.retired).toBe(true);
    const movedTarget = changed.find((target) => target.id === moved)!;
    expect(byId.get(before.get(moved)!)).toMatchObject({ retired: false, dec: movedTarget.dec });
    expect(byId.get(after.get(500)!)!.retired).toBe(false);
    const records = (await get(user, '/api/my_records')).json();
    expect(records[COURSE].answers_count).toBe(3);
    // The course's own record, ranking and (refused) new game, as for a course of the spec.
    const record = await get(user, `/api/my_record/${COURSE}`);
    expect(record.statusCode).toBe(200);
    expect(record.json()).toMatchObject({ course_id: COURSE, answers_count: 3 });
    expect(record.json().quests).toHaveLength(1);
    const ranking = await get(user, `/api/courses/${COURSE}/rankings/day`);
    expect(ranking.statusCode).toBe(200);
    expect(ranking.json()).toContainEqual(expect.objectContaining({ id: user.id, count: 3 }));
    const newGame = await testApp.inject({
      method: 'DELETE',
      url: `/api/courses/${COURSE}/quests`,
      cookies: user.cookies,
    });
    expect(newGame.statusCode).toBe(422);

    // Every export carries the group's own id and name, and the removed target keeps its row with
    // its answer: astropy joins each back to the group's first list by id.
    await sumNewAnswers(db());
    const exports = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-import-export-'));
    try {
      const files = { csv: 'course.csv', fits: 'course.fits', votable: 'course.vot' };
      for (const format of ['csv', 'fits', 'votable'] as const)
        await pipeline(
          Readable.from(exportCatalogue(db(), COURSE, format)),
          fs.createWriteStream(path.join(exports, files[format])),
        );
      const list = path.join(exports, 'first-list.csv');
      writeTargetList(list, targets);
      const read = JSON.parse(
        execFileSync(
          '/usr/bin/python3',
          [
            path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'helpers', 'read_catalogue_exports.py'),
            ...[files.fits, files.votable, files.csv].map((file) => path.join(exports, file)),
            list,
          ],
          { encoding: 'utf8' },
        ),
      ) as Record<
        'fits' | 'votable' | 'csv',
        {
          rows: number;
          joined: {
            id: number;
            object_id: number;
            name_export: string | null;
            name_list: string | null;
            removed: boolean;
            volunteers: number;
          }[];
        }
      >;
      for (const format of ['fits', 'votable', 'csv'] as const) {
        // The 20 of the first list (the removed one too) and the one added.
        expect(read[format].rows).toBe(21);
        const joined = read[format].joined;
        expect(joined.map((row) => row.id).sort((a, b) => a - b)).toEqual(targets.map((target) => target.id));
        for (const row of joined) {
          expect(row.object_id).toBe(before.get(row.id));
          expect(row.name_export ?? '').toBe(row.name_list ?? '');
        }
        const gone = joined.find((row) => row.id === removed)!;
        expect(gone).toMatchObject({ removed: true, volunteers: 1 });
        expect(joined.filter((row) => row.removed)).toHaveLength(1);
      }
    } finally {
      fs.rmSync(exports, { recursive: true, force: true });
    }
  });

  it("keeps an area's id with its targets when the list grows a field that the plan puts before it", async () => {
    // South of dec −41.8° the HEALPix curve is on the base cells 8 to 11; at dec 70° on cell 0.
    const first = targetCluster(12, 200, -60, 1);
    const growing = writeSurvey({ id: 'growing-survey', targets: first });
    surveys.push(growing);
    const areaOf = async () =>
      new Map(
        (
          await db()
            .selectFrom('targets')
            .innerJoin('imported_targets', 'imported_targets.object_id', 'targets.object_id')
            .select(['imported_targets.source_id', 'targets.area_id'])
            .where('imported_targets.course_id', '=', 'growing-survey')
            .execute()
        ).map((row) => [row.source_id, row.area_id]),
      );
    await importCourse({ db: db(), manifestFile: growing.manifest, varDirectory: testApp.varDirectory });
    const before = await areaOf();
    expect(new Set(before.values()).size).toBe(2);
    writeTargetList(growing.targets, [...targetCluster(16, 10, 70, 1000), ...first]);
    const report = await importCourse({ db: db(), manifestFile: growing.manifest, varDirectory: testApp.varDirectory });
    expect(report).toMatchObject({ areas: 4, added: 16, retired: 0 });
    const after = await areaOf();
    for (const target of first) expect(after.get(target.id)).toBe(before.get(target.id));
  });

  it('copies a HiPS folder to serve it, and serves none once the imagery is a URL', async () => {
    const moving = writeSurvey({ id: 'moving-survey', targets: targetCluster(3, 300, 10) });
    surveys.push(moving);
    const served = path.join(
      testApp.varDirectory,
      'sky',
      'stellar-globe',
      'static',
      'imports',
      'moving-survey',
      'hips',
    );
    await importCourse({ db: db(), manifestFile: moving.manifest, varDirectory: testApp.varDirectory });
    expect(fs.readFileSync(path.join(served, 'properties'), 'utf8')).toBe(SMALL_HIPS_PROPERTIES);
    const manifest = JSON.parse(fs.readFileSync(moving.manifest, 'utf8'));
    fs.writeFileSync(moving.manifest, JSON.stringify({ ...manifest, imagery: { hips: 'https://example.org/hips' } }));
    const report = await importCourse({ db: db(), manifestFile: moving.manifest, varDirectory: testApp.varDirectory });
    expect(report.hipsUrl).toBe('https://example.org/hips/');
    expect(fs.existsSync(served)).toBe(false);
    const course = await db()
      .selectFrom('courses')
      .select('hips_url')
      .where('id', '=', 'moving-survey')
      .executeTakeFirst();
    expect(course?.hips_url).toBe('https://example.org/hips/');
  });

  it("refuses a HiPS folder with a link leading outside the group's folder, writing nothing; copies a link inside it as its file", async () => {
    const leaky = writeSurvey({ id: 'leaky-survey', targets: targetCluster(3, 310, 10) });
    const elsewhere = writeSurvey({ id: 'elsewhere-survey', targets: [] });
    surveys.push(leaky, elsewhere);
    const secret = path.join(elsewhere.folder, 'secret.txt');
    fs.writeFileSync(secret, 'not for the sky');
    fs.symlinkSync(secret, path.join(leaky.folder, 'hips', 'Allsky.png'));
    const before = await courseRows();
    await expect(
      importCourse({ db: db(), manifestFile: leaky.manifest, varDirectory: testApp.varDirectory }),
    ).rejects.toThrow(
      `survey.json: imagery.hips: '${path.join('hips', 'Allsky.png')}' (it leads to ${fs.realpathSync(secret)}) is outside the manifest's folder ${leaky.folder}`,
    );
    expect(await courseRows()).toEqual(before);
    const courseFolder = path.join(testApp.varDirectory, 'sky', 'stellar-globe', 'static', 'imports', 'leaky-survey');
    expect(fs.existsSync(courseFolder)).toBe(false);
    // A link to a file of the group's own folder is copied as that file, not as a link.
    fs.rmSync(path.join(leaky.folder, 'hips', 'Allsky.png'));
    fs.writeFileSync(path.join(leaky.folder, 'preview.png'), 'a preview');
    fs.symlinkSync(path.join(leaky.folder, 'preview.png'), path.join(leaky.folder, 'hips', 'Allsky.png'));
    await importCourse({ db: db(), manifestFile: leaky.manifest, varDirectory: testApp.varDirectory });
    const copied = path.join(courseFolder, 'hips', 'Allsky.png');
    expect(fs.lstatSync(copied).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(copied, 'utf8')).toBe('a preview');
  });

  it.each(['targets.fits', 'targets.vot'])(
    'imports %s as astropy wrote it, every id (some past 2^32) in the id map with its position and name',
    async (file) => {
      const references = targetListReferences();
      const id = `astropy-${file.replace('.', '-')}`;
      const folder = writeSurvey({ id, targets: [] });
      surveys.push(folder);
      const manifest = JSON.parse(fs.readFileSync(folder.manifest, 'utf8'));
      fs.writeFileSync(folder.manifest, JSON.stringify({ ...manifest, targets: path.join(references.dir, file) }));
      const report = await importCourse({
        db: db(),
        manifestFile: folder.manifest,
        varDirectory: testApp.varDirectory,
        // The lists astropy wrote lie outside the group's folder.
        allowedRoots: [references.dir],
      });
      expect(report).toMatchObject({ targets: references.targets.length, added: references.targets.length });
      const rows = await db()
        .selectFrom('imported_targets')
        .innerJoin('targets', 'targets.object_id', 'imported_targets.object_id')
        .select([
          'imported_targets.source_id',
          'imported_targets.name',
          'targets.ra',
          'targets.dec',
          'targets.galaxy_type',
        ])
        .where('imported_targets.course_id', '=', id)
        .orderBy('imported_targets.source_id')
        .execute();
      const expected = [...references.targets].sort((a, b) => a.id - b.id);
      expect(rows.map((row) => row.source_id)).toEqual(expected.map((target) => target.id));
      rows.forEach((row, index) => {
        expect(row.name).toBe(expected[index].name);
        expect(row.ra).toBeCloseTo(expected[index].ra, 9);
        expect(row.dec).toBeCloseTo(expected[index].dec, 9);
        expect(row.galaxy_type).toBe(expected[index].galaxy_type ?? 'not_sure');
      });
    },
  );

  it("links a HiPS folder with link, served over HTTP through the link, the group's folder kept by a re-import", async () => {
    const linked = writeSurvey({ id: 'linked-survey', targets: targetCluster(3, 120, -20) });
    surveys.push(linked);
    for (let round = 0; round < 2; round++)
      await importCourse({ db: db(), manifestFile: linked.manifest, varDirectory: testApp.varDirectory, link: true });
    const served = path.join(
      testApp.varDirectory,
      'sky',
      'stellar-globe',
      'static',
      'imports',
      'linked-survey',
      'hips',
    );
    expect(fs.lstatSync(served).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(linked.folder, 'hips', 'properties'), 'utf8')).toBe(SMALL_HIPS_PROPERTIES);
    // A server started after the import, when the sky's folder exists, serves it.
    const app = await testApp.sibling();
    const response = await app.inject({ url: '/stellar-globe/static/imports/linked-survey/hips/properties' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(SMALL_HIPS_PROPERTIES);
  });

  it("is left alone by the sky's seeding (a new catalogue retires only the five courses' rows)", async () => {
    const sky = await smallSky();
    const result = await seedCatalogue(db(), copyCatalogue(sky.catalogue, `${sky.catalogue.digest}-import-test`));
    expect(result.seeded).toBe(true);
    const retired = await db()
      .selectFrom('targets')
      .innerJoin('imported_targets', 'imported_targets.object_id', 'targets.object_id')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('imported_targets.course_id', '=', COURSE)
      .where('targets.retired', '=', false)
      .executeTakeFirstOrThrow();
    expect(Number(retired.count)).toBe(20);
    const levels = await db().selectFrom('levels').select('retired').where('course_id', '=', COURSE).execute();
    expect(levels.every((level) => !level.retired)).toBe(true);
    const user = await createTestUser(db());
    const quest = (await get(user, `/api/courses/${COURSE}/quests/current`)).json();
    expect(quest.questions.length).toBeGreaterThan(0);
  });

  it('lists the courses for administrators with their source and progress, and opens and closes one over HTTP', async () => {
    const admin = await createTestUser(db(), { admin: true });
    const volunteer = await createTestUser(db());
    expect((await get(volunteer, '/api/admin/courses')).statusCode).toBe(403);
    const response = await get(admin, '/api/admin/courses');
    expect(response.statusCode).toBe(200);
    const courses = response.json();
    expect(courses.map((course: { id: string }) => course.id).slice(0, 6)).toEqual([
      'training',
      'season2',
      'illustris',
      'illustris_review',
      'final_campaign',
      COURSE,
    ]);
    expect(courses[1]).toMatchObject({ id: 'season2', imported: false, open: true, source: 'catalogue' });
    expect(courses[1].targets).toBeGreaterThan(0);
    // After the re-import above: 20 current targets, 3 answers by one volunteer, one of their
    // targets since removed from the list.
    expect(courses[5]).toEqual({
      id: COURSE,
      name: { en: `Survey ${COURSE}`, ja: `サーベイ ${COURSE}` },
      imported: true,
      open: true,
      source: survey.manifest,
      hips_url: `imports/${COURSE}/hips/`,
      levels: 1,
      targets: 20,
      answered_targets: 2,
      volunteers: 1,
      answers: 3,
    });

    const put = (user: TestUser, course: string, payload: object) =>
      testApp.inject({ method: 'PUT', url: `/api/admin/courses/${course}`, cookies: user.cookies, payload });
    expect((await put(volunteer, COURSE, { open: false })).statusCode).toBe(403);
    expect((await put(admin, COURSE, { open: false })).statusCode).toBe(204);
    expect((await get(volunteer, `/api/courses/${COURSE}/quests/current`)).statusCode).toBe(403);
    expect((await put(admin, COURSE, { open: true })).statusCode).toBe(204);
    expect((await get(volunteer, `/api/courses/${COURSE}/quests/current`)).statusCode).toBe(200);
    expect((await put(admin, 'season2', { open: false })).statusCode).toBe(422);
    expect((await put(admin, 'season3', { open: false })).statusCode).toBe(404);
    expect((await put(admin, COURSE, { open: 'no' })).statusCode).toBe(400);
  });

  it('lists a window of a course of more than LEVEL_WINDOW levels, and every level in /api/server_info', async () => {
    // Targets 0.3° apart along the equator, one to an area (AREA_RADIUS 0.25°), AREAS_PER_LEVEL to a level.
    const levelCount = LEVEL_WINDOW + 8;
    const longTargets: FixtureTarget[] = Array.from({ length: levelCount * AREAS_PER_LEVEL }, (_, index) => ({
      id: index + 1,
      ra: 100 + index * 0.3,
      dec: 0,
    }));
    const long = writeSurvey({ id: 'long-course', targets: longTargets });
    surveys.push(long);
    await importCourse({ db: db(), manifestFile: long.manifest, varDirectory: testApp.varDirectory });
    const user = await createTestUser(db());
    const info = (await get(user, '/api/server_info')).json().number_of_areas['long-course'];
    expect(Object.keys(info)).toHaveLength(levelCount);
    expect(Object.values(info as Record<string, number>).reduce((sum, count) => sum + count, 0)).toBe(
      longTargets.length,
    );
    const levels = (await get(user, '/api/levels?course_id=long-course')).json() as LevelSummary[];
    expect(levels).toHaveLength(LEVEL_WINDOW);
    expect(levels.map((level) => level.key)).toEqual(Object.keys(info).slice(0, LEVEL_WINDOW));
    expect(levels.map((level) => level.status)).toEqual(['active', ...Array<string>(LEVEL_WINDOW - 1).fill('locked')]);
    // Every course's window in the list of all.
    const all = (await get(user, '/api/levels')).json() as LevelSummary[];
    expect(all.filter((level) => (level.course_id as string) === 'long-course').map((level) => level.id)).toEqual(
      levels.map((level) => level.id),
    );
    expect(all.filter((level) => level.course_id === 'season2').length).toBeGreaterThan(0);
    // A level past the window is still there to ask for, locked.
    const lastKey = Object.keys(info).at(-1)!;
    const stored = await db()
      .selectFrom('levels')
      .select('id')
      .where('key', '=', lastKey)
      .where('retired', '=', false)
      .executeTakeFirstOrThrow();
    const detail = await get(user, `/api/levels/${stored.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ key: lastKey, status: 'locked', number_of_areas: AREAS_PER_LEVEL });
  });
});
