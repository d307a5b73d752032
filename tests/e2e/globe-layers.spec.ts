// The non-tiled layers checked in pixels (viewer-spec §1): a constellation line drawn through
// both of its stars, the constellation names in the page language, the Milky Way (the HiPS or
// the cube) brighter along the galactic plane than at the galactic pole, a path and a sprite
// drawn where they are placed.
// Each layer's own light is the difference between a screenshot with the layer and one without
// it, so the other layers cannot pass the test for it. Screenshots go to test-results/screenshots/.
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import type { Constellation } from '../../core/constellations';
import { readyVolunteer } from '../helpers/volunteers';
import { canvasPixels, type PixelWindow } from './canvas-pixels';
import { openView, pixelOf, settle, whole, type Handle } from './globe-view';

// The main route with a volunteer who has passed the gate: the login page runs its own camera
// tour, the main route keeps the camera still until the visitor moves it.
const STATE = path.join(os.tmpdir(), `galaxy-cruise-layers-${process.pid}.json`);
test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  await readyVolunteer(context.request);
  await context.storageState({ path: STATE });
  await context.close();
});
test.use({ storageState: STATE });

// The bundled data, read as a file (Node's ESM loader wants an import attribute for JSON).
const CONSTELLATIONS = JSON.parse(
  fs.readFileSync(path.join(process.cwd(), 'core/data/constellations.json'), 'utf8'),
) as Constellation[];

/** The brightest (r + g + b) / 3 of the light added in a 5 × 5 px square around (x, y). */
function addedAt(withLayer: PixelWindow, without: PixelWindow, x: number, y: number): number {
  let best = 0;
  for (let dy = -2; dy <= 2; dy++)
    for (let dx = -2; dx <= 2; dx++) {
      const k = 4 * ((Math.floor(y) + dy) * withLayer.width + Math.floor(x) + dx);
      const added = [0, 1, 2].reduce((sum, c) => sum + withLayer.data[k + c] - without.data[k + c], 0) / 3;
      best = Math.max(best, added);
    }
  return best;
}

