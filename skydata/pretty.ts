// Pretty pictures (viewer-spec §3, §7): pretty_picture/{m31,m42,m45,m101,perseus}/meta.json
// (wcs, tractOptions, filters — at most 4 — and a preset with a saved view) and FITS tiles
// {filter}/{level}/{p}/{q}.fits, float32, gzip-compressed, at the objects' real positions and
// sizes. Light comes from the same physical components as the survey galaxies; every star in
// the field is a real Hipparcos star (stars.14.json), so M45 is the real Pleiades; the Perseus
// cluster's galaxies are the SAC catalogue's, at their real positions, sizes and types. Nebulae
// and dust are laid out on the sky (sizes in degrees, surface brightness per pixel), so a picture
// looks the same in the default sky's 1024 pixels and the small sky's 256; stars and the galaxies'
// seeing and knots are drawn at the pixel scale, as a camera of that resolution would.
// Tile geometry is the survey tiles' (tract.ts): level L pixels are 2^L tract pixels and
// FITS row 1 of a tile is its lowest y.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { addBlob, convolveGaussian, COLOURS, Stamp, type Colour } from './galaxy';
import { encodeFits } from './fits';
import { packageData } from './paths';
import { loadRealGalaxies } from './plan';
import { pixelAngle, POSITION_ANGLES } from './position-angles';
import { Random } from './random';
import { renderTarget, type TargetKind } from './targets';
import { maxTileLevel, TILE_SIZE } from './tract';
import { separation, skyToPixel, tanWcs, type TanWcs } from './wcs';
import { DEFAULT_DISPLAY, mixMatrix, prettyColor } from '../shared/prettyMixing';
import { PRETTY_PICTURES, type PrettyPicture, type PrettyPreset } from '../shared/prettyPicture';

interface Definition {
  ra: number;
  dec: number;
  /** Field side, degrees. */
  field: number;
  filters: string[];
  render: (image: Image, random: Random) => void;
  /**
   * Multipliers of the filters' light, the picture's white balance: the galaxies' HSC-G is lifted
   * and HSC-I lowered so that a disc of young and old stars comes out white, the old bulge
   * yellowish and the arms bluer, as in colour photographs of galaxies; without it the asinh
   * stretch whitens the bright core and leaves the faint disc redder than the core.
   */
  balance?: number[];
  /** The preset's mixing parameters (shared/prettyMixing.ts). */
  mixing: Omit<PrettyPreset, 'nFilters' | 'view'>;
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
    // Wide enough for the halo's 3.5 sigma: a halo cut at the stamp's edge shows as a square.
    const stamp = Stamp.around(fx - 1, fy - 1, sigma * 5 * 3.5);
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
  // The stamp ends 1.7 radii out, and a galaxy a few pixels across still has light there (its
  // knots are pixel-sized): faded out over the stamp's outer 30 %, so that it is not cut square.
  const half = stamp.width / 2;
  for (let py = 0; py < stamp.height; py++)
    for (let px = 0; px < stamp.width; px++) {
      const d = Math.hypot(stamp.x0 + px - (fx - 1), stamp.y0 + py - (fy - 1)) / half;
      if (d < 0.7) continue;
      const fade = d >= 1 ? 0 : 0.5 + 0.5 * Math.cos((Math.PI * (d - 0.7)) / 0.3);
      for (const band of stamp.bands) band[py * stamp.width + px] *= fade;
    }
  addStamp(image, stamp, IDENTITY);
}

/**
 * An elliptical Gaussian cloud of light: sigma (degrees) along the major axis at position angle
 * `pa` (degrees, north through east), axis ratio q, and `peak` the surface brightness at its
 * centre per filter (weights[b] × peak). Sizes and brightness are on the sky, so a picture looks
 * the same at every size (the small sky's 256 pixels and the default's 1024).
 */
function addCloud(
  image: Image,
  ra: number,
  dec: number,
  sigma: number,
  q: number,
  pa: number,
  peak: number,
  weights: number[],
) {
  shade(image, ra, dec, sigma, q, pa, (b, value, g) => value + peak * weights[b] * g);
}

