// The page names the web app manifest of its language in <link rel="manifest"> (index.html names
// the English one): installing from a Japanese page gives the app its Japanese name.
import type { i18n as I18n } from 'i18next';
import { LOCALES, type Locale } from '../../../../shared/api';
import { manifestFile } from './manifest';

export function followManifestLanguage(i18n: I18n): void {
  const follow = () => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    const language = i18n.resolvedLanguage as Locale | undefined;
    if (!link || !language || !LOCALES.includes(language)) return;
    const href = `/${manifestFile(language)}`;
    if (link.getAttribute('href') === href) return;
    // A new element rather than a new href: Chromium reads the manifest again for a link added,
    // not for an href changed.
    const replacement = link.cloneNode() as HTMLLinkElement;
    replacement.setAttribute('href', href);
    link.replaceWith(replacement);
  };
  follow();
  i18n.on('languageChanged', follow);
}
