// The volunteer walk, part two (issue 33 items 3 to 6), checked by what is on screen rather than
// by the DOM alone: only the front dialog of the stack shows and takes the pointer, and a dialog
// owned by a route closes when the route changes (application-spec §2, §4). Debian's Chromium
// against the real server.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { readyVolunteer } from '../helpers/volunteers';
import { expectNoSeriousViolations } from './axe';

/**
 * Fails unless the element the browser would hit at the locator's centre is the locator's own
 * element or inside it: a control under another (a dialog behind, a header) is not "shown".
 */
async function expectNotCovered(locator: Locator) {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  expect(box, 'a box on screen').not.toBeNull();
  const hit = await locator.evaluate(
    (element, [x, y]) => {
      const top = document.elementFromPoint(x, y);
      return top !== null && (element === top || element.contains(top));
    },
    [box!.x + box!.width / 2, box!.y + box!.height / 2] as const,
  );
  expect(hit, 'nothing covers it at its centre').toBe(true);
}

/** The dialog overlays the browser paints (a hidden one is laid out but not painted). */
async function paintedDialogs(page: Page) {
  return page
    .locator('.dialog-overlay')
    .evaluateAll((overlays) => overlays.filter((overlay) => getComputedStyle(overlay).visibility === 'visible').length);
}

for (const [locale, texts] of [
  ['en', { profile: 'Profile', change: 'Change password', password: 'Set your password', cancel: 'Cancel' }],
  ['ja', { profile: 'プロフィール', change: 'パスワードを変更', password: 'パスワードの設定', cancel: 'キャンセル' }],
] as const) {
  test(`only the front dialog shows, and a route change closes the route's dialogs (${locale})`, async ({ page }) => {
    await readyVolunteer(page.request, { locale });
    await page.goto('/#/?course=training');
    const profileButton = page.getByRole('button', { name: texts.profile, exact: true });
    await profileButton.click({ timeout: 60_000 });
    const profile = page.getByRole('dialog', { name: texts.profile });
    await expect(profile).toBeVisible();

    // A second dialog over the first: the first is neither painted nor reachable through it.
    await profile.getByRole('button', { name: texts.change }).click();
    const password = page.getByRole('dialog', { name: texts.password });
    await expectNotCovered(password.getByRole('button', { name: texts.cancel }));
    await expect(profile).toBeHidden();
    expect(await paintedDialogs(page)).toBe(1);
    await page.screenshot({ path: test.info().outputPath(`dialog-stack-${locale}.png`) });
    await expectNoSeriousViolations(page, `two dialogs (${locale})`);

    // Cancelled, the first comes back to the front, its controls reachable again.
    await password.getByRole('button', { name: texts.cancel }).click();
    await expect(password).toHaveCount(0);
    await expectNotCovered(profile.getByRole('button', { name: texts.change }));

    // The address changes to another route: the profile (the main screen's) closes with it.
    await page.evaluate(() => (location.hash = '#/credits'));
    await expect(page.locator('.dialog-overlay')).toHaveCount(0);
    await expectNotCovered(page.getByRole('heading', { level: 1 }).first());
  });
}
