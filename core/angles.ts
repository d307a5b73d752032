// Sky angles as text: the camera indicator's formats (application-spec §2: the field of view
// in arc-seconds below 1′, arc-minutes below 1°, otherwise degrees) and sky-coordinate parsing
// (viewer-spec §5: decimal degrees or sexagesimal, hours for right ascension).

const DEGREE = Math.PI / 180;

export function formatFieldOfView(radians: number): string {
  const degrees = radians / DEGREE;
  if (degrees < 1 / 60) return `${(degrees * 3600).toFixed(1)}″`;
  if (degrees < 1) return `${(degrees * 60).toFixed(1)}′`;
  return `${degrees.toFixed(1)}°`;
}

function sexagesimal(value: number, decimals: number): [number, number, number] {
  const scale = 10 ** decimals;
  const total = Math.round(value * 3600 * scale);
  const whole = Math.floor(total / (3600 * scale));
  const minutes = Math.floor((total - whole * 3600 * scale) / (60 * scale));
  const seconds = (total - whole * 3600 * scale - minutes * 60 * scale) / scale;
  return [whole, minutes, seconds];
}

/** Right ascension in hours, minutes and seconds: '10h 00m 28.6s'. */
export function formatRightAscension(radians: number): string {
  const hours = ((((radians / DEGREE) % 360) + 360) % 360) / 15;
  const [h, m, s] = sexagesimal(hours, 1);
  return `${String(h % 24).padStart(2, '0')}h ${String(m).padStart(2, '0')}m ${s.toFixed(1).padStart(4, '0')}s`;
}

/** Declination in signed degrees, arc-minutes and arc-seconds: '+02° 12′ 21″'. */
export function formatDeclination(radians: number): string {
  const degrees = radians / DEGREE;
  const [d, m, s] = sexagesimal(Math.abs(degrees), 0);
  return `${degrees < 0 ? '−' : '+'}${String(d).padStart(2, '0')}° ${String(m).padStart(2, '0')}′ ${String(s).padStart(2, '0')}″`;
}

export interface SkyCoordinate {
  /** Radians. */
  ra: number;
  dec: number;
}

/**
 * Parses '150.1 2.2' (degrees) or '10 00 28.6 +02 12 21' (hours and degrees). Numbers are
 * extracted and the minus signs normalised; at least 2 numbers, each angle 1 to 3 of them; with
 * an odd count the first half is right ascension. Sexagesimal right ascension (2 or 3 numbers)
 * is in hours, a single number in degrees.
 */
export function parseSkyCoordinate(text: string): SkyCoordinate {
  const normalised = text.replace(/[−–—]/g, '-');
  const numbers = normalised.match(/[-+]?\d+(?:\.\d*)?|[-+]?\.\d+/g) ?? [];
  if (numbers.length < 2 || numbers.length > 6) throw new Error('invalid coord format');
  const raCount = Math.ceil(numbers.length / 2);
  const raParts = numbers.slice(0, raCount);
  const decParts = numbers.slice(raCount);
  if (decParts.length < 1 || decParts.length > 3) throw new Error('invalid coord format');
  const combine = (parts: string[]) => {
    const negative = parts[0].startsWith('-');
    const [whole, minutes = 0, seconds = 0] = parts.map((part) => Math.abs(Number(part)));
    const value = whole + minutes / 60 + seconds / 3600;
    return negative ? -value : value;
  };
  const raDegrees = raParts.length === 1 ? combine(raParts) : combine(raParts) * 15;
  const decDegrees = combine(decParts);
  if (!Number.isFinite(raDegrees) || !Number.isFinite(decDegrees) || Math.abs(decDegrees) > 90) {
    throw new Error('invalid coord format');
  }
  return { ra: (((raDegrees % 360) + 360) % 360) * DEGREE, dec: decDegrees * DEGREE };
}
