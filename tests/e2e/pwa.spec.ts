// The installable app (issue 43, docs/offline.md) in Debian's Chromium against the real server:
// the web app manifest in English and Japanese as Chromium reads it (CDP Page.getAppManifest),
// no installability errors (Page.getInstallabilityErrors), its icons decoded by Chromium, the
// service worker active and in control; logout empties the volunteer's part of the caches (the
// caches are listed); after one online visit the app starts offline on the main screen, the sky
// and the current target drawn from the cache, says it is offline, and three answers given
// offline reach the server exactly once after the network is back, also across a reload while
// offline; and the sky caches stay within their bound after 500 targets' tiles.
import { chromium, expect, test, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../bench/chromium';
import type { CurrentQuestResponse } from '../../shared/api';
import { APP_ICONS } from '../../src/app/features/offline/manifest';
import { PERSONAL_CACHE, SKY_BACKDROP_CACHE, SKY_CACHE_LIMITS, SKY_TILES_CACHE } from '../../src/service-worker/caches';
import { e2eServer } from '../helpers/e2e-server';
import { readyVolunteer } from '../helpers/volunteers';
import { expectNoSeriousViolations } from './axe';
import { canvasPixels } from './canvas-pixels';
import { recordAcceptedAnswers } from './accepted-answers';

type Quest = Extract<CurrentQuestResponse, { no_more_available_objects: false }>;

/** Waits until a service worker is active and controls the page. */
async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, {
    timeout: 90_000,
  });
}

/** Every cache of the origin and the URLs it holds (paths and query, this site's without its origin). */
function cacheContents(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const contents: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const keys = await (await caches.open(name)).keys();
      contents[name] = keys.map((request) => request.url.replace(location.origin, ''));
    }
    return contents;
  });
}

test.describe('installs', () => {
  for (const { locale, name, file } of [
    { locale: 'en-US', name: 'Galaxy Cruise', file: 'manifest.en.webmanifest' },
    { locale: 'ja-JP', name: 'GALAXY CRUISE', file: 'manifest.ja.webmanifest' },
  ]) {
    test(`the ${file} is served and read by Chromium, with no installability error, and the service worker is active`, async ({
      baseURL,
    }, testInfo) => {
      // A profile on disk: Chromium installs no app from an off-the-record profile (a plain
      // context is one), and says so as the installability error 'in-incognito'.
      const context = await chromium.launchPersistentContext(testInfo.outputPath('profile'), {
        executablePath: CHROMIUM_PATH,
        args: CHROMIUM_ARGS,
        headless: true,
        locale,
        baseURL,
      });
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('/');
      await expect(page).toHaveURL(/#\/login$/);
      await controlled(page);
      // Read on the next load, as a returning volunteer's browser does: on the first, the worker's
      // activation has Chromium read the manifest while the page replaces its link with its
      // language's, and Chromium may keep the one it was reading (seen under load).
      await page.reload();
      await controlled(page);
      // The page names the manifest of its language.
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', `/${file}`);
      const cdp = await context.newCDPSession(page);
      type AppManifest = { url: string; errors: { message: string }[]; data?: string };
      // Chromium reads a replaced manifest link again on its own time, and under load may keep the
      // one it read first until the next load: wait for its reading, loading the page again (the
      // link checked again each time) while it still holds the other language's.
      const readManifest = async () => (await cdp.send('Page.getAppManifest', {})) as AppManifest;
      const expectedUrl = `${e2eServer().origin}/${file}`;
      let polls = 0;
      await expect
        .poll(
          async () => {
            const { url } = await readManifest();
            if (url !== expectedUrl && ++polls % 5 === 0) {
              await page.reload();
              await controlled(page);
              await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', `/${file}`);
            }
            return url;
          },
          { timeout: 60_000, intervals: [1_000] },
        )
        .toBe(expectedUrl);
      const manifest = await readManifest();
      expect(manifest.errors).toEqual([]);
      const data = JSON.parse(manifest.data!) as Record<string, unknown>;
      expect(data).toMatchObject({
        name,
        short_name: name,
        lang: locale.slice(0, 2),
        start_url: '/#/',
        display: 'standalone',
        background_color: '#02050f',
        theme_color: '#0a1024',
      });
      expect(data.icons).toEqual([
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ]);
      // Chromium's own verdict: the manifest, its icons, the worker and the secure origin.
      await expect
        .poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, { timeout: 60_000 })
        .toEqual([]);
      await context.close();
    });
  }

  test('the icons decode in Chromium: the core at the centre, the plain icon round, the maskable one full bleed', async ({
    page,
  }) => {
    await page.goto('/');
    const icons = await page.evaluate(async (files) => {
      const read = [];
      for (const icon of files) {
        const bitmap = await createImageBitmap(await (await fetch(icon.src)).blob());
        const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
        context.drawImage(bitmap, 0, 0);
        const at = (x: number, y: number) => [...context.getImageData(x, y, 1, 1).data];
        read.push({
          width: bitmap.width,
          height: bitmap.height,
          centre: at(bitmap.width / 2, bitmap.height / 2),
          corner: at(1, 1),
        });
      }
      return read;
    }, APP_ICONS);
    APP_ICONS.forEach((icon, index) => {
      const read = icons[index];
      expect([read.width, read.height]).toEqual([icon.size, icon.size]);
      // The bright core (#f3eedc) at the centre.
      expect(read.centre).toEqual([0xf3, 0xee, 0xdc, 255]);
      // A corner: transparent outside the plain icon's disc; the disc's dark for the maskable one.
      expect(read.corner).toEqual(icon.purpose === 'maskable' ? [0x02, 0x05, 0x0f, 255] : [0, 0, 0, 0]);
    });
  });
});

