// The current target's marker ring as the canvas draws it: its pixels and the sky's just outside,
// read once the globe is at rest, for specs that hide and show the markers.
import type { Page } from '@playwright/test';
import { canvasPixels } from './canvas-pixels';

/** The current target's ring around the canvas centre, and the sky just outside it, as pixels. */
export async function markerRing(page: Page) {
  const canvas = page.getByTestId('globe-canvas');
  const box = (await canvas.boundingBox())!;
  const half = 40;
  const pixels = await canvasPixels(page, canvas, {
    x0: box.width / 2 - half,
    y0: box.height / 2 - half,
    width: 2 * half,
    height: 2 * half,
  });
  const ring: number[] = [];
  const outside: number[] = [];
  for (let y = 0; y < pixels.height; y++)
    for (let x = 0; x < pixels.width; x++) {
      const radius = Math.hypot(pixels.x0 + x + 0.5 - box.width / 2, pixels.y0 + y + 0.5 - box.height / 2);
      const at = 4 * (y * pixels.width + x);
      const list = radius > 16 && radius < 21 ? ring : radius > 28 && radius < 38 ? outside : null;
      list?.push(pixels.data[at], pixels.data[at + 1], pixels.data[at + 2]);
    }
  return { ring, outside };
}

/** Mean absolute difference of two lists of colour channels. */
export const change = (a: number[], b: number[]) =>
  a.reduce((sum, value, k) => sum + Math.abs(value - b[k]), 0) / a.length;

/** Two readings of the ring in a row alike: the camera and the tiles have come to rest. */
export async function restingRing(page: Page) {
  let last = await markerRing(page);
  for (let tries = 0; tries < 30; tries++) {
    await page.waitForTimeout(300);
    const next = await markerRing(page);
    if (change(last.ring, next.ring) < 1 && change(last.outside, next.outside) < 1) return next;
    last = next;
  }
  throw new Error('the globe did not come to rest');
}
