// Rewards end to end (application-spec §2, §4, §8, §9): the passport (tabs season2,
// final_campaign, illustris) and the souvenirs open from their bottom buttons with the mouse and
// with their keys, in English and Japanese, axe-clean; a volunteer whose answers reach a
// multiple of the objects per piece (3 in developer mode, which the e2e server's 127.0.0.1 is)
// gets the puzzle-piece message and sees the piece revealed, and after completing an area the
// passport stamp; the camera button downloads a PNG of the globe, and a browser that cannot gets
// §8's alerts. Debian's Chromium against the real server.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { CurrentQuestResponse } from '../../shared/api';
import { decodePng } from '../../skydata/png';
import { readyVolunteer } from '../helpers/volunteers';
import { expectInSpecOrder } from './area-messages';
import { expectNoSeriousViolations } from './axe';
import { SCREENSHOTS } from './canvas-pixels';

type Quest = Extract<CurrentQuestResponse, { no_more_available_objects: false }>;

const TEXT = {
  en: {
    passport: 'Passport',
    souvenirs: 'Souvenirs',
    camera: 'Camera',
    close: 'Close',
    tabs: ['Season 2', 'Final campaign', 'Illustris'],
  },
  ja: {
    passport: 'パスポート',
    souvenirs: 'おみやげ',
    camera: 'カメラ',
    close: '閉じる',
    tabs: ['シーズン2', 'ファイナルキャンペーン', 'イラストリス'],
  },
} as const;

/** A bottom button, named by its label (its key is printed after it). */
const bottomButton = (page: Page, label: string) => page.getByRole('button', { name: new RegExp(`^${label}`) });

async function openMainScreen(page: Page, locale: 'en' | 'ja' = 'en') {
  await page.addInitScript((value) => localStorage.setItem('galaxy-cruise.locale', value), locale);
  await page.goto('/#/?course=season2');
  await expect(bottomButton(page, TEXT[locale].passport)).toBeVisible({ timeout: 60_000 });
}

/**
 * Words of English (three or more small letters) in `text`: none may be left on a ja screen, but
 * for proper names that the data's Japanese names keep (the IllustrisTNG simulation's stage).
 */
function englishWords(text: string): string[] {
  return (text.match(/[A-Za-z]*[a-z]{3,}/g) ?? []).filter((word) => word !== 'Illustris');
}

for (const locale of ['en', 'ja'] as const) {
  test(`passport and souvenirs open with the mouse and with their keys, axe-clean (${locale})`, async ({ page }) => {
    const L = TEXT[locale];
    await readyVolunteer(page.request, { locale });
    await openMainScreen(page, locale);

    // The passport by the mouse: three tabs, the first the course on screen (season2).
    await bottomButton(page, L.passport).click();
    const passport = page.getByRole('dialog', { name: L.passport });
    await expect(passport).toBeVisible();
    await expect(passport.getByRole('tab')).toHaveText([...L.tabs]);
    await expect(passport.getByRole('tab', { name: L.tabs[0] })).toHaveAttribute('aria-selected', 'true');
    await expect(passport.getByTestId('passport-count')).toBeVisible();
    await passport.getByRole('tab', { name: L.tabs[2] }).click();
    await expect(passport.getByRole('tab', { name: L.tabs[2] })).toHaveAttribute('aria-selected', 'true');
    await expect(passport.getByTestId('passport-count')).toBeVisible();
    await expectNoSeriousViolations(page, `passport (${locale})`);
    if (locale === 'ja') expect(englishWords(await passport.innerText())).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/passport-${locale}.png` });
    await passport.getByRole('button', { name: L.close }).click();
    await expect(passport).toBeHidden();

    // The passport by the keyboard: P opens it, Tab reaches the tabs, an arrow changes the tab,
    // Escape closes it.
    await expect(page.locator('.dialog-overlay')).toHaveCount(0);
    await page.keyboard.press('p');
    await expect(passport).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(passport.getByRole('tab', { name: L.tabs[0] })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(passport.getByRole('tab', { name: L.tabs[1] })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Escape');
    await expect(passport).toBeHidden();

    // The souvenirs by the mouse: every souvenir listed with its jigsaw, nothing revealed yet.
    await expect(page.locator('.dialog-overlay')).toHaveCount(0);
    await bottomButton(page, L.souvenirs).click();
    const souvenirs = page.getByRole('dialog', { name: L.souvenirs });
    await expect(souvenirs.getByTestId('souvenir')).toHaveCount(8);
    await expect(souvenirs.locator('.souvenir-piece')).toHaveCount(8 * 56);
    await expect(souvenirs.locator('.souvenir-piece[data-revealed]')).toHaveCount(0);
    await expectNoSeriousViolations(page, `souvenirs (${locale})`);
    if (locale === 'ja') expect(englishWords(await souvenirs.innerText())).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/souvenirs-${locale}.png` });
    await souvenirs.getByRole('button', { name: L.close }).click();
    await expect(souvenirs).toBeHidden();

    // The souvenirs by the keyboard: B opens them, Escape closes them.
    await expect(page.locator('.dialog-overlay')).toHaveCount(0);
    await page.keyboard.press('b');
    await expect(souvenirs).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(souvenirs).toBeHidden();
  });
}

