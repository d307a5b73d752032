// The camera of viewer-spec §3: the view direction (theta, phi), the field of view `fovy`,
// `roll`, the projection `mode` and the projection-centre angles za, zd, zp, with the limits of
// §9. theta and phi are the colatitude and longitude of the view direction in the camera's own
// frame, whose pole (its zenith) is at right ascension za, declination zd, turned by zp about
// it. The default zenith is the north celestial pole, where (ra, dec) = (phi, π/2 − theta).
import { mat3 } from 'gl-matrix';
import { ZENITH_DEFAULTS, isDefaultZenith, skyOfCamera, zenithRows, type ZenithFrame } from './zenith';

export enum ProjectionMode {
  GNOMONIC = 'GNOMONIC',
  STEREOGRAPHIC = 'STEREOGRAPHIC',
  FLOATING_EYE = 'FLOATING_EYE',
}

const ARCSECOND = Math.PI / (180 * 3600);

/** Changing the projection blends the old view into the new one over this time (viewer-spec §4). */
export const MODE_BLEND_MS = 200;

/**
 * Every projection here is a perspective view of the unit sphere from an eye on the axis,
 * `eye` behind the centre (projection.ts): 0 is the gnomonic projection (eye at the centre),
 * 1 the stereographic one (eye at the antipode). FLOATING_EYE moves the eye with the field of
 * view, min(fovy, 1): gnomonic as fovy → 0, stereographic from fovy = 1 rad on. A mode blend
 * moves the eye from one value to the other.
 */
export function eyeDistance(mode: ProjectionMode, fovy: number): number {
  if (mode === ProjectionMode.GNOMONIC) return 0;
  if (mode === ProjectionMode.STEREOGRAPHIC) return 1;
  return Math.min(1, Math.max(0, fovy));
}

/**
 * Where a view-space unit vector (z forward) lands on the projection plane, scaled so that
 * every projection agrees near the centre: (x, y)·(1 + eye)/(z + eye); null behind the eye.
 */
export function projectView(view: ArrayLike<number>, eye: number): [number, number] | null {
  const w = view[2] + eye;
  if (w <= 1e-9) return null;
  return [(view[0] * (1 + eye)) / w, (view[1] * (1 + eye)) / w];
}

const zenithScratch = mat3.create();

export const CAMERA_DEFAULTS = {
  fovy: (45 * Math.PI) / 180,
  min_fovy: 5 * ARCSECOND,
  max_fovy: 2,
  mode: ProjectionMode.STEREOGRAPHIC,
} as const;

export interface CameraState extends Partial<ZenithFrame> {
  theta: number;
  phi: number;
  fovy: number;
  roll: number;
  mode: ProjectionMode;
}

export class Camera implements CameraState, ZenithFrame {
  theta = Math.PI / 2;
  phi = 0;
  fovy: number = CAMERA_DEFAULTS.fovy;
  roll = 0;
  mode: ProjectionMode = CAMERA_DEFAULTS.mode;
  za: number = ZENITH_DEFAULTS.za;
  zd: number = ZENITH_DEFAULTS.zd;
  zp: number = ZENITH_DEFAULTS.zp;
  min_fovy: number = CAMERA_DEFAULTS.min_fovy;
  max_fovy: number = CAMERA_DEFAULTS.max_fovy;
  /** Level-of-detail bias (viewer-spec §4): 1 while moving, fading to 0 after; tiled layers add it. */
  lodBias = 0;

  state(): CameraState {
    const { theta, phi, fovy, roll, mode, za, zd, zp } = this;
    return { theta, phi, fovy, roll, mode, za, zd, zp };
  }

