// The login screen's idle looping camera tour (application-spec §2): the camera drifts slowly
// round the sky along a tilted great circle, breathing its field of view, one loop every
// TOUR_PERIOD_MS, through the Globe's public setCamera(). Under prefers-reduced-motion the tour
// stands still (UI.md, Motion). Returns the function that stops it, which answers how far the
// tour had gone, so that a later start goes on from there.
import type { Globe } from '../../../globe/Globe';

export const TOUR_PERIOD_MS = 240_000;
/** Tilt of the tour's circle against the equator, and the field of view's range (radians). */
const TILT = (35 * Math.PI) / 180;
const FOV_MIN = (40 * Math.PI) / 180;
const FOV_MAX = (70 * Math.PI) / 180;

/** The camera at tour phase `u` in [0, 1): colatitude theta, longitude phi and field of view. */
export function tourPose(u: number): { theta: number; phi: number; fovy: number } {
  const angle = 2 * Math.PI * u;
  // A point on a great circle tilted by TILT about the x axis, as colatitude and longitude.
  const x = Math.cos(angle);
  const y = Math.sin(angle) * Math.cos(TILT);
  const z = Math.sin(angle) * Math.sin(TILT);
  const theta = Math.acos(z);
  const phi = (Math.atan2(y, x) + 2 * Math.PI) % (2 * Math.PI);
  const fovy = FOV_MIN + ((FOV_MAX - FOV_MIN) * (1 - Math.cos(2 * angle))) / 2;
  return { theta, phi, fovy };
}

export function startCameraTour(globe: Globe, reducedMotion: boolean, elapsedMs = 0): () => number {
  globe.setCamera(tourPose((elapsedMs % TOUR_PERIOD_MS) / TOUR_PERIOD_MS));
  if (reducedMotion) return () => elapsedMs;
  let frame = 0;
  let start: number | undefined;
  let elapsed = elapsedMs;
  const step = (time: number) => {
    start ??= time - elapsedMs;
    elapsed = time - start;
    globe.setCamera(tourPose((elapsed % TOUR_PERIOD_MS) / TOUR_PERIOD_MS));
    frame = requestAnimationFrame(step);
  };
  frame = requestAnimationFrame(step);
  return () => {
    cancelAnimationFrame(frame);
    return elapsed;
  };
}