test.describe('layers (viewer-spec §1)', () => {
  test('the Betelgeuse–Bellatrix line of Orion is drawn through both stars', async ({ page }) => {
    const orion = CONSTELLATIONS.find((constellation) => constellation.id === 'Ori')!;
    expect(orion.lines).toContain('Betelgeuse-Bellatrix');
    const star = (name: string) => orion.stars.find((entry) => entry.name === name)!;
    const [betelgeuse, bellatrix] = [star('Betelgeuse'), star('Bellatrix')];
    const view = { ra: 85, dec: 7, fov: 20 };
    const canvas = await openView(page, view.ra, view.dec, view.fov);
    const withLines = await whole(page, canvas, 'constellations-orion.png');
    await page.evaluate(() =>
      (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe.layers.constellations.update({
        lines: false,
        names: false,
      }),
    );
    await settle(page);
    const without = await whole(page, canvas, 'constellations-orion-off.png');
    const box = (await canvas.boundingBox())!;
    const [a, b] = [betelgeuse, bellatrix].map((entry) => pixelOf(box, view, entry.ra, entry.dec));
    console.log(
      `Betelgeuse at (${a.x.toFixed(1)}, ${a.y.toFixed(1)}), Bellatrix at (${b.x.toFixed(1)}, ${b.y.toFixed(1)})`,
    );
    // The stars themselves are drawn with and without the lines (and saturate the pixels there),
    // so the line is looked for along the segment between them, from a tenth of its length off
    // each star: light is added on the segment, and none 15 px to its side.
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    expect(length).toBeGreaterThan(100);
    const side = { x: -(b.y - a.y) / length, y: (b.x - a.x) / length };
    for (const t of [0.1, 0.25, 0.5, 0.75, 0.9]) {
      const on = { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
      const added = addedAt(withLines, without, on.x, on.y);
      const beside = addedAt(withLines, without, on.x + 15 * side.x, on.y + 15 * side.y);
      console.log(`t = ${t}: the line adds ${added.toFixed(0)} on the segment, ${beside.toFixed(0)} 15 px beside it`);
      expect(added).toBeGreaterThan(20);
      expect(beside).toBeLessThan(5);
    }
  });

  test('the constellation names are drawn in the page language: English, then Kanji in Japanese', async ({ page }) => {
    const view = { ra: 85, dec: 7, fov: 20 };
    const setNames = (names: boolean) =>
      page.evaluate(
        (names) =>
          (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe.layers.constellations.update({
            names,
          }),
        names,
      );
    /** Pixels whose light differs by more than 30 of 255 (mean of r, g, b) between two shots. */
    const differing = (a: PixelWindow, b: PixelWindow) => {
      const at: number[] = [];
      for (let k = 0; k < a.data.length; k += 4)
        if (Math.abs([0, 1, 2].reduce((sum, c) => sum + a.data[k + c] - b.data[k + c], 0) / 3) > 30) at.push(k);
      return at;
    };
    let canvas = await openView(page, view.ra, view.dec, view.fov);
    const english = await whole(page, canvas, 'constellation-names-en.png');
    await setNames(false);
    await settle(page);
    const unnamed = await whole(page, canvas);
    const englishNames = differing(english, unnamed);
    // The volunteer's language becomes Japanese (as the profile's language menu sets it).
    expect((await page.request.put('/api/current_user', { data: { locale: 'ja' } })).ok()).toBe(true);
    await page.evaluate(() => localStorage.setItem('galaxy-cruise.locale', 'ja'));
    await page.reload();
    canvas = await openView(page, view.ra, view.dec, view.fov);
    const japanese = await whole(page, canvas, 'constellation-names-ja.png');
    const japaneseNames = differing(japanese, unnamed);
    const changed = differing(japanese, english);
    console.log(
      `name pixels: English ${englishNames.length}, Japanese ${japaneseNames.length}, changed between them ${changed.length}`,
    );
    expect(englishNames.length).toBeGreaterThan(100);
    expect(japaneseNames.length).toBeGreaterThan(100);
    // Other labels, not the same ones again: most of either language's name pixels changed.
    expect(changed.length).toBeGreaterThan(0.5 * Math.min(englishNames.length, japaneseNames.length));
  });

  // The sky's whole-sky light is the HiPS or the Milky Way cube, whichever the zoom gives it to
  // (src/globe/backdrops.ts): both are hidden for the shot without it. At fov 100° the small
  // test sky's coarse HiPS and cube both show.
  test('the Milky Way is brighter along the galactic plane than at the galactic pole', async ({ page }) => {
    const brightness = async (ra: number, dec: number, name: string) => {
      await page.goto('about:blank');
      const canvas = await openView(page, ra, dec, 100);
      const box = (await canvas.boundingBox())!;
      const around = { x0: box.width / 2 - 100, y0: box.height / 2 - 100, width: 200, height: 200 };
      const withMilkyWay = await canvasPixels(page, canvas, around, `milky-way-${name}.png`);
      await page.evaluate(() => {
        const { globe, layers } = (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe;
        layers.milkyWay.update({ opacity: 0 });
        globe.removeLayer(layers.hips);
      });
      await settle(page);
      const without = await canvasPixels(page, canvas, around);
      const added: number[] = [];
      for (let k = 0; k < withMilkyWay.data.length; k += 4)
        added.push([0, 1, 2].reduce((sum, c) => sum + withMilkyWay.data[k + c] - without.data[k + c], 0) / 3);
      added.sort((x, y) => x - y);
      return added[Math.floor(added.length / 2)];
    };
    // The galactic centre (l = 0, b = 0) and the north galactic pole (b = 90°).
    const plane = await brightness(266.405, -28.936, 'galactic-centre');
    const pole = await brightness(192.859, 27.128, 'galactic-pole');
    console.log(`Milky Way median added light: galactic centre ${plane}, galactic pole ${pole}`);
    expect(plane).toBeGreaterThan(10);
    expect(plane).toBeGreaterThan(2 * pole);
  });

  test('a path and a sprite are drawn where they are placed', async ({ page }) => {
    const view = { ra: 30, dec: 40, fov: 10 };
    const canvas = await openView(page, view.ra, view.dec, view.fov);
    const box = (await canvas.boundingBox())!;
    const before = await whole(page, canvas);
    await page.evaluate(() => {
      const handle = (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe;
      handle.globe.addLayer(
        new handle.PathLayer({
          paths: [
            [
              [28, 38],
              [30, 40],
              [32, 38],
            ],
          ],
          color: [1, 0, 0, 1],
          blend: 'NORMAL',
        }),
      );
      const image = new ImageData(16, 16);
      for (let k = 0; k < image.data.length; k += 4) image.data.set([0, 255, 0, 255], k);
      const dec = (41 * Math.PI) / 180;
      const ra = (30 * Math.PI) / 180;
      handle.globe.addLayer(
        new handle.SpriteLayer({
          images: new Map([['square', { image, origin: [8, 8] }]]),
          sprites: [
            {
              imageID: 'square',
              position: [Math.cos(dec) * Math.cos(ra), Math.cos(dec) * Math.sin(ra), Math.sin(dec)],
              color: [1, 1, 1, 1],
            },
          ],
        }),
      );
    });
    await settle(page);
    const after = await whole(page, canvas, 'path-and-sprite.png');
    const red = (pixels: PixelWindow, x: number, y: number) => {
      const k = 4 * (Math.round(y) * pixels.width + Math.round(x));
      return pixels.data.slice(k, k + 4);
    };
    // The path: points along each leg are red.
    for (const [ra, dec] of [
      [28.5, 38.5],
      [29, 39],
      [31, 39],
      [31.5, 38.5],
    ]) {
      const at = pixelOf(box, view, ra, dec);
      // The reddest pixel within 2 px: a 3 px line on a diagonal covers its centre unevenly.
      const [r, g, b] = [-2, -1, 0, 1, 2]
        .flatMap((dy) => [-2, -1, 0, 1, 2].map((dx) => red(after, at.x + dx, at.y + dy)))
        .reduce((best, pixel) => (pixel[0] - pixel[1] - pixel[2] > best[0] - best[1] - best[2] ? pixel : best));
      console.log(`path at (${ra}, ${dec}) → (${at.x.toFixed(1)}, ${at.y.toFixed(1)}): ${r}, ${g}, ${b}`);
      expect(r).toBeGreaterThan(200);
      expect(g + b).toBeLessThan(150);
    }
    // The sprite: a 16 × 16 px green square centred on its position, nothing green 12 px away.
    const centre = pixelOf(box, view, 30, 41);
    for (const [dx, dy] of [
      [0, 0],
      [-6, -6],
      [6, 6],
    ]) {
      const [r, g, b] = red(after, centre.x + dx, centre.y + dy);
      expect(g).toBeGreaterThan(240);
      expect(r + b).toBeLessThan(60);
    }
    const [, outsideGreen] = red(after, centre.x + 12, centre.y);
    const [, outsideBefore] = red(before, centre.x + 12, centre.y);
    expect(outsideGreen).toBe(outsideBefore);
  });
});
