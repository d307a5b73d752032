// Target galaxies: a kind drawn from the classification scheme's classes, its true answer
// (application-spec §3 Answer fields) and its rendering from the physical components of
// galaxy.ts. The true answer follows from what was drawn, so classifying is a real task.
import type { Morphology } from '../shared/catalogue';
import {
  addBlob,
  addBridge,
  addDisc,
  addFan,
  addRing,
  addSersic,
  addShells,
  addTail,
  COLOURS,
  Stamp,
  type Arms,
  type Warp,
} from './galaxy';
import type { Random } from './random';

export const TARGET_KINDS = [
  'spiral',
  'elliptical',
  'lenticular',
  'merger',
  'ring',
  'shell',
  'fan',
  'distorted',
] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export interface TargetSpec {
  kind: TargetKind;
  /** Tract pixel (0-based) of the centre. */
  x: number;
  y: number;
  /** Visible radius in pixels (the isophotal size of the primary). */
  radius: number;
  /** Axis ratio of the primary (b/a) and position angle (radians, from +x). */
  q: number;
  pa: number;
  /** Brightness factor of the primary (1 = typical). */
  brightness: number;
  /** For mergers: the primary is a spiral (else an elliptical). */
  primarySpiral: boolean;
  seed: number;
  /** A real catalogued galaxy this target stands for (d3-celestial dsos.20, SAC). */
  name?: string;
}

/** The area a target needs around its centre, in units of its radius (tails, companions). */
export function reachOf(kind: TargetKind): number {
  return kind === 'merger'
    ? 2.6
    : kind === 'ring' || kind === 'distorted'
      ? 2.2
      : kind === 'fan' || kind === 'shell'
        ? 1.9
        : 1.3;
}

export function morphologyOf(spec: TargetSpec): Morphology {
  const none = { ring: false, fan: false, tail: false, distorted: false };
  switch (spec.kind) {
    case 'spiral':
      return { galaxy_type: 'spiral', interaction: 'no', ...none };
    case 'elliptical':
    case 'lenticular':
      return { galaxy_type: 'elliptical', interaction: 'no', ...none };
    case 'merger':
      return {
        galaxy_type: spec.primarySpiral ? 'spiral' : 'elliptical',
        interaction: 'yes',
        ...none,
        tail: true,
        distorted: true,
      };
    case 'ring':
      return { galaxy_type: 'spiral', interaction: 'yes', ...none, ring: true };
    case 'shell':
    case 'fan':
      return { galaxy_type: 'elliptical', interaction: 'yes', ...none, fan: true };
    case 'distorted':
      return { galaxy_type: 'spiral', interaction: 'yes', ...none, distorted: true };
  }
}

/** Draws a kind with the mix of a wide survey: mostly isolated galaxies, a third interacting. */
export function drawKind(random: Random, interactingShare = 0.35): TargetKind {
  if (random.chance(interactingShare))
    return random.pick(['merger', 'merger', 'ring', 'shell', 'fan', 'distorted', 'distorted']);
  return random.pick(['spiral', 'spiral', 'spiral', 'elliptical', 'elliptical', 'lenticular']);
}

export function discAxisRatio(cosInclination: number): number {
  // Oblate disc of intrinsic thickness q0 = 0.15 (Hubble 1926): q² = cos²i (1 − q0²) + q0².
  return Math.sqrt(cosInclination * cosInclination * (1 - 0.0225) + 0.0225);
}

interface SpiralOptions {
  radius: number;
  q: number;
  pa: number;
  brightness: number;
  warp?: Warp;
}

