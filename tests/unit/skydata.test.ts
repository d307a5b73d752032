// Walks the sky data repository that `galaxy-cruise data --small` builds (viewer-spec §7,
// application-spec §7): every meta.json and area.json parses, every tile the WCS and tile levels
// promise exists and decodes, every catalogue target lies inside its area outline and inside its
// tiles (and is really drawn there), the catalogue has the shape the server seeds from, and an
// up-to-date sky is not built again. The builder's blocks, each alone: skydata-blocks.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalogue } from '../../shared/catalogue';
import { COURSE_IDS, GALAXY_TYPES, INTERACTIONS, LEVEL_TYPES } from '../../shared/enums';
import { readStarColors, readStarRecords, starColorFile } from '../../core/stars';
import { buildSky } from '../../skydata/build';
import { cataloguePath, skyRoot } from '../../skydata/paths';
import { nestToXy, xyfToAngle } from '../../skydata/healpix';
import { hipsTilePath } from '../../skydata/hips';
import { displayByte, renderSkyMap, sampleSkyMap } from '../../skydata/skymap';
import { CUBE_FACES, cubeFaceDirection } from '../../core/cubeMap';
import { STAMP_FILES } from '../../skydata/passport';
import { PRETTY_PICTURES } from '../../shared/prettyPicture';
import { decodePng } from '../../skydata/png';
import { fieldTractId, SEASON2_FIELDS, SEASON2_LABEL_COUNT } from '../../skydata/plan';
import { Random } from '../../skydata/random';
import { decodeTileValue, FILTERS, promisedTiles, TILE_SIZE } from '../../skydata/tract';
import { skyToPixel, type TanWcs } from '../../skydata/wcs';

interface Tract {
  tract: number;
  wcs: TanWcs;
  tractOptions: { tileSize: number; minTileLevel: number; maxTileLevel: number; flipV: boolean };
}

let varDirectory: string;
let root: string;
let catalogue: Catalogue;

// SKY_WALK_VAR_DIR walks an already built tree (e.g. the default sky) instead of a fresh small one.
const walked = process.env.SKY_WALK_VAR_DIR;

beforeAll(async () => {
  varDirectory = walked ?? fs.mkdtempSync(path.join(os.tmpdir(), 'skydata-test-'));
  if (walked) root = skyRoot(walked);
  else root = (await buildSky({ varDirectory, small: true, log: () => {} })).root;
  catalogue = JSON.parse(fs.readFileSync(cataloguePath(varDirectory), 'utf8')) as Catalogue;
});

afterAll(() => {
  if (!walked) fs.rmSync(varDirectory, { recursive: true, force: true });
});

function readMeta(survey: string): { filters: string[]; tracts: Tract[] } {
  return JSON.parse(fs.readFileSync(path.join(root, survey, 'meta.json'), 'utf8'));
}

