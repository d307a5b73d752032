// The plan of the sky: courses → levels → areas (one tract each) → targets, decided from the
// seed before anything is rendered. Season2's levels sit on the real HSC-SSP fields the original
// Galaxy Cruise sailed, at their real coordinates; where d3-celestial's deep-sky catalogue
// (dsos.20.json: the Saguaro Astronomy Club database) has a galaxy in a field, an area is centred
// on it and the target keeps its real position, size, axis ratio and Hubble type.
import fs from 'node:fs';
import type { CourseId, LevelType } from '../shared/enums';
import type { Localized } from '../shared/catalogue';
import { packageData } from './paths';
import { pixelAngle, POSITION_ANGLES } from './position-angles';
import { Random } from './random';
import { discAxisRatio, drawKind, reachOf, type TargetKind, type TargetSpec } from './targets';
import { DEPTHS, maxTileLevel, TILE_SIZE, type TractPlan } from './tract';
import { tractFootprint } from './areas';
import { pixelToSky, separation, skyToPixel, tanWcs, type TanWcs } from './wcs';

/** HSC pixel scale, arcseconds. */
export const PIXEL_SCALE = 0.168;
/**
 * HSC pixels per field-tract pixel side: a field tract's pixel is 16 × 16 HSC pixels (2.688″),
 * under 2 screen pixels at fov 18′ on a 720-pixel screen (1.5″ each), where an area tract alone
 * is a small square.
 */
export const FIELD_BINNING = 16;
/** How far a field tract reaches beyond its level's area tracts, degrees: half an 18′ view's width. */
export const FIELD_MARGIN = 0.27;
/**
 * The tile level an area tract is drawn at from fov 18′ (1.5″ a screen pixel on 720 pixels, 8 HSC
 * pixels): a field tract has that level's sky noise, σ/8, so that the grain does not step there.
 */
export const FIELD_MATCH_LEVEL = 3;
/**
 * HSC pixels of sky an area tract is rendered with beyond its area on every side (26.9″): a target
 * view (fov 0.02°, 64″ either side of the target on a 16:9 screen) never reaches past it in the
 * default sky, since a target lies 8 % of the side (27.5″) and its reach (10″ or more) inside the
 * area. The sides stay whole multiples of 2^top (2368 = 148 · 16), so each tile level halves the
 * one below exactly. The small sky's targets lie only 13.8″ in: a few views there reach past.
 */
export const AREA_PADDING = 160;

export interface PlanOptions {
  seed: number;
  small: boolean;
}

export interface FieldDefinition {
  key: string;
  name: Localized;
  ra: number;
  dec: number;
  type: LevelType;
  depth: 'wide' | 'dud' | 'simulation';
  /** Areas in the default build (the small build has one). */
  areas: number;
  targetsPerArea: number;
  /** A label of the season2 map: the island of this level's first area. */
  island?: Localized;
  /** Kept in the small build. */
  small?: boolean;
}

export interface AreaPlan extends TractPlan {
  id: number;
  outline: [number, number][];
  centre: [number, number];
}

export interface LevelPlan {
  id: number;
  course: CourseId;
  field: FieldDefinition;
  areas: AreaPlan[];
  /** The level's field tract: the survey field's sky under and around its area tracts. */
  fieldTract: TractPlan;
}

/**
 * The tract an area is rendered and served as: its footprint (area.wcs, which the catalogue's
 * positions and the outline are of) grown by AREA_PADDING on every side, the same centre and
 * pixel scale, its targets moved with the pixel grid.
 */
export function renderedArea(area: AreaPlan): TractPlan {
  const size = area.wcs.NAXIS1 + 2 * AREA_PADDING;
  return {
    tract: area.tract,
    wcs: {
      ...area.wcs,
      NAXIS1: size,
      NAXIS2: size,
      CRPIX1: area.wcs.CRPIX1 + AREA_PADDING,
      CRPIX2: area.wcs.CRPIX2 + AREA_PADDING,
    },
    depth: area.depth,
    targets: area.targets.map((target) => ({ ...target, x: target.x + AREA_PADDING, y: target.y + AREA_PADDING })),
    seed: area.seed,
    binning: area.binning,
  };
}

/** A level's field tract id: level id × 100, below its areas' (level id × 100 + 1, + 2, …). */
export function fieldTractId(levelId: number): number {
  return levelId * 100;
}

/**
 * The field tract of a level (docs/sky-data.md): a north-up TAN square of FIELD_BINNING-binned
 * pixels over the bounding box of the level's areas, FIELD_MARGIN wider on every side, its side a
 * multiple of 256. Its sky noise is that of the area tracts' tile level FIELD_MATCH_LEVEL, so
 * that at fov 18′, where both are drawn, the sky's grain does not step at an area tract's edge;
 * it holds no targets.
 */
