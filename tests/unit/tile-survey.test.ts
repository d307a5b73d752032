import { describe, expect, it } from 'vitest';
import { APPLICATION_SURVEYS, APPLICATION_SURVEY_OPTIONS } from '../../src/app/components/globe/presets';
import { STENCIL_SPAN, SURVEY_DEFAULTS } from '../../src/globe/layers/survey';
import { OUTLINE_FADE_MS, areaPolygons, tileWeight } from '../../src/globe/layers/survey-area';
import { ColorParamsType, DEFAULT_COLOR_PARAMS, colorMixing } from '../../src/globe/layers/survey-colors';
import { levelsCoarser } from '../../src/globe/tiles/tiled-layer';
import { ancestorKey, coneInside, pointsInside, surveyLevel, tractOf, visibleTiles } from '../../src/globe/tiles/tract';
import { skyVector, viewFootprint } from '../../src/globe/visibility';
import { skyToPixel, tanWcs } from '../../core/wcs';
import { Camera, ProjectionMode, eyeDistance, unprojectView } from '../../src/globe/camera';

describe('survey colour parameters (viewer-spec §3)', () => {
  it('defaults to filters HSC-I, HSC-R, HSC-G, beta e^10, a 1, bias 0.05, b0 0', () => {
    expect(DEFAULT_COLOR_PARAMS).toMatchObject({ beta: Math.exp(10), a: 1, bias: 0.05, b0: 0 });
    expect(colorMixing(DEFAULT_COLOR_PARAMS).filters).toEqual(['HSC-I', 'HSC-R', 'HSC-G']);
  });

  it('has the application settings: true-colour matrix, beta 57338.67, HSC-I red 0.95, HSC-R green 0.98, HSC-G blue 1.02, tile level-of-detail bias 2; its light added to the sky, the area outline taking over as the tiles fade (viewer-spec §4, issue 38)', () => {
    const { colorParams, tileLodBias, outline, blend } = APPLICATION_SURVEY_OPTIONS;
    expect(colorParams.type).toBe(ColorParamsType.SDSS_TRUE_COLOR_MATRIX);
    expect(colorParams.beta).toBe(57338.67);
    expect(tileLodBias).toBe(2);
    expect(SURVEY_DEFAULTS.tileLodBias).toBe(2);
    expect(outline).toBe(true);
    expect(blend).toBe('add');
    expect(SURVEY_DEFAULTS.blend).toBe('over');
    // Each folder's stencil ranks apart from the others', the Deep/UltraDeep ones over the Wide.
    expect(APPLICATION_SURVEYS.map((survey) => survey.stencilBase)).toEqual([2, 1, 0].map((k) => k * STENCIL_SPAN));
    expect(APPLICATION_SURVEYS.map((survey) => survey.name)).toEqual(['simulation', 'dud', 'wide']);
    const { filters, weights } = colorMixing(colorParams);
    expect(filters).toEqual(['HSC-I', 'HSC-R', 'HSC-G']);
    // Column k holds filter k's red, green, blue weights.
    expect(Array.from(weights)).toEqual([0.95, 0, 0, 0, 0.98, 0, 0, 0, 1.02].map(Math.fround));
  });

  it('mixes only the enabled colours of a matrix type, and at most three filters', () => {
    const params = {
      ...DEFAULT_COLOR_PARAMS,
      type: ColorParamsType.SIMPLE_COLOR_MATRIX,
      colors: [
        { filterName: 'HSC-Z', enabled: true, value: [1, 0.2, 0] as [number, number, number] },
        { filterName: 'HSC-R', enabled: false, value: [0, 1, 0] as [number, number, number] },
        { filterName: 'HSC-G', enabled: true, value: [0, 0, 1] as [number, number, number] },
      ],
    };
    expect(colorMixing(params).filters).toEqual(['HSC-Z', 'HSC-G']);
    const four = { ...params, colors: [...params.colors, ...params.colors].map((c) => ({ ...c, enabled: true })) };
    expect(() => colorMixing(four)).toThrow('at most 3 filters');
  });
});

