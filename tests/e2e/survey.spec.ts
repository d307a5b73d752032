// The survey layer in Debian's Chromium against the real server and its small sky: a target of
// catalogue.json opened by a deep link at fov 0.02° shows a coloured galaxy at the centre of the
// screen; tiles that fail are never asked for twice; tiles that leave the view are aborted.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { Catalogue } from '../../shared/catalogue';
import { pixelToSky, skyToPixel, type TanWcs } from '../../core/wcs';
import { E2E_VAR_DIR } from '../helpers/e2e-server';
import { readyVolunteer } from '../helpers/volunteers';
import { brightCentroid, canvasPixels, type PixelWindow } from './canvas-pixels';
import { framesAskedFor } from './frames';
import { openView, pixelOf, settle, whole } from './globe-view';

// These tests hold, fail and count the globe's own tile requests with page.route; the service
// worker would answer them from its cache, out of page.route's sight (it is tested in pwa.spec.ts).
test.use({ serviceWorkers: 'block' });

interface Target {
  object_id: number;
  ra: number;
  dec: number;
  survey: string;
  /** The target's area tract (its area id). */
  tract: number;
}

function wideTargets(): Target[] {
  const catalogue = JSON.parse(fs.readFileSync(path.join(E2E_VAR_DIR, 'sky', 'catalogue.json'), 'utf8')) as Catalogue;
  // Round, undisturbed ellipticals: their light peaks at their catalogue position.
  return catalogue.courses
    .filter((course) => course.id === 'season2')
    .flatMap((course) => course.levels)
    .filter((level) => level.survey === 'wide')
    .flatMap((level) =>
      level.areas.flatMap((area) =>
        area.targets
          .filter((target) => {
            const t = target as unknown as Record<string, unknown>;
            return t.galaxy_type === 'elliptical' && t.interaction === 'no' && t.distorted === false;
          })
          .map((target) => ({
            object_id: target.object_id,
            ra: target.ra,
            dec: target.dec,
            survey: 'wide',
            tract: area.id,
          })),
      ),
    );
}

/** The target's area tract in its survey's meta.json (which lists the field tracts first). */
function areaTract(target: Target): TanWcs {
  const meta = JSON.parse(
    fs.readFileSync(path.join(E2E_VAR_DIR, 'sky', 'stellar-globe', 'static', target.survey, 'meta.json'), 'utf8'),
  ) as { tracts: { tract: number; wcs: TanWcs }[] };
  const entry = meta.tracts.find(({ tract }) => tract === target.tract);
  if (!entry) throw new Error(`no tract ${target.tract} in ${target.survey}/meta.json`);
  return entry.wcs;
}

/** The level-0 tile of the target's area tract that holds it (tile size 256, tract pixel grid). */
function levelZeroTile(target: Target): string {
  const wcs = areaTract(target);
  const [x, y] = skyToPixel(wcs, target.ra, target.dec);
  return `${target.tract}/0/${Math.floor((x - 0.5) / 256)}/${Math.floor((y - 0.5) / 256)}.png`;
}

/**
 * A deep link to the target. It opens the credits page, over the same globe: on the main route
 * the cruise moves the camera to the volunteer's current galaxy as soon as its quest loads.
 */
function deepLink(target: Target, fov = 0.02): string {
  return `/#/credits?ra=${target.ra}&dec=${target.dec}&fov=${fov}`;
}

function watchTiles(page: Page) {
  const requested: string[] = [];
  const failed: { url: string; error: string }[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    if (/\/(wide|dud|simulation)\/HSC-[GRI]\//.test(request.url())) requested.push(request.url());
  });
  page.on('requestfailed', (request) => failed.push({ url: request.url(), error: request.failure()?.errorText ?? '' }));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { requested, failed, errors };
}

// One volunteer for the file (sign-ups are rate-limited): the survey is what a logged-in
// volunteer sees, away from the login screen's camera tour.
let storageState: Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['storageState']>>;

async function volunteerPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState });
  return context.newPage();
}

/** Only the globe is measured: the application's panels and spinners above it are hidden. */
async function onlyTheGlobe(page: Page): Promise<void> {
  await page.addStyleTag({
    content: '* { visibility: hidden !important } .globe-canvas { visibility: visible !important }',
  });
}

