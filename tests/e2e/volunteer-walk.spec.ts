// A volunteer's walk through the site (issue 33), checked by what is on screen: a deep link kept
// through the login and a changed address moving the camera (application-spec §2); the captain
// note's picture in the review dialog (§4); the gift form's countries in the reader's order; a
// rate limit's readable message at sign-up; the credits in Japanese; the passport's current stage;
// an avatar that cannot load replaced by its placeholder; the loading status's real progress;
// the administrators' menu covering none of the main screen's controls. Debian's Chromium against
// the real server.
import { expect, test, type Page } from '@playwright/test';
import type { CurrentQuestResponse, PresentStat } from '../../shared/api';
import { ADMIN_EMAIL, readyVolunteerOn, startConfiguredServer } from '../helpers/configured-server';
import { freshEmail, readyVolunteer } from '../helpers/volunteers';
import { expectNoSeriousViolations } from './axe';
import { expectNotCovered } from './on-screen';

/** The camera's view in degrees, read from the globe's console handle. */
async function cameraView(page: Page) {
  return page.evaluate(() => {
    const handle = (
      window as unknown as { galaxyCruiseGlobe?: { globe: { camera: { state(): Record<string, number> } } } }
    ).galaxyCruiseGlobe;
    if (!handle) return null;
    const { phi, theta, fovy } = handle.globe.camera.state();
    const degrees = 180 / Math.PI;
    return { ra: phi * degrees, dec: 90 - theta * degrees, fov: fovy * degrees };
  });
}

/** Waits until the camera rests on ra, dec, fov (degrees), within the address's rounding. */
async function expectCameraAt(page: Page, ra: number, dec: number, fov: number) {
  await expect
    .poll(
      async () => {
        const view = await cameraView(page);
        if (!view) return 'no globe yet';
        const near = (a: number, b: number) => Math.abs(a - b) < 1e-3;
        return near(((view.ra % 360) + 360) % 360, ra) && near(view.dec, dec) && Math.abs(view.fov / fov - 1) < 1e-2
          ? 'there'
          : `at ${view.ra.toFixed(4)}, ${view.dec.toFixed(4)}, ${view.fov.toFixed(4)}`;
      },
      { timeout: 60_000 },
    )
    .toBe('there');
}

test('a deep link survives the login, and a changed address moves the camera', async ({ page, request }) => {
  const { email, password } = await readyVolunteer(request);
  // A fresh browser opens a shared view and is sent to the login, the link kept.
  await page.goto('/#/?ra=34.5&dec=-5.1&fov=0.5');
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  // The recommended course is chosen, and the linked view wins over the login's camera tour.
  await expect(page).toHaveURL(/[?&]course=\w+/);
  await expectCameraAt(page, 34.5, -5.1, 0.5);
  const indicator = page.getByTestId('camera-indicator');
  await expect(indicator).toContainText('02h 18m 00.0s');
  await expect(indicator).toContainText('−05° 06′ 00″');
  await expect(page.getByTestId('camera-fov')).toHaveText('30.0′');
  await expect(page).toHaveURL(/[?&]ra=34\.5(0*)&dec=-5\.1(0*)&fov=0\.5/);

  // Logged in, a new address flies the camera to its view without a reload.
  await page.evaluate(() => (location.hash = '#/?ra=150.1163&dec=2.2058&fov=2'));
  await expectCameraAt(page, 150.1163, 2.2058, 2);
  await expect(page.getByTestId('camera-fov')).toHaveText('2.0°');
});

test("the captain note's picture shows in the training review", async ({ page }) => {
  await readyVolunteer(page.request);
  const response = await page.request.get('/api/courses/training/quests/current');
  const quest = (await response.json()) as CurrentQuestResponse;
  expect(quest.no_more_available_objects).toBe(false);
  if (quest.no_more_available_objects) return;
  const target = quest.questions.find((question) => question.captain_note);
  expect(target, 'a training target with a captain note').toBeDefined();
  // Opened on the target itself, so that the answer form is there without the long first jump.
  await page.goto(`/#/?course=training&ra=${target!.ra}&dec=${target!.dec}&fov=0.02`);
  const form = page.getByTestId('answer-form');
  await expect(form).toBeVisible({ timeout: 60_000 });
  // Any target the form is on in this training quest has a note; answer it with the keys.
  await expect(form).toHaveAttribute('data-step', '1');
  await page.keyboard.press('1');
  await expect(form).toHaveAttribute('data-step', '2');
  await page.keyboard.press('2');
  const note = page.getByRole('dialog', { name: "Captain's note" });
  await expect(note).toBeVisible();
  const image = note.getByRole('img', { name: "The captain's colour picture of this galaxy" });
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
    .toBeGreaterThan(0);
  const box = (await image.boundingBox())!;
  const dialogBox = (await note.boundingBox())!;
  expect(box.width).toBeGreaterThan(64);
  expect(box.x + box.width).toBeLessThanOrEqual(dialogBox.x + dialogBox.width);
  await expectNoSeriousViolations(page, 'captain note with its picture');
});

