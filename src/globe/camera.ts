// The camera of viewer-spec §3: the view direction (theta, phi), the field of view `fovy`,
// `roll` and the projection `mode`, with the limits of §9. theta is the colatitude of the
// view direction (0 = north celestial pole) and phi its right ascension, both in radians, so
// that (ra, dec) = (phi, π/2 − theta).
import { mat3 } from 'gl-matrix';

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

export const CAMERA_DEFAULTS = {
  fovy: (45 * Math.PI) / 180,
  min_fovy: 5 * ARCSECOND,
  max_fovy: 2,
  mode: ProjectionMode.STEREOGRAPHIC,
} as const;

export interface CameraState {
  theta: number;
  phi: number;
  fovy: number;
  roll: number;
  mode: ProjectionMode;
}

export class Camera implements CameraState {
  theta = Math.PI / 2;
  phi = 0;
  fovy: number = CAMERA_DEFAULTS.fovy;
  roll = 0;
  mode: ProjectionMode = CAMERA_DEFAULTS.mode;
  min_fovy: number = CAMERA_DEFAULTS.min_fovy;
  max_fovy: number = CAMERA_DEFAULTS.max_fovy;

  state(): CameraState {
    return { theta: this.theta, phi: this.phi, fovy: this.fovy, roll: this.roll, mode: this.mode };
  }

  /** Keeps theta inside the poles, phi in [0, 2π) and fovy inside [min_fovy, max_fovy]. */
  normalize(): void {
    const epsilon = 1e-6;
    this.theta = Math.min(Math.PI - epsilon, Math.max(epsilon, this.theta));
    this.phi = ((this.phi % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    this.fovy = Math.min(this.max_fovy, Math.max(this.min_fovy, this.fovy));
  }

  /**
   * World → view transform (orthogonal; a mirror, since the sky is seen from inside). Rows: screen right, screen up, forward (the view direction). Seen
   * from inside the sphere with north up, east (growing right ascension) is on the left.
   */
  viewMatrix(out: mat3 = mat3.create()): mat3 {
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