/** The fov the answer form is looked at from in issue 31: 18′, where an area tract is a small square. */
const FIELD_VIEW_FOV = 0.3;
/** Screen pixels left out either side of a tract's edge (its texels blend there), and a strip's width. */
const EDGE_GAP = 3;
const EDGE_STRIP = 6;
/** The largest step in the sky's mean light (0–255) allowed across a tract's edge. */
const MAX_STEP = 3;

interface SkyLight {
  count: number;
  median: number;
  /** Mean and standard deviation of the sky's light, the galaxies and stars (over median + 30) left out. */
  mean: number;
  sigma: number;
}

/** The light (mean of r, g, b) of the canvas pixels `where` holds, as sky statistics. */
function skyLight(pixels: PixelWindow, where: (x: number, y: number) => boolean): SkyLight {
  const values: number[] = [];
  for (let row = 0; row < pixels.height; row++)
    for (let column = 0; column < pixels.width; column++) {
      if (!where(pixels.x0 + column + 0.5, pixels.y0 + row + 0.5)) continue;
      const k = 4 * (row * pixels.width + column);
      values.push((pixels.data[k] + pixels.data[k + 1] + pixels.data[k + 2]) / 3);
    }
  const sorted = values.sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  const sky = sorted.filter((value) => value <= median + 30);
  const mean = sky.reduce((sum, value) => sum + value, 0) / sky.length;
  const sigma = Math.sqrt(sky.reduce((sum, value) => sum + (value - mean) ** 2, 0) / sky.length);
  return { count: values.length, median, mean, sigma };
}

