// Shared by the sky data builder (skydata/) and the globe, which places survey tiles with it.
// The gnomonic (TAN) projection of FITS WCS Paper II (Calabretta & Greisen 2002, §5.1.3) with a
// CD matrix (Paper I): pixel (1-based FITS x, y) ↔ intermediate world coordinates (degrees) ↔
// native spherical ↔ celestial (ra, dec). The survey meta.json carries exactly these keys.
export interface TanWcs {
  NAXIS1: number;
  NAXIS2: number;
  CTYPE1: 'RA---TAN';
  CTYPE2: 'DEC--TAN';
  CRVAL1: number;
  CRVAL2: number;
  CRPIX1: number;
  CRPIX2: number;
  CD1_1: number;
  CD1_2: number;
  CD2_1: number;
  CD2_2: number;
}

const RAD = Math.PI / 180;

/** A north-up, east-left tangent-plane header centred on (ra, dec). */
export function tanWcs(ra: number, dec: number, size: number, arcsecPerPixel: number): TanWcs {
  const scale = arcsecPerPixel / 3600;
  return {
    NAXIS1: size,
    NAXIS2: size,
    CTYPE1: 'RA---TAN',
    CTYPE2: 'DEC--TAN',
    CRVAL1: ra,
    CRVAL2: dec,
    CRPIX1: size / 2 + 0.5,
    CRPIX2: size / 2 + 0.5,
    CD1_1: -scale,
    CD1_2: 0,
    CD2_1: 0,
    CD2_2: scale,
  };
}

/** FITS pixel (1-based) → [ra, dec] degrees. */
export function pixelToSky(wcs: TanWcs, x: number, y: number): [number, number] {
  const dx = x - wcs.CRPIX1;
  const dy = y - wcs.CRPIX2;
  const xi = (wcs.CD1_1 * dx + wcs.CD1_2 * dy) * RAD;
  const eta = (wcs.CD2_1 * dx + wcs.CD2_2 * dy) * RAD;
  const ra0 = wcs.CRVAL1 * RAD;
  const dec0 = wcs.CRVAL2 * RAD;
  const denominator = Math.cos(dec0) - eta * Math.sin(dec0);
  const ra = ra0 + Math.atan2(xi, denominator);
  const dec = Math.atan2(Math.sin(dec0) + eta * Math.cos(dec0), Math.hypot(xi, denominator));
  return [(((ra / RAD) % 360) + 360) % 360, dec / RAD];
}

/** [ra, dec] degrees → FITS pixel (1-based); NaN for the far hemisphere. */
export function skyToPixel(wcs: TanWcs, ra: number, dec: number): [number, number] {
  const ra0 = wcs.CRVAL1 * RAD;
  const dec0 = wcs.CRVAL2 * RAD;
  const a = ra * RAD - ra0;
  const d = dec * RAD;
  const cosc = Math.sin(dec0) * Math.sin(d) + Math.cos(dec0) * Math.cos(d) * Math.cos(a);
  if (cosc <= 0) return [NaN, NaN];
  const xi = (Math.cos(d) * Math.sin(a)) / cosc / RAD;
  const eta = (Math.cos(dec0) * Math.sin(d) - Math.sin(dec0) * Math.cos(d) * Math.cos(a)) / cosc / RAD;
  const det = wcs.CD1_1 * wcs.CD2_2 - wcs.CD1_2 * wcs.CD2_1;
  const dx = (wcs.CD2_2 * xi - wcs.CD1_2 * eta) / det;
  const dy = (-wcs.CD2_1 * xi + wcs.CD1_1 * eta) / det;
  return [dx + wcs.CRPIX1, dy + wcs.CRPIX2];
}

/** Angular separation in degrees (haversine, stable for small angles). */
export function separation(ra1: number, dec1: number, ra2: number, dec2: number): number {
  const s =
    Math.sin(((dec2 - dec1) * RAD) / 2) ** 2 +
    Math.cos(dec1 * RAD) * Math.cos(dec2 * RAD) * Math.sin(((ra2 - ra1) * RAD) / 2) ** 2;
  return (2 * Math.asin(Math.min(1, Math.sqrt(s)))) / RAD;
}
