// The camera's projection-centre angles za, zd, zp (viewer-spec §3) in the page's globe, by
// pixels in Debian's Chromium against the real server and its small sky: with the frame's pole
// moved off the celestial pole and turned, the camera's own (theta, phi) for Spica puts Spica at
// the centre of the canvas, and the camera indicator shows Spica's right ascension and
// declination. Screenshots go to test-results/screenshots/.
import { expect, test } from '@playwright/test';
import { cameraOfSky, skyOfCamera } from '../../src/globe/zenith';
import { openView, settle, whole, type Handle } from './globe-view';

const DEGREE = Math.PI / 180;
const SPICA = { ra: 201.298, dec: -11.161 };

test.use({ viewport: { width: 800, height: 600 } });

test('a camera frame with its pole at (za, zd), turned by zp, still looks where its theta/phi say', async ({
  page,
}) => {
  const canvas = await openView(page, 0, 0, 20);
  // An observer's zenith at Subaru (latitude 19.8°) at some sidereal time, turned a little.
  const frame = { za: 150 * DEGREE, zd: 19.8 * DEGREE, zp: 0.3 };
  const look = cameraOfSky(frame, SPICA.ra * DEGREE, SPICA.dec * DEGREE);
  await page.evaluate(
    ({ frame, look, degree }) => {
      const { globe, layers } = (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe;
      layers.constellations.update({ lines: false, names: false });
      globe.removeLayer(layers.grid);
      globe.setCamera({ ...frame, ...look, fovy: 3 * degree } as never);
    },
    { frame, look, degree: DEGREE },
  );
  await settle(page);
  const box = (await canvas.boundingBox())!;
  const pixels = await whole(page, canvas, 'camera-zenith-spica.png');
  const light = (x: number, y: number) => {
    const k = 4 * (Math.floor(y) * pixels.width + Math.floor(x));
    return (pixels.data[k] + pixels.data[k + 1] + pixels.data[k + 2]) / 3;
  };
  let centre = 0;
  for (let dy = -2; dy <= 2; dy++)
    for (let dx = -2; dx <= 2; dx++) centre = Math.max(centre, light(box.width / 2 + dx, box.height / 2 + dy));
  console.log(`Spica through the camera frame (za 150°, zd 19.8°, zp 0.3): centre light ${centre.toFixed(0)}`);
  expect(centre).toBeGreaterThan(100);
  // The round trip the page's camera made is the one its indicator reads.
  const back = skyOfCamera(frame, look.theta, look.phi);
  expect(back.ra / DEGREE).toBeCloseTo(SPICA.ra, 6);
  const indicator = page.getByTestId('camera-indicator');
  await expect(indicator).toContainText('13h 25m 11.5s');
  await expect(indicator).toContainText('−11° 09′ 40″');
});