test('countries in order, a rate limit said in words, credits in Japanese', async ({ page }) => {
  await readyVolunteer(page.request);
  // The gift form, its window opened around now for this page only.
  const day = 86_400_000;
  const stat: PresentStat = {
    count: 0,
    min_galaxies: 100,
    opens_at: new Date(Date.now() - day).toISOString(),
    deadline: new Date(Date.now() + day).toISOString(),
  };
  await page.route('**/api/present202501/stat', (route) => route.fulfill({ json: stat }));
  await page.goto('/#/present2025winter');
  const countries = page.getByLabel('Country');
  await expect(countries).toBeVisible({ timeout: 30_000 });
  const names = await countries.locator('option').allTextContents();
  const at = (name: string) => names.indexOf(name);
  expect(names[1]).toBe('Japan');
  expect(at('Åland Islands')).toBeGreaterThan(at('Afghanistan'));
  expect(at('Åland Islands')).toBeLessThan(at('Albania'));
  expect(at("Côte d'Ivoire")).toBeLessThan(at('Czechia'));

  // Sign-up refused by a rate limit (the e2e server runs with the limits off: the refusal is
  // the server's answer, played here), in both languages.
  await page.context().clearCookies();
  await page.route('**/api/signup/verify_email', (route) =>
    route.fulfill({
      status: 429,
      json: { statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded, retry in 1 hour' },
    }),
  );
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  for (const [locale, heading, send, message] of [
    ['en', 'Sign up', 'Send verification mail', 'Too many attempts. Please wait a few minutes and try again.'],
    ['ja', '新規登録', '確認メールを送信', '試行回数が多すぎます。数分待ってからもう一度お試しください。'],
  ] as const) {
    await page.evaluate((value) => localStorage.setItem('galaxy-cruise.locale', value), locale);
    await page.goto('/#/signup');
    await page.reload();
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await page.getByRole('textbox').fill(freshEmail('limited'));
    const before = alerts.length;
    await page.getByRole('button', { name: send }).click();
    // This language's own alert (the one before it is the other language's), where §8's status and
    // status text stay and the sentence replaces the JSON and 'Please Reload.'.
    await expect.poll(() => alerts.length).toBe(before + 1);
    expect(alerts.at(-1)).toMatch(/^429\b.*\n/);
    expect(alerts.at(-1)!.split('\n').slice(1)).toEqual([message]);
  }

  // The credits in Japanese: the screen's own words translated, the data's names kept in English.
  await page.goto('/#/credits');
  await expect(page.getByRole('heading', { name: 'クレジット', level: 1 })).toBeVisible();
  const credit = page.locator('.credits-list > li').first();
  await expect(credit.locator('dt').first()).toHaveText('用途');
  // What the data is used for is the project's own words, in Japanese; its name and source stay.
  await expect(credit.locator('dd').first()).toHaveText('星のレイヤー（位置、等級、B−V の色）、きれいな画像の星');
  await expect(credit.locator('dd').first()).not.toHaveAttribute('lang', 'en');
  await expect(credit.getByRole('heading', { level: 2 })).toHaveAttribute('lang', 'en');
  await expect(credit.locator('dd').nth(1)).toHaveAttribute('lang', 'en');
  // A title of ours (not a dataset's published name) is in Japanese too.
  for (const title of ['星の名前、星座と星座線', '天の川の輪郭', 'HSC-SSP の観測領域の中心']) {
    const heading = page.getByRole('heading', { name: title, level: 2 });
    await expect(heading).toBeVisible();
    await expect(heading).not.toHaveAttribute('lang', 'en');
  }
  await expect(page.getByRole('heading', { name: 'Milky Way outlines' })).toHaveCount(0);
  await expectNoSeriousViolations(page, 'credits in Japanese');
});

test('the passport shows the current stage, and an avatar that cannot load its placeholder', async ({ page }) => {
  const { nickname } = await readyVolunteer(page.request);
  expect(
    (await page.request.put('/api/current_user', { data: { nickname, locale: 'en', gravatar_private: true } })).ok(),
  ).toBe(true);
  // Gravatar is another site: refused here, as a network or a blocker may.
  await page.route('https://www.gravatar.com/**', (route) => route.abort());
  await page.goto('/#/?course=season2');
  await page.getByRole('button', { name: /^Passport/ }).click({ timeout: 60_000 });
  const passport = page.getByRole('dialog', { name: 'Passport' });
  const current = passport.locator('[data-state="current"]');
  await expect(current.first()).toContainText('Current stage: in progress');
  await expect(passport.getByText('Not yet visited').first()).toBeVisible();
  await passport.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Profile' }).click();
  const profile = page.getByRole('dialog', { name: 'Profile' });
  await expect(profile.getByRole('img', { name: 'Your Gravatar' })).toBeVisible();
  await expect(profile.getByTestId('avatar-placeholder')).toBeVisible();
  await expect(profile.locator('img.profile-avatar')).toHaveCount(0);
});

test("the loading status names its step and counts the files while the globe's code is on its way", async ({
  page,
}) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/GlobeView-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/#/login');
  const loading = page.getByTestId('globe-loading');
  await expect(loading.getByRole('status')).toHaveText('Loading the sky');
  // The session is known; the globe's code is the step under way, one of three done.
  await expect(loading.locator('[aria-current="step"]')).toHaveText("The globe's code");
  await expect(loading.getByRole('progressbar')).toHaveAttribute('value', '1');
  await expect(loading.getByTestId('loaded-files')).toHaveText(/^\d+ files? loaded \([\d.]+ (kB|MB)\)$/);
  await expectNoSeriousViolations(page, 'loading status');
  release();
  await expect(page.getByTestId('camera-indicator')).toBeVisible({ timeout: 60_000 });
  await expect(loading).toHaveCount(0);
});

