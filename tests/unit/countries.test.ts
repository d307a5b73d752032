// The country lists of the questionnaire and the gift form (src/app/features/gate/countries.ts):
// Japan first (application-spec §9), the rest as readers of the page's language sort them.
import { describe, expect, it } from 'vitest';
import { COUNTRIES, countriesInOrder, JAPAN } from '../../src/app/features/gate/countries';

const names = (locale: 'en' | 'ja') => countriesInOrder(locale).map((country) => country[locale]);

describe('countries in order', () => {
  it('puts Japan first and keeps every country once', () => {
    for (const locale of ['en', 'ja'] as const) {
      const list = countriesInOrder(locale);
      expect(list[0].numeric).toBe(JAPAN);
      expect(new Set(list.map((country) => country.numeric))).toEqual(new Set(COUNTRIES.map((c) => c.numeric)));
    }
  });

  it('sorts accented names with their letters in English', () => {
    const list = names('en');
    const at = (name: string) => list.indexOf(name);
    expect(at('Åland Islands')).toBeGreaterThan(at('Afghanistan'));
    expect(at('Åland Islands')).toBeLessThan(at('Albania'));
    expect(at("Côte d'Ivoire")).toBeLessThan(at('Czechia'));
    expect(at("Côte d'Ivoire")).toBeGreaterThan(at('Costa Rica'));
    expect(list.at(-1)).toBe('Zimbabwe');
  });

  it('sorts by the Japanese names in Japanese', () => {
    const rest = names('ja').slice(1);
    const collator = new Intl.Collator('ja');
    expect(rest).toEqual([...rest].sort(collator.compare));
    expect(rest).not.toEqual(COUNTRIES.slice(1).map((country) => country.ja));
  });

  it('leaves the table itself in its own order', () => {
    countriesInOrder('en');
    expect(COUNTRIES[COUNTRIES.length - 1].en).toBe('Åland Islands');
  });
});