export function planFieldTract(levelId: number, field: FieldDefinition, areas: AreaPlan[], seed: number): TractPlan {
  const arcsec = PIXEL_SCALE * FIELD_BINNING;
  const corners = (wcs: TanWcs) =>
    areas.flatMap((area) =>
      [
        [0.5, 0.5],
        [area.wcs.NAXIS1 + 0.5, 0.5],
        [0.5, area.wcs.NAXIS2 + 0.5],
        [area.wcs.NAXIS1 + 0.5, area.wcs.NAXIS2 + 0.5],
      ].map(([x, y]) => skyToPixel(wcs, ...pixelToSky(area.wcs, x, y))),
    );
  // The box's middle on a plane around the first area, then the box again around that middle.
  const probe = tanWcs(areas[0].centre[0], areas[0].centre[1], 2, arcsec);
  const first = corners(probe);
  const middleX = (Math.min(...first.map(([x]) => x)) + Math.max(...first.map(([x]) => x))) / 2;
  const middleY = (Math.min(...first.map(([, y]) => y)) + Math.max(...first.map(([, y]) => y))) / 2;
  const [ra, dec] = pixelToSky(probe, middleX, middleY);
  const centred = tanWcs(ra, dec, 2, arcsec);
  const reach = Math.max(
    ...corners(centred).map(([x, y]) => Math.max(Math.abs(x - centred.CRPIX1), Math.abs(y - centred.CRPIX2))),
  );
  const margin = (FIELD_MARGIN * 3600) / arcsec;
  const size = Math.ceil((2 * (reach + margin)) / TILE_SIZE) * TILE_SIZE;
  const depth = DEPTHS[field.depth];
  const top = Math.min(FIELD_MATCH_LEVEL, maxTileLevel(areas[0].wcs.NAXIS1 + 2 * AREA_PADDING));
  return {
    tract: fieldTractId(levelId),
    wcs: tanWcs(ra, dec, size, arcsec),
    depth: { ...depth, noise: depth.noise.map((sigma) => sigma / 2 ** top) as [number, number, number] },
    targets: [],
    seed,
    binning: FIELD_BINNING,
  };
}

const en = (text: string, ja: string): Localized => ({ en: text, ja });

/**
 * Season2's levels in sailing order: AEGIS is the practice field, then the HSC-SSP Wide fields;
 * the UltraDeep layers of SXDS and COSMOS are tunnel-effect levels (depth 'dud'), and a rich
 * cluster in GAMA15h is the greed level. Centres are the fields' published centres (degrees).
 */
