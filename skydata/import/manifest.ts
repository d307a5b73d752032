// The course manifest of `galaxy-cruise import` (issue 30): a small JSON file a research group
// writes beside its data to describe one course of its own,
//
//   {
//     "id": "my-survey",
//     "name": { "en": "My survey", "ja": "私のサーベイ" },
//     "imagery": { "hips": "hips/" },     (or { "fits": [["g.fits", "r.fits", "i.fits"]] })
//     "targets": "targets.csv",
//     "retirement": { "min_volunteers": 5, "min_confidence": 0.999, "max_volunteers": 20 }
//   }
//
// id: 2 to 40 lower-case letters, digits, '-' or '_', starting with a letter, and not a course
// of application-spec; name: English and Japanese, 1 to 100 characters each; imagery.hips: a
// HiPS folder (with its `properties`, read here) or an http(s) URL, or imagery.fits: FITS images
// with a celestial WCS, one file or the three bands of each field, which the import turns into a
// HiPS; imagery.preset's stretch parameters go over the ones derived from the images (or from a
// HiPS's FITS tiles); targets: a target list
// (skydata/import/targets.ts); retirement (optional): the course's rule as `galaxy-cruise science
// rule` sets it. Paths are relative to the manifest's folder. Members the manifest does not know
// are refused, so that a misspelt key is not silently ignored; every refusal names the file and
// the member.
//
// A manifest travels between groups, and the import copies what it names into the served sky:
// every file and folder it names, and every symbolic link inside a HiPS folder, must lie under
// the manifest's folder once links are resolved (`../grey/targets.csv`, `/etc/passwd`, a link
// to elsewhere are refused, naming the path), unless the operator allows another folder
// (`allowedRoots`, the command's --allow-root).
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseHipsProperties, type HipsProperties, type InvalidPropertiesError } from '../../core/hipsProperties';
import type { Retirement } from '../../shared/courses';
import { COURSE_ID_PATTERN, COURSE_IDS } from '../../shared/enums';
import { ImportError } from './import-error';
import { targetListFormat, type TargetListFormat } from './targets';

export const COURSE_NAME_MAX = 100;

/**
 * The retirement member of the manifest's example (above, docs/import.md, README.md), the rule a
 * research group copies: the science bench holds it against a campaign without a rule and shows
 * that it saves classifications without losing accuracy (docs/science.md, "What retirement
 * saves").
 */
export const EXAMPLE_RETIREMENT = { min_volunteers: 5, min_confidence: 0.999, max_volunteers: 20 } as const;

/** The stretch parameters a manifest may give for FITS imagery (the pretty-picture preset's). */
export const PRESET_KEYS = ['a', 'b', 'beta', 'bias', 'exposure', 'gamma', 'ground', 'mix'] as const;
export type ImageryPreset = Partial<Record<(typeof PRESET_KEYS)[number], number>>;

/**
 * A HiPS (a folder, with its properties read, or a URL), or FITS images the import turns into
 * one (skydata/import/hips-from-images.ts): fields of one or three bands, shortest wavelength first.
 */
export type Imagery =
  | { hips: { url: string } | { folder: string; properties: HipsProperties }; preset: ImageryPreset }
  | { fits: { fields: string[][]; preset: ImageryPreset } };

export interface CourseManifest {
  /** The manifest file, absolute. */
  file: string;
  id: string;
  name: { en: string; ja: string };
  imagery: Imagery;
  targets: { file: string; format: TargetListFormat };
  retirement: Retirement | null;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: Json | undefined): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface ManifestOptions {
  /**
   * Folders besides the manifest's own under which its paths may lie (`galaxy-cruise import
   * --allow-root DIR`), absolute.
   */
  allowedRoots?: readonly string[];
}

type Refuse = (field: string | undefined, reason: string) => never;

/** Whether `file` (a real path) is `root` (a real path) or lies under it. */
function isUnder(file: string, root: string): boolean {
  const relative = path.relative(root, file);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}

/**
 * Where the manifest's paths may lead: its own folder and the allowed roots, each with its
 * symbolic links resolved, so that a path is compared by where it really is.
 */