function renderSpiral(
  stamp: Stamp,
  x: number,
  y: number,
  { radius, q, pa, brightness, warp }: SpiralOptions,
  random: Random,
) {
  const h = radius / 3.2; // the 25 mag/arcsec² isophote lies near 3.2 scale lengths
  const i0 = brightness * random.uniform(2.5e-3, 6e-3);
  const faceOn = Math.min(1, (q - 0.15) / 0.6);
  const arms: Arms = {
    count: random.chance(0.75) ? 2 : 3,
    pitch: random.uniform(0.22, 0.42),
    strength: random.uniform(0.45, 0.7) * (0.3 + 0.7 * faceOn),
    phase: random.uniform(0, 2 * Math.PI),
  };
  addDisc(stamp, x, y, i0, h, q, pa, COLOURS.disc, arms, warp);
  const bulgeRe = h * random.uniform(0.2, 0.4);
  addSersic(
    stamp,
    x,
    y,
    i0 * random.uniform(1.5, 4),
    bulgeRe,
    random.uniform(1.5, 3),
    Math.max(q, 0.7),
    pa,
    COLOURS.old,
    warp,
  );
  // Star-forming knots on the arms: HII regions, blue.
  const cos = Math.cos(pa);
  const sin = Math.sin(pa);
  const knots = Math.round(12 + 20 * faceOn);
  for (let k = 0; k < knots; k++) {
    const r = h * random.uniform(0.8, 2.8);
    const arm = random.int(0, arms.count);
    const angle =
      Math.log(r / h) / Math.tan(arms.pitch) + arms.phase + (2 * Math.PI * arm) / arms.count + random.gaussian() * 0.08;
    const u = r * Math.cos(angle);
    const v = r * q * Math.sin(angle);
    addBlob(
      stamp,
      x + u * cos - v * sin,
      y + u * sin + v * cos,
      random.uniform(0.8, 1.6),
      i0 * random.uniform(3, 10),
      COLOURS.young,
    );
  }
}

function renderElliptical(
  stamp: Stamp,
  x: number,
  y: number,
  radius: number,
  q: number,
  pa: number,
  brightness: number,
  warp?: Warp,
  random?: Random,
) {
  const re = radius / 4;
  const ie = brightness * (random ? random.uniform(1.2e-3, 2.5e-3) : 1.8e-3);
  addSersic(stamp, x, y, ie, re, random ? random.uniform(3.5, 5) : 4, q, pa, COLOURS.old, warp);
}

function renderLenticular(
  stamp: Stamp,
  x: number,
  y: number,
  radius: number,
  q: number,
  pa: number,
  brightness: number,
  random: Random,
) {
  const h = radius / 3.4;
  const i0 = brightness * random.uniform(1.5e-3, 3e-3);
  addDisc(stamp, x, y, i0, h, q, pa, COLOURS.old);
  addSersic(stamp, x, y, i0 * random.uniform(3, 6), h * 0.45, 3.5, Math.max(q, 0.75), pa, COLOURS.old);
}

