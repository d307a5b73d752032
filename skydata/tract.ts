// One survey tract: a TAN-projected square of sky rendered in HSC-G, HSC-R and HSC-I (sky noise,
// PSF, foreground stars, faint background galaxies and the target galaxies), written as the
// tile pyramid {filter}/{tract}/{level}/{p}/{q}.png in the 8-bit asinh encoding of the original
// HSC tiles: a tile byte v gives y = v/255 and flux x = 1e-4·sinh(9.903487555·(y − 1/9)).
//
// Tile geometry (also in meta.json's tractOptions and docs/sky-data.md): level L has pixels of
// 2^L × 2^L tract pixels; tile (p, q) of level L covers tract pixels
// x ∈ [p·256·2^L, (p+1)·256·2^L), y likewise with q (x, y 0-based, FITS pixel = x + 1). Rows are
// stored in FITS order, PNG row 0 being the tile's lowest y (south, flipV false).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { addBlob, addSersic, convolveGaussian, sersicLight, Stamp, type Colour } from './galaxy';
import { encodePng } from './png';
import { Random } from './random';
import { renderTarget, type TargetSpec } from './targets';
import type { TanWcs } from './wcs';

export const FILTERS = ['HSC-G', 'HSC-R', 'HSC-I'] as const;
export const TILE_SIZE = 256;
/** The asinh encoding constants of the original tiles. */
export const ASINH_SOFTENING = 1e-4;
export const ASINH_STRETCH = 9.903487555;

export function encodeFlux(flux: number): number {
  const y = Math.asinh(flux / ASINH_SOFTENING) / ASINH_STRETCH + 1 / 9;
  return Math.max(0, Math.min(255, Math.round(y * 255)));
}

export function decodeTileValue(byte: number): number {
  return ASINH_SOFTENING * Math.sinh(ASINH_STRETCH * (byte / 255 - 1 / 9));
}

/** Flux at the boundary between bytes k and k + 1: encodeFlux is a search in this table. */
const BOUNDARIES = Float64Array.from(
  { length: 255 },
  (_, k) => ASINH_SOFTENING * Math.sinh(ASINH_STRETCH * ((k + 0.5) / 255 - 1 / 9)),
);

/** encodeFlux over an array, by binary search of the byte boundaries (no asinh per pixel). */
function encodeRow(image: Float32Array, start: number, count: number, out: Uint8Array, at: number) {
  for (let k = 0; k < count; k++) {
    const flux = image[start + k];
    let low = 0;
    let high = 255;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (flux < BOUNDARIES[middle]) high = middle;
      else low = middle + 1;
    }
    out[at + k] = low;
  }
}

export interface Depth {
  /** Sky noise σ per band (flux units of the tiles). */
  noise: [number, number, number];
  /** Gaussian PSF σ per band in pixels (HSC seeing ≈ 0.6–0.8″ FWHM at 0.168″/px). */
  psf: [number, number, number];
  backgroundGalaxies: number;
  stars: number;
}

export const DEPTHS: Record<'wide' | 'dud' | 'simulation', Depth> = {
  wide: { noise: [1.3e-5, 1.6e-5, 2e-5], psf: [1.9, 1.7, 1.5], backgroundGalaxies: 140, stars: 25 },
  // Deep/UltraDeep: ~6× the exposure, so 2.5× lower noise and many more faint galaxies.
  dud: { noise: [5e-6, 6e-6, 8e-6], psf: [1.8, 1.6, 1.4], backgroundGalaxies: 320, stars: 25 },
  // Mock observations of a simulation box: HSC-like noise and PSF, no Milky Way stars.
  simulation: { noise: [1.3e-5, 1.6e-5, 2e-5], psf: [1.7, 1.6, 1.5], backgroundGalaxies: 40, stars: 0 },
};

export interface TractPlan {
  tract: number;
  wcs: TanWcs;
  depth: Depth;
  targets: TargetSpec[];
  seed: number;
  /**
   * HSC pixels per tract pixel side: 1 for an area tract; a field tract (./plan.ts) has coarser
   * pixels, each the mean of binning × binning HSC pixels, so its faint galaxies and stars are
   * drawn as PSF-sized points of their total light.
   */
  binning: number;
}

/** The level whose one tile covers the whole tract (sides of 256 · 2^L pixels at most). */
export function maxTileLevel(size: number): number {
  return Math.max(0, Math.ceil(Math.log2(size / TILE_SIZE)));
}

function addStamp(bands: Float32Array[], size: number, stamp: Stamp) {
  for (let py = 0; py < stamp.height; py++) {
    const y = stamp.y0 + py;
    if (y < 0 || y >= size) continue;
    for (let px = 0; px < stamp.width; px++) {
      const x = stamp.x0 + px;
      if (x < 0 || x >= size) continue;
      const k = py * stamp.width + px;
      for (let b = 0; b < 3; b++) bands[b][y * size + x] += stamp.bands[b][k];
    }
  }
}

