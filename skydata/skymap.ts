// An all-sky map in equatorial coordinates (plate carrée, ra 0..360 left to right, dec +90 at
// the top), rendered from real data: the Milky Way's five brightness levels of outlines
// (d3-celestial mw.json), softened by a Gaussian and mottled into star clouds. It is the diffuse
// light of the stars too faint to draw one by one: no star of the catalogue is baked in, since
// the star layer draws every one of them at every zoom (a baked star would become a soft blot
// once its texel outgrew a screen pixel). The Milky Way cube faces and the HiPS sample it.
import fs from 'node:fs';
import { packageData } from './paths';

export interface SkyMap {
  width: number;
  height: number;
  /** Linear RGB, row 0 at dec +90. */
  rgb: Float32Array;
}

const MILKY_WAY_COLOUR = [1.0, 0.93, 0.82];

function blur(channel: Float32Array, width: number, height: number, sigma: number) {
  const reach = Math.ceil(3 * sigma);
  const kernel = Float32Array.from({ length: 2 * reach + 1 }, (_, k) =>
    Math.exp(-((k - reach) ** 2) / (2 * sigma * sigma)),
  );
  const total = kernel.reduce((a, b) => a + b, 0);
  for (let k = 0; k < kernel.length; k++) kernel[k] /= total;
  const temp = new Float32Array(channel.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let k = -reach; k <= reach; k++) sum += channel[y * width + ((x + k + width) % width)] * kernel[k + reach]; // ra wraps
      temp[y * width + x] = sum;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let k = -reach; k <= reach; k++)
        sum += temp[Math.max(0, Math.min(height - 1, y + k)) * width + x] * kernel[k + reach];
      channel[y * width + x] = sum;
    }
  }
}

/**
 * Even-odd fill of the rings of one Milky Way level into `mask` (+1 inside). Each ring's
 * longitudes are unwrapped so that a ring across ra 0/360 stays one closed shape; a ring that
 * winds once round the pole (the two edges of the faintest level's belt) is closed over the
 * north pole, so that the exclusive-or of the two caps is the belt between them.
 */
function fillRings(mask: Float32Array, width: number, height: number, rings: [number, number][][]) {
  const parity = new Uint8Array(width * height);
  const toY = (lat: number) => ((90 - lat) / 180) * height;
  for (const ring of rings) {
    const points: [number, number][] = [[ring[0][0], ring[0][1]]];
    for (let k = 1; k < ring.length; k++) {
      let delta = ring[k][0] - ring[k - 1][0];
      if (delta > 180) delta -= 360;
      if (delta < -180) delta += 360;
      points.push([points[k - 1][0] + delta, ring[k][1]]);
    }
    const last = points[points.length - 1][0];
    if (Math.abs(last - points[0][0]) > 180) points.push([last, 90], [points[0][0], 90]);
    for (let row = 0; row < height; row++) {
      const y = row + 0.5;
      const crossings: number[] = [];
      for (let k = 0; k < points.length; k++) {
        const [lon1, lat1] = points[k];
        const [lon2, lat2] = points[(k + 1) % points.length];
        const y1 = toY(lat1);
        const y2 = toY(lat2);
        if (y1 > y === y2 > y) continue;
        crossings.push(((lon1 + ((lon2 - lon1) * (y - y1)) / (y2 - y1)) / 360) * width);
      }
      crossings.sort((a, b) => a - b);
      for (let k = 0; k + 1 < crossings.length; k += 2) {
        for (let x = Math.ceil(crossings[k] - 0.5); x < Math.ceil(crossings[k + 1] - 0.5); x++) {
          parity[row * width + (((x % width) + width) % width)] ^= 1;
        }
      }
    }
  }
  for (let k = 0; k < mask.length; k++) mask[k] += parity[k];
}