describe('survey tile levels and ancestors', () => {
  it('picks the level whose pixels are at most one screen pixel at tile level-of-detail bias 2, clamped to the tract', () => {
    const tractPixel = 1;
    const still = { lodBias: 0 };
    expect(surveyLevel(0.5, tractPixel, levelsCoarser(2, still), 0, 8)).toBe(0);
    expect(surveyLevel(4, tractPixel, levelsCoarser(2, still), 0, 8)).toBe(2);
    expect(surveyLevel(5.9, tractPixel, levelsCoarser(2, still), 0, 8)).toBe(2);
    // Each unit of tile bias less is one level coarser.
    expect(surveyLevel(4, tractPixel, levelsCoarser(1, still), 0, 8)).toBe(3);
    expect(surveyLevel(1e6, tractPixel, levelsCoarser(2, still), 0, 8)).toBe(8);
  });

  it('asks for a level coarser while the camera moves (its lodBias 1), and back as the bias fades', () => {
    const tractPixel = 1;
    expect(levelsCoarser(2, { lodBias: 1 })).toBe(1);
    expect(surveyLevel(4, tractPixel, levelsCoarser(2, { lodBias: 1 }), 0, 8)).toBe(3);
    expect(surveyLevel(4, tractPixel, levelsCoarser(2, { lodBias: 0.5 }), 0, 8)).toBe(2);
    expect(surveyLevel(5.9, tractPixel, levelsCoarser(2, { lodBias: 0.5 }), 0, 8)).toBe(3);
    expect(surveyLevel(4, tractPixel, levelsCoarser(2, { lodBias: 0 }), 0, 8)).toBe(2);
  });

  it('finds the tile of a coarser level holding a tile', () => {
    expect(ancestorKey({ tract: 9, level: 0, p: 5, q: 2 }, 2)).toEqual({ tract: 9, level: 2, p: 1, q: 0 });
  });

  it('cross-fades tiles with the area outline by zoom', () => {
    const tract = { pixelAngle: 1, maxLevel: 2 };
    expect(tileWeight(4, tract)).toBe(1); // a tract of 256 screen pixels: tiles
    expect(tileWeight(16, tract)).toBe(0.5);
    expect(tileWeight(64, tract)).toBe(0); // 16 screen pixels: the outline
    expect(OUTLINE_FADE_MS).toBe(1000);
  });

  it('reads area.json as a list of polygons or as polygon lists keyed by filter with $any', () => {
    const square: [number, number][] = [
      [0, 0],
      [1, 0],
      [1, 1],
    ];
    expect(areaPolygons([square], ['HSC-G'])).toEqual([square]);
    expect(areaPolygons({ 'HSC-G': [square], $any: [square] }, ['HSC-G'])).toEqual([square, square]);
    expect(areaPolygons('not json', ['HSC-G'])).toEqual([]);
  });
});

describe('a view wholly inside a tract drawn over another', () => {
  // An area tract of 0.168″ pixels (2368 px = 6.6′) as skydata lays one out over its field tract.
  const area = tractOf(101, tanWcs(150, 2, 2368, 0.168), { maxTileLevel: 4 });
  const arcsec = Math.PI / 180 / 3600;
  const cone = (ra: number, dec: number, radiusArcsec: number) => ({
    centre: skyVector(ra, dec),
    radius: radiusArcsec * arcsec,
  });

  it('is inside when the whole cone is, and not when its edge reaches past the tract', () => {
    // The target view's cone (1280 × 720 at 0.02°: 73″ to a corner) at the tract's centre.
    expect(coneInside(cone(150, 2, 73), area)).toBe(true);
    // Half the tract's side is 199″: a cone of 73″ centred 120″ north fits, 130″ north does not.
    expect(coneInside(cone(150, 2 + 120 / 3600, 73), area)).toBe(true);
    expect(coneInside(cone(150, 2 + 130 / 3600, 73), area)).toBe(false);
    // East, where RA shrinks by cos(dec) on the sky.
    expect(coneInside(cone(150 + 130 / 3600 / Math.cos((2 * Math.PI) / 180), 2, 73), area)).toBe(false);
    // A wide view holds the tract rather than lying in it; a tract far off holds nothing.
    expect(coneInside(cone(150, 2, 600), area)).toBe(false);
    expect(coneInside(cone(152, 2, 10), area)).toBe(false);
  });

  it('holds near the poles, where RA wraps', () => {
    const polar = tractOf(102, tanWcs(359.99, 89.9, 2368, 0.168), { maxTileLevel: 4 });
    expect(coneInside(cone(359.99, 89.9, 73), polar)).toBe(true);
    expect(coneInside(cone(359.99, 89.9 - 150 / 3600, 73), polar)).toBe(false);
  });
});