/** Every control on screen now: the main screen's, the camera corner's, the admin menu's button. */
async function expectNoControlCovered(page: Page, what: string) {
  const controls = page.locator('button:visible, a:visible, select:visible, input:visible, summary:visible');
  const count = await controls.count();
  expect(count, what).toBeGreaterThan(10);
  for (let index = 0; index < count; index++) await expectNotCovered(controls.nth(index));
}

test("the administrators' menu covers none of the answer buttons or the main screen's controls", async ({ page }) => {
  test.setTimeout(300_000);
  const server = await startConfiguredServer('walk-admin');
  try {
    await readyVolunteerOn(server, page.request, { email: ADMIN_EMAIL });
    for (const [locale, viewport, texts] of [
      ['en', { width: 1280, height: 800 }, { menu: 'Admin menu', label: 'Administrator menu' }],
      ['ja', { width: 1000, height: 700 }, { menu: '管理メニュー', label: '管理者メニュー' }],
    ] as const) {
      await page.setViewportSize(viewport);
      if (locale === 'en') await page.goto(`${server.url}/#/?course=training`);
      const form = page.getByTestId('answer-form');
      await expect(form).toBeVisible({ timeout: 90_000 });
      // The menu's own key for Japanese (the account's language is English).
      if (locale === 'ja') await page.keyboard.press('Shift+J');
      // Each step of the form in turn (spiral, interacting, the features): its answer buttons and
      // every other control uncovered. Clicked, as the digits are the pages' keys for an
      // administrator in developer mode.
      for (const step of ['1', '2', '3']) {
        await expect(form).toHaveAttribute('data-step', step);
        const answers = form.locator('.answer-choices button');
        expect(await answers.count()).toBeGreaterThanOrEqual(3);
        await expectNoControlCovered(page, `step ${step} at ${viewport.width}×${viewport.height}`);
        if (step !== '3') await answers.first().click();
      }
      await page.screenshot({ path: test.info().outputPath(`admin-menu-${locale}.png`) });
      const open = page.locator('summary', { hasText: texts.menu });
      await expect(open).toBeVisible();

      // The menu opens from the header by the keyboard, and Escape closes it again.
      await open.focus();
      await page.keyboard.press('Enter');
      const menu = page.getByRole('navigation', { name: texts.label });
      await expect(menu).toBeVisible();
      await expectNotCovered(menu.getByRole('button').first());
      await page.screenshot({ path: test.info().outputPath(`admin-menu-open-${locale}.png`) });
      await expectNoSeriousViolations(page, `admin menu (${locale})`);
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(open).toBeFocused();
      // The spacebar opens it as well: on a focused control it is not the markers' key.
      await page.keyboard.press('Space');
      await expect(menu).toBeVisible();
      await expect(page.locator('.dialog-overlay')).toHaveCount(0);
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      // Back to the form's first step for the next size.
      await page.keyboard.press('Backspace');
      await page.keyboard.press('Backspace');
    }
  } finally {
    await server.stop();
  }
});
