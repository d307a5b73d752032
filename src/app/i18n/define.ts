// Per-feature strings: each feature folder owns a strings.ts that calls defineStrings() with its
// English and Japanese texts, and i18n/index.ts registers it as one key group of the single
// i18next namespace (t('login.email') is the `email` key of the `login` group). The Japanese
// object must have exactly the English keys; TypeScript checks it here and
// tests/unit/i18n-strings.test.ts checks it again at run time.

/** Same keys as T, every leaf a string. */
export type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

export interface StringGroup<T> {
  en: T;
  ja: Widen<T>;
}

export function defineStrings<const T extends object>(en: T, ja: Widen<T>): StringGroup<T> {
  return { en, ja };
}
