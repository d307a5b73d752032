// A whole-sky HiPS of point sources, for the tests that hold the HiPS's geometry against Aladin
// Lite: the sky data's own HiPS is the Milky Way's diffuse light, with no star baked in (the star
// layer draws the stars), so it has no point whose place could be compared. This one is written
// by the sky data's own HiPS writer (skydata/hips.ts, Hipsgen's tile layout) from a sky map of
// black sky and the given points, each a seeing-sized spot of 0.6 map pixels σ, and served in
// place of {dataRepository}/hips/sky by routeHips.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { buildHips } from '../../skydata/hips';
import type { SkyMap } from '../../skydata/skymap';

export interface PointSource {
  ra: number;
  dec: number;
  /** Linear light of the spot's centre before the display stretch (skymap.ts displayByte). */
  peak: number;
}

/** The small sky's HiPS shape: order 3, 32-texel tiles, from a map 1024 × 512. */
const MAP_WIDTH = 1024;

export function writePointHips(points: readonly PointSource[]): string {
  const width = MAP_WIDTH;
  const height = width / 2;
  const rgb = new Float32Array(width * height * 3);
  for (const { ra, dec, peak } of points) {
    const x = (((ra + 360) % 360) / 360) * width;
    const y = ((90 - dec) / 180) * height;
    const sy = 0.6;
    const sx = sy / Math.max(0.05, Math.cos((dec * Math.PI) / 180));
    for (let dy = -Math.ceil(3 * sy); dy <= Math.ceil(3 * sy); dy++) {
      const row = Math.floor(y) + dy;
      if (row < 0 || row >= height) continue;
      for (let dx = -Math.ceil(3 * sx); dx <= Math.ceil(3 * sx); dx++) {
        const column = (Math.floor(x) + dx + width) % width;
        const ex = Math.floor(x) + dx + 0.5 - x;
        const ey = row + 0.5 - y;
        const value = peak * Math.exp(-(ex * ex) / (2 * sx * sx) - (ey * ey) / (2 * sy * sy));
        for (let c = 0; c < 3; c++) rgb[3 * (row * width + column) + c] += value;
      }
    }
  }
  const map: SkyMap = { width, height, rgb };
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-point-hips-'));
  return buildHips(root, map, { order: 3, tileWidth: 32 }).directory;
}

/** Serves the HiPS folder `directory` in place of the sky data's hips/sky/ to `page`. */
export async function routeHips(page: Pick<Page, 'route'>, directory: string): Promise<void> {
  await page.route(/\/stellar-globe\/static\/hips\/sky\/(.+)$/, (route) => {
    const name = /\/hips\/sky\/(.+)$/.exec(new URL(route.request().url()).pathname)![1];
    const file = path.join(directory, name);
    if (!file.startsWith(directory + path.sep) || !fs.existsSync(file)) return route.fulfill({ status: 404 });
    const type = name.endsWith('.png') ? 'image/png' : name.endsWith('.fits') ? 'application/fits' : 'text/plain';
    return route.fulfill({ path: file, contentType: type });
  });
}
