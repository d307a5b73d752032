// What part of the sphere the screen shows: the angle from the view direction to the screen's
// corner, for culling tiles and outlines (every projection here is radially symmetric).
import { vec3 } from 'gl-matrix';
import type { Camera } from './camera';

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
