// The deep-sky objects the globe draws between the whole sky and a galaxy (the Messier objects,
// the bright NGC/IC galaxies, nebulae and clusters, the Magellanic Clouds): the file
// deep-sky/objects.json of the sky data repository, written by skydata/deep-sky.ts from the SAC
// deep-sky database as d3-celestial ships it (dsos.20.json), read by the globe's deep-sky layer.
//
// Each object is drawn as a glow of its catalogued size, axis ratio and position angle, lit by
// its mean surface brightness: the catalogue's integrated magnitude spread over its ellipse.

/** How an object is drawn: its light's colour and profile. */
export const DEEP_SKY_KINDS = ['galaxy', 'emission', 'reflection', 'planetary', 'globular', 'open'] as const;
export type DeepSkyKind = (typeof DEEP_SKY_KINDS)[number];

export interface DeepSkyObject {
  /** The catalogue's id (NGC 224, IC 434, PGC 17223). */
  id: string;
  /** Its Messier designation (M 31) or other common one, where it has one. */
  name: string | null;
  kind: DeepSkyKind;
  /** Degrees, J2000. */
  ra: number;
  dec: number;
  /** Major and minor diameters, arc-minutes. */
  major: number;
  minor: number;
  /** Position angle of the major axis, degrees from north through east; null where unknown (drawn round). */
  positionAngle: number | null;
  /** Integrated visual magnitude. */
  magnitude: number;
}

export interface DeepSkyFile {
  objects: DeepSkyObject[];
}

/** The folder of the file in the data repository. */
export const DEEP_SKY_FILE = 'deep-sky/objects.json';

/**
 * The mean surface brightness of an object, magnitudes per square arc-second: its integrated
 * magnitude spread over its ellipse (π/4 · major · minor arc-minutes²).
 */
export function meanSurfaceBrightness(object: Pick<DeepSkyObject, 'magnitude' | 'major' | 'minor'>): number {
  const area = (Math.PI / 4) * object.major * object.minor * 3600;
  return object.magnitude + 2.5 * Math.log10(area);
}

/**
 * The shape drawn: an object without a known position angle is drawn as the circle of the same
 * area, since its elongation's direction is not known.
 */
export function drawnAxes(object: Pick<DeepSkyObject, 'major' | 'minor' | 'positionAngle'>): {
  major: number;
  minor: number;
  positionAngle: number;
} {
  if (object.positionAngle === null) {
    const mean = Math.sqrt(object.major * object.minor);
    return { major: mean, minor: mean, positionAngle: 0 };
  }
  return { major: object.major, minor: object.minor, positionAngle: object.positionAngle };
}

/** Checks a deep-sky file's shape, so that a damaged or foreign file is refused by name. */
export function parseDeepSkyFile(json: unknown): DeepSkyObject[] {
  const objects = (json as DeepSkyFile | null)?.objects;
  if (!Array.isArray(objects)) throw new Error(`${DEEP_SKY_FILE}: no list of objects`);
  for (const object of objects) {
    const ok =
      object &&
      typeof object.id === 'string' &&
      DEEP_SKY_KINDS.includes(object.kind) &&
      [object.ra, object.dec, object.major, object.minor, object.magnitude].every(Number.isFinite) &&
      object.major > 0 &&
      object.minor > 0 &&
      (object.positionAngle === null || Number.isFinite(object.positionAngle));
    if (!ok) throw new Error(`${DEEP_SKY_FILE}: object ${JSON.stringify(object)?.slice(0, 80)} is not readable`);
  }
  return objects;
}
