// The celestial WCS of the wasm core (assembly/wcs.ts through core/wcs-celestial.ts)
// against astropy.wcs on the same FITS headers, written by astropy
// (tests/helpers/make_wcs_references.py): TAN, SIN and CAR; CD, PC + CDELT and CROTA2; rotations
// and flips; fields over and on the pole and across RA 0/360; galactic and swapped axes;
// explicit and default LONPOLE / LATPOLE. Pixel → sky agrees within the angle of 0.05 pixel and
// sky → pixel within 0.05 pixel, and a position wcslib has not (off the sphere, beyond the
// horizon) is NaN here too. Refused headers name the keyword and its value.
import { beforeAll, describe, expect, it } from 'vitest';
import { FitsHeader, readFitsHdus } from '../../core/fits';
import { pixelToSky, separation, skyToPixel, tanWcs } from '../../core/wcs';
import { CelestialWcs, readCelestialWcs } from '../../core/wcs-celestial';
import { loadCore, type Core } from '../../core/wasm';
import { wcsReferences, type WcsCase, type WcsReferences } from '../helpers/wcs-references';

let refs: WcsReferences;
let core: Core;

beforeAll(async () => {
  refs = wcsReferences();
  core = await loadCore();
});

const PIXEL_TOLERANCE = 0.05;

function wcsOf(c: WcsCase): CelestialWcs {
  return CelestialWcs.fromHeader(core, readFitsHdus(refs.read(c.file))[0].header);
}

/** A header made of cards given as a record (strings, integers, floats). */
function header(cards: Record<string, string | number>): FitsHeader {
  const result = new FitsHeader();
  for (const [keyword, value] of Object.entries(cards)) {
    const kind = typeof value === 'string' ? 'string' : Number.isInteger(value) ? 'integer' : 'float';
    result.add({ keyword, kind, value, comment: '' });
  }
  return result;
}

const TAN = { CTYPE1: 'RA---TAN', CTYPE2: 'DEC--TAN', CRVAL1: 10, CRVAL2: 20, CRPIX1: 50, CRPIX2: 50 };
const CD = { CD1_1: -1e-4, CD1_2: 0, CD2_1: 0, CD2_2: 1e-4 };

