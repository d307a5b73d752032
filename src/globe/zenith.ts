// The projection-centre angles za, zd, zp of the camera (viewer-spec §3), read as the reference
// viewer's camera does. An application built on it sets them from its dateUtils.zenithSkyCoord
// (za = local sidereal time + longitude, zd = latitude, zp = 0) and then keeps theta/phi as an
// observer's zenith distance and azimuth while the sky turns ("Sky Viewer Camera, Zenith, and
// Time Relationships", a design note of that application). So: theta and phi are the
// colatitude and longitude of the view direction in the camera's own frame, whose pole sits at
// right ascension za, declination zd, turned by zp about that pole; the screen's up points to
// the pole. The defaults put the pole on the north celestial pole, unturned: the equatorial
// frame, where (ra, dec) = (phi, π/2 − theta). Kept free of gl-matrix so that the application's
// camera indicator can read it without the globe's code.

export interface ZenithFrame {
  /** Right ascension of the frame's pole, radians. */
  za: number;
  /** Declination of the frame's pole, radians. */
  zd: number;
  /** Turn of the frame about its pole, radians: a direction's phi is its longitude about the pole − zp. */
  zp: number;
}

export const ZENITH_DEFAULTS: Readonly<ZenithFrame> = { za: 0, zd: Math.PI / 2, zp: 0 };

export function isDefaultZenith({ za, zd, zp }: ZenithFrame): boolean {
  return za === ZENITH_DEFAULTS.za && zd === ZENITH_DEFAULTS.zd && zp === ZENITH_DEFAULTS.zp;
}

type Rows = [[number, number, number], [number, number, number], [number, number, number]];

/**
 * The rotation from the camera's frame to the equatorial one, Rz(za)·Ry(π/2 − zd)·Rz(zp), as
 * rows: its third column is the pole (za, zd). The default frame gives the identity exactly
 * (cos 0 = 1, sin 0 = 0), so the default picture is the equatorial one bit for bit.
 */
export function zenithRows({ za, zd, zp }: ZenithFrame): Rows {
  const ca = Math.cos(za);
  const sa = Math.sin(za);
  const cb = Math.cos(Math.PI / 2 - zd);
  const sb = Math.sin(Math.PI / 2 - zd);
  const cp = Math.cos(zp);
  const sp = Math.sin(zp);
  return [
    [ca * cb * cp - sa * sp, -ca * cb * sp - sa * cp, ca * sb],
    [sa * cb * cp + ca * sp, -sa * cb * sp + ca * cp, sa * sb],
    [-sb * cp, sb * sp, cb],
  ];
}

function wrap(angle: number): number {
  return angle < 0 ? angle + 2 * Math.PI : angle;
}

/** The equatorial (ra, dec), radians, of the direction (theta, phi) of the camera's frame. */
export function skyOfCamera(frame: ZenithFrame, theta: number, phi: number): { ra: number; dec: number } {
  if (isDefaultZenith(frame)) return { ra: phi, dec: Math.PI / 2 - theta };
  const m = zenithRows(frame);
  const v = [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)];
  const [x, y, z] = m.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]);
  return { ra: wrap(Math.atan2(y, x)), dec: Math.asin(Math.min(1, Math.max(-1, z))) };
}

/** The direction (theta, phi) of the camera's frame that looks at equatorial (ra, dec), radians. */
export function cameraOfSky(frame: ZenithFrame, ra: number, dec: number): { theta: number; phi: number } {
  const m = zenithRows(frame);
  const w = [Math.cos(dec) * Math.cos(ra), Math.cos(dec) * Math.sin(ra), Math.sin(dec)];
  // The transpose takes the equatorial frame back to the camera's.
  const [x, y, z] = [0, 1, 2].map((j) => m[0][j] * w[0] + m[1][j] * w[1] + m[2][j] * w[2]);
  return { theta: Math.acos(Math.min(1, Math.max(-1, z))), phi: wrap(Math.atan2(y, x)) };
}

/** The equatorial (ra, dec), radians, a camera state looks at; a state without za/zd/zp is in the default frame. */
export function viewCentre(state: { theta: number; phi: number } & Partial<ZenithFrame>): { ra: number; dec: number } {
  const { za = ZENITH_DEFAULTS.za, zd = ZENITH_DEFAULTS.zd, zp = ZENITH_DEFAULTS.zp } = state;
  return skyOfCamera({ za, zd, zp }, state.theta, state.phi);
}
