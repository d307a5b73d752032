// viewer-spec §3 (HiPS properties file), §5 ('invalid properties file'), §7 (tile paths), §9
// (minimum order default 3): every rule of the properties reader.
import { describe, expect, it } from 'vitest';
import {
  HIPS_ORDER_MIN_DEFAULT,
  INVALID_PROPERTIES,
  allskyCell,
  type InvalidPropertiesError,
  hipsAllskyUrl,
  hipsTileUrl,
  parseHipsProperties,
  propertyLines,
  zenithRotation,
} from '../../core/hipsProperties';

const MINIMAL = 'hips_order = 5\nhips_tile_width = 512\n';

/** Applies a column-major 3 × 3 matrix to a vector. */
function apply(m: Float64Array, v: number[]): number[] {
  return [0, 1, 2].map((i) => m[i] * v[0] + m[3 + i] * v[1] + m[6 + i] * v[2]);
}

/** Right ascension and declination (degrees) of a unit vector. */
function raDec([x, y, z]: number[]): [number, number] {
  return [((Math.atan2(y, x) * 180) / Math.PI + 360) % 360, (Math.asin(z) * 180) / Math.PI];
}

describe('HiPS properties (viewer-spec §3)', () => {
  it('reads key = value lines, skipping comments and blank lines', () => {
    const lines = propertyLines('# a comment = not a key\n\n  hips_order=7  \nobs_title = A = B\r\n#hips_order = 9\n');
    expect([...lines]).toEqual([
      ['hips_order', '7'],
      ['obs_title', 'A = B'],
    ]);
  });

  it('requires hips_order and hips_tile_width, or throws the spec message word for word', () => {
    expect(INVALID_PROPERTIES).toBe('invalid properties file');
    expect(() => parseHipsProperties('hips_tile_width = 512\n')).toThrow(new Error('invalid properties file'));
    expect(() => parseHipsProperties('hips_order = 5\n')).toThrow(new Error('invalid properties file'));
    expect(() => parseHipsProperties('# hips_order = 5\nhips_tile_width = 512\n')).toThrow(INVALID_PROPERTIES);
    expect(() => parseHipsProperties('')).toThrow(INVALID_PROPERTIES);
    expect(() => parseHipsProperties('hips_order = five\nhips_tile_width = 512\n')).toThrow(INVALID_PROPERTIES);
  });

  it('reads the orders and the tile width; the minimum order defaults to 3 (viewer-spec §9)', () => {
    const properties = parseHipsProperties(MINIMAL);
    expect(HIPS_ORDER_MIN_DEFAULT).toBe(3);
    expect(properties).toMatchObject({ order: 5, orderMin: 3, tileWidth: 512 });
    expect(parseHipsProperties(`${MINIMAL}hips_order_min = 1\n`).orderMin).toBe(1);
    // A minimum above the deepest order is the deepest order: there are no tiles below it.
    expect(parseHipsProperties('hips_order = 2\nhips_tile_width = 64\n').orderMin).toBe(2);
  });

  it('takes only power-of-two tile widths', () => {
    for (const width of [1, 64, 256, 512]) expect(parseHipsProperties(`hips_order = 3\nhips_tile_width = ${width}`));
    for (const width of ['0', '300', '-512', '512.5'])
      expect(() => parseHipsProperties(`hips_order = 3\nhips_tile_width = ${width}`)).toThrow(INVALID_PROPERTIES);
  });

  it('reads the tile formats, jpeg as jpg, and loads the first image format listed', () => {
    expect(parseHipsProperties(`${MINIMAL}hips_tile_format = jpeg fits\n`)).toMatchObject({
      formats: ['jpg', 'fits'],
      format: 'jpg',
    });
    expect(parseHipsProperties(`${MINIMAL}hips_tile_format = fits png\n`)).toMatchObject({
      formats: ['fits', 'png'],
      format: 'png',
    });
    // HiPS 1.0's default format is jpeg.
    expect(parseHipsProperties(MINIMAL).format).toBe('jpg');
    // FITS alone (a science HiPS): decoded and coloured by the viewer, with its pixel cut if given.
    expect(parseHipsProperties(`${MINIMAL}hips_tile_format = fits\nhips_pixel_cut = -2 40\n`)).toMatchObject({
      format: 'fits',
      pixelCut: [-2, 40],
    });
    // Nothing the viewer can draw: unusable, and the error says why.
    expect(() => parseHipsProperties(`${MINIMAL}hips_tile_format = tiff\n`)).toThrow(INVALID_PROPERTIES);
  });

  it('says what is wrong beside the spec message (the import names the cause)', () => {
    const reason = (text: string) => {
      try {
        parseHipsProperties(text);
      } catch (error) {
        expect((error as Error).message).toBe(INVALID_PROPERTIES);
        return (error as InvalidPropertiesError).reason;
      }
      return null;
    };
    expect(reason(`${MINIMAL}hips_tile_format = tiff\n`)).toBe(
      "hips_tile_format 'tiff' has no format the viewer draws (png, jpeg, webp or fits)",
    );
    expect(reason('hips_order = 3\nhips_tile_width = 300\n')).toBe('hips_tile_width 300 is not a power of two');
    expect(reason('hips_tile_width = 512\n')).toBe('hips_order null is not a whole number');
  });

  it('equatorial, the default frame, is no rotation', () => {
    for (const text of [MINIMAL, `${MINIMAL}hips_frame = equatorial\n`]) {
      const properties = parseHipsProperties(text);
      expect(properties.frame).toBe('equatorial');
      expect([...properties.rotation]).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    }
  });

  it('galactic: the galactic pole and centre land at their ICRS places', () => {
    const { frame, rotation } = parseHipsProperties(`${MINIMAL}hips_frame = galactic\n`);
    expect(frame).toBe('galactic');
    const [poleRa, poleDec] = raDec(apply(rotation, [0, 0, 1]));
    expect(poleRa).toBeCloseTo(192.85948, 4);
    expect(poleDec).toBeCloseTo(27.12825, 4);
    const [centreRa, centreDec] = raDec(apply(rotation, [1, 0, 0]));
    expect(centreRa).toBeCloseTo(266.40499, 4);
    expect(centreDec).toBeCloseTo(-28.93617, 4);
  });

  it('zenith and hsc/zenith: the JSON triple [a, d, p] puts the frame pole at (a, d)', () => {
    const a = 1.2;
    const d = -0.4;
    for (const text of [
      `${MINIMAL}hips_frame = hsc/zenith\nhsc/zenith = [${a}, ${d}, 0.3]\n`,
      `${MINIMAL}hips_frame = zenith\nhsc/zenith = [${a}, ${d}, 0.3]\n`,
      `${MINIMAL}hips_frame = hsc/zenith [${a}, ${d}, 0.3]\n`,
    ]) {
      const { frame, rotation } = parseHipsProperties(text);
      expect(frame).toMatch(/zenith$/);
      const [ra, dec] = raDec(apply(rotation, [0, 0, 1]));
      expect(ra).toBeCloseTo((a * 180) / Math.PI, 9);
      expect(dec).toBeCloseTo((d * 180) / Math.PI, 9);
    }
    // p turns the frame about its pole: the x axis goes from the local south towards the east.
    const turned = apply(zenithRotation(0, 0, Math.PI / 2), [1, 0, 0]);
    expect(turned.map((x) => Math.round(x * 1e12) / 1e12 + 0)).toEqual([0, 1, 0]);
    // Orthonormal.
    const m = zenithRotation(0.7, 0.2, -1.1);
    const columns = [0, 1, 2].map((j) => [m[3 * j], m[3 * j + 1], m[3 * j + 2]]);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        expect(columns[i].reduce((sum, x, k) => sum + x * columns[j][k], 0)).toBeCloseTo(i === j ? 1 : 0, 12);
  });

  it('a zenith frame without a usable triple, or an unknown frame, is invalid', () => {
    for (const extra of [
      'hips_frame = zenith\n',
      'hips_frame = hsc/zenith\nhsc/zenith = [1, 2]\n',
      'hips_frame = hsc/zenith\nhsc/zenith = not json\n',
      'hips_frame = ecliptic\n',
      'hips_frame = galactic [1, 2, 3]\n',
    ])
      expect(() => parseHipsProperties(MINIMAL + extra)).toThrow(INVALID_PROPERTIES);
  });

  it('tile and Allsky paths (viewer-spec §7) and Allsky cells, 27 a row at order 3', () => {
    expect(hipsTileUrl('/hips/sky', 3, 767, 'png')).toBe('/hips/sky/Norder3/Dir0/Npix767.png');
    expect(hipsTileUrl('/h', 9, 123456, 'jpg')).toBe('/h/Norder9/Dir120000/Npix123456.jpg');
    expect(hipsAllskyUrl('/h', 3, 'jpg')).toBe('/h/Norder3/Allsky.jpg');
    expect(allskyCell(3, 0, 27 * 64)).toEqual({ x: 0, y: 0, size: 64 });
    expect(allskyCell(3, 28, 27 * 64)).toEqual({ x: 64, y: 64, size: 64 });
    expect(allskyCell(3, 767, 27 * 32)).toEqual({ x: 11 * 32, y: 28 * 32, size: 32 });
  });
});
