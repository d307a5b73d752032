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
import { hipsTileCenters } from '../src/core/healpix';
import { loadCoreSync } from '../src/core/wasm';
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
  // Texel centres of the whole tile in one wasm call (src/core/healpix.ts, Hipsgen's layout).
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

export function buildHips(root: string, map: SkyMap, { order, tileWidth }: HipsOptions): HipsResult {
  const directory = path.join(root, 'hips', 'sky');
  fs.rmSync(directory, { recursive: true, force: true });
  const tiles = 12 * 4 ** order;
  // Allsky: every tile of the order shrunk to 64 px (or the tile width if smaller), 27 a row.
  const allskyTile = Math.min(64, tileWidth);
  const columns = Math.floor(Math.sqrt(tiles));
  const rows = Math.ceil(tiles / columns);
  const allsky = new Uint8Array(columns * allskyTile * rows * allskyTile * 3);
  const allskyWidth = columns * allskyTile;
  let bytes = 0;
  const step = tileWidth / allskyTile;
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
    const ax = (npix % columns) * allskyTile;
    const ay = Math.floor(npix / columns) * allskyTile;
    for (let row = 0; row < allskyTile; row++) {
      for (let column = 0; column < allskyTile; column++) {
        for (let c = 0; c < 3; c++) {
          let sum = 0;
          for (let dy = 0; dy < step; dy++)
            for (let dx = 0; dx < step; dx++) sum += rgb[3 * ((row * step + dy) * tileWidth + column * step + dx) + c];
          allsky[3 * ((ay + row) * allskyWidth + ax + column) + c] = Math.round(sum / (step * step));
        }
      }
    }
  }
  const allskyImage = { width: allskyWidth, height: rows * allskyTile, channels: 3 as const, pixels: allsky };
  fs.writeFileSync(path.join(directory, `Norder${order}`, 'Allsky.png'), encodePng(allskyImage));
  fs.writeFileSync(
    path.join(directory, `Norder${order}`, 'Allsky.fits'),
    encodeFits({
      width: allskyImage.width,
      height: allskyImage.height,
      data: greyRowsReversed(allskyImage.pixels, allskyImage.width, allskyImage.height),
    }),
  );
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
