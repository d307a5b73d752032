// The app's icon as pixels, drawn from the favicon's design (public/favicon.svg, a 32-unit
// square): a dark disc, a tilted orbit ring and a bright core. The build encodes them as PNG
// (vite.config.ts) for the manifest's icons, so no binary image is kept in the repository.
//
// Each pixel is covered by 4 × 4 samples (anti-aliasing). The plain icon is the disc on a
// transparent ground; the maskable one (W3C Web App Manifest, "icon masks") fills the whole
// square with the disc's colour and draws the mark inside the safe zone, the centred circle of
// 40 % of the size in radius that every mask shape keeps.

type Rgba = readonly [number, number, number, number];

const DISC: Rgba = [0x02, 0x05, 0x0f, 255];
const RING: Rgba = [0x8f, 0xb3, 0xff, 255];
const CORE: Rgba = [0xf3, 0xee, 0xdc, 255];

/** The favicon's shapes in its 32-unit square, centred on (16, 16). */
const DESIGN = {
  discRadius: 15,
  ringRadii: [12, 4.5] as const,
  ringWidth: 2,
  ringTilt: (-25 * Math.PI) / 180,
  coreRadius: 3.5,
};

const SAMPLES = 4;

/** Which colour covers the design point (x, y), centred coordinates in units; null: none. */
function colourAt(x: number, y: number, disc: boolean): Rgba | null {
  const { ringRadii, ringWidth, ringTilt, coreRadius, discRadius } = DESIGN;
  if (x * x + y * y <= coreRadius * coreRadius) return CORE;
  // Into the ring's own axes (the SVG turns it by ringTilt about the centre).
  const u = x * Math.cos(ringTilt) + y * Math.sin(ringTilt);
  const v = -x * Math.sin(ringTilt) + y * Math.cos(ringTilt);
  const within = (grow: number) => (u / (ringRadii[0] + grow)) ** 2 + (v / (ringRadii[1] + grow)) ** 2 <= 1;
  if (within(ringWidth / 2) && !within(-ringWidth / 2)) return RING;
  if (!disc || x * x + y * y <= discRadius * discRadius) return DISC;
  return null;
}

/** The icon of `size` × `size` pixels as RGBA bytes, row by row from the top. */
export function appIconPixels(size: number, maskable: boolean): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  // Units per pixel: the plain icon fits the 32-unit design in the square; the maskable one fits
  // the disc (radius 15) within the safe zone's radius, 0.4 × size.
  const unitsPerPixel = maskable ? DESIGN.discRadius / (0.4 * size) : 32 / size;
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      let red = 0;
      let green = 0;
      let blue = 0;
      let alpha = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = (column + (sx + 0.5) / SAMPLES - size / 2) * unitsPerPixel;
          const y = (row + (sy + 0.5) / SAMPLES - size / 2) * unitsPerPixel;
          const colour = colourAt(x, y, !maskable);
          if (!colour) continue;
          // The mean colour of the covered samples (PNG's alpha is not premultiplied), and
          // their share as the alpha: an edge against the transparent ground keeps its colour.
          red += colour[0];
          green += colour[1];
          blue += colour[2];
          alpha += 1;
        }
      }
      const at = (row * size + column) * 4;
      if (alpha === 0) continue;
      pixels[at] = Math.round(red / alpha);
      pixels[at + 1] = Math.round(green / alpha);
      pixels[at + 2] = Math.round(blue / alpha);
      pixels[at + 3] = Math.round((255 * alpha) / (SAMPLES * SAMPLES));
    }
  }
  return pixels;
}
