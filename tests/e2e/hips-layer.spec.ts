// The globe's HiPS layer against a standard HiPS client: our globe and Aladin Lite (npm
// aladin-lite, served from this machine as tests/e2e/hips.spec.ts does, every request to another
// host aborted) draw a whole-sky HiPS at fov 1° on the same centre, and a bright point of the
// tiles lies in the same place on both canvases, within 2 px. The HiPS served in place of the sky
// data's (whose diffuse light has no point to place) is one of point sources written by the sky
// data's own HiPS writer (tests/helpers/point-hips.ts).
//
// At 1° a texel of the small sky's HiPS (order 3, 32-texel tiles: 0.23°) spans some 90 screen
// pixels. Aladin Lite draws texels as flat cells (nearest neighbour); the globe filters them
// linearly (viewer-spec §9: the magnification filter is on). Both put the brightest texel's value
// at its centre, so the feature compared is the brightest texel: the centroid of the pixels within
// a few levels of the peak, of a star that is one texel brighter than all its neighbours, placed
// off the centre so that a flipped or turned image would move it. Once the tiles are in and
// faded, the idle globe asks for no frames (viewer-spec §4, §9).
import { routeAladin, type AladinView } from '../../bench/aladin';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { routeHips, writePointHips } from '../helpers/point-hips';
import { readyVolunteer } from '../helpers/volunteers';
import { brightCentroid, canvasPixels } from './canvas-pixels';
import { framesAskedFor } from './frames';

/** Both canvases: 400 × 400 CSS pixels at device pixel ratio 1, fov 1° across. */
const SIZE = 400;
const FOV_DEG = 1;
interface Star {
  name: string;
  ra: number;
  dec: number;
  /** The tiles are in once the canvas's peak passes this. */
  minPeak: number;
}

/**
 * Points of the served HiPS, each alone in its texel near the texel's centre: one near the
 * equator, where a tile needs no shiftmap, and one in a south polar tile whose shiftmap moves it
 * some 5 px at this zoom (tile 705 of order 3, row 5, column 9).
 */
const STARS: Star[] = [
  { name: 'equatorial', ra: 122.168, dec: -2.9855, minPeak: 80 },
  { name: 'polar', ra: 341.8085, dec: -81.4031, minPeak: 40 },
];
/** The HiPS of those points, written once for the spec. */
const POINT_HIPS = writePointHips(STARS.map(({ ra, dec }) => ({ ra, dec, peak: 0.5 })));
/** Pixels within this many levels of the brightest one make the brightest texel. */
const PEAK_BAND = 2;

/** The view centre: 0.2° east and 0.12° south of the star. */
function centreFor(star: Star): { ra: number; dec: number } {
  return { ra: star.ra + 0.2 / Math.cos((star.dec * Math.PI) / 180), dec: star.dec - 0.12 };
}

const ALADIN_VIEW: AladinView = {
  ...centreFor(STARS[0]),
  fov: FOV_DEG,
  projection: 'TAN',
  width: `${SIZE}px`,
  height: `${SIZE}px`,
};

/** Every request that leaves 127.0.0.1 is aborted and listed; HiPS files asked for are listed. */
async function watchRequests(page: Page) {
  const outside: string[] = [];
  await routeHips(page, POINT_HIPS);
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => {
    outside.push(route.request().url());
    return route.abort();
  });
  const hips: string[] = [];
  page.on('request', (request) => {
    if (/\/hips\/sky\/(properties|Norder\d+\/)/.test(request.url())) hips.push(request.url());
  });
  page.on('pageerror', (error) => console.log('page error:', error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') console.log('console:', message.text());
  });
  return { outside, hips };
}

/** The brightest texel: the centroid of the canvas's pixels within PEAK_BAND levels of its peak. */
async function starCentroid(page: Page, selector: string, shot: string) {
  const canvas = page.locator(selector);
  // The bottom rows hold Aladin Lite's logo, brighter than a faint star: left out on both.
  const pixels = await canvasPixels(page, canvas, { x0: 0, y0: 0, width: SIZE, height: SIZE - 48 }, shot);
  const { peak } = brightCentroid(pixels);
  return { ...brightCentroid(pixels, (r, g, b) => ((r + g + b) / 3 >= peak - PEAK_BAND ? 1 : 0)), peak };
}

