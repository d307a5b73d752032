// How often the page asks for animation frames: an idle globe asks for none (viewer-spec's
// globe draws only while something moves or fades in).
import type { Page } from '@playwright/test';

/** How many animation frames the page asks for over `ms`. */
export function framesAskedFor(page: Page, ms: number): Promise<number> {
  return page.evaluate(
    (ms) =>
      new Promise<number>((resolve) => {
        let count = 0;
        const original = window.requestAnimationFrame.bind(window);
        window.requestAnimationFrame = (callback) => {
          count++;
          return original(callback);
        };
        setTimeout(() => {
          window.requestAnimationFrame = original;
          resolve(count);
        }, ms);
      }),
    ms,
  );
}
