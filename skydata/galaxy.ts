// Physical galaxy images for the HSC-like surveys. Every light component is a surface-brightness
// law from the literature, evaluated on a pixel stamp in three bands (HSC-G, HSC-R, HSC-I) with
// its own colour, then convolved with a Gaussian PSF and added to the tract:
// - Sérsic (1963) bulges and ellipticals, I(R) = Ie·exp(−b_n((R/Re)^(1/n) − 1)) with
//   b_n ≈ 2n − 1/3 + 0.009876/n (Prugniel & Simien 1997);
// - exponential discs I0·exp(−R/h) (Freeman 1970) seen at inclination i (axis ratio cos i,
//   floored by the disc's thickness q0 ≈ 0.15, Hubble 1926);
// - logarithmic spiral arms θ = ln(R)/tan(pitch) modulating the disc, with blue star-forming knots;
// - tidal tails and bridges as chains of Gaussian clumps along curved paths (Toomre & Toomre 1972),
//   collisional rings, shells and fans (Quinn 1984), and warped, lopsided (distorted) light.
import type { Random } from './random';

/** Relative flux in HSC-G, HSC-R, HSC-I: the colour of a component. */
export type Colour = [number, number, number];

export const COLOURS = {
  old: [0.42, 0.78, 1.0] as Colour, // ellipticals and bulges: red, g−i ≈ 1.1
  disc: [0.7, 0.9, 1.0] as Colour,
  young: [1.25, 1.05, 0.85] as Colour, // arms and knots: blue
  tail: [0.85, 0.93, 1.0] as Colour, // tidal debris: disc stars with some new ones
};

export class Stamp {
  readonly bands: [Float32Array, Float32Array, Float32Array];
  constructor(
    readonly x0: number,
    readonly y0: number,
    readonly width: number,
    readonly height: number,
  ) {
    const n = width * height;
    this.bands = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  }

  static around(x: number, y: number, radius: number): Stamp {
    const r = Math.ceil(radius);
    const x0 = Math.floor(x) - r;
    const y0 = Math.floor(y) - r;
    return new Stamp(x0, y0, 2 * r + 1, 2 * r + 1);
  }
}

export interface Warp {
  /** Lopsidedness: brightness × (1 + amplitude·cos(θ − angle)) (m = 1 asymmetry). */
  lopsided: number;
  angle: number;
  /** A bend of the isophotes: v += bend·u²/scale (warped, tidally stretched light). */
  bend: number;
  scale: number;
}

export interface Arms {
  count: number;
  /** Pitch angle in radians (Sa ≈ 0.1, Sc ≈ 0.4). */
  pitch: number;
  /** Fraction of the disc light in the arm pattern, 0..1. */
  strength: number;
  phase: number;
}

function sersicB(n: number): number {
  return 2 * n - 1 / 3 + 0.009876 / n;
}

/** Adds a surface-brightness law over the stamp, in a frame rotated by pa with axis ratio q. */
function addProfile(
  stamp: Stamp,
  cx: number,
  cy: number,
  pa: number,
  q: number,
  colour: Colour,
  law: (radius: number, angle: number) => number,
  warp?: Warp,
) {
  const cos = Math.cos(pa);
  const sin = Math.sin(pa);
  const [g, r, i] = stamp.bands;
  // The stamp is finite but Sérsic wings are not: a smooth circular taper from 55 % to 95 % of
  // the stamp's half-side fades every law to zero before the stamp's edge, so no box shows.
  const halfWidth = stamp.width / 2;
  const halfHeight = stamp.height / 2;
  const half = Math.min(halfWidth, halfHeight);
  for (let py = 0; py < stamp.height; py++) {
    for (let px = 0; px < stamp.width; px++) {
      const dx = stamp.x0 + px - cx;
      const dy = stamp.y0 + py - cy;
      const edge = Math.hypot(px + 0.5 - halfWidth, py + 0.5 - halfHeight) / half;
      const taper = edge < 0.55 ? 1 : edge >= 0.95 ? 0 : 0.5 + 0.5 * Math.cos((Math.PI * (edge - 0.55)) / 0.4);
      if (taper === 0) continue;
      // Close to the centre a steep law is averaged over a 3×3 sub-grid so the peak keeps its flux.
      const near = dx * dx + dy * dy < 9;
      const steps = near ? 3 : 1;
      let sum = 0;
      for (let sy = 0; sy < steps; sy++) {
        for (let sx = 0; sx < steps; sx++) {
          const ox = dx + (steps === 1 ? 0 : (sx - 1) / 3);
          const oy = dy + (steps === 1 ? 0 : (sy - 1) / 3);
          let u = ox * cos + oy * sin;
          let v = -ox * sin + oy * cos;
          let factor = 1;
          if (warp) {
            v -= (warp.bend * u * u) / warp.scale;
            const theta = Math.atan2(v, u);
            factor = Math.max(0, 1 + warp.lopsided * Math.cos(theta - warp.angle));
            u *= 1 - 0.3 * warp.lopsided * Math.cos(theta - warp.angle);
          }
          const vq = v / q;
          sum += factor * law(Math.sqrt(u * u + vq * vq), Math.atan2(vq, u));
        }
      }
      const value = (taper * sum) / (steps * steps);
      if (value === 0) continue;
      const k = py * stamp.width + px;
      g[k] += value * colour[0];
      r[k] += value * colour[1];
      i[k] += value * colour[2];
    }
  }
}

