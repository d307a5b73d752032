import { vec3 } from 'gl-matrix';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { Camera, ProjectionMode, eyeDistance, projectView } from '../../src/globe/camera';
import { unitVector } from '../../src/globe/visibility';
import { readyVolunteer } from '../helpers/volunteers';
import { brightCentroid, canvasPixels } from './canvas-pixels';

// One logged-in volunteer for the file (sign-ups are rate-limited): the volunteer's globe
// follows the deep link and the keys, where the login screen runs its camera tour.
let storageState: Awaited<ReturnType<BrowserContext['storageState']>>;
test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  await readyVolunteer(context.request);
  storageState = await context.storageState();
  await context.close();
});

async function volunteerPage(browser: Browser): Promise<Page> {
  return (await browser.newContext({ storageState })).newPage();
}

test.describe('globe view', () => {
  // A volunteer's screen with every layer comes up slowly where SwiftShader shares two cores.
  test('a deep link opens the view it names, shown by the camera indicator', async ({ browser }) => {
    const page = await volunteerPage(browser);
    // The credits page, over the same globe: on the main route the cruise moves the camera to
    // the volunteer's current galaxy as soon as its quest loads.
    await page.goto('/#/credits?ra=150.1163&dec=2.2058&fov=0.5');
    // The volunteer's screen can take a while to come up on a loaded machine.
    await expect(page.getByText('10h 00m 27.9s')).toBeVisible();
    await expect(page.getByText('+02° 12′ 21″')).toBeVisible();
    await expect(page.getByText('30.0′')).toBeVisible();
  });

  test('the keyboard zooms and pans the globe', async ({ browser }) => {
    const page = await volunteerPage(browser);
    await page.goto('/#/credits?ra=10&dec=0&fov=45');
    const canvas = page.getByTestId('globe-canvas');
    const fov = page.getByTestId('camera-fov');
    await expect(fov).toHaveText('45.0°');
    await canvas.focus();
    await page.keyboard.press('+');
    await expect(fov).toHaveText('36.0°');
    await page.keyboard.press('-');
    await page.keyboard.press('-');
    await expect(fov).toHaveText('56.3°');
    const before = await page.getByTestId('camera-indicator').textContent();
    await page.keyboard.press('ArrowUp');
    await expect(page.getByTestId('camera-indicator')).not.toHaveText(before ?? '');
  });

  test('the wheel zooms in and drag rotates', async ({ page }) => {
    await page.goto('/#/login');
    const box = (await page.getByTestId('globe-canvas').boundingBox())!;
    await page.mouse.move(box.x + 40, box.y + 40);
    await page.mouse.wheel(0, -400);
    await expect(page.getByTestId('camera-fov')).not.toHaveText('45.0°');
    const before = await page.getByTestId('camera-indicator').textContent();
    await page.mouse.down();
    await page.mouse.move(box.x + 140, box.y + 90, { steps: 5 });
    await page.mouse.up();
    await expect(page.getByTestId('camera-indicator')).not.toHaveText(before ?? '');
  });
});

