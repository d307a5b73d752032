import { mat3, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import {
  CAMERA_DEFAULTS,
  Camera,
  MODE_BLEND_MS,
  ProjectionMode,
  eyeDistance,
  projectView,
} from '../../src/globe/camera';
import { angleAtPlaneDistance, unitVector } from '../../src/globe/visibility';
import { gridVertices } from '../../src/globe/layers/grid';
import { LINE_VERTEX_FLOATS } from '../../src/globe/lines';

const ARCSECOND = Math.PI / (180 * 3600);

describe('camera defaults (viewer-spec §9)', () => {
  it('starts stereographic with fovy 45°, min_fovy 5″ and max_fovy 2 rad', () => {
    const camera = new Camera();
    expect(camera.mode).toBe(ProjectionMode.STEREOGRAPHIC);
    expect(camera.fovy).toBeCloseTo((45 * Math.PI) / 180, 12);
    expect(CAMERA_DEFAULTS.min_fovy).toBeCloseTo(5 * ARCSECOND, 15);
    expect(CAMERA_DEFAULTS.max_fovy).toBe(2);
  });

  it('keeps fovy inside [min_fovy, max_fovy] and theta inside the poles', () => {
    const camera = new Camera();
    camera.fovy = 10;
    camera.theta = -1;
    camera.phi = -0.5;
    camera.normalize();
    expect(camera.fovy).toBe(2);
    expect(camera.theta).toBeGreaterThan(0);
    expect(camera.phi).toBeCloseTo(2 * Math.PI - 0.5, 12);
    camera.fovy = 0;
    camera.normalize();
    expect(camera.fovy).toBeCloseTo(5 * ARCSECOND, 15);
  });
});

describe('view matrix', () => {
  const camera = new Camera();
  camera.theta = 1.1;
  camera.phi = 4.2;
  camera.roll = 0.3;
  const view = camera.viewMatrix();

  // Orthogonal with determinant −1: the sky is seen from inside the sphere, so it is the mirror
  // image of a globe seen from outside (east on the left).
  it('is orthogonal and mirrors (float32, as GL uses it)', () => {
    const product = mat3.multiply(mat3.create(), view, mat3.transpose(mat3.create(), view));
    for (let i = 0; i < 9; i++) expect(product[i]).toBeCloseTo(i % 4 === 0 ? 1 : 0, 6);
    expect(mat3.determinant(view)).toBeCloseTo(-1, 6);
  });

  it('puts the view direction at the centre, looking forward (+z)', () => {
    const centre = vec3.transformMat3(vec3.create(), unitVector(camera.theta, camera.phi), view);
    [0, 0, 1].forEach((value, i) => expect(centre[i]).toBeCloseTo(value, 6));
  });

  it('shows east (growing right ascension) on the left and north up when roll is 0', () => {
    const upright = new Camera();
    upright.theta = 1.1;
    upright.phi = 4.2;
    const matrix = upright.viewMatrix();
    const east = vec3.transformMat3(vec3.create(), unitVector(1.1, 4.21), matrix);
    const north = vec3.transformMat3(vec3.create(), unitVector(1.09, 4.2), matrix);
    expect(east[0]).toBeLessThan(0);
    expect(Math.abs(east[1])).toBeLessThan(1e-3);
    expect(north[1]).toBeGreaterThan(0);
  });

  it('projects a point at angle fovy/2 from the centre to the top edge (stereographic 2·tan(α/2))', () => {
    const c = new Camera();
    const halfHeight = c.projectionScale();
    const top = vec3.transformMat3(vec3.create(), unitVector(Math.PI / 2 - c.fovy / 2, 0), c.viewMatrix());
    expect((2 * top[1]) / (1 + top[2]) / halfHeight).toBeCloseTo(1, 6);
    c.mode = ProjectionMode.GNOMONIC;
    expect(top[1] / top[2] / c.projectionScale()).toBeCloseTo(1, 6);
  });
});

describe('coordinate grid (viewer-spec §9: theta 18, phi 24 divisions, line width 0.008)', () => {
  it('draws 17 circles of latitude and 24 meridians as lines on the unit sphere', () => {
    const vertices = gridVertices(18, 24);
    // Each vertex lies on the unit sphere with a sideways offset tangent to it.
    for (let i = 0; i < vertices.length; i += LINE_VERTEX_FLOATS * 97) {
      const point = vec3.fromValues(vertices[i], vertices[i + 1], vertices[i + 2]);
      const offset = vec3.fromValues(vertices[i + 3], vertices[i + 4], vertices[i + 5]);
      expect(vec3.length(point)).toBeCloseTo(1, 5);
      expect(vec3.dot(point, offset)).toBeCloseTo(0, 5);
    }
    // 17 circles × 144 segments + 24 meridians × 72 segments, 6 vertices per segment.
    expect(vertices.length / LINE_VERTEX_FLOATS).toBe((17 * 144 + 24 * 72) * 6);
  });
});

describe('the three projections (viewer-spec §4) as one perspective eye behind the centre', () => {
  const alpha = 0.3;
  const point = [Math.sin(alpha), 0, Math.cos(alpha)];

  it('is gnomonic with the eye at the centre: tan α', () => {
    expect(eyeDistance(ProjectionMode.GNOMONIC, 0.7)).toBe(0);
    expect(projectView(point, 0)![0]).toBeCloseTo(Math.tan(alpha), 12);
  });

  it('is stereographic with the eye at the antipode: 2 tan(α/2)', () => {
    expect(eyeDistance(ProjectionMode.STEREOGRAPHIC, 0.01)).toBe(1);
    expect(projectView(point, 1)![0]).toBeCloseTo(2 * Math.tan(alpha / 2), 12);
  });

  it('FLOATING_EYE tends to gnomonic as fovy → 0 and is stereographic at fovy = 1', () => {
    expect(eyeDistance(ProjectionMode.FLOATING_EYE, 1e-6)).toBeCloseTo(0, 5);
    expect(eyeDistance(ProjectionMode.FLOATING_EYE, 1)).toBe(1);
    expect(eyeDistance(ProjectionMode.FLOATING_EYE, 2)).toBe(1);
    const middle = projectView(point, eyeDistance(ProjectionMode.FLOATING_EYE, 0.5))![0];
    expect(middle).toBeGreaterThan(2 * Math.tan(alpha / 2));
    expect(middle).toBeLessThan(Math.tan(alpha));
  });

  it('puts a point at fovy/2 on the top edge in every mode', () => {
    for (const mode of Object.values(ProjectionMode)) {
      const c = new Camera();
      c.mode = mode;
      c.fovy = 0.6;
      const eye = eyeDistance(mode, c.fovy);
      const top = vec3.transformMat3(vec3.create(), unitVector(Math.PI / 2 - c.fovy / 2, 0), c.viewMatrix());
      expect(projectView(top, eye)![1] / c.projectionScale(eye)).toBeCloseTo(1, 6);
    }
  });

  it('blends modes over 200 ms', () => {
    expect(MODE_BLEND_MS).toBe(200);
  });

  it('finds the angle of a plane distance back (for culling), in every mode', () => {
    for (const eye of [0, 0.4, 1]) {
      const rho = (Math.sin(0.5) * (1 + eye)) / (Math.cos(0.5) + eye);
      expect(angleAtPlaneDistance(rho, eye)).toBeCloseTo(0.5, 9);
    }
  });
});
