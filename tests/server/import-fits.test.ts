// `galaxy-cruise import` with FITS imagery (issue 30): a manifest's `imagery.fits` names
// astropy-written images (tests/helpers/make_import_images.py: a TAN image in one band, a SIN
// field in three), which the import turns into a HiPS (skydata/import/hips-from-images.ts) served beside
// the sky data like a copied HiPS; an image without a celestial WCS refuses the whole import with
// the manifest's member named, and nothing is written.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCourse } from '../../cli/commands/import';
import { parseHipsProperties } from '../../core/hipsProperties';
import { encodeFits } from '../../skydata/fits';
import { CUTOUT_SIZE } from '../../skydata/hips-cutout';
import { decodePng } from '../../skydata/png';
import { DATABASE_KINDS } from '../helpers/databases';
import { targetCluster, writeSurvey, type SurveyFolder } from '../helpers/import-fixture';
import { pythonReferences } from '../helpers/python-references';
import { startTestApp, type TestApp } from '../helpers/test-app';

const images = pythonReferences('make_import_images.py', 'import-images', 'done');

/** The survey folder's manifest with `imagery` in place of its HiPS. */
function withImagery(survey: SurveyFolder, imagery: unknown): void {
  const manifest = JSON.parse(fs.readFileSync(survey.manifest, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(survey.manifest, JSON.stringify({ ...manifest, imagery }));
}

describe.each(DATABASE_KINDS)('galaxy-cruise import of FITS images on %s', (kind) => {
  let testApp: TestApp;
  const surveys: SurveyFolder[] = [];
  const served = (course: string, ...parts: string[]) =>
    path.join(testApp.varDirectory, 'sky', 'stellar-globe', 'static', 'imports', course, 'hips', ...parts);

  beforeAll(async () => {
    testApp = await startTestApp(kind, { RATE_LIMITS: 'off' });
  });
  afterAll(async () => {
    await testApp?.close();
    for (const survey of surveys) survey.remove();
  });

  it('turns three-band fields into a colour HiPS served beside the sky, at the images’ resolution', async () => {
    const targets = targetCluster(6, 35, -4.5);
    targets[0]!.captain_note = 'The white source at the field’s centre.';
    targets[0]!.name = 'Centre';
    const survey = writeSurvey({ id: 'sin-field', targets });
    surveys.push(survey);
    for (const band of ['g', 'r', 'i']) {
      fs.copyFileSync(path.join(images, `sin_${band}.fits`), path.join(survey.folder, `sin_${band}.fits`));
    }
    withImagery(survey, { fits: [['sin_g.fits', 'sin_r.fits', 'sin_i.fits']], preset: { beta: 20 } });
    const lines: string[] = [];
    const report = await importCourse({
      db: testApp.database.db,
      manifestFile: survey.manifest,
      varDirectory: testApp.varDirectory,
      log: (line) => lines.push(line),
    });
    expect(report.hipsUrl).toBe('imports/sin-field/hips/');
    const properties = parseHipsProperties(fs.readFileSync(served('sin-field', 'properties'), 'utf8'));
    // 1″ pixels in 512-texel tiles: order 9 (0.81″ texels).
    expect(properties).toMatchObject({ order: 9, orderMin: 3, tileWidth: 512, frame: 'equatorial' });
    expect(properties.raw.get('dataproduct_subtype')).toBe('color');
    expect(properties.raw.get('obs_title')).toBe('Survey sin-field');
    expect(fs.readdirSync(served('sin-field', 'Norder9')).length).toBeGreaterThan(0);
    expect(lines.join('\n')).toMatch(/hips: order 9, \d+ tiles of 512 px/);
    // Served by the server as the sky's files are.
    const app = await testApp.sibling();
    const response = await app.inject({ url: '/stellar-globe/static/imports/sin-field/hips/properties' });
    expect(response.statusCode).toBe(200);
    const course = await testApp.database.db
      .selectFrom('courses')
      .select(['hips_url'])
      .where('id', '=', 'sin-field')
      .executeTakeFirst();
    expect(course?.hips_url).toBe('imports/sin-field/hips/');
    // The captain note's picture, cut from the HiPS around its target, served beside it.
    const noted = await testApp.database.db
      .selectFrom('targets')
      .innerJoin('imported_targets', 'imported_targets.object_id', 'targets.object_id')
      .select(['targets.captain_note'])
      .where('imported_targets.course_id', '=', 'sin-field')
      .where('imported_targets.source_id', '=', targets[0]!.id)
      .executeTakeFirstOrThrow();
    const note = (typeof noted.captain_note === 'string' ? JSON.parse(noted.captain_note) : noted.captain_note) as {
      img_name: string;
      img_caption: { en: string };
    };
    expect(note.img_name).toBe(`imports/sin-field/notes/${targets[0]!.id}.png`);
    expect(note.img_caption.en).toBe('Centre');
    const picture = await app.inject({ url: `/stellar-globe/static/${note.img_name}` });
    expect(picture.statusCode).toBe(200);
    const png = decodePng(picture.rawPayload);
    expect([png.width, png.height]).toEqual([CUTOUT_SIZE, CUTOUT_SIZE]);
    // Lit: the field's sky and its sources, not the black of no tile.
    expect(png.pixels.reduce((most, value) => Math.max(most, value), 0)).toBeGreaterThan(100);
  });

  it('refuses an image without a celestial WCS, naming it, and writes nothing', async () => {
    const survey = writeSurvey({ id: 'no-wcs', targets: targetCluster(3, 150, 2) });
    surveys.push(survey);
    fs.copyFileSync(path.join(images, 'tan.fits'), path.join(survey.folder, 'tan.fits'));
    fs.writeFileSync(
      path.join(survey.folder, 'plain.fits'),
      encodeFits({ width: 8, height: 8, data: new Uint8Array(64) }),
    );
    withImagery(survey, { fits: ['tan.fits', 'plain.fits'] });
    await expect(
      importCourse({ db: testApp.database.db, manifestFile: survey.manifest, varDirectory: testApp.varDirectory }),
    ).rejects.toThrow(/^survey\.json: imagery\.fits: plain\.fits: /);
    const course = await testApp.database.db
      .selectFrom('courses')
      .select('id')
      .where('id', '=', 'no-wcs')
      .executeTakeFirst();
    expect(course).toBeUndefined();
    const folder = path.dirname(served('no-wcs'));
    expect(fs.existsSync(folder) ? fs.readdirSync(folder) : []).toEqual([]);
  });
});
