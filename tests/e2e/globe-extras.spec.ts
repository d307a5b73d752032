// The globe's extras end to end (issues 20 and 21): the login form usable before the globe's
// code has arrived, the visible layers in the address, the copy-link button, the readable page
// of a browser without WebGL2 (viewer-spec §8) and the cuts of a reduced-motion visitor.
import { chromium, expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { Globe } from '../../src/globe/Globe';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../bench/chromium';
import { readyVolunteer } from '../helpers/volunteers';
import { expectNoSeriousViolations } from './axe';

type Handle = { globe: Globe };

/** Resolves once the page's globe exists. */
async function globeReady(page: Page): Promise<void> {
  await page.waitForFunction(() => 'galaxyCruiseGlobe' in window, undefined, { timeout: 60_000 });
}

const visibleLayers = (page: Page) =>
  page.evaluate(() => (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe.globe.visibleLayers());

// One logged-in volunteer for the file (the main screen keeps the view and layers in its address).
let storageState: Awaited<ReturnType<BrowserContext['storageState']>>;
test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  await readyVolunteer(context.request);
  storageState = await context.storageState();
  await context.close();
});

async function volunteerPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  return (await browser.newContext({ ...options, storageState })).newPage();
}

test.describe('first paint', () => {
  test("the login form takes typing while the globe's code is held back, and the globe comes in behind it", async ({
    page,
  }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let globeAsked = false;
    await page.route(/\/assets\/GlobeView-[^/]*\.js$/, async (route) => {
      globeAsked = true;
      await held;
      await route.continue();
    });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });

    await page.goto('/');
    await expect(page).toHaveURL(/#\/login$/);
    const email = page.getByLabel('E-mail');
    await expect(email).toBeVisible();
    // Neither the main screen's nor the administrator's code came with the login screen.
    const mainScreen = () => scripts.filter((script) => /\/(HomePage|AdminMenu|AdminNotificationsPage)-/.test(script));
    expect(mainScreen()).toEqual([]);
    await email.click();
    await page.keyboard.type('first.paint@example.org');
    await expect(email).toHaveValue('first.paint@example.org');
    await expect(email).toBeFocused();
    // The globe's chunk is asked for once the form has been painted, and is held: no canvas, a
    // clear loading state.
    await expect.poll(() => globeAsked).toBe(true);
    await expect(page.getByTestId('globe-canvas')).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: 'Loading the sky' })).toBeVisible();
    // The main screen's code is fetched once the visitor turns to the form, the administrator's
    // not at all.
    await expect.poll(() => mainScreen().some((script) => /\/HomePage-/.test(script))).toBe(true);
    expect(mainScreen().filter((script) => /\/Admin/.test(script))).toEqual([]);
    const before = await page.locator('form.login-card').boundingBox();

    release();
    await expect(page.getByTestId('globe-canvas')).toBeVisible();
    await expect(page.getByTestId('camera-indicator')).toBeVisible();
    await expect(page.getByTestId('globe-loading')).toHaveCount(0);
    // The form was not remounted nor moved: what was typed and the focus stay.
    await expect(email).toHaveValue('first.paint@example.org');
    await expect(email).toBeFocused();
    expect(await page.locator('form.login-card').boundingBox()).toEqual(before);
  });
});