/** Renders the tract's three bands at full resolution (level 0). */
export function renderTract(plan: TractPlan): Float32Array[] {
  const size = plan.wcs.NAXIS1;
  const random = new Random(plan.seed);
  const bands = [0, 1, 2].map(() => new Float32Array(size * size));
  // Sky noise: deviates drawn from a table of 65536 normal deviates by a fast hash of the pixel
  // index and seed, ~10× cheaper than a normal deviate per pixel and still without pattern.
  const noise = random.fork('noise');
  const table = Float32Array.from({ length: 65536 }, () => noise.gaussian());
  for (let b = 0; b < 3; b++) {
    const sigma = plan.depth.noise[b];
    let state = (plan.seed ^ Math.imul(b + 1, 0x9e3779b9)) >>> 0;
    const band = bands[b];
    for (let k = 0; k < band.length; k++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      band[k] = sigma * table[(state >>> 8) & 0xffff];
    }
  }
  if (plan.binning > 1) {
    addBinnedSky(plan, bands, random);
    return bands;
  }
  const scale = (size * size) / (2048 * 2048);
  // Faint background galaxies: small, redder with redshift, brightness from a steep power law.
  const background = random.fork('background');
  for (let n = 0; n < Math.round(plan.depth.backgroundGalaxies * scale); n++) {
    const x = background.uniform(0, size);
    const y = background.uniform(0, size);
    const re = 1.2 + 5 * Math.pow(background.next(), 3);
    const stamp = Stamp.around(x, y, re * 6 + 6);
    const red = background.uniform(0, 1);
    const colour: Colour = [0.75 - 0.45 * red, 0.9 - 0.15 * red, 1];
    addSersic(
      stamp,
      x,
      y,
      4e-4 * Math.pow(background.next(), 2) + 2e-5,
      re,
      background.chance(0.6) ? 1 : 3,
      background.uniform(0.3, 1),
      background.uniform(0, Math.PI),
      colour,
    );
    convolveGaussian(stamp, plan.depth.psf);
    addStamp(bands, size, stamp);
  }
  // Milky Way stars: point sources with the seeing profile, a core and a 5 % halo.
  const stars = random.fork('stars');
  for (let n = 0; n < Math.round(plan.depth.stars * scale); n++) {
    const { x, y, flux, colour } = milkyWayStar(stars, size);
    const stamp = Stamp.around(x, y, 30);
    for (let b = 0; b < 3; b++) {
      const sigma = plan.depth.psf[b];
      const one: Colour = [0, 0, 0];
      one[b] = colour[b];
      addBlob(stamp, x, y, sigma, 0.95 * flux, one);
      addBlob(stamp, x, y, sigma * 4, 0.05 * flux, one);
    }
    addStamp(bands, size, stamp);
  }
  for (const target of plan.targets) {
    const stamp = renderTarget(target, new Random(target.seed));
    convolveGaussian(stamp, plan.depth.psf);
    addStamp(bands, size, stamp);
  }
  return bands;
}

/**
 * The faint galaxies and Milky Way stars of a field tract (binning > 1), as many per square degree
 * as an area tract of the same depth has. A pixel here is the mean of binning² HSC pixels, so each
 * object is the total light of what renderTract would draw (a Sérsic law's whole light,
 * sersicLight) spread over a Gaussian of its PSF-convolved size, at least PIXEL_POINT_SIGMA wide:
 * narrower, the samples at pixel centres would no longer sum to the object's light.
 */
function addBinnedSky(plan: TractPlan, bands: Float32Array[], random: Random) {
  const size = plan.wcs.NAXIS1;
  const binning = plan.binning;
  const scale = (size * binning) ** 2 / (2048 * 2048);
  const point = (x: number, y: number, widths: Colour, light: Colour) => {
    const stamp = Stamp.around(x, y, 3.5 * Math.max(...widths) + 1);
    for (let b = 0; b < 3; b++) {
      const one: Colour = [0, 0, 0];
      one[b] = 1;
      addBlob(stamp, x, y, widths[b], light[b], one);
    }
    addStamp(bands, size, stamp);
  };
  const widthsOf = (intrinsic: number): Colour =>
    plan.depth.psf.map((psf) => Math.max(PIXEL_POINT_SIGMA, Math.hypot(intrinsic, psf) / binning)) as Colour;
  const background = random.fork('background');
  for (let n = 0; n < Math.round(plan.depth.backgroundGalaxies * scale); n++) {
    const x = background.uniform(0, size);
    const y = background.uniform(0, size);
    const re = 1.2 + 5 * Math.pow(background.next(), 3);
    const red = background.uniform(0, 1);
    const colour: Colour = [0.75 - 0.45 * red, 0.9 - 0.15 * red, 1];
    const ie = 4e-4 * Math.pow(background.next(), 2) + 2e-5;
    const index = background.chance(0.6) ? 1 : 3;
    const q = background.uniform(0.3, 1);
    const light = sersicLight(ie, re, index, q) / binning ** 2;
    // A Gaussian of the same half-light radius as the law: re = 1.1774 σ.
    point(x, y, widthsOf((re * Math.sqrt(q)) / 1.1774), colour.map((c) => c * light) as Colour);
  }
  const stars = random.fork('stars');
  for (let n = 0; n < Math.round(plan.depth.stars * scale); n++) {
    const { x, y, flux, colour } = milkyWayStar(stars, size);
    point(x, y, widthsOf(0), colour.map((c) => (c * flux) / binning ** 2) as Colour);
  }
}

