// A HiPS `properties` file (viewer-spec §3, §5, §7; IVOA HiPS 1.0 §4.4): plain text lines of
// key = value, '#' starting a comment line. The viewer reads:
//
//   hips_order        required: the deepest order with tiles
//   hips_tile_width   required: texels along a tile's side (a power of two)
//   hips_order_min    optional, default 3: the coarsest order with tiles (and its Allsky)
//   hips_frame        equatorial (the default), galactic, or zenith / hsc/zenith, whose
//                     rotation is the JSON triple [a, d, p] (radians) after the frame's name
//                     or under the key 'hsc/zenith'
//   hips_tile_format  the formats tiles exist in, space-separated; the first one an image
//                     element can show is used (jpeg written as jpg, the tiles' file suffix),
//                     else FITS (the usual form of a science HiPS: the viewer decodes it and
//                     colours it by a preset, src/globe/layers/hips.ts)
//   hips_pixel_cut    optional, for FITS tiles: the pixel values drawn black and white
//
// A file lacking hips_order or hips_tile_width, or whose values cannot be used, gives
// 'invalid properties file' (viewer-spec §5), thrown as an exception (§8) whose `reason` says
// what is wrong (the import names it).

/** viewer-spec §5, word for word. */
export const INVALID_PROPERTIES = 'invalid properties file';

/** viewer-spec §9: HiPS minimum order default. */
export const HIPS_ORDER_MIN_DEFAULT = 3;

/** The frames of viewer-spec §3. */
export type HipsFrameName = 'equatorial' | 'galactic' | 'zenith' | 'hsc/zenith';

/** Image formats a browser decodes, as tile file suffixes. */
const IMAGE_FORMATS = new Set(['jpg', 'png', 'webp']);
/** FITS tiles: decoded by the wasm core and coloured on the GPU. */
export const FITS_FORMAT = 'fits';

export interface HipsProperties {
  /** Every key as written (last one wins), values trimmed. */
  readonly raw: ReadonlyMap<string, string>;
  /** hips_order: the deepest order. */
  readonly order: number;
  /** hips_order_min (default 3), never above `order`. */
  readonly orderMin: number;
  /** hips_tile_width. */
  readonly tileWidth: number;
  readonly frame: HipsFrameName;
  /**
   * The frame's rotation into equatorial (ICRS) coordinates: a 3 × 3 matrix, column-major (as
   * gl-matrix's mat3), taking a unit vector of the HiPS frame to the same direction in the sky.
   */
  readonly rotation: Float64Array;
  /** Every format listed, jpeg written as jpg. */
  readonly formats: readonly string[];
  /** The format the viewer loads: the first listed image format, else 'fits'. */
  readonly format: string;
  /** hips_pixel_cut: the FITS values drawn black and white, when given. */
  readonly pixelCut: readonly [number, number] | null;
}

/** 'invalid properties file' (viewer-spec §5: a plain Error, its message word for word), with what is wrong. */
export type InvalidPropertiesError = Error & { reason: string };

function invalid(reason: string): InvalidPropertiesError {
  // Not enumerable: the error is the spec's plain Error to anyone who compares it.
  return Object.defineProperty(new Error(INVALID_PROPERTIES), 'reason', { value: reason }) as InvalidPropertiesError;
}

/** Splits the text into key → value; lines starting with '#' and lines without '=' are skipped. */
export function propertyLines(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of text.split(/\r\n|\r|\n/)) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const equals = trimmed.indexOf('=');
    if (equals <= 0) continue;
    entries.set(trimmed.slice(0, equals).trim(), trimmed.slice(equals + 1).trim());
  }
  return entries;
}