class Confinement {
  private constructor(
    private readonly folder: string,
    private readonly roots: string[],
    private readonly refuse: Refuse,
  ) {}

  static async of(folder: string, allowedRoots: readonly string[], refuse: Refuse): Promise<Confinement> {
    const roots: string[] = [];
    for (const root of [folder, ...allowedRoots]) {
      try {
        roots.push(await fs.realpath(root));
      } catch {
        refuse(undefined, `the folder '${root}' cannot be read`);
      }
    }
    return new Confinement(folder, roots, refuse);
  }

  /**
   * The real path of a path the manifest gives (`given`, resolved to `absolute`), refused when it
   * leads outside the roots; undefined when nothing is there (the caller says what was expected).
   */
  async check(field: string, given: string, absolute: string): Promise<string | undefined> {
    let real: string;
    try {
      real = await fs.realpath(absolute);
    } catch {
      return undefined;
    }
    if (!this.roots.some((root) => isUnder(real, root))) this.refuse(field, this.outside(given, absolute, real));
    return real;
  }

  /**
   * Refuses a HiPS folder holding a symbolic link that leads outside the roots, or nowhere: its
   * copy, or the link to it, would serve what the link leads to. A linked folder inside the roots
   * is walked too, each real folder once.
   */
  async checkLinksUnder(field: string, given: string, folder: string): Promise<void> {
    const seen = new Set<string>();
    const pending = [folder];
    while (pending.length > 0) {
      const directory = pending.pop()!;
      const real = await fs.realpath(directory);
      if (seen.has(real)) continue;
      seen.add(real);
      for (const entry of await fs.readdir(directory, { withFileTypes: true })) {
        const entryPath = path.join(directory, entry.name);
        if (entry.isDirectory()) pending.push(entryPath);
        if (!entry.isSymbolicLink()) continue;
        const shown = path.join(given, path.relative(folder, entryPath));
        const target = await this.check(field, shown, entryPath);
        if (target === undefined) this.refuse(field, `'${shown}' is a symbolic link to nothing`);
        if ((await fs.stat(entryPath)).isDirectory()) pending.push(entryPath);
      }
    }
  }

  private outside(given: string, absolute: string, real: string): string {
    const leads = real === absolute ? '' : ` (it leads to ${real})`;
    const where =
      this.roots.length > 1
        ? `the manifest's folder ${this.folder} and the allowed roots`
        : `the manifest's folder ${this.folder}`;
    return `'${given}'${leads} is outside ${where}: the import reads only there, unless --allow-root names another folder`;
  }
}

