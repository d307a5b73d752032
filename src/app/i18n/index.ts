// i18next set-up: English and Japanese (application-spec §1). The chosen language is kept in
// localStorage; otherwise the browser's language picks ja or en.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCALES, type Locale } from '../../shared/api';
import { en } from './en';
import { ja } from './ja';

const STORAGE_KEY = 'galaxy-cruise.locale';

export const resources = { en: { translation: en }, ja: { translation: ja } } as const;

function initialLocale(): Locale {
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(STORAGE_KEY) : null;
  if (stored && (LOCALES as readonly string[]).includes(stored)) return stored as Locale;
  const browser = typeof navigator !== 'undefined' ? navigator.language : 'en';
  return browser.toLowerCase().startsWith('ja') ? 'ja' : 'en';
}

export async function initI18n(): Promise<typeof i18next> {
  await i18next.use(initReactI18next).init({
    resources,
    lng: initialLocale(),
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
  });
  document.documentElement.lang = i18next.language;
  i18next.on('languageChanged', (language) => {
    document.documentElement.lang = language;
    localStorage.setItem(STORAGE_KEY, language);
  });
  return i18next;
}
