// The constellation names' writing in the settings (viewer-spec §1: English, Hiragana or Kanji):
// kept like the other settings, the page's language by default, and each of the three writings
// of the bundled data module behind it.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  constellationLanguageOf,
  parseSettings,
  type Settings,
} from '../../src/app/components/globe/settings';
import { CONSTELLATIONS } from '../../core/constellations';

const HIRAGANA = /^[\u3041-\u309f\u30fc]+$/;

describe('constellation names setting', () => {
  it('follows the page language by default: Kanji in Japanese, English otherwise', () => {
    expect(DEFAULT_SETTINGS.constellationNames).toBe('page');
    expect(constellationLanguageOf(DEFAULT_SETTINGS, 'ja')).toBe('kanji');
    expect(constellationLanguageOf(DEFAULT_SETTINGS, 'en')).toBe('en');
  });

  it('names in the chosen writing whatever the page language', () => {
    for (const names of ['en', 'hiragana', 'kanji'] as const) {
      const settings: Settings = { ...DEFAULT_SETTINGS, constellationNames: names };
      expect(constellationLanguageOf(settings, 'ja')).toBe(names);
      expect(constellationLanguageOf(settings, 'en')).toBe(names);
    }
  });

  it('is read back from storage, and an unknown writing falls back to the page language', () => {
    expect(parseSettings(JSON.stringify({ constellationNames: 'hiragana' })).constellationNames).toBe('hiragana');
    expect(parseSettings(JSON.stringify({ constellationNames: 'romaji' })).constellationNames).toBe('page');
    expect(parseSettings(null).constellationNames).toBe('page');
  });

  it('has a Hiragana reading for each of the 88 constellations', () => {
    expect(CONSTELLATIONS).toHaveLength(88);
    for (const constellation of CONSTELLATIONS) expect(constellation.name.hiragana).toMatch(HIRAGANA);
    expect(CONSTELLATIONS.find((c) => c.id === 'Ori')?.name).toEqual({
      en: 'Orion',
      hiragana: 'おりおんざ',
      kanji: 'オリオン座',
    });
  });
});