export const SEASON2_FIELDS: FieldDefinition[] = [
  {
    key: 'season2-aegis',
    name: en('AEGIS (practice)', 'AEGIS（練習）'),
    ra: 214.8,
    dec: 52.7,
    type: 'regular',
    depth: 'wide',
    areas: 2,
    targetsPerArea: 6,
    island: en('Groth Island', 'グロース島'),
    small: true,
  },
  {
    key: 'season2-sxds',
    name: en('SXDS', 'SXDS'),
    ra: 34.5,
    dec: -5.1,
    type: 'regular',
    depth: 'wide',
    areas: 3,
    targetsPerArea: 8,
    island: en('Subaru Island', 'すばる島'),
  },
  {
    key: 'season2-sxds-ud',
    name: en('SXDS UltraDeep', 'SXDS ウルトラディープ'),
    ra: 34.4,
    dec: -5.0,
    type: 'tunnel_effect',
    depth: 'dud',
    areas: 2,
    targetsPerArea: 8,
    small: true,
  },
  {
    key: 'season2-deep2-3',
    name: en('DEEP2-3', 'DEEP2-3'),
    ra: 352.3,
    dec: 0.2,
    type: 'regular',
    depth: 'wide',
    areas: 3,
    targetsPerArea: 8,
    island: en('Keck Island', 'ケック島'),
  },
  {
    key: 'season2-cosmos',
    name: en('COSMOS', 'COSMOS'),
    ra: 150.1,
    dec: 2.2,
    type: 'regular',
    depth: 'wide',
    areas: 3,
    targetsPerArea: 8,
    island: en('Sextans Island', 'ろくぶんぎ島'),
    small: true,
  },
  {
    key: 'season2-cosmos-ud',
    name: en('COSMOS UltraDeep', 'COSMOS ウルトラディープ'),
    ra: 150.12,
    dec: 2.21,
    type: 'tunnel_effect',
    depth: 'dud',
    areas: 2,
    targetsPerArea: 8,
  },
  {
    key: 'season2-elais-n1',
    name: en('ELAIS-N1', 'ELAIS-N1'),
    ra: 242.8,
    dec: 54.9,
    type: 'regular',
    depth: 'wide',
    areas: 3,
    targetsPerArea: 8,
    island: en('Draco Island', 'りゅう島'),
  },
  {
    key: 'season2-xmm-lss',
    name: en('XMM-LSS', 'XMM-LSS'),
    ra: 36.2,
    dec: -4.2,
    type: 'regular',
    depth: 'wide',
    areas: 3,
    targetsPerArea: 8,
    island: en('Cetus Island', 'くじら島'),
  },
  {
    key: 'season2-hectomap',
    name: en('HECTOMAP', 'HECTOMAP'),
    ra: 245.0,
    dec: 43.5,
    type: 'regular',
    depth: 'wide',
    areas: 3,
    targetsPerArea: 8,
    island: en('Hercules Island', 'ヘルクレス島'),
  },
  {
    key: 'season2-wide12h',
    name: en('WIDE12h', 'WIDE12h'),
    ra: 180.0,
    dec: 0.0,
    type: 'regular',
    depth: 'wide',
    areas: 3,
    targetsPerArea: 8,
    island: en('Virgo Island', 'おとめ島'),
  },
  {
    key: 'season2-gama15h-cluster',
    name: en('GAMA15h cluster', 'GAMA15h 銀河団'),
    ra: 217.2,
    dec: 0.4,
    type: 'greed',
    depth: 'wide',
    areas: 2,
    targetsPerArea: 16,
    island: en('Cluster Reef', '銀河団礁'),
    small: true,
  },
  {
    key: 'season2-gama09h',
    name: en('GAMA09h', 'GAMA09h'),
    ra: 135.0,
    dec: 1.0,
    type: 'regular',
    depth: 'wide',
    areas: 3,
    targetsPerArea: 8,
    island: en('Hydra Island', 'うみへび島'),
  },
  {
    key: 'season2-gama15h',
    name: en('GAMA15h', 'GAMA15h'),
    ra: 217.5,
    dec: 0.0,
    type: 'regular',
    depth: 'wide',
    areas: 3,
    targetsPerArea: 8,
    island: en('Boötes Island', 'うしかい島'),
  },
  {
    key: 'season2-vvds',
    name: en('VVDS', 'VVDS'),
    ra: 334.4,
    dec: 0.4,
    type: 'regular',
    depth: 'wide',
    areas: 3,
    targetsPerArea: 8,
    island: en('Aquarius Island', 'みずがめ島'),
  },
];

/** The 24 labels of the season2 map: one archipelago per wide field and one island in it. */
export const SEASON2_LABEL_COUNT = 24;
/** The simulation level's 11 divisions. */
export const SIMULATION_DIVISIONS = 11;

const TRAINING: FieldDefinition = {
  key: 'training-aegis',
  name: en('Training', 'トレーニング'),
  ra: 215.6,
  dec: 53.3,
  type: 'regular',
  depth: 'wide',
  areas: 2,
  targetsPerArea: 8,
  small: true,
};
// The simulation "sky": the mock-observed TNG box is placed on a patch of sky no survey uses,
// so that it has real coordinates for the globe.
const ILLUSTRIS: FieldDefinition = {
  key: 'illustris-tng',
  name: en('IllustrisTNG', 'IllustrisTNG'),
  ra: 202.5,
  dec: -20.0,
  type: 'regular',
  depth: 'simulation',
  areas: 6,
  targetsPerArea: 8,
  small: true,
};
const ILLUSTRIS_REVIEW: FieldDefinition = {
  key: 'illustris-review',
  name: en('IllustrisTNG review', 'IllustrisTNG 復習'),
  ra: 205.5,
  dec: -22.0,
  type: 'regular',
  depth: 'simulation',
  areas: 2,
  targetsPerArea: 6,
  small: true,
};
// Final campaign: two more stretches of the HSC-SSP Wide layer (the spring and autumn
// equatorial stripes).
const FINAL: FieldDefinition[] = [
  {
    key: 'final-spring',
    name: en('Spring equatorial stripe', '春の赤道帯'),
    ra: 185.5,
    dec: 0.6,
    type: 'regular',
    depth: 'wide',
    areas: 3,
    targetsPerArea: 8,
    small: true,
  },
  {
    key: 'final-autumn',
    name: en('Autumn equatorial stripe', '秋の赤道帯'),
    ra: 17.0,
    dec: 0.5,
    type: 'regular',
    depth: 'wide',
    areas: 3,
    targetsPerArea: 8,
  },
];