describe('the tiles a view wants: those the screen shows, not those of the cone round it', () => {
  const area = tractOf(101, tanWcs(150, 2, 2368, 0.168), { maxTileLevel: 4 });
  const DEGREE = Math.PI / 180;
  const [width, height] = [1280, 720];

  /** The target view (fovy 0.02°) at ra, dec, rolled by `roll`, and its footprint. */
  function footprintAt(ra: number, dec: number, roll = 0, fovy = 0.02 * DEGREE, mode = ProjectionMode.FLOATING_EYE) {
    const camera = Object.assign(new Camera(), { theta: (90 - dec) * DEGREE, phi: ra * DEGREE, fovy, roll, mode });
    return {
      camera,
      eye: eyeDistance(mode, fovy),
      footprint: viewFootprint(camera, eyeDistance(mode, fovy), width, height),
    };
  }

  /** The level-0 tiles under a 33 × 19 grid of screen points, found by unprojecting each. */
  function tilesUnderScreen(camera: Camera, eye: number): Set<string> {
    const half = camera.projectionScale(eye);
    const m = camera.viewMatrix();
    const under = new Set<string>();
    for (let i = 0; i <= 32; i++)
      for (let j = 0; j <= 18; j++) {
        const x = ((2 * i) / 32 - 1) * half * (width / height);
        const y = ((2 * j) / 18 - 1) * half;
        const v = unprojectView(x, y, eye);
        // View → equatorial: the view matrix's transpose (column-major, view = M · world).
        const world = [0, 1, 2].map((k) => m[3 * k] * v[0] + m[3 * k + 1] * v[1] + m[3 * k + 2] * v[2]);
        const ra = (((Math.atan2(world[1], world[0]) / DEGREE) % 360) + 360) % 360;
        const dec = Math.asin(world[2]) / DEGREE;
        const [px, py] = skyToPixel(area.wcs, ra, dec);
        under.add(`${Math.floor((px - 0.5) / 256)}/${Math.floor((py - 0.5) / 256)}`);
      }
    return under;
  }

  it.each([
    ['at the tract centre', 150, 2, 0],
    ['off a tile corner, rolled 30°', 150 + 40 / 3600, 2 - 25 / 3600, 30 * DEGREE],
    ['rolled 90°', 150 - 60 / 3600, 2 + 10 / 3600, 90 * DEGREE],
  ])('%s: every tile under the screen, and no more than the screen can touch', (_, ra, dec, roll) => {
    const { camera, eye, footprint } = footprintAt(ra, dec, roll);
    const wanted = new Set(visibleTiles(area, 0, footprint).map(({ key }) => `${key.p}/${key.q}`));
    for (const tile of tilesUnderScreen(camera, eye)) expect(wanted).toContain(tile);
    // 128″ × 72″ of screen over 43″ tiles touches at most 4 × 3 of them unrolled (5 × 5 rolled);
    // the cone (73″ to the corner, plus each tile's 30″ reach) would take up to 21.
    expect(wanted.size).toBeLessThanOrEqual(roll === 0 ? 12 : 20);
    const cone = { ...footprint, halfWidth: Infinity, halfHeight: Infinity };
    expect(visibleTiles(area, 0, cone).length).toBeGreaterThan(wanted.size);
  });

  it('keeps a wide view of the whole tract, in the stereographic projection too', () => {
    const { footprint } = footprintAt(150, 2, 0, 2 * DEGREE, ProjectionMode.STEREOGRAPHIC);
    expect(visibleTiles(area, 4, footprint)).toHaveLength(1);
    expect(visibleTiles(area, 0, footprint)).toHaveLength(100);
  });

  it('says which tiles lie wholly inside a tract drawn over this one', () => {
    // A neighbour to the west (x grows westward) overlapping this tract's last 300 px (50″).
    const west = tractOf(102, tanWcs(150 - ((2368 - 300) * 0.168) / 3600, 2, 2368, 0.168), { maxTileLevel: 4 });
    const { footprint } = footprintAt(150 - 170 / 3600, 2);
    const tiles = visibleTiles(area, 0, footprint);
    const covered = tiles.filter(({ border }) => pointsInside(border, west)).map(({ key }) => key.p);
    // The neighbour starts at x ≈ 2068.5: column 8 (x from 2048.5) starts 20 px short of it, so
    // only column 9, the tract's last (x from 2304.5), lies wholly under the neighbour.
    expect(covered.length).toBeGreaterThan(0);
    expect(new Set(covered)).toEqual(new Set([9]));
  });
});