function integer(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/** hips_tile_format's list with jpeg as jpg (viewer-spec §3); HiPS 1.0's default is jpeg. */
export function tileFormats(value: string | undefined): string[] {
  const listed = (value ?? 'jpeg').toLowerCase().split(/\s+/).filter(Boolean);
  return listed.map((format) => (format === 'jpeg' ? 'jpg' : format));
}

// ICRS → galactic (Hipparcos catalogue, ESA 1997, vol. 1 §1.5.3), row by row. Its rows are the
// columns of the inverse rotation, so they are also galactic → ICRS written column-major.
const GALACTIC_TO_EQUATORIAL = Float64Array.of(
  -0.0548755604162154,
  -0.873437090234885,
  -0.483835015548713,
  0.4941094278755837,
  -0.4448296299600112,
  0.746982244497219,
  -0.8676661490190047,
  -0.1980763734312015,
  0.4559837761750669,
);

/**
 * A unit vector turned from ICRS to galactic (`toGalactic`) or from galactic to ICRS: the
 * rotation above, applied as written or transposed.
 */
export function rotateGalactic(vector: readonly number[], toGalactic: boolean): [number, number, number] {
  const m = GALACTIC_TO_EQUATORIAL;
  const [x, y, z] = vector as [number, number, number];
  if (toGalactic) {
    return [m[0]! * x + m[1]! * y + m[2]! * z, m[3]! * x + m[4]! * y + m[5]! * z, m[6]! * x + m[7]! * y + m[8]! * z];
  }
  return [m[0]! * x + m[3]! * y + m[6]! * z, m[1]! * x + m[4]! * y + m[7]! * z, m[2]! * x + m[5]! * y + m[8]! * z];
}

/**
 * The rotation of a zenith frame [a, d, p] (radians): its pole (z) at right ascension a and
 * declination d, its x axis the local south at (a, d) turned by p towards the east, y the local
 * east turned likewise. Column-major, frame → equatorial.
 */
export function zenithRotation(a: number, d: number, p: number): Float64Array {
  const pole = [Math.cos(d) * Math.cos(a), Math.cos(d) * Math.sin(a), Math.sin(d)];
  const south = [Math.sin(d) * Math.cos(a), Math.sin(d) * Math.sin(a), -Math.cos(d)];
  const east = [-Math.sin(a), Math.cos(a), 0];
  const c = Math.cos(p);
  const s = Math.sin(p);
  const x = south.map((value, i) => c * value + s * east[i]);
  const y = south.map((value, i) => -s * value + c * east[i]);
  return Float64Array.from([...x, ...y, ...pole]);
}

function frameRotation(frame: HipsFrameName, tripleText: string | undefined): Float64Array {
  if (frame === 'equatorial') return Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
  if (frame === 'galactic') return GALACTIC_TO_EQUATORIAL.slice();
  const badTriple = () => invalid(`the ${frame} frame needs its rotation [a, d, p] in radians`);
  let triple: unknown;
  try {
    triple = JSON.parse(tripleText ?? '');
  } catch {
    throw badTriple();
  }
  if (!Array.isArray(triple) || triple.length !== 3 || !triple.every((x) => typeof x === 'number' && isFinite(x)))
    throw badTriple();
  const [a, d, p] = triple as number[];
  return zenithRotation(a, d, p);
}

/** Reads a properties file (viewer-spec §3); throws 'invalid properties file' (§5). */
export function parseHipsProperties(text: string): HipsProperties {
  const raw = propertyLines(text);
  const order = integer(raw.get('hips_order'));
  const tileWidth = integer(raw.get('hips_tile_width'));
  if (order === undefined)
    throw invalid(`hips_order ${JSON.stringify(raw.get('hips_order') ?? null)} is not a whole number`);
  if (tileWidth === undefined)
    throw invalid(`hips_tile_width ${JSON.stringify(raw.get('hips_tile_width') ?? null)} is not a whole number`);
  // A tile is a whole number of HEALPix pixels: the width is a power of two.
  if (tileWidth < 1 || (tileWidth & (tileWidth - 1)) !== 0)
    throw invalid(`hips_tile_width ${tileWidth} is not a power of two`);
  if (order > 29) throw invalid(`hips_order ${order} is past HEALPix's 29`);
  const minimum = raw.has('hips_order_min') ? integer(raw.get('hips_order_min')) : HIPS_ORDER_MIN_DEFAULT;
  if (minimum === undefined)
    throw invalid(`hips_order_min ${JSON.stringify(raw.get('hips_order_min'))} is not a whole number`);
  // The zenith triple may also follow the frame's name: hips_frame = hsc/zenith [a, d, p].
  const frameMatch = /^(equatorial|galactic|zenith|hsc\/zenith)\s*(\[.*\])?$/i.exec(
    raw.get('hips_frame') ?? 'equatorial',
  );
  if (!frameMatch) throw invalid(`hips_frame '${raw.get('hips_frame')}' is not equatorial, galactic or zenith`);
  const frame = frameMatch[1].toLowerCase() as HipsFrameName;
  if (frameMatch[2] && !frame.endsWith('zenith')) throw invalid(`hips_frame '${raw.get('hips_frame')}' has a rotation`);
  const formats = tileFormats(raw.get('hips_tile_format'));
  const format = formats.find((name) => IMAGE_FORMATS.has(name)) ?? formats.find((name) => name === FITS_FORMAT);
  if (!format)
    throw invalid(
      `hips_tile_format '${raw.get('hips_tile_format')}' has no format the viewer draws (png, jpeg, webp or fits)`,
    );
  const cut = (raw.get('hips_pixel_cut') ?? '').split(/\s+/).filter(Boolean).map(Number);
  const pixelCut: [number, number] | null =
    cut.length === 2 && cut.every(Number.isFinite) && cut[1]! > cut[0]! ? [cut[0]!, cut[1]!] : null;
  return {
    raw,
    order,
    orderMin: Math.min(minimum, order),
    tileWidth,
    frame,
    rotation: frameRotation(frame, frameMatch[2] ?? raw.get('hsc/zenith')),
    formats,
    format,
    pixelCut,
  };
}

/** viewer-spec §7: {hipsBase}/Norder{order}/Dir{floor(index/10000)*10000}/Npix{index}.{format}. */
export function hipsTileUrl(base: string, order: number, index: number, format: string): string {
  return `${base}/Norder${order}/Dir${Math.floor(index / 10000) * 10000}/Npix${index}.${format}`;
}

/** The Allsky image of an order: every tile of it in one picture (IVOA HiPS 1.0 §4.3.2). */
export function hipsAllskyUrl(base: string, order: number, format: string): string {
  return `${base}/Norder${order}/Allsky.${format}`;
}

/**
 * Where tile `index` lies in the Allsky image of its order: tiles side by side row after row,
 * floor(√(12·4^order)) a row (27 at order 3), each `size` texels wide, size the image's width
 * over that count.
 */
export function allskyCell(order: number, index: number, imageWidth: number): { x: number; y: number; size: number } {
  const columns = Math.floor(Math.sqrt(12 * 4 ** order));
  const size = Math.floor(imageWidth / columns);
  return { x: (index % columns) * size, y: Math.floor(index / columns) * size, size };
}