/** Opens the training course and waits for the answer form on its first target, the worker in control. */
async function openTraining(page: Page): Promise<void> {
  await page.goto('/#/?course=training');
  await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 120_000 });
  await controlled(page);
}

/** The offline start's answers the page keeps, as the personal cache holds them. */
const OFFLINE_START = [
  '/api/session',
  '/api/courses',
  '/api/levels?course_id=training',
  '/api/courses/training/quests/current',
];

test('logout empties the personal parts of the cache; the sky and the shell stay', async ({ page }) => {
  await readyVolunteer(page.request);
  await openTraining(page);
  await expect.poll(async () => (await cacheContents(page))[PERSONAL_CACHE]?.sort()).toEqual([...OFFLINE_START].sort());
  // The volunteer's own answers, as the page last saw them.
  const session = await page.evaluate(async (name) => {
    const response = await caches.match('/api/session', { cacheName: name });
    return (await response!.json()) as { current_user: { email: string } | null };
  }, PERSONAL_CACHE);
  expect(session.current_user?.email).toMatch(/@example\.org$/);
  // The sky the first visit loaded before the worker took control is handed over to it: kept a
  // moment later.
  await expect
    .poll(async () => {
      const contents = await cacheContents(page);
      return Math.min(contents[SKY_BACKDROP_CACHE]?.length ?? 0, contents[SKY_TILES_CACHE]?.length ?? 0);
    })
    .toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  const after = await cacheContents(page);
  expect(Object.keys(after)).not.toContain(PERSONAL_CACHE);
  // Nothing of /api/ anywhere; the public parts are kept for the next visit.
  expect(
    Object.values(after)
      .flat()
      .filter((url) => url.includes('/api/')),
  ).toEqual([]);
  expect(after[SKY_BACKDROP_CACHE]?.length).toBeGreaterThan(0);
  expect(after[SKY_TILES_CACHE]?.length).toBeGreaterThan(0);
  expect(Object.keys(after).some((name) => name.startsWith('workbox-precache'))).toBe(true);
});

async function currentQuest(page: Page): Promise<Quest> {
  const response = await page.request.get('/api/courses/training/quests/current');
  expect(response.ok()).toBe(true);
  const quest = (await response.json()) as CurrentQuestResponse;
  expect(quest.no_more_available_objects).toBe(false);
  return quest as Quest;
}

