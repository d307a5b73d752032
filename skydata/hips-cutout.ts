// A captain note's picture cut from a HiPS (issue 30: "a captain note (text, plus an image cut
// from the imagery)"): a square PNG centred on the target, north up and east to the left as a sky
// image is shown, in a gnomonic (TAN) projection whose pixel is the HiPS's deepest texel. Each
// pixel takes the texel its direction falls in (core/healpix.ts hipsTileCoordinates, in the
// HiPS's own frame), so the picture is what the viewer shows at that zoom.
import fs from 'node:fs';
import path from 'node:path';
import { hipsTileCoordinates } from '../core/healpix';
import { rotateGalactic, type HipsProperties } from '../core/hipsProperties';
import { loadCoreSync } from '../core/wasm';
import { hipsTilePath } from './hips';
import { decodePng, encodePng, type RasterImage } from './png';

/** The side of a captain note's picture in pixels (the dialog shows it at 256 × 256). */
export const CUTOUT_SIZE = 256;

const RAD = 180 / Math.PI;

export interface CutoutTarget {
  ra: number;
  dec: number;
}

/**
 * Cuts `CUTOUT_SIZE`-pixel pictures of `targets` from the HiPS in `folder` (PNG tiles only: the
 * import cannot decode JPEG or WebP tiles) and writes each as `file(target)`; returns the targets
 * written: none when the HiPS has no PNG tiles or a frame other than equatorial or galactic, and
 * not a target where the HiPS has no tile at all.
 */
export function writeCutouts<T extends CutoutTarget>(
  folder: string,
  properties: HipsProperties,
  targets: readonly T[],
  file: (target: T) => string,
): T[] {
  const formats = (properties.raw.get('hips_tile_format') ?? 'png').toLowerCase().split(/\s+/);
  if (!formats.includes('png')) return [];
  if (properties.frame !== 'equatorial' && properties.frame !== 'galactic') return [];
  const written: T[] = [];
  const core = loadCoreSync();
  const { order, tileWidth } = properties;
  // The deepest texel's side, radians: the picture's pixel.
  const scale = Math.sqrt((4 * Math.PI) / 12) / (2 ** order * tileWidth);
  const tiles = new Map<number, RasterImage | null>();
  const tile = (npix: number) => {
    if (!tiles.has(npix)) {
      const tileFile = path.join(folder, hipsTilePath(order, npix, 'png'));
      tiles.set(npix, fs.existsSync(tileFile) ? decodePng(fs.readFileSync(tileFile)) : null);
    }
    return tiles.get(npix)!;
  };
  const size = CUTOUT_SIZE;
  for (const target of targets) {
    // The tangent plane at the target: east (increasing ra) to the left, north up.
    const a = target.ra / RAD;
    const d = target.dec / RAD;
    const centre = [Math.cos(d) * Math.cos(a), Math.cos(d) * Math.sin(a), Math.sin(d)];
    const east = [-Math.sin(a), Math.cos(a), 0];
    const north = [-Math.sin(d) * Math.cos(a), -Math.sin(d) * Math.sin(a), Math.cos(d)];
    const theta = new Float64Array(size * size);
    const phi = new Float64Array(size * size);
    for (let row = 0; row < size; row += 1) {
      for (let column = 0; column < size; column += 1) {
        const u = -(column + 0.5 - size / 2) * scale;
        const v = -(row + 0.5 - size / 2) * scale;
        let direction = centre.map((value, i) => value + u * east[i]! + v * north[i]!);
        if (properties.frame === 'galactic') direction = rotateGalactic(direction, true);
        const norm = Math.hypot(direction[0]!, direction[1]!, direction[2]!);
        const k = row * size + column;
        theta[k] = Math.acos(direction[2]! / norm);
        phi[k] = (Math.atan2(direction[1]!, direction[0]!) + 2 * Math.PI) % (2 * Math.PI);
      }
    }
    const at = hipsTileCoordinates(core, order, theta, phi);
    const pixels = new Uint8Array(size * size * 3);
    let found = false;
    for (let k = 0; k < size * size; k += 1) {
      const image = tile(Number(at.tile[k]));
      if (!image) continue;
      found = true;
      // A tile's PNG row is the texel's x in its face, its column the y (Hipsgen's layout, ./hips.ts).
      const texel =
        Math.min(tileWidth - 1, Math.floor(at.x[k]! * tileWidth)) * tileWidth +
        Math.min(tileWidth - 1, Math.floor(at.y[k]! * tileWidth));
      for (let c = 0; c < 3; c += 1) {
        pixels[3 * k + c] = image.pixels[image.channels * texel + (image.channels >= 3 ? c : 0)]!;
      }
    }
    if (!found) continue;
    const out = file(target);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, encodePng({ width: size, height: size, channels: 3, pixels }));
    written.push(target);
  }
  return written;
}
