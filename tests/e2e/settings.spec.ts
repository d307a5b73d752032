// The settings panel of the main screen (application-spec §2, §9) in Debian's Chromium against
// the real server: opened from the gear with the keyboard, in English and Japanese, focus back
// on the gear when it closes; grayscale really grey and bright brighter than dark in the
// survey galaxy's pixels; the choice kept over a reload; expert mode flies to a pretty picture
// that lights the screen; axe-core clean; the constellation names' writing redraws the names
// over Orion in Hiragana, kept over a reload.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readyVolunteer } from '../helpers/volunteers';
import { expectNoSeriousViolations } from './axe';
import { canvasPixels, type PixelWindow } from './canvas-pixels';
import { framesAskedFor } from './frames';
import { settle, whole, type Handle } from './globe-view';

async function volunteerPage(browser: Browser, locale: 'en' | 'ja'): Promise<Page> {
  const context = await browser.newContext({ locale: locale === 'ja' ? 'ja-JP' : 'en-US' });
  await readyVolunteer(context.request, { locale });
  const page = await context.newPage();
  await page.addInitScript((locale) => localStorage.setItem('galaxy-cruise.locale', locale), locale);
  return page;
}

/** The main screen, once the camera has reached the first galaxy (the answer form shows). */
async function openMainScreen(page: Page) {
  await page.goto('/#/');
  await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 150_000 });
}

/**
 * The galaxy's core at the screen centre, inside the current target's 18 px ring, and the sky
 * under it: the survey's light is added to the sky (the globe's navy background), so the image's
 * own colour is what lies above the sky, each channel's 10th percentile round the galaxy (the
 * canvas's edges lie under the screen's panels).
 */
async function core(page: Page, name?: string): Promise<PixelWindow & { sky: number[] }> {
  await page.waitForLoadState('networkidle');
  await expect.poll(() => framesAskedFor(page, 1000), { timeout: 60_000, intervals: [0] }).toBe(0);
  const canvas = page.getByTestId('globe-canvas');
  const box = (await canvas.boundingBox())!;
  const round = await canvasPixels(page, canvas, {
    x0: box.width / 2 - 80,
    y0: box.height / 2 - 50,
    width: 160,
    height: 100,
  });
  const sky = [0, 1, 2].map(
    (c) => round.data.filter((_, k) => k % 4 === c).sort((a, b) => a - b)[Math.floor(round.data.length / 40)],
  );
  const window = { x0: box.width / 2 - 8, y0: box.height / 2 - 8, width: 16, height: 16 };
  return { ...(await canvasPixels(page, canvas, window, name)), sky };
}

function meanLight(pixels: PixelWindow): number {
  let sum = 0;
  for (let k = 0; k < pixels.data.length; k += 4) sum += (pixels.data[k] + pixels.data[k + 1] + pixels.data[k + 2]) / 3;
  return sum / (pixels.data.length / 4);
}

/**
 * The largest difference between two channels of the image's light (above the sky) in one pixel
 * of the window; a pixel with a channel at white holds no colour to read and is passed over.
 */
function colourfulness(pixels: PixelWindow & { sky: number[] }): number {
  let most = 0;
  for (let k = 0; k < pixels.data.length; k += 4) {
    if (Math.max(pixels.data[k], pixels.data[k + 1], pixels.data[k + 2]) >= 250) continue;
    const [r, g, b] = [0, 1, 2].map((c) => pixels.data[k + c] - pixels.sky[c]);
    most = Math.max(most, Math.abs(r - g), Math.abs(g - b), Math.abs(r - b));
  }
  return most;
}

/**
 * The globe turned to Orion at 40° (the cruise has arrived at its galaxy and keeps still), once
 * it stops drawing: its pixels and the text of Orion's name billboard.
 */