export const COURSE_FIELDS: [CourseId, FieldDefinition[]][] = [
  ['training', [TRAINING]],
  ['season2', SEASON2_FIELDS],
  ['illustris', [ILLUSTRIS]],
  ['illustris_review', [ILLUSTRIS_REVIEW]],
  ['final_campaign', FINAL],
];

export interface RealGalaxy {
  name: string;
  ra: number;
  dec: number;
  /** Major and minor diameters, arcminutes. */
  major: number;
  minor: number;
  kind: TargetKind;
  /** Catalogue position angle (degrees, north through east), where skydata/position-angles.ts knows it. */
  positionAngle?: number;
}

/** SAC types and Hubble morphology → one of our kinds (S0 → lenticular, I → distorted). */
function kindOf(type: string, morph: string): TargetKind | null {
  if (type === 'e' || /^E/.test(morph)) return /S0/.test(morph) ? 'lenticular' : 'elliptical';
  if (type === 's0' || /^S0/.test(morph)) return 'lenticular';
  if (type === 's' || /^S/.test(morph)) return 'spiral';
  if (type === 'i' || /^I/.test(morph)) return 'distorted';
  if (type === 'gg') return 'merger';
  return null;
}

let realGalaxies: RealGalaxy[] | null = null;
export function loadRealGalaxies(): RealGalaxy[] {
  if (realGalaxies) return realGalaxies;
  const data = JSON.parse(fs.readFileSync(packageData('d3-celestial', 'dsos.20.json'), 'utf8')) as {
    features: {
      id: string;
      properties: { type: string; morph: string; dim: string };
      geometry: { coordinates: [number, number] };
    }[];
  };
  realGalaxies = [];
  for (const feature of data.features) {
    const kind = kindOf(feature.properties.type, feature.properties.morph ?? '');
    const dims = /^([\d.]+)x([\d.]+)$/.exec(feature.properties.dim ?? '');
    if (!kind || !dims) continue;
    const [lon, dec] = feature.geometry.coordinates;
    realGalaxies.push({
      name: feature.id,
      ra: lon < 0 ? lon + 360 : lon,
      dec,
      major: Number(dims[1]),
      minor: Number(dims[2]),
      kind,
      positionAngle: POSITION_ANGLES[feature.id],
    });
  }
  return realGalaxies;
}

/** The tract side (pixels): 2048 (5.7′) by default, 1024 for the small test sky. */
export function tractSize(small: boolean): number {
  return small ? 1024 : 2048;
}

/** A catalogued galaxy as a target of a tract: its real size, shape and, where known, orientation. */
export function realTargetSpec(wcs: TanWcs, real: RealGalaxy, random: Random): TargetSpec {
  const [px, py] = skyToPixel(wcs, real.ra, real.dec);
  // Drawn even when the catalogue angle is known, so that the rest of the sky stays the same.
  const drawn = random.uniform(0, Math.PI);
  return {
    kind: real.kind,
    x: px - 1,
    y: py - 1,
    radius: (real.major * 60) / PIXEL_SCALE / 2,
    q: Math.max(0.15, Math.min(1, real.minor / real.major)),
    pa: real.positionAngle === undefined ? drawn : pixelAngle(wcs, real.ra, real.dec, real.positionAngle),
    brightness: 1.2,
    primarySpiral: true,
    seed: random.int(1, 2 ** 31),
    name: real.name,
  };
}

function placeTargets(area: AreaPlan, count: number, random: Random, real: RealGalaxy | null, greed: boolean) {
  const size = area.wcs.NAXIS1;
  const margin = size * 0.08;
  const placed: { x: number; y: number; reach: number }[] = [];
  const fits = (x: number, y: number, reach: number) =>
    x - reach > margin &&
    y - reach > margin &&
    x + reach < size - margin &&
    y + reach < size - margin &&
    placed.every((o) => Math.hypot(o.x - x, o.y - y) > o.reach + reach);
  if (real) {
    const spec = realTargetSpec(area.wcs, real, random);
    const radius = spec.radius;
    area.targets.push(spec);
    placed.push({ x: spec.x, y: spec.y, reach: radius * reachOf(real.kind) });
  }
  const scale = size / 2048;
  for (let attempt = 0; area.targets.length < count && attempt < 4000; attempt++) {
    const kind = greed
      ? random.chance(0.55)
        ? random.pick(['elliptical', 'lenticular'] as const)
        : drawKind(random, 0.4)
      : drawKind(random);
    const radius = scale * (kind === 'merger' ? random.uniform(45, 75) : random.uniform(40, 95)) * (greed ? 0.8 : 1);
    const reach = radius * reachOf(kind);
    const x = random.uniform(0, size);
    const y = random.uniform(0, size);
    if (!fits(x, y, reach)) continue;
    placed.push({ x, y, reach });
    const inclination = Math.acos(random.uniform(0.15, 1)); // isotropic orientations, edge-on cut
    area.targets.push({
      kind,
      x,
      y,
      radius,
      q: kind === 'elliptical' ? random.uniform(0.55, 1) : discAxisRatio(Math.cos(inclination)),
      pa: random.uniform(0, Math.PI),
      brightness: random.uniform(0.7, 1.3),
      primarySpiral: random.chance(0.65),
      seed: random.int(1, 2 ** 31),
    });
  }
}

