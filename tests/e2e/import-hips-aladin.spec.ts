// The HiPS that `galaxy-cruise import` writes from a group's FITS images
// (skydata/import/hips-from-images.ts) is valid for a standard HiPS client: Aladin Lite (npm aladin-lite,
// served from this machine) opens it in Debian's Chromium and draws the images' sources where
// astropy put them. The images are the astropy-written TAN and three-band SIN images of the
// unit tests (tests/helpers/make_import_images.py); the HiPS is written here and served from disk.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { routeAladin } from '../../bench/aladin';
import { writeHipsFromImages } from '../../skydata/import/hips-from-images';
import { pythonReferences } from '../helpers/python-references';
import { canvasPixels } from './canvas-pixels';

const PREFIX = '/__import-hips-check__';
const images = pythonReferences('make_import_images.py', 'import-images', 'done');
const expected = JSON.parse(fs.readFileSync(path.join(images, 'expected.json'), 'utf8')) as {
  tan: { ra: number; dec: number }[];
  sin: Record<'blue' | 'red' | 'white', { ra: number; dec: number }>;
};

let scratch: string;
test.beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'import-hips-aladin-'));
  for (const [name, files] of [
    ['tan', ['tan.fits']],
    ['sin', ['sin_g.fits', 'sin_r.fits', 'sin_i.fits']],
  ] as const) {
    await writeHipsFromImages({
      fields: [files.map((file) => path.join(images, file))],
      directory: path.join(scratch, name),
      tileWidth: 64,
      title: `Aladin check ${name}`,
      preset: { a: 1 / 2000, b: -10 },
    });
  }
});
test.afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function openAladin(page: Page, survey: 'tan' | 'sin', ra: number, dec: number) {
  await routeAladin(page, PREFIX, {
    ra,
    dec,
    fov: 30 / 3600,
    projection: 'TAN',
    width: '300px',
    height: '300px',
    survey: `${PREFIX}/hips/${survey}`,
  });
  const served: string[] = [];
  await page.route(`**${PREFIX}/hips/**`, (route) => {
    const relative = new URL(route.request().url()).pathname.slice(`${PREFIX}/hips/`.length);
    const file = path.join(scratch, relative);
    if (!file.startsWith(scratch) || !fs.existsSync(file) || !fs.statSync(file).isFile())
      return route.fulfill({ status: 404 });
    served.push(relative);
    return route.fulfill({ path: file, contentType: file.endsWith('.png') ? 'image/png' : 'text/plain' });
  });
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
  await page.goto(`${PREFIX}/aladin.html`);
  await page.waitForFunction(() => (window as unknown as { aladinReady?: boolean }).aladinReady === true);
  return served;
}

/** Mean red, green and blue (0..255) of a square of the 300 px Aladin view around its centre. */
async function centreColour(page: Page, radius: number): Promise<[number, number, number]> {
  const { data } = await canvasPixels(page, page.locator('#aladin'), {
    x0: 150 - radius,
    y0: 150 - radius,
    width: 2 * radius,
    height: 2 * radius,
  });
  const sum = [0, 0, 0];
  for (let k = 0; k < data.length; k += 4) for (let c = 0; c < 3; c += 1) sum[c]! += data[k + c]!;
  const n = data.length / 4;
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

const light = ([r, g, b]: [number, number, number]) => (r + g + b) / 3;

function goto(page: Page, ra: number, dec: number) {
  return page.evaluate(
    ([ra, dec]) =>
      (window as unknown as { aladin: { gotoRaDec(ra: number, dec: number): void } }).aladin.gotoRaDec(ra, dec),
    [ra, dec] as const,
  );
}

test('Aladin Lite opens an imported grey HiPS and shows its sources where astropy put them', async ({ page }) => {
  const [east, north] = expected.tan as [{ ra: number; dec: number }, { ra: number; dec: number }];
  const served = await openAladin(page, 'tan', east.ra, east.dec);
  await expect.poll(() => served.includes('tan/properties')).toBe(true);
  await expect.poll(async () => light(await centreColour(page, 3))).toBeGreaterThan(100);
  // Between the two sources (and off both) the image's flat sky is dark.
  await goto(page, (east.ra + north.ra) / 2 - 4 / 3600, (east.dec + north.dec) / 2 - 4 / 3600);
  await expect.poll(async () => light(await centreColour(page, 3))).toBeLessThan(40);
  await goto(page, north.ra, north.dec);
  await expect.poll(async () => light(await centreColour(page, 3))).toBeGreaterThan(100);
  expect(served.some((file) => /^tan\/Norder\d+\/Dir\d+\/Npix\d+\.png$/.test(file))).toBe(true);
});

test('Aladin Lite shows an imported colour HiPS in its colours: a g-only source blue, an i-only one red', async ({
  page,
}) => {
  const { blue, red } = expected.sin;
  await openAladin(page, 'sin', blue.ra, blue.dec);
  await expect
    .poll(async () => {
      const [r, , b] = await centreColour(page, 2);
      return b - r;
    })
    .toBeGreaterThan(80);
  await goto(page, red.ra, red.dec);
  await expect
    .poll(async () => {
      const [r, , b] = await centreColour(page, 2);
      return r - b;
    })
    .toBeGreaterThan(80);
});
