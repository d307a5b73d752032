// Milky Way cube faces px, py, pz, nx, ny, nz (viewer-spec §7: {dataRepository}{token}{face}.png)
// at 1024 px and an images-512 set, sampled from the sky map. Faces follow the OpenGL cube-map
// convention (OpenGL 4.6 §8.13, Table 8.19) in equatorial axes x → (ra 0, dec 0),
// y → (ra 90°, dec 0), z → north pole, the axes of the star layer: face pixel (column i, row j)
// has s = (i + ½)/N, t = (j + ½)/N, row 0 first in the file.
import fs from 'node:fs';
import path from 'node:path';
import { encodePng } from './png';
import { displayByte, sampleSkyMap, type SkyMap } from './skymap';

export const FACES = ['px', 'nx', 'py', 'ny', 'pz', 'nz'] as const;
export type Face = (typeof FACES)[number];

/** Direction of cube-map coordinates (sc, tc ∈ −1…1) on a face, per Table 8.19. */
export function faceDirection(face: Face, sc: number, tc: number): [number, number, number] {
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

export function renderFace(map: SkyMap, face: Face, size: number): Uint8Array {
  const rgb = new Uint8Array(size * size * 3);
  const sample = new Float32Array(3);
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const [x, y, z] = faceDirection(face, (2 * (i + 0.5)) / size - 1, (2 * (j + 0.5)) / size - 1);
      const ra = (Math.atan2(y, x) * 180) / Math.PI;
      const dec = (Math.atan2(z, Math.hypot(x, y)) * 180) / Math.PI;
      sampleSkyMap(map, ra, dec, sample);
      const k = 3 * (j * size + i);
      for (let c = 0; c < 3; c++) rgb[k + c] = displayByte(sample[c]);
    }
  }
  return rgb;
}

/** Writes milkyway/{face}.png (size) and milkyway/images-512/{face}.png. */
export function buildMilkyWay(root: string, map: SkyMap, size: number): string[] {
  const directory = path.join(root, 'milkyway');
  const written: string[] = [];
  for (const [folder, side] of [
    [directory, size],
    [path.join(directory, 'images-512'), Math.min(512, size)],
  ] as const) {
    fs.mkdirSync(folder, { recursive: true });
    for (const face of FACES) {
      const file = path.join(folder, `${face}.png`);
      fs.writeFileSync(
        file,
        encodePng({ width: side, height: side, channels: 3, pixels: renderFace(map, face, side) }),
      );
      written.push(file);
    }
  }
  return written;
}
