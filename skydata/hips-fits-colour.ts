// The colour settings of a HiPS whose tiles are FITS (docs/import.md, "FITS tiles"): the viewer
// decodes each tile and stretches it with a pretty-picture preset of one filter
// (shared/prettyMixing.ts). The import derives one unless the manifest gives every number:
// from the properties' hips_pixel_cut (the values to draw black and white) when there is one,
// else from the tiles themselves as a group's FITS images are (hips-from-images.ts derivePreset:
// the median as the sky, the 99.95th percentile above it as full light), over up to
// SAMPLED_TILES tiles of the deepest order.
import fs from 'node:fs';
import path from 'node:path';
import { decodeFits } from '../core/fits';
import type { HipsProperties } from '../core/hipsProperties';
import { loadCoreSync } from '../core/wasm';
import type { HipsColour } from '../shared/courses';
import { derivePreset } from './import/hips-from-images';

/** Tiles read for the derived stretch: enough pixels for the percentiles, few files. */
export const SAMPLED_TILES = 32;

/** A near-linear stretch from `cut`: β small, so asinh(β·a·(x + b)) / asinh(β) ≈ a·(x + b). */
export function colourFromCut([low, high]: readonly [number, number]): HipsColour {
  return { nFilters: 1, a: 1 / (high - low), b: -low, mix: 0.5, beta: 0.01, bias: 0, exposure: 1, gamma: 1, ground: 0 };
}

/** The FITS tiles of `order` in `folder` (Norder{order}/Dir*\/Npix*.fits), in name order. */
function tileFiles(folder: string, order: number): string[] {
  const orderFolder = path.join(folder, `Norder${order}`);
  if (!fs.existsSync(orderFolder)) return [];
  const files: string[] = [];
  for (const dir of fs.readdirSync(orderFolder).sort())
    if (dir.startsWith('Dir'))
      for (const name of fs.readdirSync(path.join(orderFolder, dir)).sort())
        if (/^Npix\d+\.fits$/.test(name)) files.push(path.join(orderFolder, dir, name));
  return files;
}

/** The colour settings of a FITS-tiled HiPS folder, `given` numbers over the derived ones. */
export function hipsFitsColour(
  folder: string,
  properties: HipsProperties,
  given: Partial<HipsColour> = {},
): HipsColour {
  let derived: HipsColour;
  if (properties.pixelCut) derived = colourFromCut(properties.pixelCut);
  else {
    const core = loadCoreSync();
    const files = tileFiles(folder, properties.order);
    const step = Math.max(1, Math.floor(files.length / SAMPLED_TILES));
    const tiles = files
      .filter((_, index) => index % step === 0)
      .slice(0, SAMPLED_TILES)
      .map((file) => decodeFits(fs.readFileSync(file), core));
    derived = tiles.length > 0 ? derivePreset(tiles, 1) : colourFromCut([0, 1]);
  }
  return { ...derived, ...given, nFilters: 1 };
}
