// The path overlay mounted in the application (viewer-spec §1, issue 31): on the main screen the
// quest's route runs between its targets in the path overlay's colour (0.25, 0.5, 1, 0.5, added),
// measured in Debian's Chromium against the real server: half-way along a leg the route lights
// the pixels blue, against the same view with the layer hidden; within 20 px of the leg's
// targets (inside the markers, over the galaxies) it changes no pixel; seen from far off, where
// the legs are shorter than the markers, it is not drawn. Screenshots go to
// test-results/screenshots/.
import { vec3 } from 'gl-matrix';
import { expect, test, type Page } from '@playwright/test';
import type { CurrentQuestResponse } from '../../shared/api';
import { readyVolunteer } from '../helpers/volunteers';
import { canvasPixels, type PixelWindow } from './canvas-pixels';
import { pixelOf, settle, type Handle } from './globe-view';
import { skyVector } from '../../src/globe/visibility';

const DEGREE = Math.PI / 180;

type RouteHandle = Handle & { globe: Handle['globe'] & { setLayerVisible(name: string, visible: boolean): void } };

/** The whole canvas at the view (ra, dec, fov in degrees), with or without the route. */
async function whole(page: Page, view: { ra: number; dec: number; fov: number }, route: boolean, name?: string) {
  await page.evaluate(
    ({ view, route, degree }) => {
      const { globe } = (window as unknown as { galaxyCruiseGlobe: RouteHandle }).galaxyCruiseGlobe;
      globe.setLayerVisible('path', route);
      globe.setCamera({ theta: (90 - view.dec) * degree, phi: view.ra * degree, fovy: view.fov * degree });
    },
    { view, route, degree: DEGREE },
  );
  await settle(page, { sharp: true });
  const canvas = page.getByTestId('globe-canvas');
  const box = (await canvas.boundingBox())!;
  return canvasPixels(page, canvas, { x0: 0, y0: 0, width: box.width, height: box.height }, name);
}

/**
 * The view with the route and without it. The scene itself must not change between the two (on a
 * loaded machine a tile, the views ahead's among them, may still arrive after the globe has
 * settled, or show for one picture only), so the pair returned is one whose pictures each agree
 * with the next of their kind, route shown and route hidden, where the test looks.
 */
async function routePair(
  page: Page,
  view: { ra: number; dec: number; fov: number },
  unchanged: (a: PixelWindow, b: PixelWindow) => boolean,
  name?: string,
) {
  let withRoute = await whole(page, view, true, name && `${name}.png`);
  let without = await whole(page, view, false, name && `${name}-hidden.png`);
  for (let attempt = 0; attempt < 4; attempt++) {
    const again = await whole(page, view, true, name && `${name}.png`);
    const hiddenAgain = await whole(page, view, false, name && `${name}-hidden.png`);
    const steady = unchanged(withRoute, again) && unchanged(without, hiddenAgain);
    withRoute = again;
    without = hiddenAgain;
    if (steady) break;
  }
  return { withRoute, without };
}

/** Canvas pixels within `radius` CSS px of `at` (the canvas is drawn at CSS pixels here). */
function* near(pixels: PixelWindow, at: { x: number; y: number }, radius: number): Generator<number> {
  for (let y = Math.max(0, Math.floor(at.y - radius)); y <= Math.min(pixels.height - 1, at.y + radius); y++)
    for (let x = Math.max(0, Math.floor(at.x - radius)); x <= Math.min(pixels.width - 1, at.x + radius); x++)
      if (Math.hypot(x - at.x, y - at.y) <= radius) yield 4 * (y * pixels.width + x);
}

/** The mean of one channel (0 red, 1 green, 2 blue) within `radius` px of `at`. */
function mean(pixels: PixelWindow, at: { x: number; y: number }, radius: number, channel: number): number {
  let sum = 0;
  let count = 0;
  for (const k of near(pixels, at, radius)) {
    sum += pixels.data[k + channel];
    count++;
  }
  return sum / count;
}

