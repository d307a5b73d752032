// Galaxies are drawn at their catalogue position angle (north through east): the angle is
// measured back from each rendered image's second moments, in the image's own WCS, and must lie
// within 10° of the catalogue's (issue 31).
import { describe, expect, it } from 'vitest';
import { convolveGaussian } from '../../skydata/galaxy';
import { loadRealGalaxies, realTargetSpec } from '../../skydata/plan';
import { POSITION_ANGLES } from '../../skydata/position-angles';
import { renderPrettyPicture } from '../../skydata/pretty';
import { Random } from '../../skydata/random';
import { renderTarget } from '../../skydata/targets';
import { pixelToSky, skyToPixel, tanWcs, type TanWcs } from '../../skydata/wcs';

const RAD = Math.PI / 180;

/**
 * The position angle (degrees, north through east, 0..180) of the major axis of the light
 * above `level` × the peak within `radius` pixels of (cx, cy) (0-based), from the second
 * moments of that isophote's area; directions are turned into sky angles by `wcs`.
 */
function measuredAngle(
  image: Float32Array,
  size: number,
  wcs: TanWcs,
  cx: number,
  cy: number,
  radius: number,
  level: number,
): number {
  let peak = 0;
  const inside = (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) if (inside(x, y)) peak = Math.max(peak, image[y * size + x]);
  let n = 0;
  let mx = 0;
  let my = 0;
  let mxx = 0;
  let myy = 0;
  let mxy = 0;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      if (!inside(x, y) || image[y * size + x] < level * peak) continue;
      n++;
      mx += x;
      my += y;
      mxx += x * x;
      myy += y * y;
      mxy += x * y;
    }
  mx /= n;
  my /= n;
  const cxx = mxx / n - mx * mx;
  const cyy = myy / n - my * my;
  const cxy = mxy / n - mx * my;
  const theta = 0.5 * Math.atan2(2 * cxy, cxx - cyy); // major axis, pixel frame
  // The axis as a sky direction, through the WCS (FITS pixels are 1-based).
  const [ra0, dec0] = pixelToSky(wcs, mx + 1, my + 1);
  const [ra1, dec1] = pixelToSky(wcs, mx + 1 + Math.cos(theta), my + 1 + Math.sin(theta));
  const east = (ra1 - ra0) * Math.cos(dec0 * RAD);
  const north = dec1 - dec0;
  return (((Math.atan2(east, north) / RAD) % 180) + 180) % 180;
}

/** The difference of two axis angles, 0..90 degrees. */
function axisDifference(a: number, b: number): number {
  const d = Math.abs(a - b) % 180;
  return Math.min(d, 180 - d);
}

function sum(bands: Float32Array[]): Float32Array {
  const out = new Float32Array(bands[0].length);
  for (const band of bands) for (let k = 0; k < out.length; k++) out[k] += band[k];
  return out;
}

describe('galaxies are oriented by their catalogue position angle (north through east)', () => {
  it('M31 in its pretty picture', () => {
    const size = 256;
    const image = renderPrettyPicture('m31', size);
    const [x, y] = skyToPixel(image.wcs, 10.6847, 41.2687);
    const angle = measuredAngle(sum(image.bands), size, image.wcs, x - 1, y - 1, 120, 0.003);
    expect(axisDifference(angle, POSITION_ANGLES['NGC 224'])).toBeLessThan(10);
  });

  it('M101 in its pretty picture', () => {
    const size = 256;
    const image = renderPrettyPicture('m101', size);
    const [x, y] = skyToPixel(image.wcs, 210.8023, 54.3489);
    const angle = measuredAngle(sum(image.bands), size, image.wcs, x - 1, y - 1, 110, 0.003);
    expect(axisDifference(angle, POSITION_ANGLES['NGC 5457'])).toBeLessThan(10);
  });

  const TEN = [
    'NGC 55',
    'NGC 253',
    'NGC 891',
    'NGC 2403',
    'NGC 3628',
    'NGC 4244',
    'NGC 4631',
    'NGC 7331',
    'NGC 4258',
    'NGC 4594',
  ];
  for (const name of TEN) {
    it(`${name} as a survey target`, () => {
      const real = loadRealGalaxies().find((g) => g.name === name);
      expect(real?.positionAngle).toBe(POSITION_ANGLES[name]);
      if (!real) return;
      // A tract-like image around the galaxy, a few arcseconds a pixel so that it fits.
      const size = 256;
      const wcs = tanWcs(real.ra, real.dec, size, (real.major * 60 * 1.6) / size);
      const spec = realTargetSpec(wcs, real, new Random(7));
      // realTargetSpec sizes by the survey's pixel scale; this image's is coarser.
      const target = { ...spec, radius: size / 3.2 };
      const stamp = renderTarget(target, new Random(spec.seed));
      convolveGaussian(stamp, [1, 1, 1]);
      const image = new Float32Array(size * size);
      for (let py = 0; py < stamp.height; py++)
        for (let px = 0; px < stamp.width; px++) {
          const x = stamp.x0 + px;
          const y = stamp.y0 + py;
          if (x < 0 || y < 0 || x >= size || y >= size) continue;
          const k = py * stamp.width + px;
          image[y * size + x] = stamp.bands[0][k] + stamp.bands[1][k] + stamp.bands[2][k];
        }
      const angle = measuredAngle(image, size, wcs, spec.x, spec.y, size / 2.2, 0.003);
      expect(axisDifference(angle, real.positionAngle ?? NaN)).toBeLessThan(10);
    });
  }
});
