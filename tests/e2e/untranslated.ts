// No English left on a Japanese screen: the visible text, labels, placeholders and titles that
// still hold a Latin word.
import type { Page } from '@playwright/test';

/**
 * Words allowed in Latin letters on a Japanese screen: names (the project, the camera, the
 * survey, HTML), the language's own name, and the names of keys.
 */
const LATIN_ALLOWED = /GALAXY CRUISE|Hyper Suprime-Cam|HSC-SSP|English|SNS|HTML|OK|shift\+/g;
/** A path of the site (the developer's pages menu lists them as they are). */
const PATH = /^\/[\w/.-]*$/;

/** Visible text, labels and titles with three or more Latin letters in a row. */
export async function untranslated(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      // Text marked English (lang="en": an administrator's English title, the dictionary's English
      // column) is content in that language, not the interface's; translate="no" marks a name
      // that is the same in every language (a custom component's).
      if (!parent || parent.closest('script, style, [hidden], [lang="en"], [translate="no"]')) continue;
      if (parent.tagName !== 'OPTION' && parent.getClientRects().length === 0) continue;
      found.push(node.textContent ?? '');
    }
    for (const element of document.querySelectorAll('[aria-label], [placeholder], [title]'))
      for (const name of ['aria-label', 'placeholder', 'title']) {
        const value = element.getAttribute(name);
        if (value) found.push(value);
      }
    return found;
  });
  // An e-mail address the volunteer typed is their data, not the interface's text.
  return texts.filter(
    (text) => !PATH.test(text.trim()) && /[A-Za-z]{3,}/.test(text.replace(/\S+@\S+/g, '').replace(LATIN_ALLOWED, '')),
  );
}
