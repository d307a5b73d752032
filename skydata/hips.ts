// A HiPS of the whole sky (IVOA HiPS 1.0, Fernique et al. 2017): hips/sky/properties, tiles
// Norder{k}/Dir{floor(n/10000)*10000}/Npix{n}.png and .fits, and Norder3/Allsky.png/.fits,
// rendered from the sky map (Milky Way outlines and Hipparcos stars).
//
// Within a tile of order k, the pixel of PNG row r, column c is the nested HEALPix pixel
// (face, ix = ix0·w + r, iy = iy0·w + c) at order k + log2(w), where (ix0, iy0) is the tile's own
// position in its face: the convention of HiPS generators (Aladin's Hipsgen). FITS tiles hold
// the same pixels with rows reversed (FITS row 1 is the bottom), so both display alike.
import fs from 'node:fs';
import path from 'node:path';
import { encodeFits } from './fits';
import { hipsTileCenters } from '../core/healpix';
import { loadCoreSync } from '../core/wasm';
import { encodePng } from './png';
import { displayByte, sampleSkyMap, type SkyMap } from './skymap';

export interface HipsOptions {
  order: number;
  tileWidth: number;
}

export interface HipsResult {
  directory: string;
  tiles: number;
  bytes: number;
}

const RAD = 180 / Math.PI;

/** Renders one tile as RGB bytes (PNG row order). */
export function renderHipsTile(map: SkyMap, order: number, tileWidth: number, npix: number): Uint8Array {
  // Texel centres of the whole tile in one wasm call (core/healpix.ts, Hipsgen's layout).
  const { theta: thetas, phi: phis } = hipsTileCenters(loadCoreSync(), order, npix, tileWidth);
  const rgb = new Uint8Array(tileWidth * tileWidth * 3);
  const sample = new Float32Array(3);
  for (let row = 0; row < tileWidth; row++) {
    for (let column = 0; column < tileWidth; column++) {
      const theta = thetas[row * tileWidth + column];
      const phi = phis[row * tileWidth + column];
      sampleSkyMap(map, phi * RAD, 90 - theta * RAD, sample);
      const k = 3 * (row * tileWidth + column);
      rgb[k] = displayByte(sample[0]);
      rgb[k + 1] = displayByte(sample[1]);
      rgb[k + 2] = displayByte(sample[2]);
    }
  }
  return rgb;
}

function luminanceRowsReversed(rgb: Uint8Array, width: number): Uint8Array {
  const grey = new Uint8Array(width * width);
  for (let row = 0; row < width; row++) {
    for (let column = 0; column < width; column++) {
      const k = 3 * (row * width + column);
      grey[(width - 1 - row) * width + column] = Math.round(
        0.2126 * rgb[k] + 0.7152 * rgb[k + 1] + 0.0722 * rgb[k + 2],
      );
    }
  }
  return grey;
}

export function hipsTilePath(order: number, npix: number, format: string): string {
  return `Norder${order}/Dir${Math.floor(npix / 10000) * 10000}/Npix${npix}.${format}`;
}

/**
 * Norder{k}/Allsky.png (and .fits): every tile of the order shrunk to 64 px (or the tile width if
 * smaller), √tiles a row, as HiPS viewers draw the whole sky before the tiles come. Tiles are added
 * one at a time, so that they need not all be held; a tile never added stays black.
 */
export class Allsky {
  private readonly tile: number;
  private readonly columns: number;
  private readonly rows: number;
  private readonly pixels: Uint8Array;

  constructor(
    private readonly order: number,
    private readonly tileWidth: number,
  ) {
    const tiles = 12 * 4 ** order;
    this.tile = Math.min(64, tileWidth);
    this.columns = Math.floor(Math.sqrt(tiles));
    this.rows = Math.ceil(tiles / this.columns);
    this.pixels = new Uint8Array(this.columns * this.tile * this.rows * this.tile * 3);
  }

