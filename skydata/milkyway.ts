// Milky Way cube faces px, py, pz, nx, ny, nz (viewer-spec §7: {dataRepository}{token}{face}.png)
// at 1024 px and an images-512 set, sampled from the sky map. Faces follow the OpenGL cube-map
// convention in equatorial axes (core/cubeMap.ts), the axes of the star layer: face pixel
// (column i, row j) has s = (i + ½)/N, t = (j + ½)/N, row 0 first in the file.
import fs from 'node:fs';
import path from 'node:path';
import { CUBE_FACES, cubeFaceDirection, type CubeFace } from '../core/cubeMap';
import { encodePng } from './png';
import { displayByte, sampleSkyMap, type SkyMap } from './skymap';

export function renderFace(map: SkyMap, face: CubeFace, size: number): Uint8Array {
  const rgb = new Uint8Array(size * size * 3);
  const sample = new Float32Array(3);
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const [x, y, z] = cubeFaceDirection(face, (2 * (i + 0.5)) / size - 1, (2 * (j + 0.5)) / size - 1);
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
    for (const face of CUBE_FACES) {
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