/** Which question the form is on: "Galaxy i of n" names it by its place in the quest. */
async function currentIndex(page: Page): Promise<number> {
  const text = (await page.getByTestId('cruise-target').innerText()).match(/Galaxy (\d+) of/);
  expect(text).not.toBeNull();
  return Number(text![1]) - 1;
}

/** Waits until the globe has drawn a frame at rest (tiles in and faded) and stays so a moment. */
async function atRest(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const { globe } = (
          window as unknown as { galaxyCruiseGlobe: { globe: { restingSince: number | null; frames: number } } }
        ).galaxyCruiseGlobe;
        const frames = globe.frames;
        setTimeout(() => resolve(globe.restingSince !== null && globe.frames === frames), 1000);
      }),
    undefined,
    { timeout: 120_000, polling: 500 },
  );
}

/** The mean light (of r, g, b) in the canvas's central 60 × 60 px: the current target's galaxy. */
async function targetLight(page: Page, shot: string): Promise<number> {
  const canvas = page.getByTestId('globe-canvas');
  const box = (await canvas.boundingBox())!;
  const window = await canvasPixels(
    page,
    canvas,
    { x0: box.width / 2 - 30, y0: box.height / 2 - 30, width: 60, height: 60 },
    shot,
  );
  let sum = 0;
  for (let k = 0; k < window.data.length; k += 4) sum += (window.data[k] + window.data[k + 1] + window.data[k + 2]) / 3;
  return sum / (window.data.length / 4);
}

/**
 * The brightest light (of r, g, b) within 3 px of where Betelgeuse is drawn, Orion at 20°, with
 * and without the star layer (the constellations and the grid hidden).
 */
async function betelgeuseLight(page: Page): Promise<{ withStars: number; without: number }> {
  const view = { ra: 88.79, dec: 7.41, fov: 20 };
  const canvas = page.getByTestId('globe-canvas');
  const light = async (stars: boolean) => {
    await page.evaluate(
      ({ view, stars }) => {
        const { globe } = (
          window as unknown as {
            galaxyCruiseGlobe: {
              globe: {
                setCamera(state: object): void;
                setLayerVisible(name: string, visible: boolean): void;
              };
            };
          }
        ).galaxyCruiseGlobe;
        const degree = Math.PI / 180;
        // The lines through Betelgeuse are not its light.
        for (const lines of ['constellations', 'grid']) globe.setLayerVisible(lines, false);
        globe.setLayerVisible('stars', stars);
        globe.setCamera({ theta: (90 - view.dec) * degree, phi: view.ra * degree, fovy: view.fov * degree });
      },
      { view, stars },
    );
    await atRest(page);
    const box = (await canvas.boundingBox())!;
    const window = await canvasPixels(page, canvas, {
      x0: box.width / 2 - 3,
      y0: box.height / 2 - 3,
      width: 7,
      height: 7,
    });
    let brightest = 0;
    for (let k = 0; k < window.data.length; k += 4)
      brightest = Math.max(brightest, (window.data[k] + window.data[k + 1] + window.data[k + 2]) / 3);
    return brightest;
  };
  return { without: await light(false), withStars: await light(true) };
}

/** Answers the target on screen with the keys (Spiral, no interaction), through its captain's note if it has one. */
async function answerWithKeys(page: Page, quest: Quest): Promise<number> {
  const question = quest.questions[await currentIndex(page)];
  const form = page.getByTestId('answer-form');
  await expect(form).toHaveAttribute('data-step', '1');
  await page.keyboard.press('1');
  await expect(form).toHaveAttribute('data-step', '2');
  await page.keyboard.press('2');
  if (question.captain_note) {
    const note = page.getByRole('dialog', { name: "Captain's note" });
    await expect(note).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(note).toBeHidden();
  }
  return question.object_id;
}