test('a volunteer who classifies enough sees a puzzle piece revealed, and a passport stamp after completing an area', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await readyVolunteer(page.request);
  const response = await page.request.get('/api/courses/season2/quests/current');
  const quest = (await response.json()) as Quest;
  expect(quest.no_more_available_objects).toBe(false);
  const count = quest.questions.length;
  expect(count).toBeGreaterThanOrEqual(3);
  // Some answers over HTTP, so that the next one given on screen is the third of the course.
  for (const question of quest.questions.slice(0, 2)) {
    const posted = await page.request.post(`/api/quests/${quest.id}/answers`, {
      data: { object_id: question.object_id },
    });
    expect(posted.ok()).toBe(true);
  }

  await openMainScreen(page);
  const form = page.getByTestId('answer-form');
  const titles: string[] = [];
  for (let answered = 2; answered < count; answered++) {
    await expect(form).toBeVisible({ timeout: 90_000 });
    await expect(page.getByTestId('cruise-target')).not.toContainText('answered');
    await expect(form).toHaveAttribute('data-step', '1');
    await page.keyboard.press('1');
    await expect(form).toHaveAttribute('data-step', '2');
    await page.keyboard.press('2');
    if (answered === 2) {
      // The third answer of the course: the souvenir puzzle-piece message.
      const piece = page.getByRole('dialog', { name: 'A souvenir puzzle piece' });
      await expect(piece).toContainText('You have classified 3 galaxies in this course');
      await piece.getByRole('button', { name: 'OK' }).click();
      await expect(piece).toBeHidden();
    }
  }
  // The area's messages, each confirmed, until the next quest is there.
  await expect
    .poll(
      async () => {
        // One dialog at a time; the next may follow at once.
        const dialog = page.getByRole('dialog').last();
        if (await dialog.isVisible()) {
          const title = (await dialog.getByRole('heading').first().innerText()).trim();
          titles.push(title);
          await dialog.getByRole('button', { name: 'OK' }).click();
          await expect(page.getByRole('dialog', { name: title })).toBeHidden();
          return 'dialog';
        }
        const next = (await (await page.request.get('/api/courses/season2/quests/current')).json()) as Quest;
        return next.id !== quest.id && titles.length > 0 ? 'next' : 'waiting';
      },
      { timeout: 60_000 },
    )
    .toBe('next');
  // The first area of season 2 in the small sky is a quarter of its areas: the stamp, then the
  // cabin upgrade (under 5 % to under 50 %: rank 4 to 1), then whatever the next level brings, in
  // the order of application-spec §4.
  console.log(`area messages: ${titles.join(' → ')}`);
  expect(titles.slice(0, 2)).toEqual(['Passport stamp added', 'Cabin upgrade']);
  expectInSpecOrder(titles);

  // The passport has the stamp of the completed stage, its image served with the sky data.
  await expect(page.locator('.dialog-overlay')).toHaveCount(0);
  await page.keyboard.press('p');
  const passport = page.getByRole('dialog', { name: 'Passport' });
  const stamp = passport.getByTestId('passport-stamp');
  await expect(stamp).toHaveCount(1);
  await expect.poll(() => stamp.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await expect(passport.getByTestId('passport-count')).toContainText('1 of');
  await expectNoSeriousViolations(page, 'passport with a stamp');
  await page.keyboard.press('Escape');
  await expect(passport).toBeHidden();

  // The souvenirs: one piece earned, revealed on the first jigsaw over its picture.
  await expect(page.locator('.dialog-overlay')).toHaveCount(0);
  await page.keyboard.press('b');
  const souvenirs = page.getByRole('dialog', { name: 'Souvenirs' });
  await expect(souvenirs.getByTestId('souvenir-pieces')).toHaveText('You have earned 1 piece.');
  const first = souvenirs.getByTestId('souvenir').first();
  await expect(first.locator('.souvenir-piece[data-revealed]')).toHaveCount(1);
  await expect(first.getByRole('img')).toHaveAccessibleName(/1 of 56 jigsaw pieces revealed/);
  await expect.poll(() => first.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(448);
  await expect(souvenirs.locator('.souvenir-piece[data-revealed]')).toHaveCount(1);
  await page.screenshot({ path: `${SCREENSHOTS}/souvenirs-one-piece.png` });
});

test('the camera button downloads a PNG of the globe, by the mouse and by C', async ({ page }) => {
  await readyVolunteer(page.request);
  await openMainScreen(page);
  const canvas = page.locator('canvas').first();
  // The picture is the frame on screen: at the canvas's full resolution, or at half of it per axis
  // while the sky still loads on a slow machine (src/globe/resolution.ts).
  const full = await canvas.evaluate((element: HTMLCanvasElement) => [
    Math.round(element.clientWidth * devicePixelRatio),
    Math.round(element.clientHeight * devicePixelRatio),
  ]);
  const sizes = [full, full.map((side) => Math.round(side / 2))].map((pair) => pair.join('x'));

  for (const how of ['mouse', 'key'] as const) {
    await expect(page.locator('.dialog-overlay')).toHaveCount(0);
    const download = page.waitForEvent('download');
    if (how === 'mouse') await bottomButton(page, 'Camera').click();
    else await page.keyboard.press('c');
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^galaxy-cruise-\d{8}-\d{6}\.png$/);
    const bytes = fs.readFileSync((await file.path())!);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const image = decodePng(bytes);
    expect(sizes).toContain(`${image.width}x${image.height}`);
    // The globe's picture, not an empty buffer: the sky's background and brighter things on it.
    const colours = new Set<number>();
    for (let k = 0; k < image.pixels.length; k += image.channels * 97)
      colours.add((image.pixels[k] << 16) | (image.pixels[k + 1] << 8) | image.pixels[k + 2]);
    expect(colours.size).toBeGreaterThan(10);
  }
});