/**
 * The whole light of a Sérsic law (summed over pixels), 2π·n·q·re²·Ie·e^b·Γ(2n)/b^(2n) (Graham &
 * Driver 2005), for the indices whose 2n is a whole number (Γ(2n) = (2n − 1)!).
 */
export function sersicLight(ie: number, re: number, n: number, q: number): number {
  const b = sersicB(n);
  let gamma = 1;
  for (let k = 2; k < 2 * n; k++) gamma *= k;
  return (2 * Math.PI * n * q * re * re * ie * Math.exp(b) * gamma) / Math.pow(b, 2 * n);
}

export function addSersic(
  stamp: Stamp,
  cx: number,
  cy: number,
  ie: number,
  re: number,
  n: number,
  q: number,
  pa: number,
  colour: Colour,
  warp?: Warp,
) {
  const b = sersicB(n);
  addProfile(stamp, cx, cy, pa, q, colour, (radius) => ie * Math.exp(-b * (Math.pow(radius / re, 1 / n) - 1)), warp);
}

export function addDisc(
  stamp: Stamp,
  cx: number,
  cy: number,
  i0: number,
  h: number,
  q: number,
  pa: number,
  colour: Colour,
  arms?: Arms,
  warp?: Warp,
) {
  addProfile(
    stamp,
    cx,
    cy,
    pa,
    q,
    colour,
    (radius, angle) => {
      const base = i0 * Math.exp(-radius / h);
      if (!arms || radius < 0.3 * h) return base;
      // Arm phase of a logarithmic spiral; a raised cosine to a power gives narrow arms.
      const phase = arms.count * (angle - Math.log(radius / h) / Math.tan(arms.pitch) - arms.phase);
      const wave = Math.pow(0.5 + 0.5 * Math.cos(phase), 4);
      const onset = Math.min(1, (radius - 0.3 * h) / (0.7 * h));
      return base * (1 - arms.strength * onset + 2.8 * arms.strength * onset * wave);
    },
    warp,
  );
}

/** A circular Gaussian clump (a knot, a tail particle, a star's core). */
export function addBlob(stamp: Stamp, x: number, y: number, sigma: number, flux: number, colour: Colour) {
  const reach = Math.ceil(3.5 * sigma);
  const peak = flux / (2 * Math.PI * sigma * sigma);
  const [g, r, i] = stamp.bands;
  const xmin = Math.max(0, Math.floor(x - reach) - stamp.x0);
  const xmax = Math.min(stamp.width - 1, Math.ceil(x + reach) - stamp.x0);
  const ymin = Math.max(0, Math.floor(y - reach) - stamp.y0);
  const ymax = Math.min(stamp.height - 1, Math.ceil(y + reach) - stamp.y0);
  for (let py = ymin; py <= ymax; py++) {
    const dy = stamp.y0 + py - y;
    for (let px = xmin; px <= xmax; px++) {
      const dx = stamp.x0 + px - x;
      const value = peak * Math.exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
      const k = py * stamp.width + px;
      g[k] += value * colour[0];
      r[k] += value * colour[1];
      i[k] += value * colour[2];
    }
  }
}

/** A ring of light of radius R and width w (collisional ring galaxies, Lynds & Toomre 1976). */
export function addRing(
  stamp: Stamp,
  cx: number,
  cy: number,
  radius: number,
  width: number,
  peak: number,
  q: number,
  pa: number,
  colour: Colour,
  random: Random,
) {
  addProfile(stamp, cx, cy, pa, q, colour, (r, angle) => {
    const lumpy = 1 + 0.35 * Math.cos(3 * angle + 1.3) + 0.2 * Math.cos(5 * angle);
    return peak * lumpy * Math.exp(-((r - radius) ** 2) / (2 * width * width));
  });
  // Star-forming knots strung along the ring.
  const cos = Math.cos(pa);
  const sin = Math.sin(pa);
  for (let k = 0; k < 14; k++) {
    const angle = random.uniform(0, 2 * Math.PI);
    const u = radius * Math.cos(angle);
    const v = radius * q * Math.sin(angle);
    addBlob(
      stamp,
      cx + u * cos - v * sin,
      cy + u * sin + v * cos,
      width * 0.6,
      peak * width * width * random.uniform(2, 6),
      COLOURS.young,
    );
  }
}

