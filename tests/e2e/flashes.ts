// The flash messages a page shows (the remaining count, 'Area completed!'), recorded as they are
// added: in developer mode they last 200 ms, too short for a poll to catch.
import type { Page } from '@playwright/test';

/** Every flash message shown from now on, in order (they last 200 ms in developer mode). */
export async function recordFlashes(page: Page) {
  await page.addInitScript(() => {
    const record = window as unknown as { flashes: string[] };
    record.flashes = [];
    new MutationObserver((mutations) => {
      for (const mutation of mutations)
        for (const node of mutation.addedNodes)
          if (node instanceof HTMLElement && node.classList.contains('flash'))
            record.flashes.push(node.textContent ?? '');
    }).observe(document, { subtree: true, childList: true });
  });
}

export const flashes = (page: Page) => page.evaluate(() => (window as unknown as { flashes: string[] }).flashes);
