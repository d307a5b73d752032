// The Milky Way's cube map (viewer-spec §7: faces px, nx, py, ny, pz, nz) in equatorial axes
// x → (ra 0, dec 0), y → (ra 90°, dec 0), z → the north pole, in the OpenGL cube-map convention
// (OpenGL 4.6 §8.13, Table 8.19): the sky builder renders the faces by it (skydata/milkyway.ts)
// and the globe's Milky Way layer reads them back by it.

export const CUBE_FACES = ['px', 'nx', 'py', 'ny', 'pz', 'nz'] as const;
export type CubeFace = (typeof CUBE_FACES)[number];

/** Direction (not of unit length) of cube-map coordinates (sc, tc ∈ −1…1) on a face, per Table 8.19. */
export function cubeFaceDirection(face: CubeFace, sc: number, tc: number): [number, number, number] {
  switch (face) {
    case 'px':
      return [1, -tc, -sc];
    case 'nx':
      return [-1, -tc, sc];
    case 'py':
      return [sc, 1, tc];
    case 'ny':
      return [sc, -1, -tc];
    case 'pz':
      return [sc, -tc, 1];
    case 'nz':
      return [-sc, -tc, -1];
  }
}