export function planSky({ seed, small }: PlanOptions): LevelPlan[] {
  const random = new Random(seed);
  const galaxies = loadRealGalaxies();
  const size = tractSize(small);
  const tractDegrees = (size * PIXEL_SCALE) / 3600;
  const used = new Set<string>();
  const levels: LevelPlan[] = [];
  let levelId = 0;
  for (const [course, fields] of COURSE_FIELDS) {
    for (const field of fields) {
      if (small && !field.small) continue;
      levelId++;
      const levelRandom = random.fork(field.key);
      const areas: AreaPlan[] = [];
      // Real galaxies within 1.2° of the field centre that fit in a tract, brightest-looking
      // (largest) first; the simulation has none.
      const candidates =
        field.depth === 'simulation'
          ? []
          : galaxies
              .filter(
                (g) =>
                  !used.has(g.name) &&
                  g.major >= 0.25 &&
                  // radius × reach within 28 % of the tract side, so that with the centre
                  // offset below the whole galaxy stays inside the area.
                  ((g.major * 60) / PIXEL_SCALE / 2) * reachOf(g.kind) <= size * 0.28 &&
                  separation(g.ra, g.dec, field.ra, field.dec) < 1.2,
              )
              .sort((a, b) => b.major - a.major || a.name.localeCompare(b.name));
      const areaCount = small ? 1 : field.areas;
      for (let k = 0; k < areaCount; k++) {
        let real: RealGalaxy | null = null;
        let centre: [number, number];
        const clear = (ra: number, dec: number) =>
          areas.every((a) => separation(a.centre[0], a.centre[1], ra, dec) > tractDegrees * 1.6);
        const index = candidates.findIndex((g) => clear(g.ra, g.dec));
        if (index >= 0 && field.type !== 'greed') {
          real = candidates.splice(index, 1)[0];
          used.add(real.name);
          // The real galaxy is off the tract centre by up to 12 % of the tract side.
          const offset = tractDegrees * 0.12 * Math.SQRT1_2;
          centre = [
            real.ra + levelRandom.uniform(-offset, offset) / Math.cos((real.dec * Math.PI) / 180),
            real.dec + levelRandom.uniform(-offset, offset),
          ];
        } else {
          let ra = field.ra;
          let dec = field.dec;
          for (let attempt = 0; attempt < 200; attempt++) {
            const r = k === 0 && attempt === 0 ? 0 : levelRandom.uniform(0.05, 0.6);
            const angle = levelRandom.uniform(0, 2 * Math.PI);
            ra = field.ra + (r * Math.cos(angle)) / Math.cos((field.dec * Math.PI) / 180);
            dec = field.dec + r * Math.sin(angle);
            if (clear(ra, dec)) break;
          }
          centre = [(ra + 360) % 360, dec];
        }
        const id = levelId * 100 + k + 1;
        const { wcs, outline } = tractFootprint(centre, size, PIXEL_SCALE);
        const area: AreaPlan = {
          id,
          tract: id,
          wcs,
          depth: DEPTHS[field.depth],
          targets: [],
          seed: levelRandom.int(1, 2 ** 31),
          binning: 1,
          outline,
          centre,
        };
        const count = small ? Math.min(4, field.targetsPerArea) : field.targetsPerArea;
        placeTargets(area, count, levelRandom.fork(id), real, field.type === 'greed');
        areas.push(area);
      }
      // Its own stream, forked from the sky's seed: the areas and targets above draw as before.
      const fieldSeed = random.fork(`${field.key}/field`).int(1, 2 ** 31);
      levels.push({ id: levelId, course, field, areas, fieldTract: planFieldTract(levelId, field, areas, fieldSeed) });
    }
  }
  return levels;
}