  /**
   * Keeps theta inside the poles, phi in [0, 2π) and fovy inside [min_fovy, max_fovy]; with
   * `overshoot` a gesture may push fovy up to FOVY_OVERSHOOT beyond the range, from where the
   * globe eases it back (easeFovyBack).
   */
  normalize(overshoot = false): void {
    const epsilon = 1e-6;
    this.theta = Math.min(Math.PI - epsilon, Math.max(epsilon, this.theta));
    this.phi = ((this.phi % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    const slack = overshoot ? FOVY_OVERSHOOT : 1;
    this.fovy = Math.min(this.max_fovy * slack, Math.max(this.min_fovy / slack, this.fovy));
  }

  /**
   * World → view transform (orthogonal; a mirror, since the sky is seen from inside): the
   * equatorial frame taken to the camera's (the transpose of zenithRows), then rows screen right,
   * screen up, forward (the view direction). Seen from inside the sphere with the frame's pole
   * up, growing phi (east, in the default frame) is on the left.
   */
  viewMatrix(out: mat3 = mat3.create()): mat3 {
    this.frameViewMatrix(out);
    // The rotation's rows, read column-major, are its transpose: equatorial → camera frame.
    const [[a, b, c], [d, e, f], [g, h, i]] = zenithRows(this);
    return mat3.multiply(out, out, mat3.set(zenithScratch, a, b, c, d, e, f, g, h, i));
  }

  /** The view direction as an equatorial unit vector. */
  forward(): [number, number, number] {
    const m = this.viewMatrix();
    return [m[2], m[5], m[8]];
  }

  /**
   * The view direction's equatorial colatitude and right ascension, radians: theta and phi
   * themselves in the default frame (so that culling there is what it always was).
   */
  equatorialDirection(): { theta: number; phi: number } {
    if (isDefaultZenith(this)) return { theta: this.theta, phi: this.phi };
    const { ra, dec } = skyOfCamera(this, this.theta, this.phi);
    return { theta: Math.PI / 2 - dec, phi: ra };
  }

  /** The camera's frame → view transform (viewMatrix in the default frame). */
  frameViewMatrix(out: mat3 = mat3.create()): mat3 {
    const { theta, phi, roll } = this;
    const forward = [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)];
    const north = [-Math.cos(theta) * Math.cos(phi), -Math.cos(theta) * Math.sin(phi), Math.sin(theta)];
    const west = [Math.sin(phi), -Math.cos(phi), 0];
    const c = Math.cos(roll);
    const s = Math.sin(roll);
    const right = west.map((w, i) => c * w - s * north[i]);
    const up = north.map((n, i) => s * west[i] + c * n);
    // gl-matrix is column-major: column j holds row j's entries spread over out[j], out[3+j], out[6+j].
    for (let i = 0; i < 3; i++) {
      out[3 * i] = right[i];
      out[3 * i + 1] = up[i];
      out[3 * i + 2] = forward[i];
    }
    return out;
  }

  /**
   * Half-height of the screen in the projection plane: a point at angle α = fovy/2 from the
   * view direction lands at sin α·(1 + eye)/(cos α + eye) from the centre, that is tan α
   * (gnomonic, eye 0) or 2 tan(α/2) (stereographic, eye 1). `eye` defaults to the mode's own.
   */
  projectionScale(eye: number = eyeDistance(this.mode, this.fovy)): number {
    const alpha = this.fovy / 2;
    return (Math.sin(alpha) * (1 + eye)) / (Math.cos(alpha) + eye);
  }
}

/** jumpTo's default duration (viewer-spec §4, §9). */
export const JUMP_MS = 400;
/** After motion ends the level-of-detail bias fades from 1 to 0 over this time (viewer-spec §4). */
export const LOD_BIAS_FADE_MS = 200;
/** How long fovy takes to ease back into [min_fovy, max_fovy] once a gesture pushed it out. */
export const FOVY_EASE_BACK_MS = 200;
/** How far beyond its range a gesture may push fovy before it eases back (a factor). */
export const FOVY_OVERSHOOT = 1.5;

export interface JumpTarget {
  theta: number;
  phi: number;
  /** Defaults to the current fovy. */
  fovy?: number;
  roll?: number;
}

export interface JumpOptions {
  /** ms; JUMP_MS by default, 0 for a cut. */
  duration?: number;
  /** Keeps the field of view as it is along the way (no zoom dip). */
  keepFovy?: boolean;
}

/** The unit vector of a view direction (theta, phi). */
function direction(theta: number, phi: number): [number, number, number] {
  return [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)];
}

function smoothstep(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return x * x * (3 - 2 * x);
}

/**
 * One jumpTo (viewer-spec §4): the view direction moves along the great circle, roll and
 * log(fovy) are interpolated, all on a smoothstep ease. Unless keepFovy, a jump longer than
 * the field of view at either end dips the zoom out: log(fovy) rises by a sin(π·t) bump so
 * that half-way fovy reaches the jump's angular length (capped at max_fovy), the two ends
 * staying in sight on the way.
 */
export class Jump {
  private readonly from: CameraState;
  private readonly to: Required<JumpTarget>;
  private readonly angle: number;
  private readonly axis: [number, number, number];
  private readonly start: [number, number, number];
  private readonly dip: number;