test.describe('survey tiles (viewer-spec §3, §4, §7)', () => {
  // SwiftShader draws on the CPU: a screenshot of a full survey view takes seconds.
  test.describe.configure({ timeout: 240_000 });
  test.beforeAll(async ({ browser }) => {
    const context = await browser.newContext();
    await readyVolunteer(context.request);
    storageState = await context.storageState();
    await context.close();
  });

  test('a catalogue target at fov 0.02° appears as a coloured galaxy centred within 2 px, its three filters mixed', async ({
    browser,
  }) => {
    const targets = wideTargets();
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets.slice(0, 2)) {
      // A page of its own per target: a new hash on the same page does not reopen the globe.
      const page = await volunteerPage(browser);
      const tiles = watchTiles(page);
      await page.goto(deepLink(target));
      await onlyTheGlobe(page);
      const canvas = page.getByTestId('globe-canvas');
      const box = (await canvas.boundingBox())!;
      const centre = { x: box.width / 2, y: box.height / 2 };
      const around = { x0: centre.x - 24, y0: centre.y - 24, width: 48, height: 48 };
      // The three filters of the tile under the target arrive and the galaxy lights the centre.
      const tile = levelZeroTile(target);
      await expect
        .poll(
          () =>
            ['HSC-G', 'HSC-R', 'HSC-I'].every((filter) =>
              tiles.requested.some((url) => url.endsWith(`/wide/${filter}/${tile}`)),
            ),
          {
            timeout: 90_000,
          },
        )
        .toBe(true);
      await expect
        .poll(async () => brightCentroid(await canvasPixels(page, canvas, around)).peak, { timeout: 90_000 })
        .toBeGreaterThan(120);
      // An idle globe draws no frames: once every tile of the view has arrived and faded in
      // (200 ms) and the camera is still, no animation frame is asked for over a second. Tiles
      // are decoded in the worker pool after the network is idle, so the quiet second is polled.
      await page.waitForLoadState('networkidle');
      await expect.poll(() => framesAskedFor(page, 1000), { timeout: 60_000, intervals: [0] }).toBe(0);
      const pixels = await canvasPixels(page, canvas, around, `survey-target-${target.object_id}.png`);
      const light = brightCentroid(pixels);
      console.log(
        `target ${target.object_id}: light centred at (${light.x.toFixed(2)}, ${light.y.toFixed(2)}), screen centre (${centre.x}, ${centre.y})`,
      );
      expect(Math.hypot(light.x - centre.x, light.y - centre.y)).toBeLessThanOrEqual(2);
      // The centre's colour: the mean of the 5 × 5 pixels there, not grey.
      const rgb = [0, 0, 0];
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++) {
          const k =
            4 * ((Math.floor(centre.y - pixels.y0) + dy) * pixels.width + Math.floor(centre.x - pixels.x0) + dx);
          for (let c = 0; c < 3; c++) rgb[c] += pixels.data[k + c] / 25;
        }
      console.log(`target ${target.object_id}: centre colour ${rgb.map((v) => v.toFixed(0)).join(', ')}`);
      expect(Math.min(...rgb)).toBeGreaterThan(40);
      expect(Math.max(...rgb) - Math.min(...rgb)).toBeGreaterThan(15);
    }
  });

  test('at fov 18′ on a target the sky beyond its area tract is survey sky, and its edge shows no step (issue 31)', async ({
    browser,
  }) => {
    const target = wideTargets()[0];
    const page = await volunteerPage(browser);
    const view = { ra: target.ra, dec: target.dec, fov: FIELD_VIEW_FOV };
    const canvas = await openView(page, view.ra, view.dec, view.fov);
    const box = (await canvas.boundingBox())!;
    const pixels = await whole(page, canvas, `survey-field-${target.object_id}.png`);
    // The area tract's square on the screen (north up: its edges run along the screen's axes).
    const wcs = areaTract(target);
    const corners = [
      [0.5, 0.5],
      [wcs.NAXIS1 + 0.5, 0.5],
      [0.5, wcs.NAXIS2 + 0.5],
      [wcs.NAXIS1 + 0.5, wcs.NAXIS2 + 0.5],
    ].map(([x, y]) => pixelOf(box, view, ...pixelToSky(wcs, x, y)));
    const left = Math.min(...corners.map((c) => c.x));
    const right = Math.max(...corners.map((c) => c.x));
    const top = Math.min(...corners.map((c) => c.y));
    const bottom = Math.max(...corners.map((c) => c.y));
    expect(left).toBeGreaterThan(EDGE_GAP + EDGE_STRIP);
    expect(right).toBeLessThan(box.width - EDGE_GAP - EDGE_STRIP);
    const beyond = skyLight(
      pixels,
      (x, y) => x < left - EDGE_GAP || x > right + EDGE_GAP || y < top - EDGE_GAP || y > bottom + EDGE_GAP,
    );
    // Strips either side of each edge, along its middle (clear of the corners).
    const along = (value: number, low: number, high: number) =>
      value > low + (high - low) * 0.2 && value < high - (high - low) * 0.2;
    const edges = {
      east: (x: number, y: number, side: number) =>
        along(y, top, bottom) && side * (x - left) > EDGE_GAP && side * (x - left) < EDGE_GAP + EDGE_STRIP,
      west: (x: number, y: number, side: number) =>
        along(y, top, bottom) && side * (right - x) > EDGE_GAP && side * (right - x) < EDGE_GAP + EDGE_STRIP,
      north: (x: number, y: number, side: number) =>
        along(x, left, right) && side * (y - top) > EDGE_GAP && side * (y - top) < EDGE_GAP + EDGE_STRIP,
      south: (x: number, y: number, side: number) =>
        along(x, left, right) && side * (bottom - y) > EDGE_GAP && side * (bottom - y) < EDGE_GAP + EDGE_STRIP,
    };
    const format = (s: SkyLight) =>
      `median ${s.median}, mean ${s.mean.toFixed(2)}, σ ${s.sigma.toFixed(2)} (${s.count} px)`;
    console.log(
      `target ${target.object_id} at fov ${view.fov}°: tract on screen x ${left.toFixed(0)}..${right.toFixed(0)}, y ${top.toFixed(0)}..${bottom.toFixed(0)}`,
    );
    // The tract's own sky: its strips along the edges, inside the 8 % margin no target reaches into.
    const tract = skyLight(pixels, (x, y) => Object.values(edges).some((strip) => strip(x, y, 1)));
    console.log(`  the tract's sky along its edges: ${format(tract)}; beyond the tract: ${format(beyond)}`);
    const steps = Object.entries(edges).map(([name, strip]) => {
      const inside = skyLight(pixels, (x, y) => strip(x, y, 1));
      const outside = skyLight(pixels, (x, y) => strip(x, y, -1));
      console.log(`  ${name} edge: inside ${format(inside)}; outside ${format(outside)}`);
      return { inside, outside };
    });
    // Survey sky, not the black around the tract: its level and its grain are the tract's.
    expect(beyond.median).toBeGreaterThanOrEqual(tract.median - MAX_STEP);
    expect(beyond.mean).toBeGreaterThan(tract.mean - MAX_STEP);
    expect(beyond.sigma).toBeGreaterThan(tract.sigma / 2);
    expect(beyond.sigma).toBeLessThan(tract.sigma * 2);
    for (const { inside, outside } of steps) expect(Math.abs(outside.mean - inside.mean)).toBeLessThanOrEqual(MAX_STEP);
  });

  test('a dead tile is not requested twice', async ({ browser }) => {
    const page = await volunteerPage(browser);
    const target = wideTargets()[0];
    const dead = `/wide/HSC-R/${levelZeroTile(target)}`;
    await page.route(`**${dead}`, (route) => route.fulfill({ status: 404, body: 'not found' }));
    const tiles = watchTiles(page);
    await page.goto(deepLink(target));
    await expect
      .poll(() => tiles.errors.some((text) => text.includes('will not be requested again')), { timeout: 90_000 })
      .toBe(true);
    // Move and zoom around the dead tile and come back: the view is drawn many times again.
    const canvas = page.getByTestId('globe-canvas');
    await canvas.focus();
    for (const key of ['ArrowLeft', 'ArrowRight', '+', '-', 'ArrowUp', 'ArrowDown']) {
      await page.keyboard.press(key);
      await page.waitForTimeout(150);
    }
    await page.waitForTimeout(1000);
    expect(tiles.requested.filter((url) => url.endsWith(dead))).toHaveLength(1);
    // The other filters of the same tile and its neighbours still load.
    expect(tiles.requested.some((url) => url.endsWith(`/wide/HSC-G/${levelZeroTile(target)}`))).toBe(true);
  });

  test('a tile request is aborted when the tile leaves the view', async ({ browser }) => {
    const page = await volunteerPage(browser);
    const target = wideTargets()[0];
    const held = `/wide/HSC-I/${levelZeroTile(target)}`;
    // The tile's file is held back: its request stays open until the page gives it up.
    let arrived = false;
    await page.route(`**${held}`, () => {
      arrived = true;
    });
    const tiles = watchTiles(page);
    await page.goto(deepLink(target));
    await expect.poll(() => arrived, { timeout: 90_000 }).toBe(true);
    // Pan two fields of view away: the tile has left the view.
    const canvas = page.getByTestId('globe-canvas');
    await canvas.focus();
    for (let step = 0; step < 24; step++) await page.keyboard.press('ArrowLeft');
    await expect
      .poll(() => tiles.failed.filter((failure) => failure.url.endsWith(held)).map((failure) => failure.error), {
        timeout: 60_000,
      })
      .toEqual([expect.stringContaining('ABORTED')]);
  });

  test('a jump asks for the tiles where it ends while it is on its way, ahead of the views it passes', async ({
    browser,
  }) => {
    const page = await volunteerPage(browser);
    const target = wideTargets()[0];
    const finest = `/wide/HSC-I/${levelZeroTile(target)}`;
    const asked: number[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(finest)) asked.push(Date.now());
    });
    // Forty degrees away at fov 30°, where no tile of level 0 is wanted.
    await page.goto(`/#/credits?ra=${(target.ra + 40) % 360}&dec=${target.dec}&fov=30`);
    await page.waitForFunction(() => 'galaxyCruiseGlobe' in window);
    await page.waitForTimeout(2000);
    expect(asked).toEqual([]);
    const duration = 12_000;
    const started = Date.now();
    await page.evaluate(
      ({ ra, dec, duration }) => {
        const { globe } = (
          window as unknown as {
            galaxyCruiseGlobe: {
              globe: {
                jumpTo(target: { theta: number; phi: number; fovy: number }, options: { duration: number }): void;
              };
            };
          }
        ).galaxyCruiseGlobe;
        const degree = Math.PI / 180;
        globe.jumpTo({ theta: (90 - dec) * degree, phi: ra * degree, fovy: 0.02 * degree }, { duration });
      },
      { ra: target.ra, dec: target.dec, duration },
    );
    // The views on the way reach fovs where level 0 is wanted only in the jump's last part
    // (log fovy eases from 30° towards 0.02°: at 40 % of the time it is still above 2°).
    await expect.poll(() => asked.length, { timeout: duration }).toBeGreaterThan(0);
    expect(asked[0] - started).toBeLessThan(0.4 * duration);
  });

  test('a new colour type clears every tile; other colour changes keep only the tiles in view', async ({ browser }) => {
    const page = await volunteerPage(browser);
    const target = wideTargets()[0];
    await page.goto(deepLink(target));
    await page.waitForFunction(() => 'galaxyCruiseGlobe' in window);
    const counts = (script: string) =>
      page.evaluate(
        ([script]) => {
          const { globe } = (window as unknown as { galaxyCruiseGlobe: { globe: SurveyGlobe } }).galaxyCruiseGlobe;
          const wide = globe.layersNamed('survey').find((layer) => layer.options.baseUrl.endsWith('/wide'))!;
          const before = wide.tiles.cached;
          const { colorParams } = wide.options;
          if (script === 'type') wide.update({ colorParams: { ...colorParams, type: 'SIMPLE_RGB' } });
          if (script === 'beta') wide.update({ colorParams: { ...colorParams, beta: colorParams.beta * 2 } });
          return { before, after: wide.tiles.cached, inView: wide.visible.size };
        },
        [script],
      );
    // The 0.02° view wants a dozen tiles of level 0 (0.012° each) and the tract's coarsest one.
    await expect.poll(async () => (await counts('')).after, { timeout: 90_000 }).toBeGreaterThanOrEqual(8);
    await page.waitForLoadState('networkidle');
    // Zoomed in to 0.004° on the target: a few of them are in view, with the coarsest.
    await page.evaluate(() =>
      (
        window as unknown as { galaxyCruiseGlobe: { globe: { setCamera(state: object): void } } }
      ).galaxyCruiseGlobe.globe.setCamera({ fovy: (0.004 * Math.PI) / 180 }),
    );
    await page.waitForTimeout(1000);
    const kept = await counts('beta');
    console.log(
      `colour change within the type: ${kept.before} tiles cached, ${kept.inView} in view, ${kept.after} kept`,
    );
    expect(kept.before).toBeGreaterThanOrEqual(8);
    expect(kept.inView).toBeLessThan(kept.before);
    expect(kept.after).toBeGreaterThan(0);
    expect(kept.after).toBeLessThanOrEqual(kept.inView);
    const cleared = await counts('type');
    console.log(`colour type change: ${cleared.before} tiles cached, ${cleared.after} kept`);
    expect(cleared.before).toBeGreaterThan(0);
    expect(cleared.after).toBe(0);
  });

  test('an area.json that fails gives an empty outline, and the tiles still come', async ({ browser }) => {
    const page = await volunteerPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.route('**/wide/area.json', (route) => route.fulfill({ status: 500, body: 'broken' }));
    const tiles = watchTiles(page);
    const target = wideTargets()[0];
    await page.goto(deepLink(target));
    await page.waitForFunction(() => 'galaxyCruiseGlobe' in window);
    const outlines = () =>
      page.evaluate(() => {
        const { globe } = (window as unknown as { galaxyCruiseGlobe: { globe: SurveyGlobe } }).galaxyCruiseGlobe;
        return Object.fromEntries(
          globe
            .layersNamed('survey')
            .map((layer) => [layer.options.baseUrl.split('/').pop()!, layer.outline?.count ?? null]),
        );
      });
    await expect.poll(async () => (await outlines()).wide, { timeout: 60_000 }).toBe(0);
    expect((await outlines()).dud).toBeGreaterThan(0);
    await expect
      .poll(() => tiles.requested.some((url) => url.endsWith(`/wide/HSC-G/${levelZeroTile(target)}`)), {
        timeout: 90_000,
      })
      .toBe(true);
    expect(errors).toEqual([]);
  });
});

