import { describe, expect, it } from 'vitest';
import { APPLICATION_SURVEY_OPTIONS } from '../../src/app/components/globe/presets';
import { SURVEY_DEFAULTS } from '../../src/globe/layers/survey';
import { OUTLINE_FADE_MS, areaPolygons, tileWeight } from '../../src/globe/layers/survey-area';
import { ColorParamsType, DEFAULT_COLOR_PARAMS, colorMixing } from '../../src/globe/layers/survey-colors';
import { levelsCoarser } from '../../src/globe/tiles/tiled-layer';
import { ancestorKey, surveyLevel } from '../../src/globe/tiles/tract';

describe('survey colour parameters (viewer-spec §3)', () => {
  it('defaults to filters HSC-I, HSC-R, HSC-G, beta e^10, a 1, bias 0.05, b0 0', () => {
    expect(DEFAULT_COLOR_PARAMS).toMatchObject({ beta: Math.exp(10), a: 1, bias: 0.05, b0: 0 });
    expect(colorMixing(DEFAULT_COLOR_PARAMS).filters).toEqual(['HSC-I', 'HSC-R', 'HSC-G']);
  });

  it('has the application settings: true-colour matrix, beta 57338.67, HSC-I red 0.95, HSC-R green 0.98, HSC-G blue 1.02, tile level-of-detail bias 2, outline off', () => {
    const { colorParams, tileLodBias, outline } = APPLICATION_SURVEY_OPTIONS;
    expect(colorParams.type).toBe(ColorParamsType.SDSS_TRUE_COLOR_MATRIX);
    expect(colorParams.beta).toBe(57338.67);
    expect(tileLodBias).toBe(2);
    expect(SURVEY_DEFAULTS.tileLodBias).toBe(2);
    expect(outline).toBe(false);
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
