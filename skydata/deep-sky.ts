// deep-sky/objects.json (core/deepSky.ts): the deep-sky objects the globe draws, read from
// the SAC deep-sky database as the npm package d3-celestial ships it (dsos.20.json: id,
// designation, type, morphology, magnitude, dimensions in arc-minutes). Chosen: every Messier
// object, and the NGC/IC/other objects of magnitude 10 or brighter, without the dark nebulae
// (drawn by light added, a dark nebula would show nothing) and galaxy clusters (their galaxies
// are the objects); open clusters only where they are Messier objects or compact and bright
// (the scattered ones are their stars, which the star layer draws); and no object of the
// van den Bergh, Cederblad and Lynds catalogues that is not a Messier object: their nebulae lie
// round bright stars, whose magnitudes the database gives as theirs, and their light is the
// stars'. Position angles come from skydata/position-angles.ts where known; the rest are drawn
// round.
import fs from 'node:fs';
import path from 'node:path';
import { DEEP_SKY_FILE, type DeepSkyFile, type DeepSkyKind, type DeepSkyObject } from '../core/deepSky';
import { packageData } from './paths';
import { POSITION_ANGLES } from './position-angles';

interface DsoFeature {
  id: string;
  properties: { desig: string; type: string; morph: string; mag: string | number; dim: string };
  geometry: { coordinates: [number, number] };
}

/** The faintest integrated magnitude drawn, other than a Messier object. */
export const DEEP_SKY_MAGNITUDE_LIMIT = 10;
/** An open cluster wider than this (arc-minutes) is its stars, not a glow. */
const OPEN_CLUSTER_MAX_SIZE = 60;
/** An open cluster fainter than this is left to its stars. */
const OPEN_CLUSTER_MAGNITUDE_LIMIT = 7;

const GALAXY_TYPES = new Set(['g', 's', 's0', 'sd', 'i', 'e']);

/** Catalogues of nebulae round bright stars (the stars' light): van den Bergh, Cederblad, Lynds. */
const STAR_NEBULA_CATALOGUES = /^(VdB|Ced|LDN|LBN) /;

/**
 * The drawing kind of a SAC type: galaxies; emission nebulae (emission nebulae, star-forming
 * regions and supernova remnants glow in Hα), except a star-forming region whose morphology says
 * reflection nebulosity (M45's 'I3rn'); a bright nebula by its morphology (EN emission; a
 * reflection nebula's class I–III alone, as NGC 1432's 'I, BR', reflection; brightness triplets or
 * nothing, emission); reflection nebulae; planetary nebulae; globular and open clusters. null:
 * not drawn.
 */
export function deepSkyKind(type: string, morphology: string): DeepSkyKind | null {
  if (GALAXY_TYPES.has(type)) return 'galaxy';
  if (type === 'sfr' && /rn/.test(morphology)) return 'reflection';
  if (type === 'bn' && !/EN/.test(morphology) && /^I{1,3}(-I{1,3})?,/.test(morphology)) return 'reflection';
  if (type === 'bn' || type === 'en' || type === 'sfr' || type === 'snr') return 'emission';
  if (type === 'rn') return 'reflection';
  if (type === 'pn') return 'planetary';
  if (type === 'gc') return 'globular';
  if (type === 'oc') return 'open';
  return null;
}

/** '189.1x61.7' → [189.1, 61.7]; '75' → [75, 75]; null when unreadable. */
export function dimensions(text: string): [number, number] | null {
  const values = text.split('x').map(Number);
  if (values.length === 0 || values.length > 2 || !values.every((value) => Number.isFinite(value) && value > 0))
    return null;
  return [values[0], values[1] ?? values[0]];
}

export function selectDeepSky(features: readonly DsoFeature[]): DeepSkyObject[] {
  const objects: DeepSkyObject[] = [];
  for (const feature of features) {
    const { desig, type, morph, mag, dim } = feature.properties;
    const kind = deepSkyKind(type, morph);
    const size = dimensions(dim);
    const magnitude = Number(mag);
    if (!kind || !size || !Number.isFinite(magnitude) || magnitude > 50) continue;
    const messier = /^M \d+$/.test(desig);
    if (!messier && (magnitude > DEEP_SKY_MAGNITUDE_LIMIT || STAR_NEBULA_CATALOGUES.test(feature.id))) continue;
    if (kind === 'open' && !messier && (size[0] > OPEN_CLUSTER_MAX_SIZE || magnitude > OPEN_CLUSTER_MAGNITUDE_LIMIT))
      continue;
    const [lon, lat] = feature.geometry.coordinates;
    objects.push({
      id: feature.id,
      name: messier || (desig && desig !== feature.id) ? desig : null,
      kind,
      ra: lon < 0 ? lon + 360 : lon,
      dec: lat,
      major: Math.max(size[0], size[1]),
      minor: Math.min(size[0], size[1]),
      positionAngle: POSITION_ANGLES[feature.id] ?? null,
      magnitude,
    });
  }
  // Brightest first, as the star files are.
  return objects.sort((a, b) => a.magnitude - b.magnitude);
}

export function buildDeepSky(root: string): { objects: number } {
  const source = JSON.parse(fs.readFileSync(packageData('d3-celestial', 'dsos.20.json'), 'utf8')) as {
    features: DsoFeature[];
  };
  const objects = selectDeepSky(source.features);
  const file = path.join(root, DEEP_SKY_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const json: DeepSkyFile = { objects };
  fs.writeFileSync(file, JSON.stringify(json));
  return { objects: objects.length };
}