/**
 * Shells: arcs of sharp outer edge at radii growing outwards, interleaved on opposite sides of
 * the host (phase-wrapped debris of a radial minor merger, Quinn 1984).
 */
export function addShells(
  stamp: Stamp,
  cx: number,
  cy: number,
  innerRadius: number,
  count: number,
  peak: number,
  axis: number,
) {
  for (let k = 0; k < count; k++) {
    const radius = innerRadius * Math.pow(1.45, k);
    const direction = axis + (k % 2 ? Math.PI : 0);
    const width = 0.07 * radius;
    const level = peak * Math.pow(0.75, k);
    addProfile(stamp, cx, cy, direction, 1, COLOURS.old, (r, angle) => {
      if (r > radius || r < radius - 3 * width) return 0;
      const opening = Math.cos(angle);
      if (opening < 0.55) return 0;
      return ((level * (opening - 0.55)) / 0.45) * Math.exp(-(radius - r) / width);
    });
  }
}

/** A fan (plume): a wedge of debris spreading from the host, fading outwards. */
export function addFan(
  stamp: Stamp,
  cx: number,
  cy: number,
  length: number,
  peak: number,
  direction: number,
  opening: number,
) {
  addProfile(stamp, cx, cy, direction, 1, COLOURS.disc, (r, angle) => {
    if (r < 0.15 * length || Math.abs(angle) > opening) return 0;
    const edge = Math.cos((Math.abs(angle) / opening) * (Math.PI / 2));
    return peak * edge * Math.exp(-r / (0.45 * length));
  });
}

/** A tidal tail: clumps along a curved path from (x, y), fading and widening along it. */
export function addTail(
  stamp: Stamp,
  x: number,
  y: number,
  direction: number,
  length: number,
  curl: number,
  flux: number,
  width: number,
  random: Random,
) {
  const steps = Math.max(24, Math.round(length / 2));
  for (let s = 0; s < steps; s++) {
    const t = s / steps;
    const angle = direction + curl * t;
    const reach = length * t;
    const px = x + reach * Math.cos(angle) + random.gaussian() * width * 0.3;
    const py = y + reach * Math.sin(angle) + random.gaussian() * width * 0.3;
    const clump = (flux / steps) * (1 - 0.7 * t) * random.uniform(0.6, 1.4);
    addBlob(stamp, px, py, width * (0.5 + 1.2 * t), clump, COLOURS.tail);
  }
}

/** A bridge: clumps along a bowed path between two galaxies. */
export function addBridge(
  stamp: Stamp,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  bow: number,
  flux: number,
  width: number,
) {
  const steps = 40;
  const mx = (x1 + x2) / 2 - (y2 - y1) * bow;
  const my = (y1 + y2) / 2 + (x2 - x1) * bow;
  for (let s = 1; s < steps; s++) {
    const t = s / steps;
    const px = (1 - t) * (1 - t) * x1 + 2 * (1 - t) * t * mx + t * t * x2;
    const py = (1 - t) * (1 - t) * y1 + 2 * (1 - t) * t * my + t * t * y2;
    addBlob(stamp, px, py, width, flux / steps, COLOURS.disc);
  }
}

/** Separable Gaussian convolution of every band: the point-spread function of the seeing. */
export function convolveGaussian(stamp: Stamp, sigma: [number, number, number]) {
  const { width, height } = stamp;
  stamp.bands.forEach((band, b) => {
    const s = sigma[b];
    const reach = Math.ceil(3 * s);
    const kernel = new Float32Array(2 * reach + 1);
    let total = 0;
    for (let k = -reach; k <= reach; k++) total += kernel[k + reach] = Math.exp(-(k * k) / (2 * s * s));
    for (let k = 0; k < kernel.length; k++) kernel[k] /= total;
    const temp = new Float32Array(band.length);
    for (let y = 0; y < height; y++) {
      const row = y * width;
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let k = -reach; k <= reach; k++) {
          const xx = x + k;
          if (xx >= 0 && xx < width) sum += band[row + xx] * kernel[k + reach];
        }
        temp[row + x] = sum;
      }
    }
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let k = -reach; k <= reach; k++) {
          const yy = y + k;
          if (yy >= 0 && yy < height) sum += temp[yy * width + x] * kernel[k + reach];
        }
        band[y * width + x] = sum;
      }
    }
  });
}
