// A HiPS this project did not write (issue 30): made by healpy and astropy
// (tests/helpers/make_import_hips.py) in a galactic frame, orders 1 to 2 and tiles 16 wide in PNG
// and FITS, unlike skydata/'s. `galaxy-cruise import` runs as the real command on PGlite and on
// PostgreSQL, then `galaxy-cruise serve` serves the copied HiPS over HTTP beside the sky data
// ({dataRepository}/imports/<course>/hips/). The HiPS lies outside the manifest's folder, which
// the command refuses unless --allow-root names its folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHipsProperties } from '../../core/hipsProperties';
import { galaxyCruise, type CommandResult } from '../helpers/command-line';
import { createPostgresDatabase, DATABASE_KINDS } from '../helpers/databases';
import { targetCluster, writeSurvey, type SurveyFolder } from '../helpers/import-fixture';
import { pythonReferences } from '../helpers/python-references';
import { startServer, type RunningServer } from '../helpers/serve';

const COURSE = 'galactic-survey';

/** `galaxy-cruise …` as a user runs it, with `env` over this process's environment. */
const cli = (env: Record<string, string>, ...args: string[]) => galaxyCruise({ ...process.env, ...env }, ...args);

interface Expected {
  target: { ra: number; dec: number };
  tile: { order: number; npix: number; fits: string; png: string };
  properties: { order: number; order_min: number; tile_width: number; frame: string; format: string };
}

describe.each(DATABASE_KINDS)('an imported HiPS served on %s', (kind) => {
  let references: string;
  let expected: Expected;
  let survey: SurveyFolder;
  let varDirectory: string;
  let env: Record<string, string>;
  let server: RunningServer | undefined;
  let imported: CommandResult;
  let malformed: CommandResult;
  let confined: CommandResult;
  let broken: SurveyFolder | undefined;

  beforeAll(async () => {
    references = pythonReferences('make_import_hips.py', 'import-hips', 'expected.json');
    expected = JSON.parse(fs.readFileSync(path.join(references, 'expected.json'), 'utf8')) as Expected;
    survey = writeSurvey({
      id: COURSE,
      targets: targetCluster(12, expected.target.ra, expected.target.dec),
      hips: path.join(references, 'hips'),
    });
    varDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-import-hips-'));
    env = { VAR_DIR: varDirectory, DATABASE_URL: kind === 'postgres' ? await createPostgresDatabase() : '' };
    // Before the server starts: with PGlite, one process at a time has the database.
    broken = writeSurvey({ id: 'broken-survey', targets: [{ id: 1, ra: 10, dec: 95 }] });
    malformed = await cli(env, 'import', broken.manifest);
    confined = await cli(env, 'import', survey.manifest);
    imported = await cli(env, 'import', '--allow-root', references, survey.manifest);
    if (imported.code === 0) server = await startServer(env);
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    survey?.remove();
    broken?.remove();
    if (varDirectory) fs.rmSync(varDirectory, { recursive: true, force: true });
  });

  it('refuses a malformed list with its file, row and column (exit 1), and a call without a manifest (exit 2)', async () => {
    expect(malformed).toEqual({
      code: 1,
      stdout: '',
      stderr: "galaxy-cruise import: targets.csv: row 1, column dec: '95' is not a declination (−90 to 90)\n",
    });
    const usage = await cli(env, 'import');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(
      /^galaxy-cruise import: import needs a MANIFEST, or one of --open COURSE and --close COURSE\n/,
    );
    expect((await cli(env, 'import', '--link', '--open', COURSE)).code).toBe(2);
  });

  it("refuses a HiPS outside the manifest's folder, naming it (exit 1), unless --allow-root names its folder", async () => {
    const hips = path.join(references, 'hips');
    expect(confined).toEqual({
      code: 1,
      stdout: '',
      stderr: `galaxy-cruise import: survey.json: imagery.hips: '${hips}' is outside the manifest's folder ${survey.folder}: the import reads only there, unless --allow-root names another folder\n`,
    });
    const notAFolder = await cli(
      env,
      'import',
      '--allow-root',
      path.join(references, 'expected.json'),
      survey.manifest,
    );
    expect(notAFolder.code).toBe(2);
    expect(notAFolder.stderr).toMatch(/^galaxy-cruise import: --allow-root '.*expected\.json' is not a folder\n/);
  });

  const hipsBase = () => `${server!.url}/stellar-globe/static/imports/${COURSE}/hips`;

  it('imports the course with the real command', () => {
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toBe(
      `course ${COURSE}: 12 targets (12 new, 0 retired) in 2 areas of 1 levels; imagery imports/${COURSE}/hips/\n`,
    );
  });

  it('serves the properties as written, read as a galactic HiPS of 16-texel tiles, orders 1 to 2', async () => {
    const response = await fetch(`${hipsBase()}/properties`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toBe(fs.readFileSync(path.join(references, 'hips', 'properties'), 'utf8'));
    const properties = parseHipsProperties(text);
    expect(properties).toMatchObject({
      order: expected.properties.order,
      orderMin: expected.properties.order_min,
      tileWidth: expected.properties.tile_width,
      frame: expected.properties.frame,
      format: expected.properties.format,
      formats: ['png', 'fits'],
    });
  });

  it('serves the tiles holding the targets, PNG and FITS, byte for byte', async () => {
    for (const tile of [expected.tile.png, expected.tile.fits]) {
      const response = await fetch(`${hipsBase()}/${tile}`);
      expect(response.status).toBe(200);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(Buffer.from(bytes).equals(fs.readFileSync(path.join(references, 'hips', tile)))).toBe(true);
    }
    expect((await fetch(`${hipsBase()}/Norder9/Dir0/Npix0.png`)).status).toBe(404);
  });
});