/** A lattice value in [0, 1) from integer coordinates (a 32-bit integer hash). */
function lattice(i: number, j: number, octave: number): number {
  let h = Math.imul(i, 0x27d4eb2d) ^ Math.imul(j, 0x165667b1) ^ Math.imul(octave + 1, 0x9e3779b9);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/**
 * Fractal value noise in [0, 1] on the sky (ra, dec degrees), periodic in ra: the mottling of
 * star clouds and dust lanes that the five smooth outline levels lack. Octaves of 8° … 0.5°.
 */
function starClouds(ra: number, dec: number): number {
  let sum = 0;
  let weight = 0;
  for (let octave = 0; octave < 5; octave++) {
    const cell = 8 / 2 ** octave;
    const period = Math.round(360 / cell);
    const u = ra / cell;
    const v = (dec + 90) / cell;
    const i = Math.floor(u);
    const j = Math.floor(v);
    const fu = u - i;
    const fv = v - j;
    const su = fu * fu * (3 - 2 * fu);
    const sv = fv * fv * (3 - 2 * fv);
    const a = lattice(i % period, j, octave);
    const b = lattice((i + 1) % period, j, octave);
    const c = lattice(i % period, j + 1, octave);
    const d = lattice((i + 1) % period, j + 1, octave);
    const amplitude = 0.6 ** octave;
    sum += amplitude * ((a * (1 - su) + b * su) * (1 - sv) + (c * (1 - su) + d * su) * sv);
    weight += amplitude;
  }
  return sum / weight;
}

export function renderSkyMap(width: number): SkyMap {
  const height = width / 2;
  const mask = new Float32Array(width * height);
  const mw = JSON.parse(fs.readFileSync(packageData('d3-celestial', 'mw.json'), 'utf8')) as {
    features: { id: string; geometry: { coordinates: [number, number][][][] } }[];
  };
  for (const feature of mw.features)
    for (const polygon of feature.geometry.coordinates) fillRings(mask, width, height, polygon);
  blur(mask, width, height, width / 400);
  const rgb = new Float32Array(width * height * 3);
  for (let k = 0; k < mask.length; k++) {
    const ra = (((k % width) + 0.5) / width) * 360;
    const dec = 90 - ((Math.floor(k / width) + 0.5) / height) * 180;
    const clouds = mask[k] > 0.01 ? 0.35 + 1.3 * starClouds(ra, dec) ** 1.5 : 1;
    const value = clouds * (0.0015 * mask[k] ** 2.5 + 0.003 * mask[k]);
    for (let c = 0; c < 3; c++) rgb[3 * k + c] = value * MILKY_WAY_COLOUR[c];
  }
  return { width, height, rgb };
}

/** Bilinear sample at (ra, dec) degrees. */
export function sampleSkyMap(map: SkyMap, ra: number, dec: number, out: Float32Array) {
  const x = ((((ra % 360) + 360) % 360) / 360) * map.width - 0.5;
  const y = ((90 - dec) / 180) * map.height - 0.5;
  const x0 = Math.floor(x);
  const y0 = Math.max(0, Math.min(map.height - 2, Math.floor(y)));
  const fx = x - x0;
  const fy = Math.max(0, Math.min(1, y - y0));
  const xa = (x0 + map.width) % map.width;
  const xb = (x0 + 1) % map.width;
  for (let c = 0; c < 3; c++) {
    const a = map.rgb[3 * (y0 * map.width + xa) + c];
    const b = map.rgb[3 * (y0 * map.width + xb) + c];
    const d = map.rgb[3 * ((y0 + 1) * map.width + xa) + c];
    const e = map.rgb[3 * ((y0 + 1) * map.width + xb) + c];
    out[c] = (a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy;
  }
}

/** Display encoding of linear sky light: an asinh stretch to 8 bits. */
export function displayByte(value: number): number {
  return Math.max(0, Math.min(255, Math.round((Math.asinh(value / 0.004) / Math.asinh(2 / 0.004)) * 255)));
}