/** Renders the target (and any companion and debris) into a stamp; convolution is the caller's. */
export function renderTarget(spec: TargetSpec, random: Random): Stamp {
  const { x, y, radius, q, pa, brightness } = spec;
  const stamp = Stamp.around(x, y, radius * (reachOf(spec.kind) + 0.4));
  switch (spec.kind) {
    case 'spiral':
      renderSpiral(stamp, x, y, { radius, q, pa, brightness }, random);
      break;
    case 'elliptical':
      renderElliptical(stamp, x, y, radius, Math.max(q, 0.55), pa, brightness, undefined, random);
      break;
    case 'lenticular':
      renderLenticular(stamp, x, y, radius, q, pa, brightness, random);
      break;
    case 'merger': {
      // Two galaxies after first passage: bent, lopsided, with long tails on opposite sides
      // and a bridge between them.
      const separation = radius * random.uniform(1.1, 1.6);
      const axis = random.uniform(0, 2 * Math.PI);
      const x2 = x + separation * Math.cos(axis);
      const y2 = y + separation * Math.sin(axis);
      const warp1: Warp = { lopsided: 0.45, angle: axis, bend: 0.2, scale: radius };
      const warp2: Warp = { lopsided: 0.45, angle: axis + Math.PI, bend: -0.2, scale: radius };
      const sense = random.chance(0.5) ? 1 : -1;
      if (spec.primarySpiral)
        renderSpiral(stamp, x, y, { radius, q: Math.max(q, 0.4), pa, brightness, warp: warp1 }, random);
      else renderElliptical(stamp, x, y, radius, Math.max(q, 0.6), pa, brightness, warp1, random);
      const secondRadius = radius * random.uniform(0.55, 0.85);
      if (random.chance(0.6))
        renderSpiral(
          stamp,
          x2,
          y2,
          {
            radius: secondRadius,
            q: random.uniform(0.35, 0.9),
            pa: random.uniform(0, Math.PI),
            brightness: brightness * 0.9,
            warp: warp2,
          },
          random,
        );
      else renderElliptical(stamp, x2, y2, secondRadius, 0.8, random.uniform(0, Math.PI), brightness, warp2, random);
      const tailFlux = brightness * radius * radius * random.uniform(0.7e-3, 1.1e-3);
      addTail(
        stamp,
        x,
        y,
        axis + Math.PI + sense * 0.9,
        radius * random.uniform(1.6, 2.3),
        sense * 1.4,
        tailFlux,
        radius * 0.16,
        random,
      );
      addTail(
        stamp,
        x2,
        y2,
        axis + sense * 0.9,
        radius * random.uniform(1.2, 1.8),
        sense * 1.4,
        tailFlux * 0.7,
        radius * 0.14,
        random,
      );
      addBridge(stamp, x, y, x2, y2, 0.25 * sense, tailFlux * 0.5, radius * 0.1);
      break;
    }
    case 'ring': {
      // A collisional ring: an expanding ring of star formation around an off-centre nucleus,
      // and the small intruder that passed through the disc.
      const ringRadius = radius * 0.8;
      const rq = Math.max(q, 0.55);
      addDisc(stamp, x, y, brightness * 6e-4, radius / 3, rq, pa, COLOURS.disc);
      addRing(stamp, x, y, ringRadius, radius * 0.09, brightness * 3.5e-3, rq, pa, COLOURS.young, random);
      const offset = ringRadius * 0.3;
      addSersic(
        stamp,
        x + offset * Math.cos(pa + 1),
        y + offset * Math.sin(pa + 1),
        brightness * 5e-3,
        radius * 0.09,
        2,
        0.8,
        pa,
        COLOURS.old,
      );
      const angle = random.uniform(0, 2 * Math.PI);
      renderElliptical(
        stamp,
        x + radius * 1.7 * Math.cos(angle),
        y + radius * 1.7 * Math.sin(angle),
        radius * 0.35,
        0.8,
        angle,
        brightness,
        undefined,
        random,
      );
      break;
    }
    case 'shell': {
      renderElliptical(stamp, x, y, radius, Math.max(q, 0.7), pa, brightness, undefined, random);
      addShells(stamp, x, y, radius * 0.5, random.int(3, 6), brightness * 2.5e-4, pa);
      break;
    }
    case 'fan': {
      renderElliptical(stamp, x, y, radius, Math.max(q, 0.65), pa, brightness, undefined, random);
      addFan(stamp, x, y, radius * 1.8, brightness * 4e-4, random.uniform(0, 2 * Math.PI), random.uniform(0.35, 0.6));
      break;
    }
    case 'distorted': {
      // A disc torn by a close, smaller neighbour: strongly lopsided and warped, arms broken.
      const angle = random.uniform(0, 2 * Math.PI);
      const warp: Warp = { lopsided: 0.7, angle, bend: 0.6, scale: radius };
      renderSpiral(stamp, x, y, { radius, q: Math.max(q, 0.45), pa, brightness, warp }, random);
      renderElliptical(
        stamp,
        x + radius * 1.5 * Math.cos(angle),
        y + radius * 1.5 * Math.sin(angle),
        radius * 0.3,
        0.85,
        angle,
        brightness * 1.5,
        undefined,
        random,
      );
      for (let k = 0; k < 10; k++) {
        const r = radius * random.uniform(0.6, 1.4);
        const a = angle + random.gaussian() * 0.7;
        addBlob(
          stamp,
          x + r * Math.cos(a),
          y + r * Math.sin(a),
          random.uniform(1.5, 3.5),
          brightness * random.uniform(0.05, 0.2),
          COLOURS.young,
        );
      }
      break;
    }
  }
  return stamp;
}