/** Where a gnomonic view of fov FOV_DEG on the star's centre, north up and east left, puts it. */
function expectedPlace(star: Star): { x: number; y: number } {
  const rad = Math.PI / 180;
  const centre = centreFor(star);
  const [a0, d0, a, d] = [centre.ra * rad, centre.dec * rad, star.ra * rad, star.dec * rad];
  const cosC = Math.sin(d0) * Math.sin(d) + Math.cos(d0) * Math.cos(d) * Math.cos(a - a0);
  const xi = (Math.cos(d) * Math.sin(a - a0)) / cosC;
  const eta = (Math.cos(d0) * Math.sin(d) - Math.sin(d0) * Math.cos(d) * Math.cos(a - a0)) / cosC;
  const scale = SIZE / 2 / Math.tan((FOV_DEG * rad) / 2);
  return { x: SIZE / 2 - xi * scale, y: SIZE / 2 - eta * scale };
}

interface GlobeHandle {
  globe: {
    removeLayer(layer: unknown): void;
    setCamera(state: Record<string, unknown>): void;
    frames: number;
  };
  layers: Record<string, unknown> & {
    hips: {
      update(options: Record<string, unknown>): void;
      tiles: { loading: number; queued: number; cached: number };
    };
  };
}

async function openGlobe(browser: Browser, storageState: Awaited<ReturnType<typeof volunteerState>>) {
  const context = await browser.newContext({
    storageState,
    viewport: { width: SIZE, height: SIZE },
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
    // The point-source HiPS is served to the page by page.route (routeHips); a service worker
    // would answer the sky's HiPS from its cache, out of page.route's sight (pwa.spec.ts tests it).
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  const requests = await watchRequests(page);
  // The credits page over the same globe: on the main route the cruise moves the camera.
  await page.goto(`/#/credits?fov=${FOV_DEG}`);
  await page.waitForFunction(() => 'galaxyCruiseGlobe' in window, undefined, { timeout: 90_000 });
  await page.addStyleTag({
    content: '* { visibility: hidden !important } .globe-canvas { visibility: visible !important }',
  });
  // Only the HiPS is compared: the layers drawn before it (lines, grid, star points, the Milky
  // Way) come off, and the application's wide-field limit is lifted so it shows at 1°.
  await page.evaluate(() => {
    const { globe, layers } = (window as unknown as { galaxyCruiseGlobe: GlobeHandle }).galaxyCruiseGlobe;
    for (const name of ['constellations', 'milkyWay', 'grid', 'stars', 'deepSky']) globe.removeLayer(layers[name]);
    layers.hips.update({ maxTexelPixels: Infinity });
  });
  return { page, requests };
}

/** Points the globe (gnomonic, north up) at the star's view centre. */
async function pointGlobe(page: Page, star: Star): Promise<void> {
  await page.evaluate(
    ({ ra, dec, fov }) => {
      const { globe } = (window as unknown as { galaxyCruiseGlobe: GlobeHandle }).galaxyCruiseGlobe;
      const rad = Math.PI / 180;
      globe.setCamera({ theta: (90 - dec) * rad, phi: ra * rad, fovy: fov * rad, roll: 0, mode: 'GNOMONIC' });
    },
    { ...centreFor(star), fov: FOV_DEG },
  );
}

function volunteerState(browser: Browser) {
  return (async () => {
    const context = await browser.newContext();
    await readyVolunteer(context.request);
    const state = await context.storageState();
    await context.close();
    return state;
  })();
}

test.describe('HiPS layer (viewer-spec §3, §4, §7, §9)', () => {
  // SwiftShader draws on the CPU; two canvases and their screenshots take a while.
  test.describe.configure({ timeout: 240_000 });

  test('our globe and Aladin Lite put a bright star of the HiPS in the same place at fov 1°, within 2 px, near the equator and in a polar tile; the idle globe draws no frames', async ({
    browser,
  }) => {
    // Aladin Lite first: the reference.
    const aladinContext = await browser.newContext({ viewport: { width: 600, height: 600 }, deviceScaleFactor: 1 });
    const aladin = await aladinContext.newPage();
    const aladinRequests = await watchRequests(aladin);
    await routeAladin(aladin, '/__hips-layer__', ALADIN_VIEW);
    await aladin.goto('/__hips-layer__/aladin.html');
    await aladin.waitForFunction(() => (window as unknown as { aladinReady?: boolean }).aladinReady === true);
    await expect
      .poll(() => aladinRequests.hips.some((url) => /Npix\d+\.png$|Allsky\.png$/.test(url)), { timeout: 60_000 })
      .toBe(true);
    // Our globe, 400 × 400 like Aladin Lite's view.
    const { page, requests } = await openGlobe(browser, await volunteerState(browser));
    const canvasBox = (await page.getByTestId('globe-canvas').boundingBox())!;
    expect([canvasBox.width, canvasBox.height]).toEqual([SIZE, SIZE]);

    for (const star of STARS) {
      const centre = centreFor(star);
      await aladin.evaluate(
        ({ ra, dec }) =>
          (window as unknown as { aladin: { gotoRaDec(ra: number, dec: number): void } }).aladin.gotoRaDec(ra, dec),
        centre,
      );
      const aladinShot = `hips-layer-aladin-${star.name}.png`;
      await expect
        .poll(async () => (await starCentroid(aladin, '#aladin', aladinShot)).peak, { timeout: 60_000 })
        .toBeGreaterThan(star.minPeak);
      await aladin.waitForLoadState('networkidle');
      const reference = await starCentroid(aladin, '#aladin', aladinShot);

      await pointGlobe(page, star);
      // The properties, then the Allsky image arrive. Its cells are the small sky's order-3 tiles
      // whole (32 texels), so no tile file would add a texel and none is asked for.
      await expect
        .poll(() => requests.hips.some((url) => url.endsWith('/hips/sky/properties')), { timeout: 90_000 })
        .toBe(true);
      await expect
        .poll(() => requests.hips.some((url) => /\/Norder3\/Allsky\.png$/.test(url)), { timeout: 90_000 })
        .toBe(true);
      const globeShot = `hips-layer-globe-${star.name}.png`;
      await expect
        .poll(async () => (await starCentroid(page, '.globe-canvas', globeShot)).peak, { timeout: 90_000 })
        .toBeGreaterThan(star.minPeak);
      // An idle globe draws no frames: once every tile and shiftmap has arrived, been decoded
      // in the workers and faded in, no animation frame is asked for over a second.
      await page.waitForLoadState('networkidle');
      await expect.poll(() => framesAskedFor(page, 1000), { timeout: 60_000, intervals: [0] }).toBe(0);
      const ours = await starCentroid(page, '.globe-canvas', globeShot);

      const expected = expectedPlace(star);
      console.log(
        `${star.name} star's texel: expected at (${expected.x.toFixed(2)}, ${expected.y.toFixed(2)}), ` +
          `globe (${ours.x.toFixed(2)}, ${ours.y.toFixed(2)}) peak ${ours.peak.toFixed(0)}, ` +
          `Aladin Lite (${reference.x.toFixed(2)}, ${reference.y.toFixed(2)}) peak ${reference.peak.toFixed(0)}, ` +
          `apart ${Math.hypot(ours.x - reference.x, ours.y - reference.y).toFixed(2)} px`,
      );
      // Off the centre, so the comparison also checks which way the image faces.
      expect(Math.hypot(ours.x - SIZE / 2, ours.y - SIZE / 2)).toBeGreaterThan(40);
      expect(Math.hypot(ours.x - reference.x, ours.y - reference.y)).toBeLessThanOrEqual(2);
      // And both where a gnomonic view puts the texel's centre.
      expect(Math.hypot(ours.x - expected.x, ours.y - expected.y)).toBeLessThanOrEqual(2);
      expect(Math.hypot(reference.x - expected.x, reference.y - expected.y)).toBeLessThanOrEqual(2);
    }
    expect(requests.hips.filter((url) => /\/Npix\d+\.png$/.test(url))).toEqual([]);
    // Every HiPS file came from this machine; what Aladin Lite asked of other hosts was blocked.
    console.log(`requests to other hosts blocked: ${requests.outside.length + aladinRequests.outside.length}`);
    expect([...requests.hips, ...aladinRequests.hips].every((url) => url.startsWith('http://127.0.0.1'))).toBe(true);
  });
});
