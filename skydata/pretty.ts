// Pretty pictures (viewer-spec §3, §7): pretty_picture/{m31,m42,m45,m101,perseus}/meta.json
// (wcs, tractOptions, filters — at most 4 — and a preset with a saved view) and FITS tiles
// {filter}/{level}/{p}/{q}.fits, float32, gzip-compressed, at the objects' real positions and
// sizes. Light comes from the same physical components as the survey galaxies; every star in
// the field is a real Hipparcos star (stars.14.json), so M45 is the real Pleiades; the Perseus
// cluster's galaxies are the SAC catalogue's, at their real positions, sizes and types.
// Tile geometry is the survey tiles' (tract.ts): level L pixels are 2^L tract pixels and
// FITS row 1 of a tile is its lowest y.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { addBlob, addSersic, convolveGaussian, Stamp, type Colour } from './galaxy';
import { encodeFits } from './fits';
import { packageData } from './paths';
import { loadRealGalaxies } from './plan';
import { pixelAngle, POSITION_ANGLES } from './position-angles';
import { Random } from './random';
import { renderTarget, type TargetKind } from './targets';
import { maxTileLevel, TILE_SIZE } from './tract';
import { separation, skyToPixel, tanWcs, type TanWcs } from './wcs';
import { PRETTY_PICTURES, type PrettyPicture, type PrettyPreset } from '../src/shared/prettyPicture';

interface Definition {
  ra: number;
  dec: number;
  /** Field side, degrees. */
  field: number;
  filters: string[];
  render: (image: Image, random: Random) => void;
}

/** Bands of one picture: filters in the order of `filters`, row 0 = lowest y. */
export interface Image {
  size: number;
  wcs: TanWcs;
  bands: Float32Array[];
  /** Colour weights of a component across the picture's filters. */
  colour: (g: number, r: number, i: number, ha?: number) => number[];
}

const RAD = Math.PI / 180;

function addStamp(image: Image, stamp: Stamp, weights: number[][]) {
  // stamp.bands are (G, R, I); weights[b] maps them onto picture filter b.
  for (let py = 0; py < stamp.height; py++) {
    const y = stamp.y0 + py;
    if (y < 0 || y >= image.size) continue;
    for (let px = 0; px < stamp.width; px++) {
      const x = stamp.x0 + px;
      if (x < 0 || x >= image.size) continue;
      const k = py * stamp.width + px;
      for (let b = 0; b < image.bands.length; b++) {
        const [wg, wr, wi] = weights[b];
        image.bands[b][y * image.size + x] += wg * stamp.bands[0][k] + wr * stamp.bands[1][k] + wi * stamp.bands[2][k];
      }
    }
  }
}

const IDENTITY = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

let stars14: { ra: number; dec: number; mag: number; bv: number }[] | null = null;
function realStars() {
  if (!stars14) {
    const data = JSON.parse(fs.readFileSync(packageData('d3-celestial', 'stars.14.json'), 'utf8')) as {
      features: { properties: { mag: number; bv: string }; geometry: { coordinates: [number, number] } }[];
    };
    stars14 = data.features.map((f) => ({
      ra: (f.geometry.coordinates[0] + 360) % 360,
      dec: f.geometry.coordinates[1],
      mag: f.properties.mag,
      bv: Number(f.properties.bv),
    }));
  }
  return stars14;
}