/** Dust in front of the light: each filter b dimmed by exp(−depth × reddening[b] × the Gaussian). */
function addDust(
  image: Image,
  ra: number,
  dec: number,
  sigma: number,
  q: number,
  pa: number,
  depth: number,
  reddening: number[],
) {
  shade(image, ra, dec, sigma, q, pa, (b, value, g) => value * Math.exp(-depth * reddening[b] * g));
}

/** Applies `change` to every band's pixels within 3.5 sigma of an elliptical Gaussian, with its value g. */
function shade(
  image: Image,
  ra: number,
  dec: number,
  sigmaDegrees: number,
  q: number,
  pa: number,
  change: (band: number, value: number, g: number) => number,
) {
  const [fx, fy] = skyToPixel(image.wcs, ra, dec);
  const cx = fx - 1;
  const cy = fy - 1;
  const sigma = sigmaDegrees / Math.abs(image.wcs.CD1_1);
  const angle = pixelAngle(image.wcs, ra, dec, pa);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const reach = 3.5 * sigma;
  const { size, bands } = image;
  for (let y = Math.max(0, Math.floor(cy - reach)); y <= Math.min(size - 1, Math.ceil(cy + reach)); y++)
    for (let x = Math.max(0, Math.floor(cx - reach)); x <= Math.min(size - 1, Math.ceil(cx + reach)); x++) {
      const dx = x - cx;
      const dy = y - cy;
      const u = (dx * cos + dy * sin) / sigma;
      const v = (-dx * sin + dy * cos) / (q * sigma);
      const r2 = u * u + v * v;
      if (r2 > 12.25) continue;
      const g = Math.exp(-r2 / 2);
      const k = y * size + x;
      for (let b = 0; b < bands.length; b++) bands[b][k] = change(b, bands[b][k], g);
    }
}

/**
 * Dust lanes of an inclined disc: arcs of absorption in the disc's plane that wind outwards
 * (radii and depths as fractions of the disc radius), broken up along their length, and seen
 * mostly on the near side (the minor axis's half towards position angle pa − 90°), where the dust
 * lies in front of the bulge and disc light; each filter b is dimmed by exp(−τ × reddening[b]).
 */
function addDustLanes(
  image: Image,
  ra: number,
  dec: number,
  radiusDegrees: number,
  q: number,
  pa: number,
  rings: [number, number][],
  random: Random,
) {
  const [fx, fy] = skyToPixel(image.wcs, ra, dec);
  const cx = fx - 1;
  const cy = fy - 1;
  const radius = radiusDegrees / Math.abs(image.wcs.CD1_1);
  const major = pixelAngle(image.wcs, ra, dec, pa);
  const minor = pixelAngle(image.wcs, ra, dec, pa + 90);
  const lanes = rings.map(([ring, depth]) => ({
    ring,
    depth,
    phases: [random.uniform(0, 2 * Math.PI), random.uniform(0, 2 * Math.PI), random.uniform(0, 2 * Math.PI)],
  }));
  const width = 0.016;
  const reddening = [1.25, 1, 0.8];
  const { size, bands } = image;
  for (let y = Math.max(0, Math.floor(cy - radius)); y <= Math.min(size - 1, Math.ceil(cy + radius)); y++)
    for (let x = Math.max(0, Math.floor(cx - radius)); x <= Math.min(size - 1, Math.ceil(cx + radius)); x++) {
      const dx = x - cx;
      const dy = y - cy;
      const u = (dx * Math.cos(major) + dy * Math.sin(major)) / radius;
      const v = (dx * Math.cos(minor) + dy * Math.sin(minor)) / (q * radius);
      const rho = Math.hypot(u, v);
      if (rho > 1) continue;
      // Azimuth from the near side's minor axis, so that the arcs' ends meet on the far side.
      const theta = Math.atan2(u, -v);
      const near = 0.15 + 0.85 * Math.max(0, -v / Math.max(rho, 1e-9)) ** 0.5;
      let tau = 0;
      for (const { ring, depth, phases } of lanes) {
        const offset = rho - ring * (1 + (0.06 * theta) / Math.PI) - 0.015 * Math.sin(3 * theta + phases[0]);
        const broken = Math.max(
          0,
          0.55 + 0.45 * Math.sin(2 * theta + phases[1]) + 0.35 * Math.sin(7 * theta + phases[2]),
        );
        tau += depth * broken * Math.exp(-(offset * offset) / (2 * width * width));
      }
      if (tau === 0) continue;
      const k = y * size + x;
      for (let b = 0; b < bands.length; b++) bands[b][k] *= Math.exp(-near * tau * reddening[b]);
    }
}