/** The parts of the globe and its survey layers these tests read (private fields included). */
interface SurveyGlobe {
  layersNamed(name: string): {
    options: { baseUrl: string; colorParams: { type: string; beta: number } };
    tiles: { cached: number };
    /** The ids of the tiles the last frame wanted. */
    visible: Set<string>;
    outline: { count: number } | null;
    update(options: object): void;
  }[];
}

test.describe("a slow machine's frames while the view fills (resolution.ts, FILL_FRAME_MS)", () => {
  test('come at most every 150 ms as the tiles arrive, and the view still comes to rest', async ({ browser }) => {
    const page = await volunteerPage(browser);
    const target = wideTargets()[1];
    // The target's level-0 tiles are held until the machine is known to be slow.
    const held: (() => Promise<void>)[] = [];
    await page.route(/\/wide\/HSC-[GRI]\/\d+\/0\/\d+\/\d+\.png$/, (route) => {
      held.push(() => route.continue());
    });
    // Three fields of view east of the target at 1°, where no level-0 tile is wanted.
    await page.goto(`/#/credits?ra=${target.ra + 3}&dec=${target.dec}&fov=1`);
    await page.waitForFunction(() => 'galaxyCruiseGlobe' in window);
    await settle(page);
    const cdp = await page.context().newCDPSession(page);
    // A low-end laptop under software GL: moving frames well over SLOW_FRAME_MS apart.
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    // Frames drawn: the requestAnimationFrame time of each callback in which the globe drew (a
    // watcher of its own would see a draw one frame late whenever it runs first in a frame).
    await page.evaluate(() => {
      const { globe } = (window as unknown as { galaxyCruiseGlobe: { globe: { frames: number } } }).galaxyCruiseGlobe;
      const drawn: number[] = [];
      const original = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (callback) =>
        original((time) => {
          const before = globe.frames;
          callback(time);
          if (globe.frames !== before) drawn.push(time);
        });
      Object.assign(window, { drawnAt: drawn });
    });
    // A jump to the target: its moving frames tell the globe that this machine is slow.
    await page.evaluate(
      ({ ra, dec }) => {
        const handle = window as unknown as {
          galaxyCruiseGlobe: { globe: { jumpTo(target: object, options: { duration: number }): void } };
        };
        const degree = Math.PI / 180;
        handle.galaxyCruiseGlobe.globe.jumpTo(
          { theta: (90 - dec) * degree, phi: ra * degree, fovy: 0.02 * degree },
          { duration: 1500 },
        );
      },
      { ra: target.ra, dec: target.dec },
    );
    await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(6);
    // Landed, the bias faded: the view is at rest, filling.
    await page.waitForTimeout(2500);
    const slow = await page.evaluate(
      () =>
        (window as unknown as { galaxyCruiseGlobe: { globe: { adaptiveResolution: { slow: boolean } } } })
          .galaxyCruiseGlobe.globe.adaptiveResolution.slow,
    );
    expect(slow).toBe(true);
    const releasedAt = await page.evaluate(() => performance.now());
    // The tiles come one file every 40 ms: each asks for a frame, and each fades in over 200 ms.
    // The releases go on until the view rests: the next loads' files are asked for only as the
    // first ones arrive, so the queue of held files empties now and then.
    let rested = false;
    const releases = (async () => {
      while (!rested) {
        await held.shift()?.();
        await page.waitForTimeout(40);
      }
    })();
    await expect
      .poll(
        () =>
          page.evaluate(
            () =>
              (window as unknown as { galaxyCruiseGlobe: { globe: { restingSince: number | null } } }).galaxyCruiseGlobe
                .globe.restingSince,
          ),
        { timeout: 30_000 },
      )
      .not.toBeNull();
    rested = true;
    await releases;
    expect(held).toEqual([]);
    const drawn = await page.evaluate(
      (after) => (window as unknown as { drawnAt: number[] }).drawnAt.filter((time) => time >= after),
      releasedAt,
    );
    const intervals = drawn.slice(1).map((time, k) => time - drawn[k]);
    console.log(`frames while filling: ${drawn.length}; intervals ${intervals.map((ms) => ms.toFixed(0)).join(', ')}`);
    expect(drawn.length).toBeGreaterThan(3);
    // The frames the fill asks for (arrivals and fades) come FILL_FRAME_MS apart, less a frame's
    // alignment; the last ones, once nothing loads, are the last fades' at the machine's pace.
    const whileLoading = intervals.slice(0, -3);
    expect(whileLoading.length).toBeGreaterThan(0);
    for (const interval of whileLoading) expect(interval).toBeGreaterThanOrEqual(130);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await page.context().close();
  });
});
