// The sky a volunteer sees, looked at (issues 31, 38): on the main screen, in English and
// Japanese, at 1280 × 720 and 1000 × 700, the galaxy at the answer form's field, the whole sky,
// the Milky Way at 100°, Orion at 20° and 6°, the Pleiades at 5°, M31 at 4°, a survey field at
// 45° and at 18′ around a target of the quest, the quest's route, and each pretty picture flown to
// from the settings in expert mode. Each view is saved as a screenshot (test-results/screenshots/tour-*.png) for a person to
// look at, and checked by what the browser shows: the globe drew something there (not a black
// canvas), and no control of the screen lies under another one. Debian's Chromium against the
// real server with the small sky.
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { CurrentQuestResponse } from '../../shared/api';
import { PRETTY_PICTURES } from '../../shared/prettyPicture';
import { readyVolunteer } from '../helpers/volunteers';
import { canvasPixels, SCREENSHOTS } from './canvas-pixels';
import { settle, type Handle } from './globe-view';
import { expectNotCovered } from './on-screen';

const DEGREE = Math.PI / 180;
const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1000, height: 700 },
] as const;
const SETTINGS = { en: 'Settings', ja: '設定' } as const;
const EXPERT = { en: 'Expert mode', ja: 'エキスパートモード' } as const;
const PICTURES = { en: 'Pretty pictures', ja: '天体画像' } as const;

async function tourPage(browser: Browser, locale: 'en' | 'ja', viewport: { width: number; height: number }) {
  const context = await browser.newContext({ locale: locale === 'ja' ? 'ja-JP' : 'en-US', viewport });
  await readyVolunteer(context.request, { locale });
  const page = await context.newPage();
  await page.addInitScript((locale) => localStorage.setItem('galaxy-cruise.locale', locale), locale);
  await page.goto('/#/');
  await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 150_000 });
  return page;
}

/** Points the camera at (ra, dec) with a field of `fov` degrees and waits for the globe to rest. */
async function look(page: Page, ra: number, dec: number, fov: number) {
  await page.evaluate(
    ({ ra, dec, fov, degree }) => {
      const { globe } = (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe;
      globe.setCamera({ theta: (90 - dec) * degree, phi: ra * degree, fovy: fov * degree });
    },
    { ra, dec, fov, degree: DEGREE },
  );
  await rest(page);
}

async function rest(page: Page) {
  await page.waitForLoadState('networkidle');
  await settle(page);
}

/**
 * Saves the screen as tour-{name}.png, and checks that the canvas shows some light and that no
 * visible control is covered by another (the browser's own hit test at each control's centre).
 */
async function shot(page: Page, name: string) {
  const canvas = page.getByTestId('globe-canvas');
  const box = (await canvas.boundingBox())!;
  const pixels = await canvasPixels(page, canvas, { x0: 0, y0: 0, width: box.width, height: box.height });
  let lit = 0;
  for (let k = 0; k < pixels.data.length; k += 4)
    if (Math.max(pixels.data[k], pixels.data[k + 1], pixels.data[k + 2]) > 24) lit++;
  expect(lit / (pixels.width * pixels.height), `${name}: some of the sky is lit`).toBeGreaterThan(0.001);
  await page.screenshot({ path: `${SCREENSHOTS}/tour-${name}.png` });
  const controls = page.locator('button:visible, a:visible, select:visible, input:visible, summary:visible');
  const count = await controls.count();
  expect(count, `${name}: the main screen's controls`).toBeGreaterThan(5);
  for (let index = 0; index < count; index++) await expectNotCovered(controls.nth(index));
}

for (const locale of ['en', 'ja'] as const)
  for (const viewport of VIEWPORTS)
    test(`the sky tour in ${locale} at ${viewport.width} × ${viewport.height}`, async ({ browser }) => {
      test.setTimeout(600_000);
      const page = await tourPage(browser, locale, viewport);
      const tag = `${locale}-${viewport.width}x${viewport.height}`;
      const quest = (await (
        await page.request.get('/api/courses/season2/quests/current')
      ).json()) as CurrentQuestResponse;
      expect(quest.no_more_available_objects).toBe(false);
      if (quest.no_more_available_objects) return;
      const targets = quest.questions;

      // The galaxy at the answer form's field, as the main screen opened on it.
      await rest(page);
      await shot(page, `${tag}-answer-form`);
      // The whole sky, the galactic centre at 100°, Orion at 20° and its sword at 6°, the Pleiades
      // at 5°, M31 at 4°, and the quest's survey field at 45°.
      for (const [name, ra, dec, fov] of [
        ['whole-sky', 266.4, -28.9, 180],
        ['milky-way', 266.4, -28.9, 100],
        ['orion-20', 83.8, -1.2, 20],
        ['orion-6', 83.82, -5.39, 6],
        ['pleiades-5', 56.75, 24.12, 5],
        ['m31-4', 10.685, 41.269, 4],
        ['survey-45', targets[0].ra, targets[0].dec, 45],
      ] as const) {
        await look(page, ra, dec, fov);
        await shot(page, `${tag}-${name}`);
      }

      // A survey field at 18′ around the first target, and the quest's route over its targets.
      await look(page, targets[0].ra, targets[0].dec, 0.3);
      await shot(page, `${tag}-survey-18arcmin`);
      const ras = targets.map((target) => target.ra);
      const decs = targets.map((target) => target.dec);
      const span = Math.max(
        (Math.max(...ras) - Math.min(...ras)) * Math.cos(decs[0] * DEGREE),
        Math.max(...decs) - Math.min(...decs),
      );
      // Seen whole above the answer form, which takes the screen's lower third.
      await look(
        page,
        (Math.max(...ras) + Math.min(...ras)) / 2,
        (Math.max(...decs) + Math.min(...decs)) / 2 - span * 0.6,
        span * 3,
      );
      await shot(page, `${tag}-quest-route`);

      // Each pretty picture, flown to as a researcher does: expert mode, then its button.
      await page.getByRole('button', { name: SETTINGS[locale] }).click();
      const dialog = page.getByRole('dialog', { name: SETTINGS[locale] });
      await dialog.getByRole('checkbox', { name: EXPERT[locale] }).check();
      const pictures = dialog.getByRole('group', { name: PICTURES[locale] }).getByRole('button');
      await expect(pictures).toHaveCount(PRETTY_PICTURES.length);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      for (let index = 0; index < PRETTY_PICTURES.length; index++) {
        await page.getByRole('button', { name: SETTINGS[locale] }).click();
        await pictures.nth(index).click();
        await expect(dialog).toBeHidden();
        await page.waitForTimeout(1500);
        await rest(page);
        await shot(page, `${tag}-pretty-${PRETTY_PICTURES[index]}`);
      }
    });
