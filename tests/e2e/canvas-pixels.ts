// Reads pixels of the globe as the screen shows them: a screenshot of the canvas (saved under
// test-results/screenshots/ when named), decoded in the page, of which a window is returned.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';

export interface PixelWindow {
  /** Canvas pixel of the window's top-left corner. */
  x0: number;
  y0: number;
  width: number;
  height: number;
  /** RGBA, row-major from the top. */
  data: number[];
  canvasWidth: number;
  canvasHeight: number;
}

/** test-results/screenshots/, or SCREENSHOT_DIR (Playwright empties test-results/ when a run starts). */
export const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? path.join(process.cwd(), 'test-results', 'screenshots');

export async function canvasPixels(
  page: Page,
  canvas: Locator,
  window: { x0: number; y0: number; width: number; height: number },
  screenshotName?: string,
): Promise<PixelWindow> {
  const png = await canvas.screenshot();
  if (screenshotName) {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    fs.writeFileSync(path.join(SCREENSHOTS, screenshotName), png);
  }
  const read = await page.evaluate(
    async ({ data, window }) => {
      const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const x0 = Math.max(0, Math.round(window.x0));
      const y0 = Math.max(0, Math.round(window.y0));
      const width = Math.min(image.width - x0, Math.round(window.width));
      const height = Math.min(image.height - y0, Math.round(window.height));
      const pixels = context.getImageData(x0, y0, width, height).data;
      // Returned as base64: a whole canvas as a JSON array of numbers takes minutes to cross
      // the protocol on a loaded machine.
      let binary = '';
      for (let k = 0; k < pixels.length; k += 0x8000) binary += String.fromCharCode(...pixels.subarray(k, k + 0x8000));
      return { x0, y0, width, height, base64: btoa(binary), canvasWidth: image.width, canvasHeight: image.height };
    },
    { data: png.toString('base64'), window },
  );
  const { base64, ...rest } = read;
  return { ...rest, data: [...Buffer.from(base64, 'base64')] };
}

/**
 * Centroid (canvas pixel coordinates, pixel centres at +0.5) of the light above half-way
 * between the window's median and its brightest pixel, by `channel` (a function of r, g, b).
 */
export function brightCentroid(
  pixels: PixelWindow,
  channel: (r: number, g: number, b: number) => number = (r, g, b) => (r + g + b) / 3,
): { x: number; y: number; peak: number } {
  const values: number[] = [];
  for (let k = 0; k < pixels.data.length; k += 4)
    values.push(channel(pixels.data[k], pixels.data[k + 1], pixels.data[k + 2]));
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const peak = sorted[sorted.length - 1];
  const level = (median + peak) / 2;
  let sum = 0;
  let x = 0;
  let y = 0;
  values.forEach((value, index) => {
    const weight = value - level;
    if (weight <= 0) return;
    sum += weight;
    x += weight * ((index % pixels.width) + pixels.x0 + 0.5);
    y += weight * (Math.floor(index / pixels.width) + pixels.y0 + 0.5);
  });
  return { x: x / sum, y: y / sum, peak };
}
