// The main screen on a phone (UI.md: at 360 px the links collapse into the menu, the answer form
// spans the width with touch targets at least 44 px): at 390 × 844 with touch, the answer form's
// step buttons and choices are at least 44 px both ways, the campaign's name is not cut, and the
// open menu covers what lies under it (the answer form neither shows through nor takes a tap).
// Screenshots of the form and of the open menu, axe-core on both, in English and Japanese.
// The page's clock is set inside the winter cruise (skydata/rewards.ts), so that a campaign bar
// shows whatever the day of the run.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { common } from '../../src/app/i18n/common';
import { cruise } from '../../src/app/features/cruise/strings';
import { readyVolunteer } from '../helpers/volunteers';
import { expectNoSeriousViolations } from './axe';
import { expectNotCovered } from './on-screen';

const TOUCH_TARGET_PX = 44;
const WINTER_CRUISE = { en: 'Winter cruise', ja: 'ウィンタークルーズ' };

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

async function expectTouchTarget(control: Locator, name: string) {
  const box = await control.boundingBox();
  expect(box, `${name} on screen`).not.toBeNull();
  expect(box!.width, `${name}'s width`).toBeGreaterThanOrEqual(TOUCH_TARGET_PX - 0.5);
  expect(box!.height, `${name}'s height`).toBeGreaterThanOrEqual(TOUCH_TARGET_PX - 0.5);
}

/** Whether any pixel of `covered`'s box shows it (the browser's hit test on a grid of points). */
async function pointsShowing(page: Page, covered: Locator): Promise<number> {
  return covered.evaluate((element) => {
    const box = element.getBoundingClientRect();
    let showing = 0;
    for (let x = box.left + 4; x < box.right; x += 12)
      for (let y = box.top + 4; y < box.bottom; y += 12) {
        const hit = document.elementFromPoint(x, y);
        if (hit && element.contains(hit)) showing++;
      }
    return showing;
  });
}

/**
 * The pixels where `over` lies on `under` are the same with `under` shown and hidden (a channel
 * off by a few levels at most): nothing of it shows through.
 */
async function expectNothingShowsThrough(page: Page, over: Locator, under: Locator) {
  const a = (await over.boundingBox())!;
  const b = (await under.boundingBox())!;
  const clip = { x: Math.max(a.x, b.x), y: Math.max(a.y, b.y), width: 0, height: 0 };
  clip.width = Math.min(a.x + a.width, b.x + b.width) - clip.x;
  clip.height = Math.min(a.y + a.height, b.y + b.height) - clip.y;
  expect(clip.width > 0 && clip.height > 0, 'the menu lies over the form').toBe(true);
  const pixels = async () => {
    const png = await page.screenshot({ clip, animations: 'disabled' });
    return page.evaluate(async (data) => {
      const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      return [...context.getImageData(0, 0, image.width, image.height).data];
    }, png.toString('base64'));
  };
  const shown = await pixels();
  await under.evaluate((element) => ((element as HTMLElement).style.visibility = 'hidden'));
  const hidden = await pixels();
  await under.evaluate((element) => ((element as HTMLElement).style.visibility = ''));
  let differing = 0;
  for (let k = 0; k < shown.length; k++) if (Math.abs(shown[k] - hidden[k]) > 8) differing++;
  expect(differing, 'pixel channels of the form showing through the menu').toBe(0);
}

for (const locale of ['en', 'ja'] as const) {
  test(`the answer form and the menu on a phone, 390 × 844 with touch (${locale})`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.clock.setFixedTime(new Date('2026-12-15T12:00:00+09:00'));
    await readyVolunteer(page.request, { locale });
    await page.goto('/#/?course=season2');
    const form = page.getByTestId('answer-form');
    await expect(form.locator('.answer-choice').first()).toBeEnabled({ timeout: 90_000 });

    // Touch targets: the step buttons, the choices, the menu button and the bottom buttons.
    for (const [index, step] of (await form.locator('.answer-step').all()).entries())
      await expectTouchTarget(step, `step button ${index + 1}`);
    for (const [index, choice] of (await form.locator('.answer-choice').all()).entries())
      await expectTouchTarget(choice, `choice ${index + 1}`);
    const menuButton = page.getByRole('button', { name: cruise[locale].menu });
    await expectTouchTarget(menuButton, 'the menu button');
    for (const [index, button] of (await page.locator('.cruise-buttons .cruise-button').all()).entries())
      await expectTouchTarget(button, `bottom button ${index + 1}`);
    // A tap on step 1's first choice goes on to step 2.
    await form.locator('.answer-choice').first().tap();
    await expect(form).toHaveAttribute('data-step', '2');

    // The campaign's name whole: not cut, not ellipsed.
    const name = page.locator('.campaign-bar-name').first();
    await expect(name).toHaveText(WINTER_CRUISE[locale]);
    const cut = await name.evaluate((element) => element.scrollWidth > element.clientWidth + 0.5);
    expect(cut, "the campaign's name is cut").toBe(false);
    await expectNotCovered(name);
    await page.screenshot({ path: test.info().outputPath(`phone-answer-form-${locale}.png`) });
    await expectNoSeriousViolations(page, `phone answer form (${locale})`);

    // The open menu: its links over everything under them; no pixel of the answer form shows
    // through where the menu lies over it, and a tap there reaches the menu.
    await menuButton.tap();
    const menu = page.locator('#cruise-links');
    await expect(menu).toBeVisible();
    const logout = menu.getByRole('button', { name: common[locale].logout });
    await expect(logout).toBeVisible();
    await expectNotCovered(logout);
    expect(await pointsShowing(page, form), 'the answer form reachable under the open menu').toBe(0);
    await expectNothingShowsThrough(page, menu, form);
    await page.screenshot({ path: test.info().outputPath(`phone-menu-${locale}.png`) });
    await expectNoSeriousViolations(page, `phone menu (${locale})`);
    // Closed again, the form is back.
    await menuButton.tap();
    await expect(menu).toBeHidden();
    await expectNotCovered(form.locator('.answer-choice').first());
  });
}