test.describe('layers in the address', () => {
  test('a shared link opens its layers, even for a visitor sent on to log in first', async ({ page }) => {
    await page.goto('/#/?ra=10&dec=20&fov=30&layers=grid,stars');
    await expect(page).toHaveURL(/#\/login$/);
    await globeReady(page);
    await expect.poll(() => visibleLayers(page)).toEqual(['grid', 'stars']);
  });

  test("the main screen's address follows the layers shown and hidden", async ({ browser }) => {
    const page = await volunteerPage(browser);
    await page.goto('/#/?ra=150.1163&dec=2.2058&fov=0.5&layers=grid,stars,survey');
    await globeReady(page);
    // The link's layers are drawn and the globe's others hidden; layers the cruise adds later (its
    // target markers) are drawn as usual.
    await expect.poll(() => visibleLayers(page)).toContain('survey');
    const shown = await visibleLayers(page);
    expect(shown.slice(0, 3)).toEqual(['grid', 'stars', 'survey']);
    expect(shown).not.toContain('constellations');
    expect(shown).not.toContain('milky-way');
    await expect(page.getByText('10h 00m 27.9s')).toBeVisible();
    await page.evaluate(() =>
      (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe.globe.setLayerVisible('grid', false),
    );
    await expect(page).toHaveURL(/[?&]layers=stars,survey(,[a-z-]+)*(&|$)/);
    await page.evaluate(() => {
      const { globe } = (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe;
      for (const name of globe.layerNames()) globe.setLayerVisible(name, true);
    });
    await expect(page).not.toHaveURL(/layers=/);
    await expect(page).toHaveURL(/[?&]ra=150\.1163/);
  });
});

test.describe('copy link to this view', () => {
  test('the button copies the view and its layers from the keyboard, with a flash', async ({ browser }) => {
    const page = await volunteerPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto('/#/credits?ra=150.1163&dec=2.2058&fov=0.5&layers=constellations,stars');
    await globeReady(page);
    const button = page.getByRole('button', { name: 'Copy link to this view' });
    // The flash shows for a second: watched for in the page, so that a slow poll cannot miss it.
    const flashed = page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const observer = new MutationObserver(() => {
            const flash = document.querySelector('.flash-region .flash');
            if (!flash) return;
            observer.disconnect();
            resolve(flash.textContent ?? '');
          });
          observer.observe(document.body, { childList: true, subtree: true });
        }),
    );
    await button.focus();
    await page.keyboard.press('Enter');
    expect(await flashed).toBe('Link copied');
    const copied = new URL(await page.evaluate(() => navigator.clipboard.readText()));
    // A link to the main screen, on this view, with these layers.
    expect(copied.origin).toBe(new URL(page.url()).origin);
    expect(copied.hash).toMatch(/^#\/\?ra=150\.1163\d&dec=2\.2058\d&fov=0\.5000&layers=constellations,stars$/);
  });

  test('where the clipboard is refused the link is shown selected in a field, in Japanese too', async ({ browser }) => {
    const page = await volunteerPage(browser, { locale: 'ja-JP' });
    await page.addInitScript(() => {
      localStorage.setItem('galaxy-cruise.locale', 'ja');
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')) },
      });
    });
    await page.goto('/#/credits?ra=10&dec=-5&fov=20');
    await globeReady(page);
    const button = page.getByRole('button', { name: 'この視点へのリンクをコピー' });
    await button.click();
    const field = page.getByLabel('このリンクをコピーしてください：');
    await expect(field).toBeFocused();
    await expect(field).toHaveValue(/#\/\?ra=10\.00000&dec=-5\.00000&fov=20\.00$/);
    // The whole link is selected, ready for Ctrl+C.
    expect(
      await field.evaluate(
        (input: HTMLInputElement) => input.selectionEnd! - input.selectionStart! === input.value.length,
      ),
    ).toBe(true);
    await expectNoSeriousViolations(page, 'the copy-by-hand field');
    await page.keyboard.press('Escape');
    await expect(field).toHaveCount(0);
    await expect(button).toBeFocused();
  });
});

test.describe('a browser without WebGL2', () => {
  test("gets a readable page after the globe's alert, in English and Japanese", async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--disable-webgl'],
    });
    try {
      const page = await (await browser.newContext({ baseURL: test.info().project.use.baseURL })).newPage();
      const alerts: string[] = [];
      page.on('dialog', (dialog) => {
        alerts.push(dialog.message());
        void dialog.accept();
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'This browser cannot show the sky' })).toBeVisible();
      await expect(page.getByText('Galaxy Cruise draws the sky with WebGL 2')).toBeVisible();
      // viewer-spec §8: the globe alerts 'Fails on initializing WebGL.' with the cause, and throws;
      // the application catches the throw and shows the page, with the cause on it.
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatch(/^Fails on initializing WebGL\.\n/);
      await expect(page.getByText('Fails on initializing WebGL.')).toBeVisible();
      expect(errors).toEqual([]);
      await expectNoSeriousViolations(page, 'the page without WebGL2');
      await page.getByLabel('Language').selectOption('ja');
      await expect(page.getByRole('heading', { name: 'このブラウザでは天球を表示できません' })).toBeVisible();
      await expect(page.getByText('最新の Chrome、Edge、Firefox または Safari')).toBeVisible();
      await expectNoSeriousViolations(page, 'the page without WebGL2, in Japanese');
    } finally {
      await browser.close();
    }
  });
});

test.describe('reduced motion', () => {
  /** Starts a three-second jump and answers how far the camera got in two frames (0 … 1 of the way). */
  const jumpProgress = (page: Page) =>
    page.evaluate(async () => {
      const { globe } = (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe;
      const from = globe.camera.state().phi;
      const to = from + 0.5;
      globe.jumpTo({ theta: globe.camera.theta, phi: to }, { duration: 3000 });
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return (globe.camera.state().phi - from) / (to - from);
    });

  test('a visitor who prefers reduced motion gets cuts instead of animated jumps', async ({ page }) => {
    // The terms page of a visitor: over the globe, with no camera tour and no cruise moving the camera.
    await page.goto('/#/terms?ra=100&dec=0&fov=40');
    await globeReady(page);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await jumpProgress(page)).toBeLessThan(0.9);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await jumpProgress(page)).toBeCloseTo(1, 6);
  });
});