/** Every Hipparcos star in the field, as a PSF with a halo, coloured by B−V. */
function addRealStars(image: Image, sigma: number, brightness: number) {
  const centre = [image.wcs.CRVAL1, image.wcs.CRVAL2];
  const radius = (image.size * Math.abs(image.wcs.CD1_1)) / Math.SQRT2;
  for (const star of realStars()) {
    if (Math.abs(star.dec - centre[1]) > radius || separation(star.ra, star.dec, centre[0], centre[1]) > radius)
      continue;
    const [fx, fy] = skyToPixel(image.wcs, star.ra, star.dec);
    const flux = brightness * Math.pow(10, -0.4 * (star.mag - 6));
    const bv = Number.isFinite(star.bv) ? star.bv : 0.6;
    const colour: Colour = [Math.max(0.3, 1.1 - 0.5 * bv), 1, Math.min(1.6, 0.9 + 0.4 * bv)];
    const stamp = Stamp.around(fx - 1, fy - 1, Math.min(200, sigma * 4 * (1 + Math.max(0, 6 - star.mag))));
    addBlob(stamp, fx - 1, fy - 1, sigma, 0.9 * flux, colour);
    addBlob(stamp, fx - 1, fy - 1, sigma * 5, 0.1 * flux, colour);
    addStamp(image, stamp, image.bands.length === 4 ? [...IDENTITY.slice(0, 2), [0, 0.9, 0.1], IDENTITY[2]] : IDENTITY);
  }
}

function galaxy(
  image: Image,
  kind: TargetKind,
  ra: number,
  dec: number,
  radiusDegrees: number,
  q: number,
  /** Catalogue position angle, degrees from north through east. */
  positionAngle: number,
  brightness: number,
  seed: number,
) {
  const [fx, fy] = skyToPixel(image.wcs, ra, dec);
  const radius = radiusDegrees / Math.abs(image.wcs.CD1_1);
  const pa = pixelAngle(image.wcs, ra, dec, positionAngle);
  const stamp = renderTarget(
    { kind, x: fx - 1, y: fy - 1, radius, q, pa, brightness, primarySpiral: true, seed },
    new Random(seed),
  );
  convolveGaussian(stamp, [1.2, 1.1, 1]);
  addStamp(image, stamp, IDENTITY);
}