// Where each projection puts a bright star, checked in pixels: the camera of a deep link is
// rebuilt here with the globe's own Camera and the star's Hipparcos position projected by the
// formula of its mode; the star's light must be centred there within 2 px. The star sits 35°
// from the centre, where the three projections part by several pixels.
test.describe('projections (viewer-spec §4: GNOMONIC, STEREOGRAPHIC, FLOATING_EYE)', () => {
  test.describe.configure({ timeout: 240_000 });

  const STARS = {
    Sirius: { ra: 101.28716, dec: -16.71612 },
    Vega: { ra: 279.23473, dec: 38.78369 },
  };
  const FOVY = 0.8; // radians: FLOATING_EYE's eye is then 0.8 behind the centre
  const cases: [keyof typeof STARS, ProjectionMode][] = [
    ['Sirius', ProjectionMode.GNOMONIC],
    ['Sirius', ProjectionMode.STEREOGRAPHIC],
    ['Sirius', ProjectionMode.FLOATING_EYE],
    ['Vega', ProjectionMode.FLOATING_EYE],
  ];
  for (const [name, mode] of cases) {
    test(`${name} is drawn where ${mode} puts it, within 2 px`, async ({ browser }) => {
      const page = await volunteerPage(browser);
      const star = STARS[name];
      const view = { ra: star.ra - 36, dec: star.dec };
      await page.goto(`/#/credits?ra=${view.ra}&dec=${view.dec}&fov=${(FOVY * 180) / Math.PI}&mode=${mode}`);
      await page.addStyleTag({
        content: '* { visibility: hidden !important } .globe-canvas { visibility: visible !important }',
      });
      const canvas = page.getByTestId('globe-canvas');
      const box = (await canvas.boundingBox())!;
      const camera = new Camera();
      camera.theta = ((90 - view.dec) * Math.PI) / 180;
      camera.phi = (view.ra * Math.PI) / 180;
      camera.fovy = FOVY;
      camera.mode = mode;
      const eye = eyeDistance(mode, FOVY);
      const world = unitVector(((90 - star.dec) * Math.PI) / 180, (star.ra * Math.PI) / 180);
      const [x, y] = projectView(vec3.transformMat3(vec3.create(), world, camera.viewMatrix()), eye)!;
      const perUnit = box.height / (2 * camera.projectionScale(eye));
      const expected = { x: box.width / 2 + x * perUnit, y: box.height / 2 - y * perUnit };
      const around = { x0: expected.x - 12, y0: expected.y - 12, width: 24, height: 24 };
      const red = (r: number) => r;
      await expect
        .poll(async () => brightCentroid(await canvasPixels(page, canvas, around), red).peak, { timeout: 90_000 })
        .toBeGreaterThan(150);
      const light = brightCentroid(await canvasPixels(page, canvas, around, `projection-${name}-${mode}.png`), red);
      console.log(
        `${name}, ${mode}: expected (${expected.x.toFixed(2)}, ${expected.y.toFixed(2)}), drawn (${light.x.toFixed(2)}, ${light.y.toFixed(2)})`,
      );
      expect(Math.hypot(light.x - expected.x, light.y - expected.y)).toBeLessThanOrEqual(2);
    });
  }
});

test('a change of projection blends the eye distance over 200 ms instead of jumping', async ({ browser }) => {
  // A small canvas, so that SwiftShader draws many frames within the blend.
  const context = await browser.newContext({ storageState, viewport: { width: 240, height: 240 } });
  const page = await context.newPage();
  await page.goto(`/#/credits?ra=80&dec=0&fov=46&mode=${ProjectionMode.STEREOGRAPHIC}`);
  await page.waitForFunction(() => 'galaxyCruiseGlobe' in window);
  await page.waitForTimeout(1000);
  // Every frame's eye distance for a second after the change, read after the globe drew it.
  const samples = await page.evaluate(
    (gnomonic) =>
      new Promise<[number, number][]>((resolve) => {
        const { globe } = (
          window as unknown as {
            galaxyCruiseGlobe: { globe: { eye: number; setCamera(state: { mode: string }): void } };
          }
        ).galaxyCruiseGlobe;
        const seen: [number, number][] = [];
        globe.setCamera({ mode: gnomonic });
        const started = performance.now();
        const sample = (time: number) => {
          seen.push([time - started, globe.eye]);
          if (time - started < 1000) requestAnimationFrame(sample);
          else resolve(seen);
        };
        requestAnimationFrame(sample);
      }),
    ProjectionMode.GNOMONIC,
  );
  await context.close();
  console.log(`eye by frame: ${samples.map(([time, eye]) => `${time.toFixed(0)} ms ${eye.toFixed(3)}`).join(', ')}`);
  // The stereographic eye (1) on the first frame, the gnomonic one (0) at the end, falling
  // steadily in between, and not there before about the blend's 200 ms.
  expect(samples[0][1]).toBeCloseTo(1, 6);
  expect(samples.at(-1)![1]).toBe(0);
  for (let k = 1; k < samples.length; k++) expect(samples[k][1]).toBeLessThanOrEqual(samples[k - 1][1]);
  const arrived = samples.find(([, eye]) => eye === 0)![0] - samples[0][0];
  expect(arrived).toBeGreaterThanOrEqual(150);
  expect(samples.filter(([, eye]) => eye > 0 && eye < 1).length).toBeGreaterThan(0);
});