/**
 * One faint Milky Way star of a tract `size` pixels a side: its place, flux (3.5 magnitudes below
 * 0.02) and colour, drawn in this order from `random` (area and field tracts alike).
 */
function milkyWayStar(random: Random, size: number): { x: number; y: number; flux: number; colour: Colour } {
  const x = random.uniform(0, size);
  const y = random.uniform(0, size);
  const flux = 0.02 * Math.pow(10, -random.uniform(0, 3.5));
  const temperature = random.next();
  return { x, y, flux, colour: [0.5 + 0.8 * temperature, 0.85 + 0.15 * temperature, 1] };
}

/** The narrowest Gaussian (pixels) whose samples at pixel centres still sum to its light within 1 %. */
const PIXEL_POINT_SIGMA = 0.55;

/** Halves a square image by averaging 2×2 blocks (the next tile level). */
function downsample(image: Float32Array, size: number): Float32Array {
  const half = size / 2;
  const out = new Float32Array(half * half);
  for (let y = 0; y < half; y++) {
    for (let x = 0; x < half; x++) {
      const k = 2 * y * size + 2 * x;
      out[y * half + x] = 0.25 * (image[k] + image[k + 1] + image[k + size] + image[k + size + 1]);
    }
  }
  return out;
}

/** Tiles a tract promises: every (level, p, q) of levels 0..maxTileLevel over its NAXIS. */
export function promisedTiles(
  naxis1: number,
  naxis2: number,
  minLevel: number,
  maxLevel: number,
): [number, number, number][] {
  const tiles: [number, number, number][] = [];
  for (let level = minLevel; level <= maxLevel; level++) {
    const span = TILE_SIZE * 2 ** level;
    for (let p = 0; p < Math.ceil(naxis1 / span); p++)
      for (let q = 0; q < Math.ceil(naxis2 / span); q++) tiles.push([level, p, q]);
  }
  return tiles;
}

/**
 * Writes the tile pyramid of one tract; returns the bytes written. The side halves exactly down to
 * the top level, so every level's image has whole pixels; where a level's image ends inside a tile
 * (a side that is not 256 · 2^L), the tile is still 256 × 256 and its pixels beyond the image hold
 * the sky's zero: the viewer draws a tile only as far as the tract's NAXIS reaches.
 */
export function writeTractTiles(surveyDirectory: string, plan: TractPlan, bands: Float32Array[]): number {
  const size = plan.wcs.NAXIS1;
  const top = maxTileLevel(size);
  if (size % 2 ** top !== 0) throw new Error(`tract ${plan.tract}: side ${size} does not halve ${top} times`);
  const zero = encodeFlux(0);
  let written = 0;
  FILTERS.forEach((filter, b) => {
    let image = bands[b];
    let levelSize = size;
    for (let level = 0; level <= top; level++) {
      const tiles = Math.ceil(levelSize / TILE_SIZE);
      for (let p = 0; p < tiles; p++) {
        const columns = Math.min(TILE_SIZE, levelSize - p * TILE_SIZE);
        for (let q = 0; q < tiles; q++) {
          const rows = Math.min(TILE_SIZE, levelSize - q * TILE_SIZE);
          const pixels = new Uint8Array(TILE_SIZE * TILE_SIZE).fill(zero);
          for (let row = 0; row < rows; row++)
            encodeRow(image, (q * TILE_SIZE + row) * levelSize + p * TILE_SIZE, columns, pixels, row * TILE_SIZE);
          const directory = path.join(surveyDirectory, filter, String(plan.tract), String(level), String(p));
          fs.mkdirSync(directory, { recursive: true });
          // Sky noise dominates most rows: unfiltered rows and Huffman-only deflate code it
          // smaller and ~4× faster than LZ77 matching, which finds little in noise.
          const png = encodePng(
            { width: TILE_SIZE, height: TILE_SIZE, channels: 1, pixels },
            { filter: 0, strategy: zlib.constants.Z_HUFFMAN_ONLY },
          );
          fs.writeFileSync(path.join(directory, `${q}.png`), png);
          written += png.length;
        }
      }
      if (level < top) {
        image = downsample(image, levelSize);
        levelSize /= 2;
      }
    }
  });
  return written;
}
