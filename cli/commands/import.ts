// `galaxy-cruise import MANIFEST` (issue 30; docs/import.md): a research group's course from its
// manifest (skydata/import/manifest.ts) and target list (skydata/import/targets.ts), its levels and
// areas planned from the targets' positions by the planner the generated sky uses
// (skydata/areas.ts), seeded beside the other courses in one transaction
// (server/db/imported-course.ts). Everything is read and checked before anything is written: a
// malformed file is refused with its file, row and column, and the database and the served
// imagery stay as they were. A HiPS folder is copied under {dataRepository}/imports/<course>/hips/
// (VAR_DIR/sky/stellar-globe/static, served with the sky, or by DATA_HOST with it), or linked
// there with --link (a large HiPS is then not copied at each import, and must stay where it is);
// a HiPS URL is kept as it is. `--open COURSE` and `--close COURSE` let volunteers sail an imported course, or
// stop them (a course is open once imported). The manifest's paths must lie under its folder,
// links resolved (skydata/import/manifest.ts); `--allow-root DIR` lets them lie under DIR too.
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema';
import { setCourseOpen } from '../../server/db/admin-courses';
import { ImportError } from '../../skydata/import/import-error';
import { readManifest } from '../../skydata/import/manifest';
import { seedImportedCourse, type ImportedCourseResult } from '../../server/db/imported-course';
import { readTargetList } from '../../skydata/import/targets';
import { FITS_FORMAT, parseHipsProperties } from '../../core/hipsProperties';
import type { HipsColour } from '../../shared/courses';
import { planPositions } from '../../skydata/areas';
import { writeCutouts } from '../../skydata/hips-cutout';
import { ImageImportError, writeHipsFromImages } from '../../skydata/import/hips-from-images';
import { colourFromCut, hipsFitsColour } from '../../skydata/hips-fits-colour';
import { skyRoot } from '../../skydata/paths';
import { PIXEL_SCALE, tractSize } from '../../skydata/plan';
import { UsageError, atMostPositionals, parseOptions, type Command } from '../command';
import { withConfiguredDatabase } from '../database';

/** Targets in an area, at most: as the sky's regular levels. */
export const TARGETS_PER_AREA = 8;
/** Areas in a level, at most. */
export const AREAS_PER_LEVEL = 10;
/** Degrees: a target farther than this from its area's first target starts another area. */
export const AREA_RADIUS = 0.25;

/** The folder under {dataRepository} that holds the imported courses' copied imagery. */
export const IMPORTS_FOLDER = 'imports';

export interface ImportCourseOptions {
  db: Kysely<Database>;
  manifestFile: string;
  /** VAR_DIR: a HiPS folder is copied under its sky data repository. */
  varDirectory: string;
  /** Link the HiPS folder there (a symbolic link) rather than copy it. */
  link?: boolean;
  /** Folders besides the manifest's own under which its paths may lie (--allow-root). */
  allowedRoots?: readonly string[];
  /** Progress of a long step (FITS images to a HiPS). */
  log?: (line: string) => void;
  /** Threads that make a HiPS of FITS images: all cores by default. */
  workers?: number;
}

export interface ImportCourseReport extends ImportedCourseResult {
  course: string;
  hipsUrl: string;
}