/** How many pixels within `radius` px of `at` differ between the two pictures. */
function changedWithin(a: PixelWindow, b: PixelWindow, at: { x: number; y: number }, radius: number): number {
  let changed = 0;
  for (const k of near(a, at, radius)) if ([0, 1, 2].some((c) => a.data[k + c] !== b.data[k + c])) changed++;
  return changed;
}

test('the quest route: blue half-way along a leg, clear of the targets it joins, not drawn from far off', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1000, height: 700 } });
  await readyVolunteer(context.request);
  const page = await context.newPage();
  await page.goto('/#/');
  await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 150_000 });
  const quest = (await (await page.request.get('/api/courses/season2/quests/current')).json()) as CurrentQuestResponse;
  const targets = quest.questions;
  const length = (from: { ra: number; dec: number }, to: { ra: number; dec: number }) => {
    const [a, b] = [skyVector(from.ra, from.dec), skyVector(to.ra, to.dec)];
    return (2 * Math.asin(vec3.distance(a, b) / 2)) / DEGREE;
  };
  // The longest leg whose half-way point lies clear of the other targets' markers (more than a
  // sixth of the leg, 40 px, away from each), viewed so that it is 240 px long on the canvas.
  const halfWay = (from: { ra: number; dec: number }, to: { ra: number; dec: number }) => {
    const v = vec3.normalize(
      vec3.create(),
      vec3.add(vec3.create(), skyVector(from.ra, from.dec), skyVector(to.ra, to.dec)),
    );
    return { ra: (Math.atan2(v[1], v[0]) / DEGREE + 360) % 360, dec: Math.asin(v[2]) / DEGREE };
  };
  const legs = targets
    .slice(1)
    .map((to, i) => ({ from: targets[i], to, length: length(targets[i], to), middle: halfWay(targets[i], to) }))
    .filter((leg) => targets.every((target) => length(target, leg.middle) > leg.length / 6));
  expect(legs.length).toBeGreaterThan(0);
  const leg = legs.reduce((longest, candidate) => (candidate.length > longest.length ? candidate : longest));
  const box = (await page.getByTestId('globe-canvas').boundingBox())!;
  const view = { ...leg.middle, fov: (leg.length * box.height) / 240 };
  console.log(`leg ${(leg.length * 3600).toFixed(1)}″ long, viewed at fov ${(view.fov * 60).toFixed(2)}′`);

  const targetsAt = [leg.from, leg.to].map((target) => pixelOf(box, view, target.ra, target.dec));
  const { withRoute, without } = await routePair(
    page,
    view,
    (a, b) => targetsAt.every((at) => changedWithin(a, b, at, 20) === 0),
    'quest-route',
  );
  const centre = { x: box.width / 2, y: box.height / 2 };
  const blue = mean(withRoute, centre, 4, 2) - mean(without, centre, 4, 2);
  const red = mean(withRoute, centre, 4, 0) - mean(without, centre, 4, 0);
  console.log(`half-way along the leg: blue +${blue.toFixed(1)}, red +${red.toFixed(1)}`);
  expect(blue).toBeGreaterThan(25);
  expect(blue).toBeGreaterThan(2 * red);
  for (const at of targetsAt) expect(changedWithin(withRoute, without, at, 20)).toBe(0);

  // From far off every leg is shorter than the two gaps it leaves at its ends (ROUTE_GAP, 24 px
  // each): no route at all. A quest's targets may lie a degree apart, so the field of view is set
  // by its longest leg, 10 px long.
  const longest = Math.max(...targets.slice(1).map((to, i) => length(targets[i], to)));
  const far = { ...view, fov: Math.max(2, (longest * box.height) / 10) };
  console.log(`longest leg ${(longest * 60).toFixed(2)}′, seen from far off at fov ${far.fov.toFixed(2)}°`);
  const farPair = await routePair(page, far, (a, b) => changedWithin(a, b, centre, box.height / 2) === 0);
  expect(changedWithin(farPair.withRoute, farPair.without, centre, box.height / 2)).toBe(0);
  await context.close();
});
