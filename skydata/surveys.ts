// The three HSC-like surveys (viewer-spec §3, §7): for each of wide, dud and simulation a folder
// with meta.json (per tract a TAN wcs header and tract options), area.json (the areas' outline
// polygons) and the tile pyramids; plus catalogue.json, the target catalogue the server seeds
// from (shared/catalogue.ts), written outside the served tree because it holds the answers.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Catalogue, CatalogueCourse, CatalogueLevel, CatalogueTarget, MapLabel } from '../shared/catalogue';
import { COURSE_IDS } from '../shared/enums';
import { captainNote } from './notes';
import { runTractJobs } from './parallel';
import {
  AREA_PADDING,
  renderedArea,
  SEASON2_LABEL_COUNT,
  SIMULATION_DIVISIONS,
  type AreaPlan,
  type LevelPlan,
} from './plan';
import { campaigns, souvenirs } from './rewards';
import { morphologyOf } from './targets';
import { FILTERS, maxTileLevel, TILE_SIZE, type TractPlan } from './tract';
import type { TractJob } from './tract-worker';
import { pixelToSky } from './wcs';

export const SURVEYS = ['wide', 'dud', 'simulation'] as const;

/**
 * The folder of a level's field tract. The globe draws the survey layers wide, dud, simulation in
 * this order (src/app/components/globe/GlobeView.tsx), each over the one before, so a Deep/UltraDeep
 * level's field tract lies in the wide folder: in the dud folder it would cover the Wide areas
 * around it (HSC-SSP's UltraDeep fields lie inside its Wide ones, as SXDS and COSMOS do here). No
 * other survey lies near the simulation's patch of sky.
 */
export function fieldTractSurvey(level: Pick<LevelPlan, 'field'>): (typeof SURVEYS)[number] {
  return level.field.depth === 'simulation' ? 'simulation' : 'wide';
}

function tractEntry(plan: TractPlan) {
  return {
    tract: plan.tract,
    wcs: plan.wcs,
    tractOptions: { tileSize: TILE_SIZE, minTileLevel: 0, maxTileLevel: maxTileLevel(plan.wcs.NAXIS1), flipV: false },
  };
}

export interface SurveyBuildResult {
  catalogue: Catalogue;
  tracts: number;
  targets: number;
  bytes: number;
}

/** object_id: HSC-like 14-digit ids, unique, below 2^53. */
export function objectId(area: AreaPlan, index: number): number {
  return 43_000_000_000_000 + area.id * 1000 + index;
}

const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI'];

function labelsOf(level: LevelPlan, season2Wide: LevelPlan[]): MapLabel[] {
  if (level.field.depth === 'simulation' && level.course === 'illustris') {
    // 11 divisions around the simulation field, one label each.
    return Array.from({ length: SIMULATION_DIVISIONS }, (_, k) => {
      const angle = (2 * Math.PI * k) / SIMULATION_DIVISIONS;
      const ra = level.field.ra + (0.5 * Math.cos(angle)) / Math.cos((level.field.dec * Math.PI) / 180);
      return {
        name: { en: `Division ${ROMAN[k]}`, ja: `第${k + 1}区` },
        ra,
        dec: level.field.dec + 0.5 * Math.sin(angle),
      };
    });
  }
  const index = season2Wide.indexOf(level);
  if (index < 0 || !level.field.island) return [];
  // Season2's 24 labels: each wide level gets its archipelago (the field) and one island (its
  // first area); with fewer wide levels (the small sky) the labels are fewer.
  const first = level.areas[0].centre;
  return [
    {
      name: { en: `${level.field.name.en} Archipelago`, ja: `${level.field.name.ja}諸島` },
      ra: level.field.ra,
      dec: level.field.dec + 0.25,
    },
    { name: level.field.island, ra: first[0], dec: first[1] },
  ];
}