test('offline after one online visit: the main screen starts from the cache with the sky and the current target, says so, and three answers given offline reach the server exactly once, across a reload', async ({
  page,
  context,
}) => {
  test.setTimeout(600_000);
  await readyVolunteer(page.request);
  const accepted = recordAcceptedAnswers(page);
  await openTraining(page);
  const quest = await currentQuest(page);
  const first = await currentIndex(page);
  // The visit settles: the first target sharp, the ones the prefetch expects next loaded.
  await atRest(page);
  await page.waitForLoadState('networkidle');
  const online = await targetLight(page, 'pwa-target-online.png');
  // The sky it has seen is kept: every sky file the page loaded, those loaded before the worker
  // took control included (they are handed over from the HTTP cache).
  await expect
    .poll(async () => {
      const kept = new Set(Object.values(await cacheContents(page)).flat());
      const loaded = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => entry.name.replace(location.origin, ''))
          .filter((url) => url.startsWith('/stellar-globe/static/')),
      );
      expect(loaded.length).toBeGreaterThan(20);
      return loaded.filter((url) => !kept.has(url));
    })
    .toEqual([]);

  // No network: the page is reloaded, as a volunteer opens the installed app on a train.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-notice')).toHaveText(
    'Offline: the sky and your quest as last seen. Your answers are kept and sent when the connection is back.',
  );
  await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 120_000 });
  expect(await currentIndex(page)).toBe(first);
  await atRest(page);
  await expectNoSeriousViolations(page, 'the main screen offline, its notice shown');
  const offline = await targetLight(page, 'pwa-target-offline.png');
  console.log(`the target's light: ${online.toFixed(1)} online, ${offline.toFixed(1)} offline`);
  // The galaxy's light, from the cached tiles: as online, well above the empty sky's.
  expect(online).toBeGreaterThan(20);
  expect(Math.abs(offline - online)).toBeLessThan(online * 0.1);
  // The stars, from the cached catalogue: Betelgeuse is the star layer's light.
  const betelgeuse = await betelgeuseLight(page);
  console.log(
    `Betelgeuse: ${betelgeuse.withStars.toFixed(0)} with the star layer, ${betelgeuse.without.toFixed(0)} without`,
  );
  expect(betelgeuse.withStars - betelgeuse.without).toBeGreaterThan(100);

  // Back to the quest (N), then three answers offline: they wait in the queue.
  await page.keyboard.press('n');
  await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 120_000 });
  const given: number[] = [];
  for (let count = 1; count <= 3; count++) {
    given.push(await answerWithKeys(page, quest));
    await expect(page.getByTestId('pending-answers')).toHaveText(
      count === 1 ? '1 answer waiting to be sent' : `${count} answers waiting to be sent`,
    );
    if (count < 3) await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 120_000 });
  }
  expect(new Set(given).size).toBe(3);

  // Reloaded while still offline: the answers come back from IndexedDB, still pending.
  await page.reload();
  await expect(page.getByTestId('offline-notice')).toBeVisible();
  await expect(page.getByTestId('pending-answers')).toHaveText('3 answers waiting to be sent', { timeout: 120_000 });
  expect(accepted.size).toBe(0);

  // The network is back: each answer is sent once, and the notice goes.
  await context.setOffline(false);
  await expect(page.getByTestId('pending-answers')).toHaveText('', { timeout: 120_000 });
  await expect(page.getByTestId('offline-notice')).toBeHidden();
  expect([...accepted.entries()].sort()).toEqual(given.map((id) => [id, 1]).sort());
  const after = await currentQuest(page);
  expect(after.id).toBe(quest.id);
  expect(after.answers.map((answer) => answer.object_id).sort()).toEqual([...given].sort());
});