test("the camera's alerts: not_supported on a browser that cannot, and when no 2D canvas context can be had", async ({
  page,
}) => {
  await readyVolunteer(page.request);
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  await openMainScreen(page);
  // A browser without canvas.toBlob (taken away once the screen stands, as other parts of the
  // page draw on canvases too).
  await page.evaluate(() => {
    const saved = HTMLCanvasElement.prototype.toBlob;
    (window as unknown as { savedToBlob: typeof saved }).savedToBlob = saved;
    Reflect.deleteProperty(HTMLCanvasElement.prototype, 'toBlob');
  });
  await bottomButton(page, 'Camera').click();
  await expect.poll(() => alerts).toEqual(['This function is not available in your browser']);

  // A browser that gives no 2D context.
  await page.evaluate(() => {
    HTMLCanvasElement.prototype.toBlob = (
      window as unknown as { savedToBlob: HTMLCanvasElement['toBlob'] }
    ).savedToBlob;
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, kind: string, ...rest: unknown[]) {
      return kind === '2d' ? null : (getContext as (...args: unknown[]) => unknown).call(this, kind, ...rest);
    } as typeof getContext;
  });
  await bottomButton(page, 'Camera').click();
  await expect
    .poll(() => alerts)
    .toEqual([
      'This function is not available in your browser',
      'The screenshot could not be made: this browser gave no 2D canvas to draw it on.',
    ]);
});
