// What part of the sphere the screen shows: the angle from the view direction to the screen's
// corner, for culling tiles and outlines (every projection here is radially symmetric).
import { vec3, type mat3 } from 'gl-matrix';
import { projectView, type Camera } from './camera';

/**
 * The angle α whose point lands at distance `rho` from the centre on the projection plane of an
 * eye `eye` behind the centre: ρ = sin α·(1 + e)/(cos α + e), increasing in α up to acos(−e).
 */
export function angleAtPlaneDistance(rho: number, eye: number): number {
  let low = 0;
  let high = Math.acos(-Math.min(1, Math.max(0, eye)));
  for (let i = 0; i < 40; i++) {
    const middle = (low + high) / 2;
    const distance = (Math.sin(middle) * (1 + eye)) / (Math.cos(middle) + eye);
    if (distance < rho) low = middle;
    else high = middle;
  }
  return high;
}

/** Cones this wide or wider are treated as the whole sky (query_disc takes radii below π/2). */
export const WHOLE_SKY_RADIUS = Math.PI / 2 - 1e-3;

/** The view direction and the angle from it to the screen's corners. */
export function viewCone(camera: Camera, eye: number, width: number, height: number): { centre: vec3; radius: number } {
  const halfHeight = camera.projectionScale(eye);
  const corner = halfHeight * Math.hypot(1, width / height);
  const { theta, phi } = camera.equatorialDirection();
  return { centre: unitVector(theta, phi), radius: angleAtPlaneDistance(corner, eye) };
}

/**
 * The screen as the view cone and as a rectangle on the projection plane: the cone says quickly
 * what is far off the screen; the rectangle, what lies beyond its edges but inside the cone (a
 * wide screen's cone reaches well above and below it, which holds most of a cone's area).
 */
export interface ViewFootprint {
  centre: vec3;
  radius: number;
  /** Equatorial → view (camera.viewMatrix). */
  view: mat3;
  eye: number;
  halfWidth: number;
  halfHeight: number;
}

export function viewFootprint(camera: Camera, eye: number, width: number, height: number): ViewFootprint {
  const halfHeight = camera.projectionScale(eye);
  return {
    ...viewCone(camera, eye, width, height),
    view: camera.viewMatrix(),
    eye,
    halfWidth: (halfHeight * width) / height,
    halfHeight,
  };
}

/**
 * Edges of a patch bow on the projection plane (a great circle off the centre is a curve there
 * except in the gnomonic projection); the rectangle is widened by this share of the patch's own
 * extent, which covers the bow of a patch given by its corners and edge midpoints.
 */
const PATCH_BOW_MARGIN = 0.05;

/**
 * Whether a convex patch of the sky, given by points along its border (equatorial unit vectors:
 * corners and edge midpoints), may show on screen: the box round the points' projections meets
 * the screen's rectangle. A point behind the eye answers yes, as does a patch too large for its
 * box to bound it.
 */
export function patchMayShow(footprint: ViewFootprint, points: readonly ArrayLike<number>[]): boolean {
  const m = footprint.view;
  let [left, right, bottom, top] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const world of points) {
    const view = [0, 1, 2].map((i) => m[i] * world[0] + m[3 + i] * world[1] + m[6 + i] * world[2]);
    // A patch that reaches round the side of the sphere is left to the cone.
    if (view[2] < 0.5) return true;
    const plane = projectView(view, footprint.eye);
    if (!plane) return true;
    left = Math.min(left, plane[0]);
    right = Math.max(right, plane[0]);
    bottom = Math.min(bottom, plane[1]);
    top = Math.max(top, plane[1]);
  }
  const marginX = PATCH_BOW_MARGIN * (right - left);
  const marginY = PATCH_BOW_MARGIN * (top - bottom);
  return (
    left - marginX <= footprint.halfWidth &&
    right + marginX >= -footprint.halfWidth &&
    bottom - marginY <= footprint.halfHeight &&
    top + marginY >= -footprint.halfHeight
  );
}

/** Angle between two unit vectors, stable for small angles. */
export function angleBetween(a: vec3, b: vec3): number {
  const cross = vec3.length(vec3.cross(vec3.create(), a, b));
  return Math.atan2(cross, vec3.dot(a, b));
}

/** The unit vector of colatitude theta and longitude phi. */
export function unitVector(theta: number, phi: number): vec3 {
  return vec3.fromValues(Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta));
}

/** The unit vector of (ra, dec) in degrees. */
export function skyVector(ra: number, dec: number): vec3 {
  return unitVector(((90 - dec) * Math.PI) / 180, (ra * Math.PI) / 180);
}