/** Even-odd rule in the tract's pixel plane (the outline is a small polygon on the TAN plane). */
function insidePolygon(point: [number, number], polygon: [number, number][]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > point[1] !== yj > point[1] && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

describe('survey folders: meta.json, area.json and tiles (viewer-spec §3, §7)', () => {
  it.each(['wide', 'dud', 'simulation'])('%s: meta.json has a TAN wcs and tract options per tract', (survey) => {
    const meta = readMeta(survey);
    expect(meta.filters).toEqual(['HSC-G', 'HSC-R', 'HSC-I']);
    expect(meta.tracts.length).toBeGreaterThan(0);
    for (const { wcs, tractOptions } of meta.tracts) {
      expect(wcs.CTYPE1).toBe('RA---TAN');
      expect(wcs.CTYPE2).toBe('DEC--TAN');
      for (const key of [
        'NAXIS1',
        'NAXIS2',
        'CRVAL1',
        'CRVAL2',
        'CRPIX1',
        'CRPIX2',
        'CD1_1',
        'CD1_2',
        'CD2_1',
        'CD2_2',
      ] as const)
        expect(Number.isFinite(wcs[key])).toBe(true);
      expect(tractOptions.tileSize).toBe(256);
      expect(tractOptions.minTileLevel).toBe(0);
      expect(tractOptions.maxTileLevel).toBeGreaterThanOrEqual(1);
      expect(tractOptions.maxTileLevel).toBeLessThanOrEqual(8);
    }
  });

  it.each(['wide', 'dud', 'simulation'])(
    '%s: area.json is a list of closed-implicitly [ra, dec] polygons',
    (survey) => {
      const areas = JSON.parse(fs.readFileSync(path.join(root, survey, 'area.json'), 'utf8')) as [number, number][][];
      // One outline per area: the field tracts listed in meta.json beside the areas have none.
      const outlined = catalogue.courses.flatMap((course) => course.levels).filter((level) => level.survey === survey);
      expect(areas.length).toBe(outlined.reduce((count, level) => count + level.areas.length, 0));
      for (const polygon of areas) {
        expect(polygon.length).toBeGreaterThanOrEqual(3);
        for (const [ra, dec] of polygon) {
          expect(ra).toBeGreaterThanOrEqual(0);
          expect(ra).toBeLessThan(360);
          expect(Math.abs(dec)).toBeLessThanOrEqual(90);
        }
      }
    },
  );

  it("lists each level's field tract, covering its areas, before every area tract of its folder", () => {
    for (const course of catalogue.courses)
      for (const level of course.levels) {
        const folder = level.survey === 'simulation' ? 'simulation' : 'wide';
        const tracts = readMeta(folder).tracts;
        const index = tracts.findIndex((t) => t.tract === fieldTractId(level.id));
        expect(index).toBeGreaterThanOrEqual(0);
        const areaTracts = tracts.filter((t) => t.tract % 100 !== 0);
        expect(tracts.indexOf(areaTracts[0])).toBeGreaterThan(index);
        const { wcs } = tracts[index];
        for (const area of level.areas)
          for (const [ra, dec] of area.outlines[0]) {
            const [x, y] = skyToPixel(wcs, ra, dec);
            expect(Math.min(x, y, wcs.NAXIS1 - x, wcs.NAXIS2 - y)).toBeGreaterThan(0);
          }
      }
  });

  it.each(['wide', 'dud', 'simulation'])(
    '%s: every tile the WCS and levels promise exists in every filter and decodes',
    (survey) => {
      let checked = 0;
      for (const { tract, wcs, tractOptions } of readMeta(survey).tracts) {
        const tiles = promisedTiles(wcs.NAXIS1, wcs.NAXIS2, tractOptions.minTileLevel, tractOptions.maxTileLevel);
        // The top level is a single tile covering the whole tract.
        expect(tiles.filter(([level]) => level === tractOptions.maxTileLevel)).toHaveLength(1);
        for (const filter of FILTERS) {
          for (const [level, p, q] of tiles) {
            const image = decodePng(
              fs.readFileSync(path.join(root, survey, filter, String(tract), String(level), String(p), `${q}.png`)),
            );
            expect([image.width, image.height, image.channels]).toEqual([TILE_SIZE, TILE_SIZE, 1]);
            checked++;
          }
          // Nothing beyond the promise: no level above maxTileLevel.
          expect(
            fs.existsSync(path.join(root, survey, filter, String(tract), String(tractOptions.maxTileLevel + 1))),
          ).toBe(false);
        }
      }
      expect(checked).toBeGreaterThan(0);
    },
  );
});

describe('catalogue.json (shared/catalogue.ts)', () => {
  it('has every course, each with levels of the three level types and unique ids', () => {
    expect(catalogue.format).toBe(1);
    expect(catalogue.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(catalogue.courses.map((course) => course.id)).toEqual([...COURSE_IDS]);
    const levelIds = new Set<number>();
    const areaIds = new Set<number>();
    const objectIds = new Set<number>();
    const types = new Set<string>();
    for (const course of catalogue.courses) {
      expect(course.levels.length).toBeGreaterThan(0);
      for (const level of course.levels) {
        expect(levelIds.has(level.id)).toBe(false);
        levelIds.add(level.id);
        types.add(level.type);
        expect(LEVEL_TYPES).toContain(level.type);
        expect(level.name.en && level.name.ja).toBeTruthy();
        expect(level.depth === 'dud').toBe(level.type === 'tunnel_effect');
        for (const area of level.areas) {
          expect(areaIds.has(area.id)).toBe(false);
          areaIds.add(area.id);
          for (const target of area.targets) {
            expect(objectIds.has(target.object_id)).toBe(false);
            objectIds.add(target.object_id);
            expect(Number.isSafeInteger(target.object_id)).toBe(true);
            expect(GALAXY_TYPES).toContain(target.galaxy_type);
            expect(INTERACTIONS).toContain(target.interaction);
            // Features are only asked (and only true) for interacting galaxies.
            if (target.interaction !== 'yes')
              expect([target.ring, target.fan, target.tail, target.distorted]).toEqual([false, false, false, false]);
          }
        }
      }
    }
    expect([...types].sort()).toEqual(['greed', 'regular', 'tunnel_effect']);
  });

  it('gives training targets captain notes in en and ja and illustris_review targets tng_review notes', () => {
    const notes = (course: string) =>
      catalogue.courses.find((c) => c.id === course)!.levels.flatMap((l) => l.areas.flatMap((a) => a.targets));
    for (const [course, reviewType] of [
      ['training', 'training'],
      ['illustris_review', 'tng_review'],
    ]) {
      const targets = notes(course);
      expect(targets.length).toBeGreaterThan(0);
      for (const target of targets) {
        const note = target.captain_note!;
        expect(note.review_type).toBe(reviewType);
        expect(note.answer.galaxy_type).toBe(target.galaxy_type);
        expect(note.answer.interaction).toBe(target.interaction);
        expect(
          note.comments.en.length &&
            note.comments.ja.length &&
            note.img_caption.en.length &&
            note.img_caption.ja.length,
        ).toBeGreaterThan(0);
        const image = decodePng(fs.readFileSync(path.join(root, note.img_name)));
        expect(image.channels).toBe(3);
      }
    }
    expect(notes('season2').every((target) => target.captain_note === undefined)).toBe(true);
  });

  it('labels the simulation level with 11 divisions and season2 with archipelagos and islands', () => {
    const illustris = catalogue.courses.find((c) => c.id === 'illustris')!.levels[0];
    expect(illustris.labels).toHaveLength(11);
    const season2 = catalogue.courses.find((c) => c.id === 'season2')!;
    expect(season2.levels.flatMap((l) => l.labels).length).toBeGreaterThan(0);
    // The full build's season2 map has exactly 24 labels: two per wide level.
    expect(SEASON2_FIELDS.filter((f) => f.depth === 'wide').length * 2).toBe(SEASON2_LABEL_COUNT);
    if (season2.levels.length === SEASON2_FIELDS.length)
      expect(season2.levels.flatMap((l) => l.labels)).toHaveLength(SEASON2_LABEL_COUNT);
  });

  it('lists campaigns with medals and souvenir images cut into 7 × 8 jigsaw pieces', () => {
    expect(catalogue.campaigns.length).toBeGreaterThan(0);
    for (const campaign of catalogue.campaigns) {
      expect(Date.parse(campaign.period_begin)).toBeLessThan(Date.parse(campaign.period_end));
      for (const medal of campaign.medals)
        expect(decodePng(fs.readFileSync(path.join(root, medal.image))).channels).toBe(4);
    }
    expect(catalogue.souvenirs.length).toBeGreaterThanOrEqual(8);
    for (const souvenir of catalogue.souvenirs) {
      const image = decodePng(fs.readFileSync(path.join(root, souvenir.image)));
      expect(image.width % 7).toBe(0);
      expect(image.height % 8).toBe(0);
      expect(souvenir.name.ja && souvenir.description.en && souvenir.links[0]).toBeTruthy();
    }
  });

  it('serves the souvenirs’ names, descriptions and links as souvenirs/index.json, without the catalogue', () => {
    const served = JSON.parse(fs.readFileSync(path.join(root, 'souvenirs', 'index.json'), 'utf8')) as unknown;
    expect(served).toEqual(catalogue.souvenirs);
    expect(fs.existsSync(path.join(root, 'catalogue.json'))).toBe(false);
  });

  it('draws the three passport stamp images as SVG', () => {
    expect(STAMP_FILES).toHaveLength(3);
    const drawings = STAMP_FILES.map((file) => fs.readFileSync(path.join(root, file), 'utf8'));
    for (const drawing of drawings) {
      expect(drawing).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="160" height="160"/);
      expect(drawing.trim().endsWith('</svg>')).toBe(true);
    }
    expect(new Set(drawings).size).toBe(3);
  });

  it('puts every target inside its area outline and inside its tract’s tiles, drawn brighter than the sky', () => {
    let checked = 0;
    for (const course of catalogue.courses) {
      for (const level of course.levels) {
        const meta = readMeta(level.survey);
        for (const area of level.areas) {
          const tract = meta.tracts.find((t) => t.tract === area.id)!;
          expect(tract).toBeDefined();
          const outline = area.outlines[0].map(([ra, dec]) => skyToPixel(tract.wcs, ra, dec));
          for (const target of area.targets) {
            const [x, y] = skyToPixel(tract.wcs, target.ra, target.dec);
            expect(insidePolygon([x, y], outline)).toBe(true);
            // Level-0 pixel (0-based) and its tile.
            const px = Math.floor(x - 0.5);
            const py = Math.floor(y - 0.5);
            expect(px).toBeGreaterThanOrEqual(0);
            expect(py).toBeGreaterThanOrEqual(0);
            expect(px).toBeLessThan(tract.wcs.NAXIS1);
            expect(py).toBeLessThan(tract.wcs.NAXIS2);
            const p = Math.floor(px / TILE_SIZE);
            const q = Math.floor(py / TILE_SIZE);
            const tile = decodePng(
              fs.readFileSync(path.join(root, level.survey, 'HSC-I', String(area.id), '0', String(p), `${q}.png`)),
            );
            // FITS row order: PNG row 0 is the tile's lowest y. The galaxy's centre is far above
            // the sky noise (σ ≈ 2e-5) in the decoded flux.
            const flux = decodeTileValue(tile.pixels[(py % TILE_SIZE) * TILE_SIZE + (px % TILE_SIZE)]);
            expect(flux).toBeGreaterThan(2e-4);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('star catalogue files', () => {
  it('index.json lists gzip files of (ra, dec, magnitude) records, brightest first', () => {
    const files = JSON.parse(fs.readFileSync(path.join(root, 'hipparcos-catalog', 'index.json'), 'utf8')) as string[];
    expect(files.length).toBeGreaterThan(0);
    const records = readStarRecords(zlib.gunzipSync(fs.readFileSync(path.join(root, 'hipparcos-catalog', files[0]))));
    expect(records.length / 3).toBeGreaterThan(1000);
    // Sirius, the brightest star: ra 101.29°, dec −16.72°, V −1.44.
    expect(records[0]).toBeCloseTo(101.29, 1);
    expect(records[1]).toBeCloseTo(-16.72, 1);
    expect(records[2]).toBeLessThan(-1.4);
    // All of Hipparcos as d3-celestial ships it, split by magnitude, brightest file first.
    let total = 0;
    let previous = -Infinity;
    for (const file of files) {
      const part = readStarRecords(zlib.gunzipSync(fs.readFileSync(path.join(root, 'hipparcos-catalog', file))));
      for (let k = 2; k < part.length; k += 3) {
        expect(part[k]).toBeGreaterThanOrEqual(previous);
        previous = part[k];
      }
      total += part.length / 3;
    }
    expect(files.length).toBe(3);
    expect(total).toBeGreaterThan(100_000);
  });

  it('each star file has its colour file beside it: one B−V byte per star, in the same order', () => {
    const folder = path.join(root, 'hipparcos-catalog');
    const files = JSON.parse(fs.readFileSync(path.join(folder, 'index.json'), 'utf8')) as string[];
    const first = readStarRecords(zlib.gunzipSync(fs.readFileSync(path.join(folder, files[0]))));
    const colors = readStarColors(
      zlib.gunzipSync(fs.readFileSync(path.join(folder, starColorFile(files[0])))),
      first.length / 3,
    );
    // Sirius (B−V 0.00), then find Betelgeuse (ra 88.79°, dec 7.41°, B−V 1.85) and Rigel (78.63°, −8.20°, −0.03).
    expect(colors[0]).toBeCloseTo(0, 1);
    const near = (ra: number, dec: number) => {
      for (let k = 0; k < first.length / 3; k++)
        if (Math.abs(first[3 * k] - ra) < 0.05 && Math.abs(first[3 * k + 1] - dec) < 0.05) return colors[k];
      throw new Error(`no star at ${ra}, ${dec}`);
    };
    // Betelgeuse is variable; d3-celestial's Hipparcos B−V is 1.50.
    expect(near(88.79, 7.41)).toBeGreaterThan(1.4);
    expect(near(78.63, -8.2)).toBeCloseTo(-0.03, 1);
    for (const file of files) {
      const count = readStarRecords(zlib.gunzipSync(fs.readFileSync(path.join(folder, file)))).length / 3;
      expect(zlib.gunzipSync(fs.readFileSync(path.join(folder, starColorFile(file)))).byteLength).toBe(count);
    }
  });

  it('credits.json names every dataset with its licence; a title of ours is in English and Japanese', () => {
    const credits = JSON.parse(fs.readFileSync(path.join(root, 'credits.json'), 'utf8')) as {
      name: string | { en: string; ja: string };
      licence: string;
    }[];
    expect(credits.length).toBeGreaterThanOrEqual(4);
    for (const credit of credits) {
      expect(credit.licence).toBeTruthy();
      if (typeof credit.name === 'string') expect(credit.name).toBeTruthy();
      else {
        expect(credit.name.en).toBeTruthy();
        expect(credit.name.ja).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      }
    }
    const titles = credits.map((credit) => (typeof credit.name === 'string' ? credit.name : credit.name.ja));
    expect(titles).toContain('天の川の輪郭');
    expect(titles).toContain('Hipparcos catalogue (ESA 1997)');
  });
});

describe('the build', () => {
  it.skipIf(walked)('is incremental: an up-to-date sky is not rebuilt', async () => {
    const started = Date.now();
    const again = await buildSky({ varDirectory, small: true, ifStale: true, log: () => {} });
    expect(again.built).toBe(false);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('HiPS of the whole sky and Milky Way faces', () => {
  function readProperties(): Map<string, string> {
    const text = fs.readFileSync(path.join(root, 'hips', 'sky', 'properties'), 'utf8');
    const entries = text
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'))
      .map((line) => {
        const at = line.indexOf('=');
        return [line.slice(0, at).trim(), line.slice(at + 1).trim()] as [string, string];
      });
    return new Map(entries);
  }

  it('properties has the keys a HiPS client needs', () => {
    const properties = readProperties();
    expect(properties.get('hips_order')).toBe('3');
    expect(properties.get('hips_order_min')).toBe('3');
    expect(properties.get('hips_frame')).toBe('equatorial');
    expect(properties.get('hips_tile_format')).toBe('png fits');
    expect(Number(properties.get('hips_tile_width'))).toBeGreaterThan(0);
  });

  it('has every tile of every order in png and fits under Norder/Dir/Npix, and the Allsky', () => {
    const properties = readProperties();
    const width = Number(properties.get('hips_tile_width'));
    for (let order = Number(properties.get('hips_order_min')); order <= Number(properties.get('hips_order')); order++) {
      for (let npix = 0; npix < 12 * 4 ** order; npix++) {
        const base = path.join(root, 'hips', 'sky', hipsTilePath(order, npix, 'png'));
        const png = decodePng(fs.readFileSync(base));
        expect([png.width, png.height, png.channels]).toEqual([width, width, 3]);
        const fits = fs.readFileSync(base.replace(/png$/, 'fits'));
        expect(fits.length % 2880).toBe(0);
        const header = fits.toString('latin1', 0, 2880);
        expect(header.slice(0, 30)).toBe('SIMPLE  =                    T');
        expect(header).toContain(`NAXIS1  = ${String(width).padStart(20)}`);
      }
    }
    const allsky = decodePng(fs.readFileSync(path.join(root, 'hips', 'sky', 'Norder3', 'Allsky.png')));
    expect(allsky.width).toBe(27 * Math.min(64, width));
    expect(allsky.height).toBe(29 * Math.min(64, width));
  });

  it('draws the sky map into the HiPS tile and pixel that HEALPix puts it in, with no star baked in', () => {
    const width = Number(readProperties().get('hips_tile_width'));
    // The small sky's map (skydata/build.ts: 1024 wide), sampled where HEALPix puts each texel.
    const map = renderSkyMap(1024);
    const sample = new Float32Array(3);
    const random = new Random(38);
    let checked = 0;
    for (let n = 0; n < 300; n++) {
      const npix = Math.floor(random.next() * 768);
      const [row, column] = [Math.floor(random.next() * width), Math.floor(random.next() * width)];
      const png = decodePng(fs.readFileSync(path.join(root, 'hips', 'sky', hipsTilePath(3, npix, 'png'))));
      const face = Math.floor(npix / 64);
      const [ix0, iy0] = nestToXy(npix % 64);
      const [theta, phi] = xyfToAngle(8 * width, face, ix0 * width + row, iy0 * width + column);
      sampleSkyMap(map, (phi * 180) / Math.PI, 90 - (theta * 180) / Math.PI, sample);
      const k = 3 * (row * width + column);
      for (let c = 0; c < 3; c++) expect(Math.abs(png.pixels[k + c] - displayByte(sample[c]))).toBeLessThanOrEqual(1);
      checked++;
    }
    expect(checked).toBe(300);
    // Sirius (ra 101.287°, dec −16.716°, V −1.44) is the star layer's: the map is dark there.
    sampleSkyMap(map, 101.287, -16.716, sample);
    expect(displayByte(sample[0])).toBeLessThan(40);
  });

  it('writes the six Milky Way faces at full size and in images-512', () => {
    for (const folder of ['milkyway', path.join('milkyway', 'images-512')]) {
      for (const face of CUBE_FACES) {
        const image = decodePng(fs.readFileSync(path.join(root, folder, `${face}.png`)));
        expect(image.width).toBe(image.height);
        expect(image.channels).toBe(3);
      }
    }
  });

  it('maps cube-face centres to the six axes (OpenGL cube-map convention)', () => {
    expect(cubeFaceDirection('px', 0, 0)).toEqual([1, -0, -0]);
    expect(cubeFaceDirection('ny', 0, 0)).toEqual([0, -1, -0]);
    expect(cubeFaceDirection('pz', 0, 0)).toEqual([0, -0, 1]);
    expect(cubeFaceDirection('nz', 0, 0)).toEqual([-0, -0, -1]);
  });
});

describe('pretty pictures (viewer-spec §3, §7)', () => {
  it.each([...PRETTY_PICTURES])(
    '%s: meta.json has a TAN wcs, ≤ 4 filters, a preset with a saved view, and every promised FITS tile',
    (which) => {
      const directory = path.join(root, 'pretty_picture', which);
      const meta = JSON.parse(fs.readFileSync(path.join(directory, 'meta.json'), 'utf8')) as {
        wcs: TanWcs;
        tractOptions: Tract['tractOptions'];
        filters: string[];
        preset: { nFilters: number; view: { a: number; d: number; fovy: number; roll: number } };
      };
      expect(meta.wcs.CTYPE1).toBe('RA---TAN');
      expect(meta.filters.length).toBeGreaterThan(0);
      expect(meta.filters.length).toBeLessThanOrEqual(4);
      expect(meta.preset.nFilters).toBe(meta.filters.length);
      for (const key of ['nFilters', 'a', 'b', 'mix', 'beta', 'bias', 'exposure', 'gamma', 'ground'])
        expect(typeof (meta.preset as unknown as Record<string, number>)[key]).toBe('number');
      // The saved view looks at the object (radians).
      expect((meta.preset.view.a * 180) / Math.PI).toBeCloseTo(meta.wcs.CRVAL1, 6);
      expect((meta.preset.view.d * 180) / Math.PI).toBeCloseTo(meta.wcs.CRVAL2, 6);
      for (const filter of meta.filters) {
        for (const [level, p, q] of promisedTiles(
          meta.wcs.NAXIS1,
          meta.wcs.NAXIS2,
          0,
          meta.tractOptions.maxTileLevel,
        )) {
          const gz = fs.readFileSync(path.join(directory, filter, String(level), String(p), `${q}.fits`));
          expect([gz[0], gz[1]]).toEqual([0x1f, 0x8b]); // gzip-compressed
          const fits = zlib.gunzipSync(gz);
          const header = fits.toString('latin1', 0, 2880);
          expect(header).toContain('BITPIX  =                  -32');
          expect(header).toContain(`NAXIS1  = ${String(TILE_SIZE).padStart(20)}`);
          expect(fits.length).toBe(2880 + Math.ceil((TILE_SIZE * TILE_SIZE * 4) / 2880) * 2880);
        }
      }
      expect(
        JSON.parse(fs.readFileSync(path.join(root, 'pretty_picture', 'presets.json'), 'utf8'))[which].nFilters,
      ).toBe(meta.filters.length);
    },
  );

  it('m45 is the real Pleiades: Alcyone (η Tau, V 2.87) shines where Hipparcos puts it', () => {
    const directory = path.join(root, 'pretty_picture', 'm45');
    const meta = JSON.parse(fs.readFileSync(path.join(directory, 'meta.json'), 'utf8')) as {
      wcs: TanWcs;
      filters: string[];
    };
    const readLevel0 = (x: number, y: number) => {
      const fits = zlib.gunzipSync(
        fs.readFileSync(
          path.join(directory, 'HSC-R', '0', String(Math.floor(x / TILE_SIZE)), `${Math.floor(y / TILE_SIZE)}.fits`),
        ),
      );
      return fits.readFloatBE(2880 + 4 * ((y % TILE_SIZE) * TILE_SIZE + (x % TILE_SIZE)));
    };
    const [ax, ay] = skyToPixel(meta.wcs, 56.8712, 24.1051);
    const alcyone = readLevel0(Math.floor(ax - 0.5), Math.floor(ay - 0.5));
    // A blank spot between the stars, 0.3° south-east of Alcyone, is far fainter.
    const [bx, by] = skyToPixel(meta.wcs, 57.15, 23.75);
    expect(alcyone).toBeGreaterThan(20 * Math.abs(readLevel0(Math.floor(bx - 0.5), Math.floor(by - 0.5))));
  });
});