describe('celestial WCS against astropy.wcs (headers written by astropy)', () => {
  it('covers TAN, SIN and CAR, the pole, RA 0/360 and galactic axes', () => {
    const names = refs.cases.map((c) => c.name);
    for (const part of ['tan-', 'sin-', 'car-', 'pole', 'ra0', 'galactic', 'swapped', 'crota2', 'lonpole', 'latpole']) {
      expect(
        names.some((name) => name.includes(part)),
        part,
      ).toBe(true);
    }
  });

  it('derives LONPOLE and the pole latitude as wcslib does (Paper II §2.4 defaults)', () => {
    for (const c of refs.cases) {
      const wcs = wcsOf(c);
      expect(wcs.lonpole, c.name).toBeCloseTo(c.lonpole, 9);
      expect(wcs.latpole, c.name).toBeCloseTo(c.latpole, 9);
    }
  });

  it('pixel → sky within the angle of 0.05 pixel, NaN where wcslib has no position', () => {
    let worst = 0;
    for (const c of refs.cases) {
      const { lng, lat, invalid } = wcsOf(c).pixelToSky(Float64Array.from(c.pixels.x), Float64Array.from(c.pixels.y));
      const limit = PIXEL_TOLERANCE * c.scale; // arcsec
      expect(invalid, c.name).toBe(c.pixels.lng.filter((v) => v === null).length);
      for (let i = 0; i < lng.length; i++) {
        const [wantLng, wantLat] = [c.pixels.lng[i], c.pixels.lat[i]];
        const at = `${c.name}: pixel (${c.pixels.x[i]}, ${c.pixels.y[i]})`;
        if (wantLng === null || wantLat === null) {
          expect(Number.isNaN(lng[i]) && Number.isNaN(lat[i]), at).toBe(true);
          continue;
        }
        const off = separation(lng[i], lat[i], wantLng, wantLat) * 3600;
        if (!(off <= limit))
          throw new Error(`${at} → (${lng[i]}, ${lat[i]}), astropy (${wantLng}, ${wantLat}): ${off}″`);
        expect(lng[i]).toBeGreaterThanOrEqual(0);
        expect(lng[i]).toBeLessThan(360);
        worst = Math.max(worst, off / c.scale);
      }
    }
    console.info(`WCS pixel → sky: largest difference from astropy ${worst.toExponential(2)} pixel`);
  });

  it('sky → pixel within 0.05 pixel, NaN where wcslib has no pixel', () => {
    let worst = 0;
    for (const c of refs.cases) {
      const { x, y, invalid } = wcsOf(c).skyToPixel(Float64Array.from(c.worlds.lng), Float64Array.from(c.worlds.lat));
      expect(invalid, c.name).toBe(c.worlds.x.filter((v) => v === null).length);
      for (let i = 0; i < x.length; i++) {
        const [wantX, wantY] = [c.worlds.x[i], c.worlds.y[i]];
        const at = `${c.name}: (${c.worlds.lng[i]}, ${c.worlds.lat[i]})`;
        if (wantX === null || wantY === null) {
          expect(Number.isNaN(x[i]) && Number.isNaN(y[i]), at).toBe(true);
          continue;
        }
        const off = Math.hypot(x[i] - wantX, y[i] - wantY);
        if (!(off <= PIXEL_TOLERANCE)) throw new Error(`${at} → (${x[i]}, ${y[i]}), astropy (${wantX}, ${wantY})`);
        worst = Math.max(worst, off);
      }
    }
    console.info(`WCS sky → pixel: largest difference from astropy ${worst.toExponential(2)} pixel`);
  });

  it('gives the same answers over many chunks as point by point, and round-trips', () => {
    const c = refs.cases.find((each) => each.name === 'tan-over-pole')!;
    const wcs = wcsOf(c);
    const n = 50_001; // more than three chunks of the kernel wrapper
    const x = new Float64Array(n).map((_, i) => 1 + ((i * 7919) % 1000));
    const y = new Float64Array(n).map((_, i) => 1 + ((i * 104729) % 1000) + i / n);
    const sky = wcs.pixelToSky(x, y);
    const back = wcs.skyToPixel(sky.lng, sky.lat);
    for (const i of [0, 16_383, 16_384, 32_768, n - 1]) {
      const one = wcs.pixelToSky(x.subarray(i, i + 1), y.subarray(i, i + 1));
      expect(one.lng[0]).toBe(sky.lng[i]);
      expect(one.lat[0]).toBe(sky.lat[i]);
    }
    let worst = 0;
    for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(back.x[i] - x[i]), Math.abs(back.y[i] - y[i]));
    expect(worst).toBeLessThan(1e-6);
  });

  it('agrees with the TypeScript TAN of core/wcs.ts on the headers skydata/ writes', () => {
    const meta = tanWcs(359.99, -45, 256, 0.4);
    const wcs = new CelestialWcs(core, readCelestialWcs(header({ ...meta })));
    const points = [
      [1, 1],
      [128.5, 128.5],
      [256, 1],
      [30.25, 200.75],
    ];
    const sky = wcs.pixelToSky(
      Float64Array.from(points, ([x]) => x),
      Float64Array.from(points, ([, y]) => y),
    );
    for (const [k, [x, y]] of points.entries()) {
      const [ra, dec] = pixelToSky(meta, x, y);
      expect(separation(ra, dec, sky.lng[k], sky.lat[k]) * 3600).toBeLessThan(1e-6);
      const [px, py] = skyToPixel(meta, ra, dec);
      const back = wcs.skyToPixel(Float64Array.of(ra), Float64Array.of(dec));
      expect(Math.hypot(back.x[0] - px, back.y[0] - py)).toBeLessThan(1e-6);
    }
  });

  it('reads the frame and the axis order', () => {
    expect(readCelestialWcs(header({ ...TAN, ...CD })).frame).toBe('equatorial');
    const galactic = readCelestialWcs(header({ ...TAN, ...CD, CTYPE1: 'GLON-CAR', CTYPE2: 'GLAT-CAR' }));
    expect([galactic.frame, galactic.projection, galactic.lngAxis]).toEqual(['galactic', 'CAR', 1]);
    const swapped = readCelestialWcs(header({ ...TAN, ...CD, CTYPE1: 'DEC--SIN', CTYPE2: 'RA---SIN' }));
    expect([swapped.lngAxis, swapped.crval]).toEqual([2, [20, 10]]);
  });
});