/** Reads and checks a manifest; throws an ImportError naming the member at fault. */
export async function readManifest(manifestFile: string, options: ManifestOptions = {}): Promise<CourseManifest> {
  const file = path.resolve(manifestFile);
  const folder = path.dirname(file);
  const refuse: Refuse = (field, reason) => {
    throw new ImportError(file, field === undefined ? {} : { field }, reason);
  };
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    return refuse(undefined, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch (error) {
    return refuse(undefined, `not JSON: ${(error as Error).message}`);
  }
  if (!isObject(json)) return refuse(undefined, 'a manifest is a JSON object');
  const known = (object: { [key: string]: Json }, prefix: string, keys: readonly string[]) => {
    for (const key of Object.keys(object)) {
      if (!keys.includes(key)) refuse(`${prefix}${key}`, `unknown member (the manifest knows ${keys.join(', ')})`);
    }
  };
  known(json, '', ['id', 'name', 'imagery', 'targets', 'retirement']);

  const id = json.id;
  if (typeof id !== 'string' || !COURSE_ID_PATTERN.test(id)) {
    refuse('id', `${JSON.stringify(id ?? null)} is not a course id (2 to 40 of a-z, 0-9, '-', '_', a letter first)`);
  }
  const courseId = id as string;
  if ((COURSE_IDS as readonly string[]).includes(courseId)) {
    refuse('id', `'${courseId}' is a course of the application spec; an imported course needs an id of its own`);
  }

  const name = json.name;
  if (!isObject(name)) return refuse('name', 'needs {"en": …, "ja": …}');
  known(name, 'name.', ['en', 'ja']);
  const names = { en: '', ja: '' };
  for (const language of ['en', 'ja'] as const) {
    const value = name[language];
    if (typeof value !== 'string' || value.trim() === '' || value.trim().length > COURSE_NAME_MAX) {
      refuse(`name.${language}`, `needs text of 1 to ${COURSE_NAME_MAX} characters`);
    }
    names[language] = (value as string).trim();
  }

  const confinement = await Confinement.of(folder, options.allowedRoots ?? [], refuse);
  const imagery = await readImagery(json.imagery, folder, confinement, refuse);

  const targets = json.targets;
  if (typeof targets !== 'string' || targets.trim() === '') return refuse('targets', 'needs the target list file');
  const targetsFile = path.resolve(folder, targets);
  let format: TargetListFormat;
  try {
    format = targetListFormat(targetsFile);
  } catch (error) {
    return refuse('targets', `'${targets}': ${(error as ImportError).reason}`);
  }
  if ((await confinement.check('targets', targets, targetsFile)) === undefined)
    refuse('targets', `'${targets}' does not exist`);

  return {
    file,
    id: courseId,
    name: names,
    imagery,
    targets: { file: targetsFile, format },
    retirement: readRetirement(json.retirement, refuse),
  };
}

/** The imagery member: {"hips": folder or URL}, or {"fits": [fields], "preset": {…}}. */
async function readImagery(
  imagery: Json | undefined,
  folder: string,
  confinement: Confinement,
  refuse: Refuse,
): Promise<Imagery> {
  if (!isObject(imagery) || (imagery.hips === undefined) === (imagery.fits === undefined)) {
    return refuse('imagery', 'needs {"hips": "<folder or URL>"} or {"fits": ["<image>.fits", …]}');
  }
  for (const key of Object.keys(imagery)) {
    const keys = imagery.hips === undefined ? ['fits', 'preset'] : ['hips', 'preset'];
    if (!keys.includes(key)) refuse(`imagery.${key}`, `unknown member (the manifest knows ${keys.join(', ')} here)`);
  }
  if (imagery.fits !== undefined)
    return { fits: await readFitsImagery(imagery.fits, imagery.preset, folder, confinement, refuse) };
  const hips = imagery.hips;
  if (typeof hips !== 'string' || hips.trim() === '') return refuse('imagery.hips', 'needs a HiPS folder or URL');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(hips)) {
    let url: URL | undefined;
    try {
      url = new URL(hips);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      return refuse('imagery.hips', `'${hips}' is not an http or https URL`);
    }
    return { hips: { url: url.href.replace(/\/?$/, '/') }, preset: readPreset(imagery.preset, refuse) };
  }
  const hipsFolder = path.resolve(folder, hips);
  // The folder as the manifest names it, without a trailing '/' (no 'hips//properties').
  const named = hips.replace(/[\\/]+$/, '') || hips;
  if ((await confinement.check('imagery.hips', hips, hipsFolder)) !== undefined)
    await confinement.checkLinksUnder('imagery.hips', hips, hipsFolder);
  let propertiesText: string;
  try {
    propertiesText = await fs.readFile(path.join(hipsFolder, 'properties'), 'utf8');
  } catch {
    return refuse('imagery.hips', `'${named}' is not a HiPS folder (it has no readable properties file)`);
  }
  let properties: HipsProperties;
  try {
    properties = parseHipsProperties(propertiesText);
  } catch (error) {
    const reason = (error as InvalidPropertiesError).reason;
    return refuse('imagery.hips', `'${named}/properties': ${(error as Error).message}${reason ? `: ${reason}` : ''}`);
  }
  return { hips: { folder: hipsFolder, properties }, preset: readPreset(imagery.preset, refuse) };
}

/**
 * imagery.fits: a list of fields, each a FITS file (one band) or a list of one or three (the
 * bands, shortest wavelength first), every field with as many bands as the first; the files must
 * exist (their WCS is read by the import). imagery.preset: numbers over the stretch derived from
 * the images.
 */