export async function buildSurveys(
  root: string,
  catalogueFile: string,
  levels: LevelPlan[],
  seed: number,
  log: (line: string) => void,
): Promise<SurveyBuildResult> {
  const metas: Record<string, ReturnType<typeof tractEntry>[]> = {};
  // Each folder lists its field tracts before its area tracts: the viewer draws a folder's tracts
  // in meta.json's order, so the area tracts lie over the field around them.
  const fields: Record<string, ReturnType<typeof tractEntry>[]> = {};
  const areas: Record<string, [number, number][][]> = {};
  for (const survey of SURVEYS) {
    fs.rmSync(path.join(root, survey), { recursive: true, force: true });
    metas[survey] = [];
    fields[survey] = [];
    areas[survey] = [];
  }
  fs.rmSync(path.join(root, 'captain_notes'), { recursive: true, force: true });
  fs.mkdirSync(path.join(root, 'captain_notes'), { recursive: true });
  const season2Wide = levels.filter((l) => l.course === 'season2' && l.field.depth === 'wide');
  if (season2Wide.length * 2 > SEASON2_LABEL_COUNT) throw new Error('more season2 wide levels than labels');
  const jobs: TractJob[] = [];
  let targets = 0;
  let tracts = 0;
  const courses: CatalogueCourse[] = COURSE_IDS.map((id) => ({ id, levels: [] }));
  for (const level of levels) {
    const survey = level.field.depth;
    const fieldSurvey = fieldTractSurvey(level);
    jobs.push({
      id: level.fieldTract.tract,
      surveyDirectory: path.join(root, fieldSurvey),
      plan: level.fieldTract,
      cutouts: [],
    });
    tracts++;
    fields[fieldSurvey].push(tractEntry(level.fieldTract));
    const catalogueLevel: CatalogueLevel = {
      id: level.id,
      key: level.field.key,
      name_key: `levels.${level.field.key}`,
      name: level.field.name,
      type: level.field.type,
      depth: level.field.depth,
      survey,
      areas: [],
      labels: labelsOf(level, season2Wide),
    };
    for (const area of level.areas) {
      const rendered = renderedArea(area);
      const job: TractJob = { id: area.id, surveyDirectory: path.join(root, survey), plan: rendered, cutouts: [] };
      jobs.push(job);
      tracts++;
      metas[survey].push(tractEntry(rendered));
      areas[survey].push(area.outline);
      const catalogueTargets: CatalogueTarget[] = area.targets.map((spec, index) => {
        const [ra, dec] = pixelToSky(area.wcs, spec.x + 1, spec.y + 1);
        const morphology = morphologyOf(spec);
        const target: CatalogueTarget = { object_id: objectId(area, index), ra, dec, ...morphology };
        if (level.course === 'training' || level.course === 'illustris_review') {
          const imgName = `captain_notes/${target.object_id}.png`;
          job.cutouts.push({
            file: path.join(root, imgName),
            x: spec.x + AREA_PADDING,
            y: spec.y + AREA_PADDING,
            side: Math.min(512, Math.max(192, Math.ceil(spec.radius * 3.2))),
          });
          target.captain_note = captainNote(
            spec.kind,
            morphology,
            level.course === 'training' ? 'training' : 'tng_review',
            imgName,
            spec.name,
          );
        }
        return target;
      });
      targets += catalogueTargets.length;
      catalogueLevel.areas.push({ id: area.id, outlines: [area.outline], targets: catalogueTargets });
    }
    courses.find((course) => course.id === level.course)?.levels.push(catalogueLevel);
  }
  const started = Date.now();
  let done = 0;
  const bytes = await runTractJobs(jobs, () => {
    done++;
    if (done % 10 === 0 || done === jobs.length)
      log(`  tracts rendered: ${done}/${jobs.length} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  });
  for (const survey of SURVEYS) {
    const directory = path.join(root, survey);
    fs.mkdirSync(directory, { recursive: true });
    fs.writeFileSync(
      path.join(directory, 'meta.json'),
      JSON.stringify({ filters: FILTERS, tracts: [...fields[survey], ...metas[survey]] }),
    );
    fs.writeFileSync(path.join(directory, 'area.json'), JSON.stringify(areas[survey]));
  }
  const body = { format: 1 as const, seed, courses, campaigns: campaigns(), souvenirs: souvenirs(root) };
  const digest = crypto.createHash('sha256').update(JSON.stringify(body)).digest('hex');
  const catalogue: Catalogue = {
    format: 1,
    seed,
    digest,
    courses: body.courses,
    campaigns: body.campaigns,
    souvenirs: body.souvenirs,
  };
  fs.mkdirSync(path.dirname(catalogueFile), { recursive: true });
  fs.writeFileSync(catalogueFile, JSON.stringify(catalogue, null, 1));
  return { catalogue, tracts, targets, bytes };
}