/**
 * The pictures' tone curve (shared/prettyMixing.ts). The shoulder (1 − cos πs)/2 is quadratic
 * at the faint end, and a gamma above 1 steepened that further: a galaxy's disc or a nebula's glow
 * at a tenth of the stretch came out at a few per cent. Gamma 0.5 undoes the shoulder's toe
 * (((1 − cos πs)/2)^0.5 = sin(πs/2)), so the light rises evenly with the asinh stretch and only the
 * brightest end rolls off. Bias 0 leaves the sky black: the picture is added to the sky beneath it,
 * so a lifted black would show as a grey square.
 */
const TONE = { a: 1, b: 0, bias: 0, exposure: 1, gamma: 0.5, ground: 0 };

/** The galaxy pictures' white balance (Definition.balance), HSC-G, HSC-R, HSC-I. */
const GALAXY_BALANCE = [1.4, 1, 0.75];

/** M31's dust lanes: (radius, depth) in the disc's plane, the radius a fraction of its 95′ semi-major axis. */
const DUST_RINGS: [number, number][] = [
  [0.32, 0.6],
  [0.47, 1],
  [0.6, 0.8],
  [0.74, 0.5],
];

const DEFINITIONS: Record<PrettyPicture, Definition> = {
  // M31 and its companions M32 and M110; 190′ × 60′ disc at position angle 35°, its dust lanes
  // deepest on the near, north-western side.
  m31: {
    ra: 10.6847,
    dec: 41.2687,
    field: 3.4,
    filters: ['HSC-G', 'HSC-R', 'HSC-I'],
    balance: GALAXY_BALANCE,
    mixing: { ...TONE, mix: 0, beta: 2000 },
    render(image, random) {
      galaxy(image, 'spiral', 10.6847, 41.2687, 95 / 60, 0.32, POSITION_ANGLES['NGC 224'], 1, 31);
      addDustLanes(image, 10.6847, 41.2687, 95 / 60, 0.32, POSITION_ANGLES['NGC 224'], DUST_RINGS, random);
      galaxy(image, 'elliptical', 10.6742, 40.8652, 4 / 60, 0.8, POSITION_ANGLES['NGC 221'], 3, 32);
      galaxy(image, 'elliptical', 10.0921, 41.6854, 10 / 60, 0.6, POSITION_ANGLES['NGC 205'], 1, 110);
      addRealStars(image, 1.3, 0.02);
    },
  },
  // The Orion Nebula (M42, NGC 1976) in Hα (NB0656, and HSC-R) and [O III]/Hβ (HSC-G): the bright
  // Huygens region around the Trapezium with the Orion Bar to its south-east, the nebula's body and
  // its wings sweeping east and west, mottled; the dark Fish's Mouth between it and M43 to the
  // north-east, and the blue reflection nebula NGC 1977 half a degree north.
  m42: {
    ra: 83.8221,
    dec: -5.3911,
    field: 1.6,
    filters: ['HSC-G', 'HSC-R', 'NB0656', 'HSC-I'],
    // Red is 0.8 of NB0656 (the Hα glow) and 0.2 of HSC-I (the stars' continuum).
    mixing: { ...TONE, mix: 0.8, beta: 2000 },
    render(image, random) {
      // Filter weights [G, R, NB0656, I] of each kind of light. Hα falls in both NB0656 and HSC-R, but
      // the broad band spreads it 15 times thinner; HSC-G holds Hβ and [O III].
      const hAlpha = [0.3, 0.25, 2.5, 0.08];
      const oxygen = [1, 0.6, 0.4, 0.05];
      const reflection = [1.3, 0.8, 0.75, 0.5];
      const trapezium = [83.8186, -5.3897];
      addCloud(image, 83.83, -5.45, 0.22, 0.85, 10, 0.0006, hAlpha); // the outer glow
      addCloud(image, 83.82, -5.41, 0.1, 0.85, 20, 0.003, hAlpha); // the body
      addCloud(image, 83.95, -5.36, 0.12, 0.35, 165, 0.0012, hAlpha); // east wing
      addCloud(image, 83.69, -5.4, 0.12, 0.35, 15, 0.0012, hAlpha); // west wing
      addCloud(image, 83.812, -5.395, 0.04, 0.8, 30, 0.012, hAlpha); // the Huygens region
      addCloud(image, 83.812, -5.395, 0.025, 0.8, 30, 0.02, oxygen);
      addCloud(image, trapezium[0], trapezium[1], 0.008, 1, 0, 0.02, reflection);
      addCloud(image, 83.84, -5.412, 0.03, 0.18, 55, 0.008, hAlpha); // the Orion Bar
      // Mottling: clumps that follow the body's light.
      for (let k = 0; k < 160; k++) {
        const ra = trapezium[0] + random.gaussian() * 0.12;
        const dec = trapezium[1] - 0.03 + random.gaussian() * 0.12;
        const envelope = Math.exp(-(((ra - trapezium[0]) ** 2 + (dec - trapezium[1] + 0.03) ** 2) / (2 * 0.1 ** 2)));
        const sigma = random.uniform(0.004, 0.025);
        addCloud(
          image,
          ra,
          dec,
          sigma,
          random.uniform(0.3, 1),
          random.uniform(0, 180),
          0.004 * envelope * random.uniform(0.2, 1),
          random.chance(0.92) ? hAlpha : oxygen,
        );
      }
      addCloud(image, 83.879, -5.267, 0.03, 0.85, 0, 0.006, hAlpha); // M43
      addCloud(image, 83.879, -5.267, 0.01, 1, 0, 0.012, hAlpha);
      addCloud(image, 83.85, -4.83, 0.07, 0.6, 100, 0.0012, reflection); // NGC 1977
      // The dark bay reaching in from the north-east (the Fish's Mouth), and the lane below M43.
      const dust = [1.3, 1.1, 1, 0.8];
      addDust(image, 83.845, -5.335, 0.022, 0.45, 50, 2.5, dust);
      addDust(image, 83.87, -5.3, 0.035, 0.35, 110, 2.2, dust);
      addRealStars(image, 1.4, 0.02);
    },
  },
  // The Pleiades: the real Hipparcos stars in the dust cloud they light, blue reflection nebulosity
  // brightest around Merope (the Merope nebula, NGC 1435, trailing south) and Maia, with the faint
  // striations that cross the cluster from north-west to south-east.
  m45: {
    ra: 56.75,
    dec: 24.1167,
    field: 2.4,
    filters: ['HSC-G', 'HSC-R', 'HSC-I'],
    mixing: { ...TONE, mix: 0, beta: 2000 },
    render(image, random) {
      // Reflected starlight: bluer than the stars (scattering goes as a steep power of wavelength).
      const blue = [1.4, 0.8, 0.5];
      for (const [ra, dec, peak, sigma] of [
        [56.5812, 23.9483, 0.006, 0.08], // Merope
        [56.5812, 23.88, 0.002, 0.12], // the Merope nebula's tail to the south
        [56.4566, 24.3676, 0.0025, 0.09], // Maia
        [56.2189, 24.1133, 0.0015, 0.08], // Electra
        [56.8712, 24.1051, 0.002, 0.1], // Alcyone
        [56.6, 24.1, 0.0006, 0.35], // the cloud around the cluster
      ])
        addCloud(image, ra, dec, sigma, 1, 0, peak, blue);
      for (let k = 0; k < 30; k++)
        addCloud(
          image,
          56.6 + random.gaussian() * 0.3,
          24.1 + random.gaussian() * 0.25,
          random.uniform(0.04, 0.15),
          random.uniform(0.08, 0.2),
          130 + random.gaussian() * 10,
          random.uniform(0.0001, 0.0004),
          blue,
        );
      addRealStars(image, 1.5, 0.3);
    },
  },
  // M101, the Pinwheel: a face-on grand-design spiral, 28.8′ across.
  m101: {
    ra: 210.8023,
    dec: 54.3489,
    field: 0.7,
    filters: ['HSC-G', 'HSC-R', 'HSC-I'],
    balance: GALAXY_BALANCE,
    mixing: { ...TONE, mix: 0, beta: 2000 },
    render(image) {
      galaxy(image, 'spiral', 210.8023, 54.3489, 14.4 / 60, 0.93, POSITION_ANGLES['NGC 5457'], 1.2, 101);
      addRealStars(image, 1.3, 0.02);
    },
  },
  // The Perseus cluster (Abell 426) around NGC 1275: every SAC galaxy within the field. Its
  // galaxies are 1′ or 2′ across, so the field is the cluster's core, NGC 1275 and the chain of
  // ellipticals to its west, 0.64° (2.25″ a pixel in the default sky, 9″ in the small one).
  perseus: {
    ra: 49.9507,
    dec: 41.5117,
    field: 0.64,
    filters: ['HSC-G', 'HSC-R', 'HSC-I'],
    balance: GALAXY_BALANCE,
    // β ten times the others': the ellipticals' haloes, a few pixels out, show round their cores.
    mixing: { ...TONE, mix: 0, beta: 20000 },
    render(image, random) {
      // NGC 1275 itself is not among them (its SAC type is "g", cD pec): a giant elliptical in the
      // extended envelope of a cD galaxy, 2.9′ × 2.4′.
      addCloud(image, 49.9507, 41.5117, 0.035, 0.85, 110, 0.0002, COLOURS.old);
      galaxy(image, 'elliptical', 49.9507, 41.5117, 2.907 / 120, 0.83, 110, 2, 1275);
      for (const g of loadRealGalaxies()) {
        if (separation(g.ra, g.dec, 49.9507, 41.5117) > 0.32 * Math.SQRT2) continue;
        // Drawn even where the catalogue knows the angle, so that the other galaxies stay as they were.
        const drawn = random.uniform(0, 180);
        galaxy(
          image,
          g.kind,
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

/** The preset meta.json carries: the picture's mixing and its saved view, centred on the object. */
export function prettyPreset(which: PrettyPicture): PrettyPreset {
  const definition = DEFINITIONS[which];
  return {
    nFilters: definition.filters.length,
    ...definition.mixing,
    view: {
      a: definition.ra * RAD,
      d: definition.dec * RAD,
      fovy: definition.field * 0.8 * RAD,
      roll: 0,
    },
  };
}

/**
 * The picture as the viewer colours it with `preset`: red, green, blue (0..1) per pixel, in the
 * bands' layout (row 0 the lowest y), by the mixing the shader runs (prettyColor).
 */
export function mixPrettyPicture(image: Image, preset: PrettyPreset): Float32Array {
  const weights = mixMatrix(preset.mix, preset.nFilters);
  const pixels = image.size * image.size;
  const rgb = new Float32Array(3 * pixels);
  const fluxes = image.bands.map(() => 0);
  for (let k = 0; k < pixels; k++) {
    for (let b = 0; b < fluxes.length; b++) fluxes[b] = image.bands[b][k];
    rgb.set(prettyColor(fluxes, preset, DEFAULT_DISPLAY, weights), 3 * k);
  }
  return rgb;
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
  if (definition.balance)
    image.bands.forEach((band, b) => {
      for (let k = 0; k < band.length; k++) band[k] *= definition.balance![b];
    });
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
    const preset = prettyPreset(which);
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
