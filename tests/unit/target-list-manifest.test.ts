// The course manifest of `galaxy-cruise import` (skydata/import/manifest.ts): a good manifest read
// with its HiPS properties, target list and retirement rule; every malformed member refused
// with the file and the member named; every path confined to the manifest's folder, symbolic
// links resolved, unless another root is allowed; the example's rule the same wherever it is shown.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_RETIREMENT, readManifest } from '../../skydata/import/manifest';

/** A temporary folder holding the group's folder `survey/` (the manifest's) and another group's `grey/`. */
let base: string;
/** The manifest's folder. */
let dir: string;
/** A folder beside it, outside the manifest's. */
let grey: string;

const GOOD = {
  id: 'lsb-dwarfs',
  name: { en: 'Low surface brightness dwarfs', ja: '低表面輝度矮小銀河' },
  imagery: { hips: 'hips' },
  targets: 'targets.csv',
  retirement: EXAMPLE_RETIREMENT,
};

beforeAll(() => {
  // Real paths: the refusals name where a path leads once links are resolved.
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-')));
  dir = path.join(base, 'survey');
  grey = path.join(base, 'grey');
  fs.mkdirSync(dir);
  fs.mkdirSync(path.join(grey, 'hips'), { recursive: true });
  fs.writeFileSync(path.join(grey, 'targets.csv'), 'id,ra,dec\n1,10,20\n');
  fs.writeFileSync(path.join(grey, 'hips', 'properties'), 'hips_tile_width = 256\nhips_order = 3\n');
  fs.mkdirSync(path.join(dir, 'hips'));
  fs.writeFileSync(
    path.join(dir, 'hips', 'properties'),
    'creator_did = ivo://example/lsb\nhips_order = 7\nhips_order_min = 2\nhips_tile_width = 256\nhips_frame = galactic\nhips_tile_format = png fits\n',
  );
  fs.mkdirSync(path.join(dir, 'broken'));
  fs.writeFileSync(path.join(dir, 'broken', 'properties'), 'hips_tile_width = 512\n');
  fs.writeFileSync(path.join(dir, 'targets.csv'), 'id,ra,dec\n1,10,20\n');
  fs.writeFileSync(path.join(dir, 'targets.txt'), 'id,ra,dec\n1,10,20\n');
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

function manifest(content: unknown): string {
  const file = path.join(dir, 'survey.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

async function refusal(content: unknown): Promise<string> {
  try {
    await readManifest(manifest(content));
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the manifest was read');
}

describe('course manifest', () => {
  it("shows the same retirement rule wherever it shows the manifest's example", () => {
    // The rule the science bench shows saving classifications at no loss (docs/science.md).
    for (const file of ['skydata/import/manifest.ts', 'docs/import.md', 'docs/science.md', 'README.md']) {
      const text = fs.readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      const rules = [...text.matchAll(/"retirement": (\{[^}]*\})/g)].map((match) => JSON.parse(match[1]!) as unknown);
      expect(rules.length, file).toBeGreaterThan(0);
      for (const rule of rules) expect(rule, file).toEqual(EXAMPLE_RETIREMENT);
    }
  });

  it('reads a manifest with a HiPS folder, its target list and a retirement rule', async () => {
    const read = await readManifest(manifest(GOOD));
    expect(read.id).toBe('lsb-dwarfs');
    expect(read.name).toEqual(GOOD.name);
    if (!('hips' in read.imagery)) throw new Error('a HiPS was given');
    const hips = read.imagery.hips;
    expect('folder' in hips && hips.folder).toBe(path.join(dir, 'hips'));
    expect('properties' in hips && [hips.properties.order, hips.properties.tileWidth, hips.properties.frame]).toEqual([
      7,
      256,
      'galactic',
    ]);
    expect(read.targets).toEqual({ file: path.join(dir, 'targets.csv'), format: 'csv' });
    expect(read.retirement).toEqual({ minVolunteers: 5, minConfidence: 0.999, maxVolunteers: 20 });
  });

  it('takes a HiPS URL and no retirement rule', async () => {
    const read = await readManifest(
      manifest({ ...GOOD, imagery: { hips: 'https://alasky.example.org/DSS/DSS2Merged' }, retirement: undefined }),
    );
    expect(read.imagery).toEqual({ hips: { url: 'https://alasky.example.org/DSS/DSS2Merged/' }, preset: {} });
    expect(read.retirement).toBeNull();
  });

  it('takes FITS images, one band or three a field, with stretch parameters', async () => {
    const one = await readManifest(manifest({ ...GOOD, imagery: { fits: ['targets.csv'] } }));
    expect(one.imagery).toEqual({ fits: { fields: [[path.join(dir, 'targets.csv')]], preset: {} } });
    const three = await readManifest(
      manifest({ ...GOOD, imagery: { fits: [['targets.csv', 'targets.csv', 'targets.csv']], preset: { beta: 20 } } }),
    );
    expect(three.imagery).toEqual({
      fits: { fields: [Array(3).fill(path.join(dir, 'targets.csv'))], preset: { beta: 20 } },
    });
  });

  const cases: [string, unknown, string][] = [
    ['text that is not JSON', '{"id": ', 'not JSON: '],
    ['an array', '[]', 'a manifest is a JSON object'],
    [
      'an unknown member',
      { ...GOOD, levels: 3 },
      'levels: unknown member (the manifest knows id, name, imagery, targets, retirement)',
    ],
    [
      'an id with capitals',
      { ...GOOD, id: 'My Survey' },
      `id: "My Survey" is not a course id (2 to 40 of a-z, 0-9, '-', '_', a letter first)`,
    ],
    [
      'a course of the spec',
      { ...GOOD, id: 'season2' },
      "id: 'season2' is a course of the application spec; an imported course needs an id of its own",
    ],
    ['no Japanese name', { ...GOOD, name: { en: 'x' } }, 'name.ja: needs text of 1 to 100 characters'],
    [
      'a third language',
      { ...GOOD, name: { ...GOOD.name, fr: 'x' } },
      'name.fr: unknown member (the manifest knows en, ja)',
    ],
    [
      'both a HiPS and FITS images',
      { ...GOOD, imagery: { hips: 'hips', fits: ['a.fits'] } },
      'imagery: needs {"hips": "<folder or URL>"} or {"fits": ["<image>.fits", …]}',
    ],
    [
      'a FITS image that is not there',
      { ...GOOD, imagery: { fits: ['a.fits'] } },
      "imagery.fits[0]: 'a.fits' does not exist",
    ],
    [
      'a field of two bands',
      { ...GOOD, imagery: { fits: [['targets.csv', 'targets.csv']] } },
      'imagery.fits[0]: needs a FITS file, or a list of 1 or 3 (the bands, shortest wavelength first)',
    ],
    [
      'fields of different bands',
      { ...GOOD, imagery: { fits: ['targets.csv', ['targets.csv', 'targets.csv', 'targets.csv']] } },
      'imagery.fits[1]: has 3 bands, the first field 1',
    ],
    [
      'a preset word it does not know',
      { ...GOOD, imagery: { fits: ['targets.csv'], preset: { contrast: 2 } } },
      'imagery.preset.contrast: unknown member (the manifest knows a, b, beta, bias, exposure, gamma, ground, mix here)',
    ],
    [
      'a preset value that is not a number',
      { ...GOOD, imagery: { fits: ['targets.csv'], preset: { beta: 'high' } } },
      'imagery.preset.beta: needs a number',
    ],
    [
      'an unknown member beside a HiPS',
      { ...GOOD, imagery: { hips: 'hips', colours: { beta: 3 } } },
      'imagery.colours: unknown member (the manifest knows hips, preset here)',
    ],
    [
      'a folder without properties',
      { ...GOOD, imagery: { hips: 'nowhere' } },
      "imagery.hips: 'nowhere' is not a HiPS folder (it has no readable properties file)",
    ],
    [
      'invalid properties',
      { ...GOOD, imagery: { hips: 'broken/' } },
      "imagery.hips: 'broken/properties': invalid properties file: hips_order null is not a whole number",
    ],
    [
      'an ftp URL',
      { ...GOOD, imagery: { hips: 'ftp://example.org/hips' } },
      "imagery.hips: 'ftp://example.org/hips' is not an http or https URL",
    ],
    ['a missing target list', { ...GOOD, targets: 'gone.csv' }, "targets: 'gone.csv' does not exist"],
    [
      'a target list of another kind',
      { ...GOOD, targets: 'targets.txt' },
      "targets: 'targets.txt': a target list is a .csv, .fits or .vot (VOTable) file",
    ],
    [
      'a confidence below one half',
      { ...GOOD, retirement: { min_volunteers: 3, min_confidence: 0.3 } },
      'retirement.min_confidence: 0.3 is not a number from 0.5 to 1',
    ],
    [
      'volunteers without confidence',
      { ...GOOD, retirement: { min_volunteers: 3 } },
      'retirement: min_volunteers and min_confidence go together',
    ],
    [
      'a fractional count',
      { ...GOOD, retirement: { max_volunteers: 2.5 } },
      'retirement.max_volunteers: 2.5 is not a positive whole number',
    ],
    [
      'an empty rule',
      { ...GOOD, retirement: {} },
      'retirement: a rule needs min_volunteers with min_confidence, or max_volunteers',
    ],
    [
      'an unknown rule member',
      { ...GOOD, retirement: { max_volunteers: 9, after_days: 3 } },
      'retirement.after_days: unknown member (a rule knows min_volunteers, min_confidence, max_volunteers)',
    ],
  ];
  for (const [what, content, message] of cases) {
    it(`refuses ${what}, naming the member`, async () => {
      expect(await refusal(content)).toContain(`survey.json: ${message}`);
    });
  }

  it('refuses a manifest that cannot be read', async () => {
    await expect(readManifest(path.join(dir, 'absent.json'))).rejects.toThrow('absent.json: cannot be read (ENOENT)');
  });
});

describe("course manifest paths stay in the manifest's folder", () => {
  const outside = (given: string, leadsTo?: string) =>
    `'${given}'${leadsTo ? ` (it leads to ${leadsTo})` : ''} is outside the manifest's folder ${dir}: the import reads only there, unless --allow-root names another folder`;
  const links: string[] = [];
  const link = (target: string, at: string) => {
    fs.symlinkSync(target, path.join(dir, at));
    links.push(path.join(dir, at));
  };
  afterAll(() => {
    for (const file of links) fs.rmSync(file, { force: true });
  });

  it("refuses another group's target list, ../grey/targets.csv, naming the path", async () => {
    expect(await refusal({ ...GOOD, targets: '../grey/targets.csv' })).toBe(
      `survey.json: targets: ${outside('../grey/targets.csv')}`,
    );
  });

  it('refuses an absolute path outside the folder', async () => {
    const absolute = path.join(grey, 'targets.csv');
    expect(await refusal({ ...GOOD, targets: absolute })).toBe(`survey.json: targets: ${outside(absolute)}`);
    expect(await refusal({ ...GOOD, imagery: { hips: path.join(grey, 'hips') } })).toBe(
      `survey.json: imagery.hips: ${outside(path.join(grey, 'hips'))}`,
    );
  });

  it('refuses ../../../../../etc/passwd as imagery before reading a byte of it', async () => {
    expect(
      await refusal({ ...GOOD, imagery: { fits: [['targets.csv', '../../../../etc/passwd', 'targets.csv']] } }),
    ).toBe(`survey.json: imagery.fits[0]: ${outside('../../../../etc/passwd')}`);
  });

  it('refuses a symbolic link in the folder that leads outside it, naming where it leads', async () => {
    link(path.join(grey, 'targets.csv'), 'linked.csv');
    expect(await refusal({ ...GOOD, targets: 'linked.csv' })).toBe(
      `survey.json: targets: ${outside('linked.csv', path.join(grey, 'targets.csv'))}`,
    );
    link(grey, 'grey-link');
    expect(await refusal({ ...GOOD, imagery: { hips: 'grey-link/hips' } })).toBe(
      `survey.json: imagery.hips: ${outside('grey-link/hips', path.join(grey, 'hips'))}`,
    );
  });

  it('refuses a HiPS folder holding a link that leads outside, or nowhere: its copy would serve it', async () => {
    fs.mkdirSync(path.join(dir, 'hips', 'Norder3'), { recursive: true });
    link('/etc/passwd', 'hips/Norder3/Npix1.png');
    expect(await refusal(GOOD)).toBe(
      `survey.json: imagery.hips: ${outside(path.join('hips', 'Norder3', 'Npix1.png'), '/etc/passwd')}`,
    );
    fs.rmSync(path.join(dir, 'hips', 'Norder3', 'Npix1.png'));
    link(path.join(dir, 'gone.png'), 'hips/Norder3/Npix2.png');
    expect(await refusal(GOOD)).toBe(
      `survey.json: imagery.hips: '${path.join('hips', 'Norder3', 'Npix2.png')}' is a symbolic link to nothing`,
    );
    fs.rmSync(path.join(dir, 'hips', 'Norder3'), { recursive: true });
  });

  it('takes links and absolute paths that stay in the folder, and another root when allowed', async () => {
    link('targets.csv', 'same.csv');
    const inside = await readManifest(
      manifest({ ...GOOD, targets: 'same.csv', imagery: { fits: [path.join(dir, 'targets.csv')] } }),
    );
    expect(inside.targets.file).toBe(path.join(dir, 'same.csv'));
    const allowed = await readManifest(manifest({ ...GOOD, targets: '../grey/targets.csv' }), {
      allowedRoots: [grey],
    });
    expect(allowed.targets.file).toBe(path.join(grey, 'targets.csv'));
    // The allowed root widens what may be read; it does not make everything readable.
    await expect(
      readManifest(manifest({ ...GOOD, imagery: { fits: ['../../../../etc/passwd'] } }), { allowedRoots: [grey] }),
    ).rejects.toThrow(
      `'../../../../etc/passwd' is outside the manifest's folder ${dir} and the allowed roots: the import reads only there, unless --allow-root names another folder`,
    );
  });
});
