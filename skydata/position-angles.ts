// Catalogue position angles of galaxies the sky draws: the angle of the major axis measured
// from north through east, in degrees, as catalogues give it (RC3, de Vaucouleurs et al. 1991;
// HyperLeda where RC3 has none). d3-celestial's SAC list (dsos.20.json) has sizes but no angle,
// so the galaxies whose orientation a volunteer could recognise are listed here by its id.
//
// Images are drawn in pixel frames where +x points west (CD1_1 < 0), so a position angle is
// never used as a pixel angle: pixelAngle converts it through the image's own WCS.
import { skyToPixel, type TanWcs } from './wcs';

export const POSITION_ANGLES: Readonly<Record<string, number>> = {
  'NGC 55': 108,
  'NGC 205': 170, // M110
  'NGC 221': 170, // M32
  'NGC 224': 35, // M31
  'NGC 253': 52,
  'NGC 598': 23, // M33
  'NGC 891': 22,
  'NGC 2403': 127,
  'NGC 3031': 157, // M81
  'NGC 3034': 65, // M82
  'NGC 3628': 104,
  'NGC 4244': 48,
  'NGC 4258': 150, // M106
  'NGC 4594': 90, // M104
  'NGC 4631': 86,
  'NGC 4826': 115, // M64
  'NGC 5055': 105, // M63
  'NGC 5194': 163, // M51
  'NGC 5457': 39, // M101
  'NGC 7331': 171,
};

const RAD = Math.PI / 180;

/**
 * The pixel-frame angle (radians from +x towards +y, the `pa` of skydata/galaxy.ts) of a major
 * axis at catalogue position angle `degrees` (north through east) at (ra, dec): a short step
 * along that direction on the sky, projected through the image's WCS.
 */
export function pixelAngle(wcs: TanWcs, ra: number, dec: number, degrees: number): number {
  const step = Math.hypot(wcs.CD1_1, wcs.CD2_1); // one pixel, degrees
  const [x0, y0] = skyToPixel(wcs, ra, dec);
  const [x1, y1] = skyToPixel(
    wcs,
    ra + (step * Math.sin(degrees * RAD)) / Math.cos(dec * RAD),
    dec + step * Math.cos(degrees * RAD),
  );
  return Math.atan2(y1 - y0, x1 - x0);
}