/** Reads, plans and seeds one course; throws (an ImportError for a malformed file) with nothing written. */
export async function importCourse({
  db,
  manifestFile,
  varDirectory,
  link = false,
  allowedRoots = [],
  log,
  workers,
}: ImportCourseOptions): Promise<ImportCourseReport> {
  const manifest = await readManifest(manifestFile, { allowedRoots });
  const targets = await readTargetList(manifest.targets.file);
  const levels = planPositions(targets, {
    perArea: TARGETS_PER_AREA,
    areasPerLevel: AREAS_PER_LEVEL,
    maxRadius: AREA_RADIUS,
    arcsecPerPixel: PIXEL_SCALE,
    minSize: tractSize(false),
  });

  const { imagery } = manifest;
  const courseFolder = path.join(skyRoot(varDirectory), IMPORTS_FOLDER, manifest.id);
  // A dot-folder: not served (server/plugins/static-files.ts) while it is being filled.
  const staging = path.join(courseFolder, `.hips-${process.pid}`);
  const servedUrl = `${IMPORTS_FOLDER}/${manifest.id}/hips/`;
  // Captain notes' pictures, cut from a HiPS served here, beside it (notes/<target id>.png).
  const notesStaging = path.join(courseFolder, `.notes-${process.pid}`);
  const noteImages = new Map<number, string>();
  // A refused import leaves nothing behind: the folders it made go with it.
  const made = [path.dirname(courseFolder), courseFolder].filter((folder) => !fs.existsSync(folder));
  let hipsUrl: string;
  // The colour of FITS tiles: derived from the copied tiles, or the manifest's numbers for a URL.
  let hipsColour: HipsColour | null = null;
  let result: ImportedCourseResult;
  try {
    if ('hips' in imagery && 'url' in imagery.hips) {
      hipsUrl = imagery.hips.url;
      if (Object.keys(imagery.preset).length > 0) hipsColour = { ...colourFromCut([0, 1]), ...imagery.preset };
    } else {
      fs.rmSync(staging, { recursive: true, force: true });
      fs.mkdirSync(courseFolder, { recursive: true });
      if ('fits' in imagery) {
        // An image the WCS reader refuses is a malformed file like any other: named, nothing written.
        try {
          await writeHipsFromImages({
            fields: imagery.fits.fields,
            directory: staging,
            title: manifest.name.en,
            preset: imagery.fits.preset,
            log,
            workers,
          });
        } catch (error) {
          if (error instanceof ImageImportError)
            throw new ImportError(manifest.file, { field: 'imagery.fits' }, error.message);
          throw error;
        }
      } else if ('folder' in imagery.hips) {
        // A copy holds files, not links: each link of the folder was checked to lead under an
        // allowed folder (readManifest), and what it leads to is copied as it is now.
        if (link) fs.symlinkSync(imagery.hips.folder, staging, 'dir');
        else fs.cpSync(imagery.hips.folder, staging, { recursive: true, dereference: true });
        if (imagery.hips.properties.format === FITS_FORMAT)
          hipsColour = hipsFitsColour(imagery.hips.folder, imagery.hips.properties, imagery.preset);
      }
      hipsUrl = servedUrl;
      const noted = targets.filter((target) => target.captainNote !== null);
      fs.rmSync(notesStaging, { recursive: true, force: true });
      // The staged HiPS, written or copied (or linked) from the checked folder.
      const properties = parseHipsProperties(fs.readFileSync(path.join(staging, 'properties'), 'utf8'));
      for (const target of writeCutouts(staging, properties, noted, (target) =>
        path.join(notesStaging, `${target.id}.png`),
      ))
        noteImages.set(target.id, `${IMPORTS_FOLDER}/${manifest.id}/notes/${target.id}.png`);
    }
    result = await seedImportedCourse(db, {
      id: manifest.id,
      name: manifest.name,
      hipsUrl,
      hipsColour,
      source: manifest.file,
      retirement: manifest.retirement,
      levels: levels.map((level) => ({
        areas: level.map((area) => ({ outline: area.outline, targets: area.members })),
      })),
      noteImages,
    });
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(notesStaging, { recursive: true, force: true });
    // The course's folder (and imports/) if this import made them.
    for (const folder of made.reverse()) fs.rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  // The copy replaces the one served; a course whose imagery is now a URL serves none.
  const served = path.join(courseFolder, 'hips');
  fs.rmSync(served, { recursive: true, force: true });
  if (hipsUrl === servedUrl) fs.renameSync(staging, served);
  const notes = path.join(courseFolder, 'notes');
  fs.rmSync(notes, { recursive: true, force: true });
  if (noteImages.size > 0) fs.renameSync(notesStaging, notes);
  return { course: manifest.id, hipsUrl, ...result };
}

export const importCommand: Command = {
  usage: [
    'galaxy-cruise import [--link] [--allow-root DIR]... [--workers N] MANIFEST',
    '       galaxy-cruise import --open COURSE | --close COURSE',
    '',
    "MANIFEST: a course's JSON manifest (docs/import.md): its names, imagery (a HiPS folder or URL, or",
    'FITS images with a celestial WCS, made into a HiPS),',
    'target list (CSV, FITS table or VOTable) and retirement rule. Importing it again updates the',
    'course and keeps every answer. A HiPS folder is copied to be served, or linked with --link.',
    "The manifest's paths must lie under its folder (symbolic links resolved); --allow-root DIR",
    'lets them lie under DIR too (repeatable). FITS images are made into a HiPS on every core, or',
    'on N threads with --workers N.',
    '--open and --close let volunteers sail an imported course or stop them. With the embedded',
    'database (no DATABASE_URL), stop the server first.',
  ].join('\n'),
  async run(args) {
    const { values, positionals } = parseOptions(args, {
      open: { type: 'string' },
      close: { type: 'string' },
      link: { type: 'boolean' },
      'allow-root': { type: 'string', multiple: true },
      workers: { type: 'string' },
    });
    atMostPositionals(positionals, 1);
    const [manifestFile] = positionals;
    const switches = [values.open, values.close].filter((value) => value !== undefined).length;
    if (switches + (manifestFile === undefined ? 0 : 1) !== 1)
      throw new UsageError('import needs a MANIFEST, or one of --open COURSE and --close COURSE');
    if (values.link && manifestFile === undefined) throw new UsageError('--link goes with a MANIFEST');
    const workers = values.workers === undefined ? undefined : Number(values.workers);
    if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1))
      throw new UsageError(`--workers needs a whole number of threads, at least 1, not '${values.workers}'`);
    if (workers !== undefined && manifestFile === undefined) throw new UsageError('--workers goes with a MANIFEST');
    const allowedRoots = (values['allow-root'] ?? []).map((root) => {
      if (manifestFile === undefined) throw new UsageError('--allow-root goes with a MANIFEST');
      if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory())
        throw new UsageError(`--allow-root '${root}' is not a folder`);
      return path.resolve(root);
    });
    return withConfiguredDatabase('import', async (db, config) => {
      if (manifestFile === undefined) {
        const courseId = (values.open ?? values.close)!;
        if (!(await setCourseOpen(db, courseId, values.open !== undefined)))
          throw new Error(`no imported course '${courseId}' in the database`);
        process.stdout.write(`course ${courseId}: ${values.open !== undefined ? 'open' : 'closed'}\n`);
        return 0;
      }
      const report = await importCourse({
        db,
        manifestFile,
        varDirectory: config.varDirectory,
        link: values.link ?? false,
        allowedRoots,
        log: (line) => process.stderr.write(`${line}\n`),
        workers,
      });
      process.stdout.write(
        `course ${report.course}: ${report.targets} targets (${report.added} new, ${report.retired} retired) in ` +
          `${report.areas} areas of ${report.levels} levels; imagery ${report.hipsUrl}\n`,
      );
      return 0;
    });
  },
};
