// A HiPS written by the sky data's HiPS writer is valid for a standard HiPS client: Aladin Lite
// (npm aladin-lite, served from this machine, no network) opens {dataRepository}/hips/sky in
// Debian's Chromium, loads its properties and tiles, and draws its points where they are. The sky
// data's own HiPS is the Milky Way's diffuse light alone (no star baked in), so the HiPS served
// here is one the same writer made of point sources at Betelgeuse and Rigel
// (tests/helpers/point-hips.ts): the canvas is bright at both and dark in the empty sky between
// Orion's belt and Rigel... only if the tile pixel layout matches the HiPS convention. The sky
// data's own HiPS is then seen to light the galactic plane and leave the galactic pole dark.
import { expect, test, type Page } from '@playwright/test';
import { routeAladin } from '../../bench/aladin';
import { routeHips, writePointHips } from '../helpers/point-hips';
import { canvasPixels } from './canvas-pixels';

/** Betelgeuse and Rigel as points of the served HiPS. */
const POINTS = [
  { ra: 88.7929, dec: 7.4071, peak: 1 },
  { ra: 78.6345, dec: -8.2016, peak: 1 },
];

const PREFIX = '/__hips-check__';

async function openAladin(page: Page) {
  await routeAladin(page, PREFIX, {
    ra: 88.7929,
    dec: 7.4071,
    fov: 3,
    projection: 'TAN',
    width: '400px',
    height: '400px',
  });
  // Nothing may leave the machine: requests to other hosts are blocked and listed.
  const outside: string[] = [];
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => {
    outside.push(route.request().url());
    return route.abort();
  });
  const tiles: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 404) console.log('404:', response.url());
    if (/\/hips\/sky\/(properties|Norder\d+\/)/.test(response.url()) && response.ok()) tiles.push(response.url());
  });
  page.on('pageerror', (error) => console.log('page error:', error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') console.log('console:', message.text());
  });
  await page.goto(`${PREFIX}/aladin.html`);
  await page.waitForFunction(() => (window as unknown as { aladinReady?: boolean }).aladinReady === true);
  return { tiles, outside };
}

/** Mean brightness (0..255) of a square of the 400 px Aladin view around its centre. */
async function centreBrightness(page: Page, radius: number): Promise<number> {
  const { data } = await canvasPixels(page, page.locator('#aladin'), {
    x0: 200 - radius,
    y0: 200 - radius,
    width: 2 * radius,
    height: 2 * radius,
  });
  let sum = 0;
  for (let k = 0; k < data.length; k += 4) sum += (data[k]! + data[k + 1]! + data[k + 2]!) / 3;
  return sum / (data.length / 4);
}

test.describe('HiPS of the whole sky in Aladin Lite', () => {
  test('loads properties and tiles from the local server and draws the points in place', async ({ page }) => {
    await routeHips(page, writePointHips(POINTS));
    const { tiles, outside } = await openAladin(page);
    await expect.poll(() => tiles.some((url) => url.endsWith('/properties'))).toBe(true);
    await expect.poll(() => tiles.filter((url) => /Npix\d+\.png$|Allsky\.png$/.test(url)).length).toBeGreaterThan(0);
    // Betelgeuse at the centre: a bright star.
    await expect.poll(() => centreBrightness(page, 6)).toBeGreaterThan(60);
    // Empty sky half-way between Orion's belt and Rigel is dark.
    await page.evaluate(() =>
      (window as unknown as { aladin: { gotoRaDec(ra: number, dec: number): void } }).aladin.gotoRaDec(80.6, -4.6),
    );
    await expect.poll(() => centreBrightness(page, 6)).toBeLessThan(30);
    // Rigel, far from Betelgeuse in another tile: bright again.
    await page.evaluate(() =>
      (window as unknown as { aladin: { gotoRaDec(ra: number, dec: number): void } }).aladin.gotoRaDec(
        78.6345,
        -8.2016,
      ),
    );
    await expect.poll(() => centreBrightness(page, 6)).toBeGreaterThan(60);
    // Aladin Lite also asks CDS services for optional extras; those were blocked, and every
    // HiPS request went to the local server.
    console.log(`blocked requests to other hosts: ${outside.length ? outside.join(', ') : 'none'}`);
    expect(tiles.every((url) => url.startsWith('http://127.0.0.1'))).toBe(true);
  });

  test("the sky data's own HiPS lights the galactic plane and leaves the galactic pole dark", async ({ page }) => {
    const { tiles } = await openAladin(page);
    await expect.poll(() => tiles.filter((url) => /Npix\d+\.png$|Allsky\.png$/.test(url)).length).toBeGreaterThan(0);
    const goto = (ra: number, dec: number) =>
      page.evaluate(
        ({ ra, dec }) =>
          (window as unknown as { aladin: { gotoRaDec(ra: number, dec: number): void } }).aladin.gotoRaDec(ra, dec),
        { ra, dec },
      );
    // The galactic plane in Sagittarius (l = 10°, b = 0), then the north galactic pole.
    await goto(272.1, -20.4);
    await expect.poll(() => centreBrightness(page, 40)).toBeGreaterThan(60);
    await goto(192.859, 27.128);
    await expect.poll(() => centreBrightness(page, 40)).toBeLessThan(20);
  });
});
