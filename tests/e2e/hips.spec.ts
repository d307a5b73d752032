// The whole-sky HiPS is valid for a standard HiPS client: Aladin Lite (npm aladin-lite, served
// from this machine, no network) opens {dataRepository}/hips/sky in Debian's Chromium, loads its
// properties and tiles from the real server, and draws the real stars where they are: the canvas
// is bright at Betelgeuse and Rigel and dark in the empty sky between Orion's belt and Rigel...
// only if the tile pixel layout matches the HiPS convention.
import { expect, test, type Page } from '@playwright/test';
import { routeAladin } from '../../cli/bench/aladin';

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

/** Mean brightness (0..255) of a square of the Aladin canvas around its centre. */
async function centreBrightness(page: Page, radius: number): Promise<number> {
  const png = (await page.locator('#aladin').screenshot()).toString('base64');
  return page.evaluate(
    async ({ data, radius }) => {
      const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const cx = Math.floor(image.width / 2);
      const cy = Math.floor(image.height / 2);
      const pixels = context.getImageData(cx - radius, cy - radius, 2 * radius, 2 * radius).data;
      let sum = 0;
      for (let k = 0; k < pixels.length; k += 4) sum += (pixels[k] + pixels[k + 1] + pixels[k + 2]) / 3;
      return sum / (pixels.length / 4);
    },
    { data: png, radius },
  );
}

test.describe('HiPS of the whole sky in Aladin Lite', () => {
  test('loads properties and tiles from the local server and draws the real stars in place', async ({ page }) => {
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
});