describe('celestial WCS refusals', () => {
  const refused: [string, Record<string, string | number>, string][] = [
    [
      'another projection',
      { ...TAN, ...CD, CTYPE1: 'RA---ZEA', CTYPE2: 'DEC--ZEA' },
      "CTYPE1 = 'RA---ZEA': projection ZEA is not supported (TAN, SIN or CAR)",
    ],
    [
      'a distortion',
      { ...TAN, ...CD, CTYPE1: 'RA---TAN-SIP' },
      "CTYPE1 = 'RA---TAN-SIP': distortion SIP is not supported",
    ],
    [
      'a spectral axis',
      { ...TAN, ...CD, CTYPE2: 'FREQ' },
      "CTYPE2 = 'FREQ': not a celestial axis (RA---, DEC--, GLON- or GLAT- and a projection)",
    ],
    [
      'an ecliptic axis',
      { ...TAN, ...CD, CTYPE1: 'ELON-TAN' },
      "CTYPE1 = 'ELON-TAN': axis type ELON is not supported (RA/DEC or GLON/GLAT)",
    ],
    [
      'two frames',
      { ...TAN, ...CD, CTYPE2: 'GLAT-TAN' },
      "CTYPE1 = 'RA---TAN' and CTYPE2 = 'GLAT-TAN': not the longitude and latitude of one frame",
    ],
    [
      'two projections',
      { ...TAN, ...CD, CTYPE2: 'DEC--SIN' },
      "CTYPE1 = 'RA---TAN' and CTYPE2 = 'DEC--SIN': two different projections",
    ],
    ['no CTYPE', { CRVAL1: 1 }, 'FITS header lacks CTYPE1: the image has no celestial WCS'],
    [
      'CD and PC',
      { ...TAN, ...CD, PC1_1: 1 },
      'the header has both CD1_1 and PC1_1: keep one form of the matrix (WCS Paper I §2.1.2)',
    ],
    ['FK4', { ...TAN, ...CD, RADESYS: 'FK4' }, "RADESYS = 'FK4': only ICRS and FK5 (J2000) are supported"],
    ['B1950', { ...TAN, ...CD, EQUINOX: 1950 }, 'EQUINOX = 1950: only J2000 (ICRS or FK5) is supported'],
    ['radians', { ...TAN, ...CD, CUNIT1: 'rad' }, "CUNIT1 = 'rad': celestial axes must be in degrees ('deg')"],
    [
      'a moved fiducial point',
      { ...TAN, ...CD, PV1_1: 10 },
      'PV1_1 = 10: this projection parameter is not supported for TAN',
    ],
    ['a zero scale', { ...TAN, CDELT1: 0 }, 'CDELT1 = 0: an axis needs a non-zero scale'],
  ];
  for (const [what, cards, message] of refused) {
    it(`refuses ${what}, naming the keyword and its value`, () => {
      expect(() => readCelestialWcs(header(cards))).toThrow(message);
    });
  }

  it('refuses a singular matrix and a pole the header cannot have (wasm core checks)', () => {
    const singular = header({ ...TAN, CD1_1: 1e-4, CD1_2: 2e-4, CD2_1: 1e-4, CD2_2: 2e-4 });
    expect(() => CelestialWcs.fromHeader(core, singular)).toThrow('the WCS matrix (CD, or CDELT × PC) has no inverse');
    const car = header({ ...TAN, ...CD, CTYPE1: 'RA---CAR', CTYPE2: 'DEC--CAR', CRVAL2: 60, LONPOLE: 90 });
    expect(() => CelestialWcs.fromHeader(core, car)).toThrow('CRVAL, LONPOLE and LATPOLE admit no celestial pole');
    const far = header({ ...TAN, ...CD, CRVAL2: 95 });
    expect(() => CelestialWcs.fromHeader(core, far)).toThrow('outside ±90°');
  });
});
