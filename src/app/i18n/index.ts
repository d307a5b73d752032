// i18next set-up: English and Japanese (application-spec §1). Every feature's strings.ts is one
// key group of the single namespace (see define.ts); a new feature adds its group to GROUPS.
// The chosen language is kept in localStorage; otherwise the browser's language picks ja or en.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCALES, type Locale } from '../../../shared/api';
import { admin } from '../features/admin/strings';
import { campaigns } from '../features/campaigns/strings';
import { camera } from '../features/camera/strings';
import { credits } from '../features/credits/strings';
import { courseAdmin } from '../features/course-admin/strings';
import { cruise } from '../features/cruise/strings';
import { gate } from '../features/gate/strings';
import { guide } from '../features/guide/strings';
import { home } from '../features/home/strings';
import { login } from '../features/login/strings';
import { mailLinks } from '../features/mail-links/strings';
import { mypage } from '../features/mypage/strings';
import { notifications } from '../features/notifications/strings';
import { offline } from '../features/offline/strings';
import { passport } from '../features/passport/strings';
import { passwordReset } from '../features/password-reset/strings';
import { present } from '../features/present/strings';
import { profile } from '../features/profile/strings';
import { settings } from '../features/settings/strings';
import { ranking } from '../features/ranking/strings';
import { signup } from '../features/signup/strings';
import { science } from '../features/science-dashboard/strings';
import { souvenirs } from '../features/souvenirs/strings';
import { terms } from '../features/terms/strings';
import { common, globe, validation } from './common';
import type { StringGroup } from './define';

/** Group name → its strings; the group name is the first part of every key (t('login.email')). */
export const GROUPS = {
  common,
  validation,
  globe,
  home,
  cruise,
  login,
  signup,
  passwordReset,
  mailLinks,
  gate,
  profile,
  credits,
  terms,
  notifications,
  present,
  admin,
  settings,
  guide,
  ranking,
  mypage,
  campaigns,
  camera,
  passport,
  souvenirs,
  science,
  courseAdmin,
  offline,
} satisfies Record<string, StringGroup<object>>;

function language(locale: Locale): Record<string, object> {
  return Object.fromEntries(Object.entries(GROUPS).map(([name, group]) => [name, group[locale]]));
}

export const resources = { en: { translation: language('en') }, ja: { translation: language('ja') } };

const STORAGE_KEY = 'galaxy-cruise.locale';

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
    supportedLngs: [...LOCALES],
    interpolation: { escapeValue: false },
  });
  document.documentElement.lang = i18next.language;
  i18next.on('languageChanged', (language) => {
    document.documentElement.lang = language;
    localStorage.setItem(STORAGE_KEY, language);
  });
  return i18next;
}

/** The current language as a Locale (dates and numbers go through Intl in this locale). */
export function currentLocale(): Locale {
  return i18next.resolvedLanguage === 'ja' ? 'ja' : 'en';
}
