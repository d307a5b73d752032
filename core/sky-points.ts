// Positions on the sky as the catalogue writes them, in degrees (ICRS): the distances that the
// game's "nearest area" means, and the centres of areas that the seeding and the import write.

export type SkyPoint = [ra: number, dec: number];

const RAD = Math.PI / 180;

function toVector([ra, dec]: SkyPoint): [number, number, number] {
  const cosDec = Math.cos(dec * RAD);
  return [cosDec * Math.cos(ra * RAD), cosDec * Math.sin(ra * RAD), Math.sin(dec * RAD)];
}

/** Great-circle distance in degrees (haversine: exact for the small separations inside a level). */
export function angularDistance([ra1, dec1]: SkyPoint, [ra2, dec2]: SkyPoint): number {
  const sinDDec = Math.sin(((dec2 - dec1) * RAD) / 2);
  const sinDRa = Math.sin(((ra2 - ra1) * RAD) / 2);
  const h = sinDDec * sinDDec + Math.cos(dec1 * RAD) * Math.cos(dec2 * RAD) * sinDRa * sinDRa;
  return (2 * Math.asin(Math.min(1, Math.sqrt(h)))) / RAD;
}

/**
 * Centre of an area's outlines: the normalised mean of the vertices as unit vectors, so that an
 * outline across RA 0/360 is centred next to it rather than on the far side of the sky.
 */
export function outlineCentre(outlines: SkyPoint[][]): SkyPoint {
  let x = 0;
  let y = 0;
  let z = 0;
  for (const outline of outlines)
    for (const point of outline) {
      const [px, py, pz] = toVector(point);
      x += px;
      y += py;
      z += pz;
    }
  const length = Math.hypot(x, y, z);
  if (length === 0) throw new Error('an area outline needs at least one point');
  const ra = Math.atan2(y, x) / RAD;
  return [ra < 0 ? ra + 360 : ra, Math.asin(z / length) / RAD];
}