const DEFINITIONS: Record<PrettyPicture, Definition> = {
  // M31 and its companions M32 and M110; 190′ × 60′ disc at position angle 35°.
  m31: {
    ra: 10.6847,
    dec: 41.2687,
    field: 3.4,
    filters: ['HSC-G', 'HSC-R', 'HSC-I'],
    render(image) {
      galaxy(image, 'spiral', 10.6847, 41.2687, 95 / 60, 0.32, POSITION_ANGLES['NGC 224'], 1, 31);
      galaxy(image, 'elliptical', 10.6742, 40.8652, 4 / 60, 0.8, POSITION_ANGLES['NGC 221'], 3, 32);
      galaxy(image, 'elliptical', 10.0921, 41.6854, 10 / 60, 0.6, POSITION_ANGLES['NGC 205'], 1, 110);
      addRealStars(image, 1.3, 0.02);
    },
  },
  // The Orion Nebula: Hα (NB0656 and HSC-R) and [O III]/Hβ (HSC-G) around the Trapezium, M43
  // to the north-east, the dark Fish's Mouth between them.
  m42: {
    ra: 83.8221,
    dec: -5.3911,
    field: 1.6,
    filters: ['HSC-G', 'HSC-R', 'NB0656', 'HSC-I'],
    render(image, random) {
      const nebula = (ra: number, dec: number, sigmaDegrees: number, flux: number, emission: number[]) => {
        const [fx, fy] = skyToPixel(image.wcs, ra, dec);
        const sigma = sigmaDegrees / Math.abs(image.wcs.CD1_1);
        const stamp = Stamp.around(fx - 1, fy - 1, sigma * 3.2);
        addBlob(stamp, fx - 1, fy - 1, sigma, flux, [1, 1, 1]);
        const weights = emission.map((w) => [w, 0, 0]);
        addStamp(image, stamp, weights);
      };
      // Emission: [G, R, NB0656, I] weights of Hα-dominated and [O III]-dominated gas.
      const hAlpha = [0.25, 0.8, 3, 0.3];
      const oxygen = [1, 0.4, 0.6, 0.15];
      nebula(83.8187, -5.3897, 0.05, 40, oxygen);
      nebula(83.83, -5.4, 0.12, 90, hAlpha);
      for (let k = 0; k < 40; k++) {
        nebula(
          83.82 + random.gaussian() * 0.12,
          -5.42 + random.gaussian() * 0.14,
          random.uniform(0.015, 0.06),
          random.uniform(2, 10),
          random.chance(0.7) ? hAlpha : oxygen,
        );
      }
      nebula(83.8917, -5.27, 0.04, 12, hAlpha); // M43
      nebula(83.87, -5.33, 0.03, -8, hAlpha); // the dark lane, as absorption
      addRealStars(image, 1.4, 0.02);
    },
  },
  // The Pleiades: the real Hipparcos stars and blue reflection nebulosity around the brightest.
  m45: {
    ra: 56.75,
    dec: 24.1167,
    field: 2.4,
    filters: ['HSC-G', 'HSC-R', 'HSC-I'],
    render(image) {
      for (const [ra, dec, flux] of [
        [56.5812, 23.9483, 30], // Merope
        [56.4566, 24.3676, 18], // Maia
        [56.2189, 24.1133, 15], // Electra
        [56.8712, 24.1051, 22], // Alcyone
      ]) {
        const [fx, fy] = skyToPixel(image.wcs, ra, dec);
        const sigma = 0.12 / Math.abs(image.wcs.CD1_1);
        const stamp = Stamp.around(fx - 1, fy - 1, sigma * 3.5);
        addSersic(stamp, fx - 1, fy - 1, flux / (sigma * sigma * 80), sigma, 0.7, 0.75, 0.7, [1.4, 0.8, 0.5]);
        addStamp(image, stamp, IDENTITY);
      }
      addRealStars(image, 1.5, 0.05);
    },
  },
  // M101, the Pinwheel: a face-on grand-design spiral, 28.8′ across.
  m101: {
    ra: 210.8023,
    dec: 54.3489,
    field: 0.7,
    filters: ['HSC-G', 'HSC-R', 'HSC-I'],
    render(image) {
      galaxy(image, 'spiral', 210.8023, 54.3489, 14.4 / 60, 0.93, POSITION_ANGLES['NGC 5457'], 1.2, 101);
      addRealStars(image, 1.3, 0.02);
    },
  },
  // The Perseus cluster (Abell 426) around NGC 1275: every SAC galaxy within the field.
  perseus: {
    ra: 49.9507,
    dec: 41.5117,
    field: 1.2,
    filters: ['HSC-G', 'HSC-R', 'HSC-I'],
    render(image, random) {
      for (const g of loadRealGalaxies()) {
        if (separation(g.ra, g.dec, 49.9507, 41.5117) > 0.6 * Math.SQRT2) continue;
        const kind = g.name === 'NGC 1275' ? 'distorted' : g.kind;
        // Drawn even where the catalogue knows the angle, so that the other galaxies stay as they were.
        const drawn = random.uniform(0, 180);
        galaxy(
          image,
          kind,
          g.ra,
          g.dec,
          g.major / 120,
          Math.max(0.2, g.minor / g.major),
          g.positionAngle ?? drawn,
          1.2,
          random.int(1, 2 ** 31),
        );
      }
      addRealStars(image, 1.3, 0.02);
    },
  },
};

/** Clears the 16 lowest mantissa bits (relative precision 2^−7, below what a display shows) so
 * that gzip finds repeats; the values stay float32. */
function quantise(values: Float32Array): Float32Array {
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const out = new Float32Array(values.length);
  const outBits = new Uint32Array(out.buffer);
  for (let k = 0; k < bits.length; k++) outBits[k] = bits[k] & 0xffff0000;
  return out;
}

function downsample(image: Float32Array, size: number): Float32Array {
  const half = size / 2;
  const out = new Float32Array(half * half);
  for (let y = 0; y < half; y++)
    for (let x = 0; x < half; x++) {
      const k = 2 * y * size + 2 * x;
      out[y * half + x] = 0.25 * (image[k] + image[k + 1] + image[k + size] + image[k + size + 1]);
    }
  return out;
}

