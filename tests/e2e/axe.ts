// axe-core's accessibility scan of what the page shows now. Screens and dialogs fade in, and a
// colour-contrast check taken halfway through a fade measures a colour the volunteer never
// settles on, so the scan waits for the page's finite animations and transitions to end.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Resolves when no finite animation or transition of the page is running. */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity,
      ),
  );
}

/** axe-core's serious and critical violations, as 'rule: targets' lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await animationsSettled(page);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  expect(await seriousViolations(page), label).toEqual([]);
}
