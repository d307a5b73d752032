// The web app manifests (W3C Web Application Manifest), one per language: the build writes them
// as manifest.{locale}.webmanifest beside index.html (vite.config.ts), and the page names the one
// of its language in <link rel="manifest"> (manifestLink.ts). Both describe the same app (the
// same `id`), so installing from either page is one installation. The build's configuration
// imports this file: it imports nothing at run time.
import type { Locale } from '../../../../shared/api';

/** The app's name and description in each language (the ja name as the app's own, common.appName). */
const MANIFEST_TEXT: Record<Locale, { name: string; shortName: string; description: string }> = {
  en: {
    name: 'Galaxy Cruise',
    shortName: 'Galaxy Cruise',
    description: 'Sail a globe of the sky and classify galaxies for science.',
  },
  ja: {
    name: 'GALAXY CRUISE',
    shortName: 'GALAXY CRUISE',
    description: '天球を旅して、研究のために銀河を分類しましょう。',
  },
};

/** The languages with a manifest: every language of the app. */
export const MANIFEST_LOCALES = Object.keys(MANIFEST_TEXT) as Locale[];

/** The sky's dark and the header's panel (styles.css), for the splash screen and the title bar. */
export const BACKGROUND_COLOR = '#02050f';
export const THEME_COLOR = '#0a1024';

export interface AppIconFile {
  /** Path from the site's root. */
  src: string;
  size: number;
  purpose: 'any' | 'maskable';
}

/** The icons the build draws (appIcon.ts): 192 and 512 px, and a maskable 512 px one (full bleed, its mark inside the safe zone). */
export const APP_ICONS: readonly AppIconFile[] = [
  { src: '/icons/icon-192.png', size: 192, purpose: 'any' },
  { src: '/icons/icon-512.png', size: 512, purpose: 'any' },
  { src: '/icons/icon-maskable-512.png', size: 512, purpose: 'maskable' },
];

export function manifestFile(locale: Locale): string {
  return `manifest.${locale}.webmanifest`;
}

export function webAppManifest(locale: Locale) {
  const strings = MANIFEST_TEXT[locale];
  return {
    id: '/',
    name: strings.name,
    short_name: strings.shortName,
    description: strings.description,
    lang: locale,
    dir: 'ltr',
    // The main screen: '/' behind the access gate (application-spec §2), a hash route.
    start_url: '/#/',
    scope: '/',
    display: 'standalone',
    background_color: BACKGROUND_COLOR,
    theme_color: THEME_COLOR,
    categories: ['education', 'science'],
    icons: APP_ICONS.map((icon) => ({
      src: icon.src,
      sizes: `${icon.size}x${icon.size}`,
      type: 'image/png',
      purpose: icon.purpose,
    })),
  };
}
