import { describe, expect, it } from 'vitest';
import { ColorParamsType, colorMixing } from '../../src/globe/layers/survey-colors';
import {
  BRIGHTNESS,
  DEFAULT_SETTINGS,
  EXPERT_BRIGHTNESS,
  EXPERT_FILTERS,
  brightnessOf,
  parseSettings,
  prettyDisplay,
  surveyColorParams,
} from '../../src/app/components/globe/settings';

const M42_FILTERS = ['HSC-G', 'HSC-R', 'NB0656', 'HSC-I'];

describe('settings panel values (application-spec §2, §9)', () => {
  it('brightness: dark 10000, bright 200000, normal the application tile β and the initial default', () => {
    expect(BRIGHTNESS).toEqual({ dark: 10000, normal: 57338.67, bright: 200000 });
    expect(DEFAULT_SETTINGS.brightness).toBe('normal');
    expect(brightnessOf(DEFAULT_SETTINGS)).toBe(57338.67);
  });

  it('expert mode: filters color, gri, g, r, i and a slider from 10000 to 1000000', () => {
    expect([...EXPERT_FILTERS]).toEqual(['color', 'gri', 'g', 'r', 'i']);
    expect(EXPERT_BRIGHTNESS).toEqual({ min: 10000, max: 1000000 });
    expect(brightnessOf({ ...DEFAULT_SETTINGS, expert: true, expertBrightness: 400000, brightness: 'dark' })).toBe(
      400000,
    );
  });

  it('starts in colour, normal, not expert, retina on', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ colorMode: 'color', brightness: 'normal', expert: false, retina: true });
  });
});

describe('settings kept in localStorage', () => {
  it('reads back what was stored', () => {
    const stored = { ...DEFAULT_SETTINGS, colorMode: 'grayscale', brightness: 'bright', expert: true, filter: 'r' };
    expect(parseSettings(JSON.stringify(stored))).toEqual(stored);
  });

  it('falls back to the defaults for nothing, damaged JSON or unknown values, and clamps the slider', () => {
    expect(parseSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings('{not json')).toEqual(DEFAULT_SETTINGS);
    expect(
      parseSettings(JSON.stringify({ colorMode: 'sepia', brightness: 'blinding', filter: 'z', expert: 'yes' })),
    ).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings(JSON.stringify({ expertBrightness: 1e9 })).expertBrightness).toBe(1000000);
    expect(parseSettings(JSON.stringify({ expertBrightness: 5 })).expertBrightness).toBe(10000);
  });
});

describe('the survey layer colour parameters the settings give', () => {
  it('colour, normal: the application parameters (true-colour matrix, β 57338.67)', () => {
    const params = surveyColorParams(DEFAULT_SETTINGS);
    expect(params.type).toBe(ColorParamsType.SDSS_TRUE_COLOR_MATRIX);
    expect(params.beta).toBe(57338.67);
    expect(params.colors.map((entry) => entry.value)).toEqual([
      [0.95, 0, 0],
      [0, 0.98, 0],
      [0, 0, 1.02],
    ]);
  });

  it('dark and bright set β', () => {
    expect(surveyColorParams({ ...DEFAULT_SETTINGS, brightness: 'dark' }).beta).toBe(10000);
    expect(surveyColorParams({ ...DEFAULT_SETTINGS, brightness: 'bright' }).beta).toBe(200000);
  });

  it('grayscale gives every filter the same weight in red, green and blue', () => {
    const params = surveyColorParams({ ...DEFAULT_SETTINGS, colorMode: 'grayscale' });
    for (const entry of params.colors) expect(new Set(entry.value).size).toBe(1);
    // The same light as in colour: each filter's weights summed, spread evenly.
    expect(params.colors[0].value[0] * 3).toBeCloseTo(0.95, 12);
  });

  it('expert gri: i, r, g in red, green, blue, each stretched on its own', () => {
    const params = surveyColorParams({ ...DEFAULT_SETTINGS, expert: true, filter: 'gri' });
    expect(params.type).toBe(ColorParamsType.SIMPLE_COLOR_MATRIX);
    expect(colorMixing(params).filters).toEqual(['HSC-I', 'HSC-R', 'HSC-G']);
  });

  it.each([
    ['g', 'HSC-G'],
    ['r', 'HSC-R'],
    ['i', 'HSC-I'],
  ] as const)('expert %s: %s alone, in grey', (filter, name) => {
    const params = surveyColorParams({ ...DEFAULT_SETTINGS, expert: true, filter });
    const { filters, weights } = colorMixing(params);
    expect(filters).toEqual([name]);
    expect(Array.from(weights.slice(0, 3))).toEqual([1, 1, 1]);
  });

  it('the filter choice applies in expert mode only', () => {
    expect(surveyColorParams({ ...DEFAULT_SETTINGS, filter: 'g' }).type).toBe(ColorParamsType.SDSS_TRUE_COLOR_MATRIX);
  });
});

describe('the pretty-picture display the settings give', () => {
  it('scales the presets’ β by the brightness over normal', () => {
    expect(prettyDisplay(DEFAULT_SETTINGS, M42_FILTERS).betaScale).toBe(1);
    expect(prettyDisplay({ ...DEFAULT_SETTINGS, brightness: 'bright' }, M42_FILTERS).betaScale).toBeCloseTo(
      200000 / 57338.67,
      12,
    );
  });

  it('grayscale and a solo g, r or i filter where the picture has it', () => {
    expect(prettyDisplay({ ...DEFAULT_SETTINGS, colorMode: 'grayscale' }, M42_FILTERS).grayscale).toBe(true);
    expect(prettyDisplay({ ...DEFAULT_SETTINGS, expert: true, filter: 'i' }, M42_FILTERS).solo).toBe(3);
    expect(prettyDisplay({ ...DEFAULT_SETTINGS, expert: true, filter: 'gri' }, M42_FILTERS).solo).toBeNull();
    expect(prettyDisplay({ ...DEFAULT_SETTINGS, expert: true, filter: 'g' }, ['NB0656']).solo).toBeNull();
  });
});