/** One picture's full-resolution bands (in the order of its filters), before tiling. */
export function renderPrettyPicture(which: PrettyPicture, size: number): Image {
  const definition = DEFINITIONS[which];
  const wcs = tanWcs(definition.ra, definition.dec, size, (definition.field * 3600) / size);
  const image: Image = {
    size,
    wcs,
    bands: definition.filters.map(() => new Float32Array(size * size)),
    colour: (g, r, i) => [g, r, i],
  };
  const random = new Random(0x5eed + which.length * 977 + which.charCodeAt(1));
  definition.render(image, random);
  // Sky noise, much fainter than the survey's: these are deep, smoothed pictures.
  const noise = random.fork('noise');
  for (const band of image.bands) for (let k = 0; k < band.length; k++) band[k] += 3e-6 * noise.gaussian();
  return image;
}

export function buildPrettyPictures(root: string, size: number): { pictures: number; tiles: number; bytes: number } {
  const top = path.join(root, 'pretty_picture');
  fs.rmSync(top, { recursive: true, force: true });
  let tiles = 0;
  let bytes = 0;
  const presets: Record<string, PrettyPreset> = {};
  for (const which of PRETTY_PICTURES) {
    const definition = DEFINITIONS[which];
    const image = renderPrettyPicture(which, size);
    const wcs = image.wcs;
    const levels = maxTileLevel(size);
    definition.filters.forEach((filter, b) => {
      let level0 = image.bands[b];
      let levelSize = size;
      for (let level = 0; level <= levels; level++) {
        const count = levelSize / TILE_SIZE;
        for (let p = 0; p < count; p++) {
          for (let q = 0; q < count; q++) {
            const data = new Float32Array(TILE_SIZE * TILE_SIZE);
            for (let row = 0; row < TILE_SIZE; row++)
              data.set(
                level0.subarray(
                  (q * TILE_SIZE + row) * levelSize + p * TILE_SIZE,
                  (q * TILE_SIZE + row) * levelSize + (p + 1) * TILE_SIZE,
                ),
                row * TILE_SIZE,
              );
            const fits = encodeFits({
              width: TILE_SIZE,
              height: TILE_SIZE,
              data: quantise(data),
              keywords: [
                ['FILTER', filter],
                ['LEVEL', level],
              ],
            });
            const directory = path.join(top, which, filter, String(level), String(p));
            fs.mkdirSync(directory, { recursive: true });
            const gz = zlib.gzipSync(fits, { level: 6 });
            fs.writeFileSync(path.join(directory, `${q}.fits`), gz);
            tiles++;
            bytes += gz.length;
          }
        }
        if (level < levels) {
          level0 = downsample(level0, levelSize);
          levelSize /= 2;
        }
      }
    });
    const preset: PrettyPreset = {
      nFilters: definition.filters.length,
      a: 1,
      b: 0,
      mix: definition.filters.length === 4 ? 0.6 : 0,
      beta: which === 'm42' ? 200 : 2000,
      bias: 0.02,
      exposure: which === 'm45' ? 0.6 : 1,
      gamma: 1.6,
      ground: 0,
      view: { a: definition.ra * RAD, d: definition.dec * RAD, fovy: definition.field * 0.8 * RAD, roll: 0 },
    };
    presets[which] = preset;
    const meta = {
      wcs,
      tractOptions: { tileSize: TILE_SIZE, minTileLevel: 0, maxTileLevel: levels, flipV: false },
      filters: definition.filters,
      preset,
    };
    fs.writeFileSync(path.join(top, which, 'meta.json'), JSON.stringify(meta, null, 1));
  }
  fs.writeFileSync(path.join(top, 'presets.json'), JSON.stringify(presets, null, 1));
  return { pictures: PRETTY_PICTURES.length, tiles, bytes };
}