  /** Shrinks tile `npix` (RGB bytes, PNG row order) into its place. */
  add(npix: number, rgb: Uint8Array): void {
    const { tile, tileWidth } = this;
    const width = this.columns * tile;
    const step = tileWidth / tile;
    const ax = (npix % this.columns) * tile;
    const ay = Math.floor(npix / this.columns) * tile;
    for (let row = 0; row < tile; row++) {
      for (let column = 0; column < tile; column++) {
        for (let c = 0; c < 3; c++) {
          let sum = 0;
          for (let dy = 0; dy < step; dy++)
            for (let dx = 0; dx < step; dx++) sum += rgb[3 * ((row * step + dy) * tileWidth + column * step + dx) + c];
          this.pixels[3 * ((ay + row) * width + ax + column) + c] = Math.round(sum / (step * step));
        }
      }
    }
  }

  /** Writes Allsky.png, and with `fits` its grey FITS twin, under `directory`/Norder{order}. */
  write(directory: string, { fits }: { fits: boolean }): void {
    const image = {
      width: this.columns * this.tile,
      height: this.rows * this.tile,
      channels: 3 as const,
      pixels: this.pixels,
    };
    const folder = path.join(directory, `Norder${this.order}`);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'Allsky.png'), encodePng(image));
    if (fits) {
      fs.writeFileSync(
        path.join(folder, 'Allsky.fits'),
        encodeFits({
          width: image.width,
          height: image.height,
          data: greyRowsReversed(image.pixels, image.width, image.height),
        }),
      );
    }
  }
}

export function buildHips(root: string, map: SkyMap, { order, tileWidth }: HipsOptions): HipsResult {
  const directory = path.join(root, 'hips', 'sky');
  fs.rmSync(directory, { recursive: true, force: true });
  const tiles = 12 * 4 ** order;
  const allsky = new Allsky(order, tileWidth);
  let bytes = 0;
  for (let npix = 0; npix < tiles; npix++) {
    const rgb = renderHipsTile(map, order, tileWidth, npix);
    const file = path.join(directory, hipsTilePath(order, npix, 'png'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const png = encodePng({ width: tileWidth, height: tileWidth, channels: 3, pixels: rgb });
    fs.writeFileSync(file, png);
    const fits = encodeFits({
      width: tileWidth,
      height: tileWidth,
      data: luminanceRowsReversed(rgb, tileWidth),
      keywords: [
        ['ORDER', order],
        ['NPIX', npix],
      ],
    });
    fs.writeFileSync(file.replace(/\.png$/, '.fits'), fits);
    bytes += png.length + fits.length;
    allsky.add(npix, rgb);
  }
  allsky.write(directory, { fits: true });
  const pixelScale = Math.sqrt((4 * Math.PI) / (12 * (2 ** order * tileWidth) ** 2)) * RAD;
  const properties = [
    '# HiPS properties (IVOA HiPS 1.0)',
    'creator_did = ivo://galaxy-cruise/P/rendered-sky',
    'obs_title = Galaxy Cruise rendered sky (Milky Way outlines and Hipparcos stars)',
    'obs_copyright = Hipparcos (ESA) and Milky Way outlines via d3-celestial (BSD-3-Clause)',
    'dataproduct_type = image',
    'hips_version = 1.4',
    'hips_status = public master clonableOnce',
    'hips_frame = equatorial',
    `hips_order = ${order}`,
    `hips_order_min = ${order}`,
    `hips_tile_width = ${tileWidth}`,
    'hips_tile_format = png fits',
    `hips_pixel_scale = ${pixelScale.toPrecision(6)}`,
    'hips_initial_ra = 83.82',
    'hips_initial_dec = -5.39',
    'hips_initial_fov = 60',
    'dataproduct_subtype = color',
  ];
  fs.writeFileSync(path.join(directory, 'properties'), properties.join('\n') + '\n');
  return { directory, tiles, bytes };
}

function greyRowsReversed(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const grey = new Uint8Array(width * height);
  for (let row = 0; row < height; row++) {
    for (let column = 0; column < width; column++) {
      const k = 3 * (row * width + column);
      grey[(height - 1 - row) * width + column] = Math.round(
        0.2126 * rgb[k] + 0.7152 * rgb[k + 1] + 0.0722 * rgb[k + 2],
      );
    }
  }
  return grey;
}
