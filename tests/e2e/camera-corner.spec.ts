// Layout of the main screen's bottom (issue 31): the camera indicator and its copy-link button
// cover none of the cruise screen's controls (the bottom buttons, Souvenirs the last of them,
// and the answer form's), at 1000 × 700
// and 1280 × 720, in English and Japanese, checked by their bounding boxes. Screenshots go to
// test-results/screenshots/.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readyVolunteer } from '../helpers/volunteers';
import { SCREENSHOTS } from './canvas-pixels';

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function expectNothingCovered(page: Page, name: string) {
  const corner = page.locator('.camera-corner');
  await expect(page.getByTestId('camera-indicator')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.cruise-buttons .cruise-button').last()).toBeVisible();
  await expect(page.locator('.answer-form button').first()).toBeVisible();
  // Every other control on screen: the bottom buttons, the answer form's, the header's.
  const buttons = page.locator(':is(button, a, select, input):visible:not(.camera-corner *)');
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, name) });
  const cornerBox = (await corner.boundingBox())!;
  for (const button of await buttons.all()) {
    const box = (await button.boundingBox())!;
    const label = (await button.textContent()) ?? '';
    expect(
      overlap(cornerBox, box),
      `the camera corner ${JSON.stringify(cornerBox)} covers ${label} ${JSON.stringify(box)}`,
    ).toBe(false);
  }
}

for (const viewport of [
  { width: 1000, height: 700 },
  { width: 1280, height: 720 },
]) {
  test(`at ${viewport.width} × ${viewport.height} the camera indicator covers no bottom button, in English and Japanese`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await readyVolunteer(page.request);
    await page.goto('/');
    await expectNothingCovered(page, `camera-corner-${viewport.width}-en.png`);
    expect((await page.request.put('/api/current_user', { data: { locale: 'ja' } })).ok()).toBe(true);
    await page.evaluate(() => localStorage.setItem('galaxy-cruise.locale', 'ja'));
    await page.reload();
    await expectNothingCovered(page, `camera-corner-${viewport.width}-ja.png`);
  });
}