async function namesOverOrion(
  page: Page,
  screenshot?: string,
): Promise<{ name: string | undefined; pixels: PixelWindow }> {
  await page.evaluate(() => {
    const { globe } = (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe;
    globe.setCamera({ theta: (90 - 2) * (Math.PI / 180), phi: 83 * (Math.PI / 180), fovy: 40 * (Math.PI / 180) });
  });
  await settle(page);
  const canvas = page.getByTestId('globe-canvas');
  const pixels = await whole(page, canvas, screenshot);
  const name = await page.evaluate(() => {
    const { layers } = (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe;
    return (layers.constellations as unknown as { namesShown: ReadonlyMap<string, string> }).namesShown.get('Ori');
  });
  return { name, pixels };
}

/** Pixels whose colour differs by more than 24 in some channel. */
function changedPixels(a: PixelWindow, b: PixelWindow): number {
  let changed = 0;
  for (let k = 0; k < a.data.length; k += 4)
    if ([0, 1, 2].some((c) => Math.abs(a.data[k + c] - b.data[k + c]) > 24)) changed++;
  return changed;
}

/** Opens the panel from the gear with the keyboard: focus the gear, Enter. */
async function openFromKeyboard(page: Page, gearName: string, title: string) {
  const gear = page.getByRole('button', { name: gearName });
  await gear.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  return { gear, dialog };
}

test.describe('settings panel (application-spec §2, §9)', () => {
  test.describe.configure({ timeout: 400_000 });

  test('from the keyboard: grayscale is grey, bright is brighter than dark, kept over a reload; axe clean', async ({
    browser,
  }) => {
    const page = await volunteerPage(browser, 'en');
    await openMainScreen(page);
    const colour = await core(page, 'settings-colour.png');
    console.log(`colour: light ${meanLight(colour).toFixed(1)}, colourfulness ${colourfulness(colour)}`);

    const { gear, dialog } = await openFromKeyboard(page, 'Settings', 'Settings');
    await expect(dialog.getByRole('radio', { name: 'Colour' })).toBeChecked();
    await expect(dialog.getByRole('radio', { name: 'Normal' })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Expert mode' })).not.toBeChecked();
    await expectNoSeriousViolations(page, 'settings panel (en)');
    // Arrow keys move a radio group's choice; Escape closes and the gear has the focus again.
    await dialog.getByRole('radio', { name: 'Colour' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(dialog.getByRole('radio', { name: 'Grayscale' })).toBeChecked();
    await dialog.getByRole('radio', { name: 'Normal' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect(dialog.getByRole('radio', { name: 'Dark' })).toBeChecked();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(gear).toBeFocused();

    const greyDark = await core(page, 'settings-grey-dark.png');
    console.log(`grayscale dark: light ${meanLight(greyDark).toFixed(1)}, colourfulness ${colourfulness(greyDark)}`);
    expect(colourfulness(colour)).toBeGreaterThan(10);
    expect(colourfulness(greyDark)).toBeLessThanOrEqual(3);

    await openFromKeyboard(page, 'Settings', 'Settings');
    await page.getByRole('radio', { name: 'Dark' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: 'Bright' })).toBeChecked();
    await page.getByRole('button', { name: 'Close' }).press('Enter');
    await expect(gear).toBeFocused();
    const greyBright = await core(page, 'settings-grey-bright.png');
    console.log(`grayscale bright: light ${meanLight(greyBright).toFixed(1)}`);
    expect(meanLight(greyBright)).toBeGreaterThan(meanLight(greyDark) + 20);
    expect(colourfulness(greyBright)).toBeLessThanOrEqual(3);

    // Kept in localStorage: the same choices after a reload.
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('galaxy-cruise.settings')))!)).toMatchObject({
      colorMode: 'grayscale',
      brightness: 'bright',
    });
    await page.reload();
    await expect(page.getByRole('button', { name: 'Settings' })).toBeVisible({ timeout: 150_000 });
    const { dialog: again } = await openFromKeyboard(page, 'Settings', 'Settings');
    await expect(again.getByRole('radio', { name: 'Grayscale' })).toBeChecked();
    await expect(again.getByRole('radio', { name: 'Bright' })).toBeChecked();
  });

  test('in Japanese, expert mode shows its filters and slider and flies to a pretty picture; axe clean', async ({
    browser,
  }) => {
    const page = await volunteerPage(browser, 'ja');
    await page.goto('/#/');
    await expect(page.getByRole('button', { name: '設定' })).toBeVisible({ timeout: 150_000 });
    const { gear, dialog } = await openFromKeyboard(page, '設定', '設定');
    await expect(dialog.getByRole('radio', { name: 'グレースケール' })).toBeVisible();
    await expect(dialog.getByRole('radio', { name: '標準' })).toBeChecked();
    const expert = dialog.getByRole('checkbox', { name: 'エキスパートモード' });
    await expert.focus();
    await page.keyboard.press('Space');
    await expect(expert).toBeChecked();
    // Expert mode: the filter choice and the slider replace dark / normal / bright.
    await expect(dialog.getByRole('group', { name: '明るさ', exact: true })).toHaveCount(0);
    const filters = dialog.getByRole('group', { name: 'フィルター' });
    for (const filter of ['カラー', 'g・r・i', 'g', 'r', 'i'])
      await expect(filters.getByRole('radio', { name: filter, exact: true })).toBeVisible();
    const slider = dialog.getByRole('slider');
    await expect(slider).toHaveAttribute('min', '4');
    await expect(slider).toHaveAttribute('max', '6');
    await slider.focus();
    await page.keyboard.press('End');
    await expect(dialog.getByText('明るさ（β 1,000,000）')).toBeVisible();
    await page.keyboard.press('Home');
    await expect(dialog.getByText('明るさ（β 10,000）')).toBeVisible();
    await expectNoSeriousViolations(page, 'settings panel, expert (ja)');
    // No English left on the Japanese panel (filter letters aside).
    const text = await dialog.innerText();
    expect(text.replace(/\bM\d+\b|\bg\b|\br\b|\bi\b|β/g, '')).not.toMatch(/[A-Za-z]{2,}/);

    // The normal brightness again, then fly to M101 from the keyboard.
    await slider.fill(String(Math.log10(57338.67)));
    await dialog.getByRole('button', { name: 'M101 回転花火銀河' }).press('Enter');
    await expect(dialog).toBeHidden();
    await expect(gear).toBeFocused();
    const canvas = page.getByTestId('globe-canvas');
    const box = (await canvas.boundingBox())!;
    const centre = { x0: box.width / 2 - 16, y0: box.height / 2 - 16, width: 32, height: 32 };
    await expect
      .poll(async () => meanLight(await canvasPixels(page, canvas, centre)), { timeout: 180_000 })
      .toBeGreaterThan(100);
    await canvasPixels(page, canvas, centre, 'settings-expert-m101.png');
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('galaxy-cruise.settings')))!)).toMatchObject({
      expert: true,
    });
  });
  test('constellation names: Hiragana from the panel redraws the names, kept over a reload', async ({ browser }) => {
    const page = await volunteerPage(browser, 'en');
    await openMainScreen(page);
    const orion = await namesOverOrion(page, 'settings-names-en.png');
    expect(orion.name).toBe('Orion');

    const { dialog } = await openFromKeyboard(page, 'Settings', 'Settings');
    const names = dialog.getByRole('group', { name: 'Constellation names' });
    await expect(names.getByRole('radio', { name: 'Page language' })).toBeChecked();
    await names.getByRole('radio', { name: 'Hiragana' }).check();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    const hiragana = await namesOverOrion(page, 'settings-names-hiragana.png');
    expect(hiragana.name).toBe('おりおんざ');
    const changed = changedPixels(orion.pixels, hiragana.pixels);
    console.log(`constellation names: ${changed} of ${orion.pixels.data.length / 4} pixels changed`);
    expect(changed).toBeGreaterThan(200);

    // The address keeps the view on Orion, so the reload opens there, not on the galaxy.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Settings' })).toBeVisible({ timeout: 150_000 });
    await page.waitForFunction(() => 'galaxyCruiseGlobe' in window);
    expect((await namesOverOrion(page)).name).toBe('おりおんざ');
    const { dialog: again } = await openFromKeyboard(page, 'Settings', 'Settings');
    await expect(again.getByRole('radio', { name: 'Hiragana' })).toBeChecked();
  });
  test('constellation names in Japanese: Kanji by default, Hiragana from the panel', async ({ browser }) => {
    const page = await volunteerPage(browser, 'ja');
    await openMainScreen(page);
    expect((await namesOverOrion(page)).name).toBe('オリオン座');
    const { dialog } = await openFromKeyboard(page, '設定', '設定');
    const names = dialog.getByRole('group', { name: '星座名' });
    await expect(names.getByRole('radio', { name: '表示言語に合わせる' })).toBeChecked();
    await names.getByRole('radio', { name: 'ひらがな' }).check();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect((await namesOverOrion(page, 'settings-names-ja-hiragana.png')).name).toBe('おりおんざ');
  });
});
