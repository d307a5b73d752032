// The projection-centre angles za, zd, zp (viewer-spec §3): theta/phi measured from a pole at
// (za, zd), turned by zp, with the screen's up towards that pole; the default frame leaves the
// equatorial view exactly as it was.
import { mat3, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { Camera, projectView } from '../../src/globe/camera';
import { ZENITH_DEFAULTS, cameraOfSky, skyOfCamera, viewCentre } from '../../src/globe/zenith';
import { skyVector, viewCone } from '../../src/globe/visibility';
import { skyUnder } from '../../src/globe/gestures';

const DEGREE = Math.PI / 180;

/** The view matrix written out for the equatorial frame: what every frame was drawn with before za/zd/zp. */
function equatorialView(theta: number, phi: number, roll: number): number[] {
  const forward = [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)];
  const north = [-Math.cos(theta) * Math.cos(phi), -Math.cos(theta) * Math.sin(phi), Math.sin(theta)];
  const west = [Math.sin(phi), -Math.cos(phi), 0];
  const right = west.map((w, i) => Math.cos(roll) * w - Math.sin(roll) * north[i]);
  const up = north.map((n, i) => Math.sin(roll) * west[i] + Math.cos(roll) * n);
  return [0, 1, 2].flatMap((i) => [right[i], up[i], forward[i]]);
}

function transform(m: mat3, v: ArrayLike<number>): number[] {
  return Array.from(vec3.transformMat3(vec3.create(), vec3.fromValues(v[0], v[1], v[2]), m));
}

describe('camera za, zd, zp', () => {
  it('defaults to the north celestial pole, unturned', () => {
    const camera = new Camera();
    expect({ za: camera.za, zd: camera.zd, zp: camera.zp }).toEqual(ZENITH_DEFAULTS);
    expect(ZENITH_DEFAULTS).toEqual({ za: 0, zd: Math.PI / 2, zp: 0 });
  });

  it('leaves the default view matrix bit for bit what the equatorial one was', () => {
    const camera = new Camera();
    for (const [theta, phi, roll] of [
      [1.1, 0.3, 0],
      [0.2, 5.9, 0.4],
      [2.9, 3.14, -1.2],
    ]) {
      Object.assign(camera, { theta, phi, roll });
      expect(Array.from(camera.viewMatrix())).toEqual(Array.from(Float32Array.from(equatorialView(theta, phi, roll))));
      expect(camera.equatorialDirection()).toEqual({ theta, phi });
    }
  });

  it('looks at the pole (za, zd) at theta 0, and the projection puts it at the centre', () => {
    const camera = new Camera();
    Object.assign(camera, { za: 155.48 * DEGREE, zd: 19.83 * DEGREE, zp: 0.7, theta: 0, phi: 0 });
    const pole = skyVector(155.48, 19.83);
    const view = transform(camera.viewMatrix(), pole);
    expect(view[2]).toBeCloseTo(1, 6);
    const [x, y] = projectView(view, 1) ?? [NaN, NaN];
    expect(Math.hypot(x, y)).toBeLessThan(1e-6);
    expect(viewCentre(camera.state()).ra / DEGREE).toBeCloseTo(155.48, 9);
    expect(viewCentre(camera.state()).dec / DEGREE).toBeCloseTo(19.83, 9);
  });

  it('draws the pole straight up the screen from a view 60° away from it', () => {
    const camera = new Camera();
    Object.assign(camera, { za: 40 * DEGREE, zd: -30 * DEGREE, zp: 1.3, theta: 60 * DEGREE, phi: 2.2 });
    const view = transform(camera.viewMatrix(), skyVector(40, -30));
    // Straight up: no screen-right component, positive screen-up, 60° from the view direction.
    expect(view[0]).toBeCloseTo(0, 6);
    expect(view[1]).toBeGreaterThan(0);
    expect(Math.acos(view[2]) / DEGREE).toBeCloseTo(60, 4);
  });

  it('turns the frame by zp about the pole: phi and zp trade one for the other', () => {
    const frame = { za: 1, zd: 0.4, zp: 0 };
    const turned = { ...frame, zp: 0.5 };
    const a = skyOfCamera(frame, 1.2, 2.5);
    const b = skyOfCamera(turned, 1.2, 2.0);
    expect(b.ra).toBeCloseTo(a.ra, 12);
    expect(b.dec).toBeCloseTo(a.dec, 12);
    expect(skyOfCamera(turned, 1.2, 2.5).ra).not.toBeCloseTo(a.ra, 3);
  });

  it('takes the sky to the camera frame and back', () => {
    const frame = { za: 3.3, zd: -0.9, zp: 2.1 };
    const { theta, phi } = cameraOfSky(frame, 4.1, 0.35);
    const back = skyOfCamera(frame, theta, phi);
    expect(back.ra).toBeCloseTo(4.1, 12);
    expect(back.dec).toBeCloseTo(0.35, 12);
  });

  it('culls around the equatorial view direction, and a double-click recentres in the camera frame', () => {
    const camera = new Camera();
    const frame = { za: 2, zd: 0.3, zp: -0.4 };
    Object.assign(camera, frame, cameraOfSky(frame, 1.5, -0.2));
    const cone = viewCone(camera, 1, 800, 600);
    expect(vec3.dot(cone.centre, skyVector(1.5 / DEGREE, -0.2 / DEGREE))).toBeCloseTo(1, 6);
    const under = skyUnder(camera, 1, 400, 300, 800, 600);
    expect(under.theta).toBeCloseTo(camera.theta, 5);
    expect(Math.cos(under.phi - camera.phi)).toBeCloseTo(1, 6);
  });
});
