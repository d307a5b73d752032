// Colour composites for people (captain-note images, souvenirs, mosaics): the spec's
// true-colour mapping (HSC-I → red 0.95, HSC-R → green 0.98, HSC-G → blue 1.02) through an
// asinh stretch with β = 57338.67 (viewer-spec §3, application-spec §9), north up.
import type { RasterImage } from './png';

const BETA = 57338.67;
const WEIGHTS = [1.02, 0.98, 0.95]; // G, R, I
const NORM = Math.asinh(BETA * 0.03);

/** An RGB cut-out of side `side` centred on tract pixel (cx, cy) of three bands (G, R, I). */
export function colourComposite(
  bands: Float32Array[],
  size: number,
  cx: number,
  cy: number,
  side: number,
): RasterImage {
  const pixels = new Uint8Array(side * side * 3);
  const x0 = Math.round(cx - side / 2);
  const y0 = Math.round(cy - side / 2);
  for (let row = 0; row < side; row++) {
    const y = y0 + side - 1 - row; // north (high y) at the top
    for (let col = 0; col < side; col++) {
      const x = x0 + col;
      if (x < 0 || y < 0 || x >= size || y >= size) continue;
      for (let c = 0; c < 3; c++) {
        const band = 2 - c; // red ← I, green ← R, blue ← G
        const value = Math.asinh(BETA * WEIGHTS[band] * bands[band][y * size + x]) / NORM;
        pixels[(row * side + col) * 3 + c] = Math.max(0, Math.min(255, Math.round(value * 255)));
      }
    }
  }
  return { width: side, height: side, channels: 3, pixels };
}