  constructor(
    camera: Camera,
    target: JumpTarget,
    readonly startTime: number,
    readonly options: JumpOptions = {},
  ) {
    this.from = camera.state();
    this.to = {
      theta: target.theta,
      phi: target.phi,
      fovy: target.fovy ?? camera.fovy,
      roll: target.roll ?? camera.roll,
    };
    this.start = direction(this.from.theta, this.from.phi);
    const end = direction(this.to.theta, this.to.phi);
    const dot = Math.min(1, Math.max(-1, this.start[0] * end[0] + this.start[1] * end[1] + this.start[2] * end[2]));
    this.angle = Math.acos(dot);
    // The rotation axis start × end (any perpendicular one for antipodes).
    let axis: [number, number, number] = [
      this.start[1] * end[2] - this.start[2] * end[1],
      this.start[2] * end[0] - this.start[0] * end[2],
      this.start[0] * end[1] - this.start[1] * end[0],
    ];
    let length = Math.hypot(...axis);
    if (length < 1e-12) {
      axis = Math.abs(this.start[2]) < 0.9 ? [-this.start[1], this.start[0], 0] : [1, 0, 0];
      length = Math.hypot(...axis);
    }
    this.axis = axis.map((value) => value / length) as [number, number, number];
    const widest = Math.max(this.from.fovy, this.to.fovy);
    const reach = Math.min(camera.max_fovy, this.angle);
    this.dip = options.keepFovy || reach <= widest ? 0 : Math.log(reach / widest);
  }

  get duration(): number {
    return this.options.duration ?? JUMP_MS;
  }

  /** Where the jump ends. */
  get target(): Readonly<Required<JumpTarget>> {
    return this.to;
  }

  /** Whether the jump dips the zoom out on the way. */
  get dips(): boolean {
    return this.dip > 0;
  }

  /** Puts the camera where the jump is at `time`; returns false once it has arrived. */
  apply(camera: Camera, time: number): boolean {
    const t = this.duration <= 0 ? 1 : (time - this.startTime) / this.duration;
    if (t >= 1) {
      Object.assign(camera, this.to);
      return false;
    }
    const eased = smoothstep(t);
    // Rodrigues' rotation of the start direction about the axis by eased·angle.
    const a = eased * this.angle;
    const [kx, ky, kz] = this.axis;
    const [vx, vy, vz] = this.start;
    const c = Math.cos(a);
    const s = Math.sin(a);
    const kv = kx * vx + ky * vy + kz * vz;
    const x = vx * c + (ky * vz - kz * vy) * s + kx * kv * (1 - c);
    const y = vy * c + (kz * vx - kx * vz) * s + ky * kv * (1 - c);
    const z = vz * c + (kx * vy - ky * vx) * s + kz * kv * (1 - c);
    camera.theta = Math.acos(Math.min(1, Math.max(-1, z)));
    if (Math.hypot(x, y) > 1e-12) camera.phi = Math.atan2(y, x);
    const logFovy =
      Math.log(this.from.fovy) +
      (Math.log(this.to.fovy) - Math.log(this.from.fovy)) * eased +
      this.dip * Math.sin(Math.PI * eased);
    camera.fovy = Math.exp(logFovy);
    camera.roll = this.from.roll + (this.to.roll - this.from.roll) * eased;
    return true;
  }
}

/**
 * The level-of-detail bias of viewer-spec §4: 1 while the camera moves, fading linearly to 0
 * over LOD_BIAS_FADE_MS after the last motion at `lastMotion` (ms).
 */
export function lodBiasAt(time: number, lastMotion: number): number {
  return Math.min(1, Math.max(0, 1 - (time - lastMotion) / LOD_BIAS_FADE_MS));
}

/**
 * fovy eased back into [min_fovy, max_fovy] (viewer-spec §4): the overshoot, in log scale,
 * shrinks exponentially with time constant FOVY_EASE_BACK_MS / 4 (under 2 % left after
 * FOVY_EASE_BACK_MS), and is dropped once under 0.1 %.
 */
export function easeFovyBack(fovy: number, min: number, max: number, elapsed: number): number {
  const bound = fovy < min ? min : fovy > max ? max : fovy;
  if (bound === fovy) return fovy;
  const overshoot = Math.log(fovy / bound) * Math.exp((-4 * elapsed) / FOVY_EASE_BACK_MS);
  return Math.abs(overshoot) < 1e-3 ? bound : bound * Math.exp(overshoot);
}

/**
 * The world direction under a point of the projection plane (inverse of projectView): the
 * view-space unit vector v with (vx, vy)(1 + e)/(vz + e) = (x, y).
 */
export function unprojectView(x: number, y: number, eye: number): [number, number, number] {
  const px = x / (1 + eye);
  const py = y / (1 + eye);
  const p2 = px * px + py * py;
  const z = (-p2 * eye + Math.sqrt(1 + p2 * (1 - eye * eye))) / (p2 + 1);
  return [px * (z + eye), py * (z + eye), z];
}