test('the sky caches stay within their bound after 500 targets, the least recently used out first', async ({
  page,
}) => {
  test.setTimeout(600_000);
  await readyVolunteer(page.request);
  await openTraining(page);
  await atRest(page);
  await page.waitForLoadState('networkidle');
  // A target's survey tiles as the main screen loaded them (its view, the coarser levels, the
  // targets the prefetch expected next).
  const tiles = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((url) => /\/stellar-globe\/static\/(wide|dud|simulation)\/HSC-[GRI]\/.+\.png$/.test(url)),
  );
  expect(tiles.length).toBeGreaterThan(10);
  // The stars and the Milky Way the visit kept, before the 500 targets.
  const backdropFiles = (contents: Record<string, string[]>) =>
    (contents[SKY_BACKDROP_CACHE] ?? []).filter((url) => /hipparcos-catalog\/stars\.|milkyway\//.test(url)).sort();
  const backdropBefore = backdropFiles(await cacheContents(page));
  expect(backdropBefore.length).toBeGreaterThan(0);
  // 500 targets' worth of them: the same files under 500 names (a query the server ignores), each
  // a file of its own to the cache, as 500 targets' tiles would be.
  const VISITS = 500;
  const started = Date.now();
  await page.evaluate(
    async ({ tiles, visits }) => {
      for (let visit = 1; visit <= visits; visit++)
        await Promise.all(
          tiles.map(async (url) => {
            const response = await fetch(`${url}?visit=${visit}`);
            if (!response.ok) throw new Error(`${url}: ${response.status}`);
            await response.arrayBuffer();
          }),
        );
    },
    { tiles, visits: VISITS },
  );
  console.log(`${VISITS} targets of ${tiles.length} tiles each in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  // What the tiles cache holds, measured in the cache itself. A fetch is answered before the
  // worker has put its file and evicted the oldest, so the last puts may still be under way: the
  // cache is read until two readings a second apart agree (a file evicted between keys() and
  // match() is left out of that reading). While the worker is still far behind on a loaded
  // machine, Chromium refuses to list so many keys at once ('Operation too large'): that reading
  // counts as not settled either.
  type Reading = { urls: string[]; bytes: number } | { refused: string };
  const readTiles = () =>
    page.evaluate(async (name): Promise<Reading> => {
      const cache = await caches.open(name);
      let requests: readonly Request[];
      try {
        requests = await cache.keys();
      } catch (error) {
        return { refused: String(error) };
      }
      let bytes = 0;
      const urls: string[] = [];
      for (const request of requests) {
        const response = await cache.match(request);
        if (!response) continue;
        urls.push(request.url);
        bytes += (await response.blob()).size;
      }
      return { urls, bytes };
    }, SKY_TILES_CACHE);
  let reading = await readTiles();
  for (let tries = 0; tries < 120; tries++) {
    await page.waitForTimeout(1000);
    const next = await readTiles();
    const settled =
      'urls' in next && 'urls' in reading && next.bytes === reading.bytes && next.urls.join() === reading.urls.join();
    reading = next;
    if (settled) break;
  }
  if (!('urls' in reading)) throw new Error(`the tiles cache could not be listed: ${reading.refused}`);
  const held = reading;
  const limits = SKY_CACHE_LIMITS.tiles;
  console.log(
    `the tiles cache: ${held.urls.length} files, ${(held.bytes / 1e6).toFixed(1)} MB (bound ${limits.maxEntries} files, ${limits.maxBytes / 1e6} MB)`,
  );
  expect(held.urls.length).toBeLessThanOrEqual(limits.maxEntries);
  expect(held.bytes).toBeLessThanOrEqual(limits.maxBytes);
  // It is full: the bound, not the visit, set its size (500 targets' tiles are more files).
  expect(VISITS * tiles.length).toBeGreaterThan(limits.maxEntries);
  expect(held.urls.length === limits.maxEntries || held.bytes > limits.maxBytes - 1_000_000).toBe(true);
  const kept = new Set(held.urls);
  // The last target's tiles are all kept, the first targets' are gone.
  expect(tiles.filter((url) => !kept.has(`${url}?visit=${VISITS}`))).toEqual([]);
  expect(tiles.filter((url) => kept.has(`${url}?visit=1`))).toEqual([]);
  // The backdrop is a cache of its own: 500 targets did not push the stars and the Milky Way out.
  expect(backdropFiles(await cacheContents(page))).toEqual(expect.arrayContaining(backdropBefore));
});
