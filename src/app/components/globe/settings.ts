// The main screen's display settings (application-spec §2 "Settings panel", §9 "Brightness"):
// colour or grayscale; dark (10000), normal (the application's tile β, 57338.67, the initial
// default) or bright (200000); expert mode, whose filter choice (color, gri, g, r, i) and
// brightness slider (10000 to 1000000) replace the three steps and which shows the
// pretty-picture layers; rendering at the screen's density (retina) on high-density screens;
// the constellations' names in English, Hiragana or Kanji (viewer-spec §1), or in the page's
// language (Kanji for Japanese, English otherwise), the default; the stars in the fixed colour
// (viewer-spec §9, the default) or their true B−V colours; the grid and constellation lines
// faded out when zoomed in on a galaxy (the default), kept at every zoom, or hidden.
// The brightness is the survey tiles' asinh softening β; the pretty pictures scale their
// presets' β by the same ratio to normal. Settings are kept in localStorage; the store below is
// shared by the panel, which writes it, and the globe, which reads it (useSettingsOnGlobe).
import { useSyncExternalStore } from 'react';
import type { ConstellationLanguage } from '../../../globe/layers/constellations';
import type { PrettyDisplay } from '../../../globe/layers/pretty-picture-mixer';
import { ColorParamsType, type ColorEntry, type ColorParams } from '../../../globe/layers/survey-colors';
import { APPLICATION_COLOR_PARAMS } from './presets';

export const COLOR_MODES = ['color', 'grayscale'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];

export const BRIGHTNESS_STEPS = ['dark', 'normal', 'bright'] as const;
export type BrightnessStep = (typeof BRIGHTNESS_STEPS)[number];

/** application-spec §9: dark 10000, bright 200000; normal is the application's tile β. */
export const BRIGHTNESS: Record<BrightnessStep, number> = {
  dark: 10000,
  normal: APPLICATION_COLOR_PARAMS.beta,
  bright: 200000,
};

/** application-spec §9: the expert brightness slider's range. */
export const EXPERT_BRIGHTNESS = { min: 10000, max: 1000000 } as const;

export const EXPERT_FILTERS = ['color', 'gri', 'g', 'r', 'i'] as const;
export type ExpertFilter = (typeof EXPERT_FILTERS)[number];

/** The constellation names' writing: the page's language, or one of viewer-spec §1's three. */
export const CONSTELLATION_NAMES = ['page', 'en', 'hiragana', 'kanji'] as const;
export type ConstellationNames = (typeof CONSTELLATION_NAMES)[number];

/** The grid and constellation lines: faded out near a galaxy, at every zoom, or hidden. */
export const SKY_LINES = ['auto', 'always', 'off'] as const;
export type SkyLines = (typeof SKY_LINES)[number];

export interface Settings {
  colorMode: ColorMode;
  brightness: BrightnessStep;
  expert: boolean;
  filter: ExpertFilter;
  /** The expert slider's β. */
  expertBrightness: number;
  /** Render at devicePixelRatio (offered on high-density screens only). */
  retina: boolean;
  constellationNames: ConstellationNames;
  /** Stars in their B−V colours instead of the fixed colour. */
  trueStarColors: boolean;
  skyLines: SkyLines;
}

export const DEFAULT_SETTINGS: Settings = {
  colorMode: 'color',
  brightness: 'normal',
  expert: false,
  filter: 'color',
  expertBrightness: BRIGHTNESS.normal,
  retina: true,
  constellationNames: 'page',
  trueStarColors: false,
  skyLines: 'auto',
};

export const SETTINGS_STORAGE_KEY = 'galaxy-cruise.settings';

function oneOf<T extends string>(value: unknown, options: readonly T[], fallback: T): T {
  return options.includes(value as T) ? (value as T) : fallback;
}

/** Stored settings, each field checked; anything unreadable falls back to its default. */
export function parseSettings(text: string | null): Settings {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {
    // A damaged entry is replaced by the defaults.
  }
  const brightness = Number(stored.expertBrightness);
  return {
    colorMode: oneOf(stored.colorMode, COLOR_MODES, DEFAULT_SETTINGS.colorMode),
    brightness: oneOf(stored.brightness, BRIGHTNESS_STEPS, DEFAULT_SETTINGS.brightness),
    expert: typeof stored.expert === 'boolean' ? stored.expert : DEFAULT_SETTINGS.expert,
    filter: oneOf(stored.filter, EXPERT_FILTERS, DEFAULT_SETTINGS.filter),
    expertBrightness: Number.isFinite(brightness)
      ? Math.min(EXPERT_BRIGHTNESS.max, Math.max(EXPERT_BRIGHTNESS.min, brightness))
      : DEFAULT_SETTINGS.expertBrightness,
    retina: typeof stored.retina === 'boolean' ? stored.retina : DEFAULT_SETTINGS.retina,
    constellationNames: oneOf(stored.constellationNames, CONSTELLATION_NAMES, DEFAULT_SETTINGS.constellationNames),
    trueStarColors:
      typeof stored.trueStarColors === 'boolean' ? stored.trueStarColors : DEFAULT_SETTINGS.trueStarColors,
    skyLines: oneOf(stored.skyLines, SKY_LINES, DEFAULT_SETTINGS.skyLines),
  };
}

