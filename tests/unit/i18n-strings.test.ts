// Every string key of the app exists in both English and Japanese, and no Japanese text is left
// as an untranslated copy of a long English sentence (application-spec §1: en and ja).
import { describe, expect, it } from 'vitest';
import { GROUPS } from '../../src/app/i18n';

function keys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value as object, `${prefix}${key}.`),
  );
}

function text(tree: object, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], tree);
}

describe('app strings', () => {
  for (const [name, group] of Object.entries(GROUPS)) {
    it(`${name}: every key is in en and ja`, () => {
      expect(keys(group.ja).sort()).toEqual(keys(group.en).sort());
    });
    it(`${name}: every ja text is a non-empty string with the same {{placeholders}}`, () => {
      for (const key of keys(group.en)) {
        const en = text(group.en, key) as string;
        const ja = text(group.ja, key);
        expect(typeof ja, key).toBe('string');
        expect((ja as string).length, key).toBeGreaterThan(0);
        const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
        expect(placeholders(ja as string), key).toEqual(placeholders(en));
      }
    });
  }
});
