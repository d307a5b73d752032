import { describe, expect, it } from 'vitest';
import {
  Camera,
  FOVY_EASE_BACK_MS,
  JUMP_MS,
  Jump,
  LOD_BIAS_FADE_MS,
  easeFovyBack,
  lodBiasAt,
  projectView,
  unprojectView,
} from '../../src/globe/camera';

const DEGREE = Math.PI / 180;

function angleBetween(a: Camera, theta: number, phi: number): number {
  const u = [Math.sin(a.theta) * Math.cos(a.phi), Math.sin(a.theta) * Math.sin(a.phi), Math.cos(a.theta)];
  const v = [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)];
  return Math.acos(Math.min(1, u[0] * v[0] + u[1] * v[1] + u[2] * v[2]));
}

describe('jumpTo (viewer-spec §4: 400 ms by default, the zoom dips on long jumps unless keepFovy)', () => {
  it('lasts 400 ms by default and arrives exactly at the target', () => {
    expect(JUMP_MS).toBe(400);
    const camera = new Camera();
    camera.fovy = 1 * DEGREE;
    const jump = new Jump(camera, { theta: 60 * DEGREE, phi: 2, fovy: 0.5 * DEGREE }, 1000);
    expect(jump.duration).toBe(400);
    expect(jump.apply(camera, 1200)).toBe(true);
    expect(jump.apply(camera, 1399)).toBe(true);
    expect(jump.apply(camera, 1400)).toBe(false);
    expect(camera.theta).toBe(60 * DEGREE);
    expect(camera.phi).toBe(2);
    expect(camera.fovy).toBe(0.5 * DEGREE);
  });

  it('moves along the great circle: half-way it is half the angle from both ends', () => {
    const camera = new Camera();
    camera.theta = 80 * DEGREE;
    camera.phi = 0.1;
    const jump = new Jump(camera, { theta: 40 * DEGREE, phi: 1.9 }, 0);
    const start = { theta: camera.theta, phi: camera.phi };
    jump.apply(camera, JUMP_MS / 2);
    const fromStart = angleBetween(camera, start.theta, start.phi);
    const toEnd = angleBetween(camera, 40 * DEGREE, 1.9);
    expect(fromStart).toBeCloseTo(toEnd, 9);
  });

  it('dips the zoom out on a long jump: half-way fovy reaches the jump length', () => {
    const camera = new Camera();
    camera.fovy = 0.01 * DEGREE;
    camera.theta = 90 * DEGREE;
    camera.phi = 0;
    const jump = new Jump(camera, { theta: 90 * DEGREE, phi: 60 * DEGREE, fovy: 0.01 * DEGREE }, 0);
    expect(jump.dips).toBe(true);
    const seen: number[] = [];
    for (let time = 0; time <= JUMP_MS; time += 20) {
      jump.apply(camera, time);
      seen.push(camera.fovy);
    }
    expect(Math.max(...seen)).toBeCloseTo(60 * DEGREE, 6);
    expect(seen[seen.length - 1]).toBeCloseTo(0.01 * DEGREE, 12);
    // It zooms out first, then in: the widest view is half-way.
    expect(seen.indexOf(Math.max(...seen))).toBe(10);
  });

  it('keeps fovy along the way with keepFovy, and on a jump shorter than the view', () => {
    const camera = new Camera();
    camera.fovy = 0.01 * DEGREE;
    const kept = new Jump(camera, { theta: 30 * DEGREE, phi: 1 }, 0, { keepFovy: true });
    expect(kept.dips).toBe(false);
    for (let time = 0; time <= JUMP_MS; time += 40) {
      kept.apply(camera, time);
      expect(camera.fovy).toBeCloseTo(0.01 * DEGREE, 14);
    }
    const near = new Camera();
    near.fovy = 10 * DEGREE;
    expect(new Jump(near, { theta: near.theta - 2 * DEGREE, phi: near.phi }, 0).dips).toBe(false);
  });

  it('does not zoom out beyond max_fovy', () => {
    const camera = new Camera();
    camera.fovy = 0.1 * DEGREE;
    camera.theta = 10 * DEGREE;
    const jump = new Jump(camera, { theta: 170 * DEGREE, phi: 3 }, 0);
    jump.apply(camera, JUMP_MS / 2);
    expect(camera.fovy).toBeLessThanOrEqual(camera.max_fovy + 1e-9);
  });

  it('a duration of 0 is a cut', () => {
    const camera = new Camera();
    const jump = new Jump(camera, { theta: 1, phi: 1 }, 500, { duration: 0 });
    expect(jump.apply(camera, 500)).toBe(false);
    expect(camera.theta).toBe(1);
  });
});

describe('level-of-detail bias (viewer-spec §4: 1 while moving, fading to 0 over 200 ms after)', () => {
  it('is 1 at the last motion, half after 100 ms, 0 from 200 ms on', () => {
    expect(LOD_BIAS_FADE_MS).toBe(200);
    expect(lodBiasAt(1000, 1000)).toBe(1);
    expect(lodBiasAt(1100, 1000)).toBeCloseTo(0.5, 12);
    expect(lodBiasAt(1200, 1000)).toBe(0);
    expect(lodBiasAt(5000, 1000)).toBe(0);
    expect(lodBiasAt(0, -Infinity)).toBe(0);
  });
});

describe('fovy eases back into its range (viewer-spec §4)', () => {
  const min = 5 * (Math.PI / (180 * 3600));
  it('starts where it was pushed, moves monotonically back and lands on the bound', () => {
    let previous = 2.8;
    expect(easeFovyBack(2.8, min, 2, 0)).toBeCloseTo(2.8, 12);
    for (let t = 10; t < 2 * FOVY_EASE_BACK_MS; t += 10) {
      const fovy = easeFovyBack(2.8, min, 2, t);
      expect(fovy).toBeLessThanOrEqual(previous);
      expect(fovy).toBeGreaterThanOrEqual(2);
      previous = fovy;
    }
    expect(easeFovyBack(2.8, min, 2, 2 * FOVY_EASE_BACK_MS)).toBe(2);
    expect(easeFovyBack(min / 1.4, min, 2, 2 * FOVY_EASE_BACK_MS)).toBe(min);
    expect(easeFovyBack(1, min, 2, 0)).toBe(1);
  });

  it('lets a gesture overshoot by 1.5 only', () => {
    const camera = new Camera();
    camera.fovy = 10;
    camera.normalize(true);
    expect(camera.fovy).toBe(3);
    camera.normalize();
    expect(camera.fovy).toBe(2);
  });
});

describe('unprojectView is the inverse of projectView', () => {
  it('for every eye distance', () => {
    for (const eye of [0, 0.3, 1]) {
      for (const [x, y, z] of [
        [0.1, -0.2, 0.97],
        [-0.5, 0.4, 0.3],
        [0, 0, 1],
      ]) {
        const length = Math.hypot(x, y, z);
        const v = [x / length, y / length, z / length];
        const [px, py] = projectView(v, eye)!;
        const back = unprojectView(px, py, eye);
        back.forEach((value, i) => expect(value).toBeCloseTo(v[i], 10));
      }
    }
  });
});