/** The β the settings give: the slider's in expert mode, otherwise the step's. */
export function brightnessOf(settings: Settings): number {
  return settings.expert ? settings.expertBrightness : BRIGHTNESS[settings.brightness];
}

/** The filter the settings show: expert mode's choice, otherwise true colour. */
function filterOf(settings: Settings): ExpertFilter {
  return settings.expert ? settings.filter : 'color';
}

const SURVEY_FILTER: Record<'g' | 'r' | 'i', string> = { g: 'HSC-G', r: 'HSC-R', i: 'HSC-I' };

/** Spreads a colour entry's weight evenly over red, green and blue: the same light, in grey. */
function grey(entry: ColorEntry): ColorEntry {
  const weight = (entry.value[0] + entry.value[1] + entry.value[2]) / 3;
  return { ...entry, value: [weight, weight, weight] };
}

/**
 * The survey tiles' colour parameters: color is the application's true-colour matrix; gri maps
 * i, r, g to red, green, blue, each stretched on its own; g, r or i shows that filter alone, in
 * grey. Grayscale spreads each filter's weight over the three channels. β is the brightness.
 */
export function surveyColorParams(settings: Settings): ColorParams {
  const beta = brightnessOf(settings);
  const filter = filterOf(settings);
  let params: ColorParams;
  if (filter === 'color') params = { ...APPLICATION_COLOR_PARAMS, beta };
  else if (filter === 'gri')
    params = {
      ...APPLICATION_COLOR_PARAMS,
      type: ColorParamsType.SIMPLE_COLOR_MATRIX,
      beta,
      colors: [
        { filterName: 'HSC-I', enabled: true, value: [1, 0, 0] },
        { filterName: 'HSC-R', enabled: true, value: [0, 1, 0] },
        { filterName: 'HSC-G', enabled: true, value: [0, 0, 1] },
      ],
    };
  else
    params = {
      ...APPLICATION_COLOR_PARAMS,
      type: ColorParamsType.SIMPLE_COLOR_MATRIX,
      beta,
      colors: [{ filterName: SURVEY_FILTER[filter], enabled: true, value: [1, 1, 1] }],
    };
  return settings.colorMode === 'grayscale' ? { ...params, colors: params.colors.map(grey) } : params;
}

/** The pretty pictures' display: β scaled like the tiles', grayscale, and a solo g, r or i filter. */
export function prettyDisplay(settings: Settings, filters: readonly string[]): PrettyDisplay {
  const filter = filterOf(settings);
  const solo = filter === 'g' || filter === 'r' || filter === 'i' ? filters.indexOf(SURVEY_FILTER[filter]) : -1;
  return {
    betaScale: brightnessOf(settings) / BRIGHTNESS.normal,
    grayscale: settings.colorMode === 'grayscale',
    solo: solo >= 0 ? solo : null,
  };
}

/** The writing the constellations are named in: the setting's, or for 'page' Kanji in Japanese, English otherwise. */
export function constellationLanguageOf(settings: Settings, pageLanguage: string): ConstellationLanguage {
  if (settings.constellationNames !== 'page') return settings.constellationNames;
  return pageLanguage.startsWith('ja') ? 'kanji' : 'en';
}

const DEGREE = Math.PI / 180;

/**
 * The grid's fade as the field narrows (radians) with the lines' default setting: gone before the
 * answer form's field (1.2′), so that no line crosses the galaxy being classified.
 */
export const GRID_NARROW_FADE = [0.25 * DEGREE, 1 * DEGREE] as const;
/** The constellation lines' own fade, where a constellation outgrows the screen (the layer's default). */
export const CONSTELLATION_NARROW_FADE = [0.05, 0.15] as const;

/** What the lines setting gives the grid and the constellation layers. */
export function skyLineOptions(mode: SkyLines) {
  return {
    grid: { opacity: mode === 'off' ? 0 : 1, narrowFade: mode === 'auto' ? GRID_NARROW_FADE : null },
    constellations: { lines: mode !== 'off', narrowFade: mode === 'auto' ? CONSTELLATION_NARROW_FADE : null },
  };
}

/** Whether the screen has more than one device pixel per CSS pixel (the retina option shows). */
export function highDensityScreen(): boolean {
  return typeof window !== 'undefined' && (window.devicePixelRatio || 1) > 1;
}

// The store: one copy of the settings for the whole page, written through to localStorage.
const listeners = new Set<() => void>();
let current: Settings | null = null;

function read(): Settings {
  if (!current) {
    let text: string | null = null;
    try {
      text = localStorage.getItem(SETTINGS_STORAGE_KEY);
    } catch {
      // Storage refused (a private window): the defaults, for this page.
    }
    current = parseSettings(text);
  }
  return current;
}

export function getSettings(): Settings {
  return read();
}

export function setSettings(change: Partial<Settings>): void {
  current = { ...read(), ...change };
  try {
    localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(current));
  } catch {
    // Not kept beyond this page; still applied.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSettings(): Settings {
  return useSyncExternalStore(subscribe, read, read);
}