async function readFitsImagery(
  fits: Json,
  preset: Json | undefined,
  folder: string,
  confinement: Confinement,
  refuse: Refuse,
): Promise<{ fields: string[][]; preset: ImageryPreset }> {
  if (!Array.isArray(fits) || fits.length === 0) {
    return refuse('imagery.fits', 'needs a list of FITS images (a file, or the [blue, green, red] files of a field)');
  }
  const fields: string[][] = [];
  for (const [index, field] of fits.entries()) {
    const member = `imagery.fits[${index}]`;
    const files = typeof field === 'string' ? [field] : field;
    if (
      !Array.isArray(files) ||
      (files.length !== 1 && files.length !== 3) ||
      files.some((file) => typeof file !== 'string' || file === '')
    ) {
      refuse(member, 'needs a FITS file, or a list of 1 or 3 (the bands, shortest wavelength first)');
    }
    const bands = files as string[];
    if (fields.length > 0 && bands.length !== fields[0]!.length) {
      refuse(member, `has ${bands.length} bands, the first field ${fields[0]!.length}`);
    }
    const resolved: string[] = [];
    for (const file of bands) {
      const absolute = path.resolve(folder, file);
      if ((await confinement.check(member, file, absolute)) === undefined) refuse(member, `'${file}' does not exist`);
      resolved.push(absolute);
    }
    fields.push(resolved);
  }
  return { fields, preset: readPreset(preset, refuse) };
}

/** imagery.preset: numbers over the colour settings derived from the images or the tiles. */
function readPreset(
  preset: Json | undefined,
  refuse: (field: string | undefined, reason: string) => never,
): ImageryPreset {
  const parameters: ImageryPreset = {};
  if (preset !== undefined && preset !== null) {
    if (!isObject(preset)) return refuse('imagery.preset', `needs an object of numbers (${PRESET_KEYS.join(', ')})`);
    for (const [key, value] of Object.entries(preset)) {
      if (!(PRESET_KEYS as readonly string[]).includes(key)) {
        refuse(`imagery.preset.${key}`, `unknown member (the manifest knows ${PRESET_KEYS.join(', ')} here)`);
      }
      if (typeof value !== 'number' || !Number.isFinite(value)) refuse(`imagery.preset.${key}`, 'needs a number');
      parameters[key as (typeof PRESET_KEYS)[number]] = value as number;
    }
  }
  return parameters;
}

/** The retirement member: absent or null for none; otherwise as `science rule` takes it. */
function readRetirement(value: Json | undefined, refuse: (field: string, reason: string) => never): Retirement | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value))
    return refuse('retirement', 'needs {"min_volunteers", "min_confidence"} and/or {"max_volunteers"}');
  const keys = ['min_volunteers', 'min_confidence', 'max_volunteers'];
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) refuse(`retirement.${key}`, `unknown member (a rule knows ${keys.join(', ')})`);
  }
  const whole = (key: 'min_volunteers' | 'max_volunteers') => {
    const number = value[key];
    if (number === undefined || number === null) return null;
    if (typeof number !== 'number' || !Number.isInteger(number) || number < 1) {
      return refuse(`retirement.${key}`, `${JSON.stringify(number)} is not a positive whole number`);
    }
    return number;
  };
  const confidence = value.min_confidence;
  if (
    confidence !== undefined &&
    confidence !== null &&
    !(typeof confidence === 'number' && confidence >= 0.5 && confidence <= 1)
  ) {
    refuse('retirement.min_confidence', `${JSON.stringify(confidence)} is not a number from 0.5 to 1`);
  }
  const rule: Retirement = {
    minVolunteers: whole('min_volunteers'),
    minConfidence: (confidence as number | undefined | null) ?? null,
    maxVolunteers: whole('max_volunteers'),
  };
  if ((rule.minVolunteers === null) !== (rule.minConfidence === null)) {
    refuse('retirement', 'min_volunteers and min_confidence go together');
  }
  if (rule.minVolunteers === null && rule.maxVolunteers === null) {
    refuse('retirement', 'a rule needs min_volunteers with min_confidence, or max_volunteers');
  }
  return rule;
}
