// Wide lines on the sphere as triangle ribbons: each vertex of a polyline is pushed sideways
// along the sphere by half the width (in radians), perpendicular to the line. Shared by every
// layer that draws lines (grid, constellations, outlines, paths).
import { vec3 } from 'gl-matrix';

/** Appends the triangles of one polyline of unit vectors to `out` (x, y, z per vertex). */
export function appendRibbon(out: number[], points: readonly vec3[], width: number): void {
  if (points.length < 2) throw new Error('Path must include more than 2 points');
  const half = width / 2;
  const sides: [vec3, vec3][] = points.map((point, i) => {
    const before = points[Math.max(0, i - 1)];
    const after = points[Math.min(points.length - 1, i + 1)];
    const tangent = vec3.sub(vec3.create(), after, before);
    const normal = vec3.normalize(vec3.create(), vec3.cross(vec3.create(), point, tangent));
    const left = vec3.normalize(vec3.create(), vec3.scaleAndAdd(vec3.create(), point, normal, half));
    const right = vec3.normalize(vec3.create(), vec3.scaleAndAdd(vec3.create(), point, normal, -half));
    return [left, right];
  });
  for (let i = 0; i + 1 < sides.length; i++) {
    const [a, b] = sides[i];
    const [c, d] = sides[i + 1];
    out.push(...a, ...b, ...c, ...c, ...b, ...d);
  }
}

/** The unit vector of colatitude theta and longitude phi. */
export function unitVector(theta: number, phi: number): vec3 {
  return vec3.fromValues(Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta));
}
