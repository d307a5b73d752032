// The celestial World Coordinate System of FITS: WCS Paper I (Greisen & Calabretta 2002, A&A
// 395, 1061) for the linear part and Paper II (Calabretta & Greisen 2002, A&A 395, 1077) for the
// projections and the spherical rotation, with the conventions wcslib follows (and so
// astropy.wcs, the reference the conformance test holds this against):
//
//   pixel (p₁, p₂), 1-based ── x = M·(p − r) ──▶ intermediate (x, y), degrees
//   ── projection (§5) ──▶ native (φ, θ) ── rotation (§2.3, eq. 2 and 5) ──▶ celestial (α, δ)
//
// where r is CRPIX and M is CD, or CDELTᵢ·PCᵢⱼ, its rows already ordered (longitude, latitude)
// by the caller (core/wcs-celestial.ts reads the header and swaps axes when the latitude
// comes first). Projections: TAN (§5.1.3), SIN (§5.1.5, with the slant parameters ξ = PV2_1 and
// η = PV2_2) and CAR (§5.2.3). The celestial pole (αₚ, δₚ) follows from CRVAL, the fiducial
// point (φ₀, θ₀) and LONPOLE / LATPOLE as in §2.4, defaults included: LONPOLE is φ₀ when
// δ₀ ≥ θ₀ and φ₀ + 180° otherwise, LATPOLE is +90°.
//
// One WCS is described by a block of f64 in a static data segment: wcsPrepare() takes the
// header's numbers, checks them and writes them with the derived quantities (inverse matrix,
// pole, sines) into the block; the caller keeps a copy of the prepared block (its layout is this
// file's business alone) and writes it back before each batch, so that any number of WCS can be
// used in turn. Batches work on n points in linear memory, degrees in and out; a point with no
// image (the far side of a zenithal projection, |y| > 90° in CAR) comes out as NaN, NaN.

import { WCS_BAD_PARAMETER, WCS_BAD_POLE, WCS_OK, WCS_SINGULAR_MATRIX } from './errors';

const D2R: f64 = Math.PI / 180.0;
const R2D: f64 = 180.0 / Math.PI;
/** wcslib's tolerance for a pole latitude just outside ±90° and for |sin θ| just above 1. */
const TOLERANCE: f64 = 1.0e-10;
/** wcslib's allowance (1e-13°, here in radians) for a native coordinate just past its range. */
const BOUND: f64 = 1.0e-13 * (Math.PI / 180.0);

/** Projection codes (block slot WCS_PROJECTION). */
export const WCS_TAN: i32 = 0;
export const WCS_SIN: i32 = 1;
export const WCS_CAR: i32 = 2;

// Slots of the block. The header's numbers:
const CRPIX1 = 0;
const CRPIX2 = 1;
const M11 = 2; // row 1 of M gives the longitude's intermediate coordinate x
const M12 = 3;
const M21 = 4; // row 2 gives the latitude's y
const M22 = 5;
const CRVAL_LNG = 6;
const CRVAL_LAT = 7;
const LONPOLE = 8; // NaN: the default
const LATPOLE = 9; // NaN: the default (+90)
const PV_XI = 10; // SIN's ξ (PV2_1)
const PV_ETA = 11; // SIN's η (PV2_2)
const PROJECTION = 12;
// Derived by wcsPrepare:
const INV11 = 13;
const INV12 = 14;
const INV21 = 15;
const INV22 = 16;
const POLE_LNG = 17; // αₚ, radians
const SIN_POLE_LAT = 18; // sin δₚ
const COS_POLE_LAT = 19; // cos δₚ
const PHI_P = 20; // φₚ (LONPOLE), radians
/** Slots the caller reads back: LONPOLE and LATPOLE (δₚ) in degrees, as wcslib reports them. */
const OUT_LONPOLE = 21;
const OUT_LATPOLE = 22;
/** 1 when the celestial pole is the native pole, −1 when it is the native south pole, else 0. */
const POLES_ALIGNED = 23;
const SLOTS = 24;

const BLOCK: usize = memory.data(SLOTS << 3, 16);

// @ts-ignore: decorator
@inline function slot(k: i32): f64 {
  return load<f64>(BLOCK + (<usize>k << 3));
}

// @ts-ignore: decorator
@inline function setSlot(k: i32, value: f64): void {
  store<f64>(BLOCK + (<usize>k << 3), value);
}

/** Where the prepared block lies (wcsBlockSlots() f64 values). */
export function wcsBlock(): usize {
  return BLOCK;
}

export function wcsBlockSlots(): i32 {
  return SLOTS;
}

/** Longitude wrapped into [-180, 180] degrees (wcslib's normalisation of φ). */
// @ts-ignore: decorator
@inline function wrap180(degrees: f64): f64 {
  const wrapped = degrees - 360.0 * Math.floor(degrees / 360.0); // [0, 360]
  return wrapped > 180.0 ? wrapped - 360.0 : wrapped;
}

/** Longitude wrapped into [0, 360) degrees. */
// @ts-ignore: decorator
@inline function wrap360(degrees: f64): f64 {
  const wrapped = degrees - 360.0 * Math.floor(degrees / 360.0);
  return wrapped >= 360.0 ? 0.0 : wrapped;
}

/** LONPOLE (φₚ) of the prepared block, degrees: the header's or its default. */
export function wcsLonpole(): f64 {
  return slot(OUT_LONPOLE);
}

/** The celestial latitude of the native pole (δₚ, what wcslib reports as LATPOLE), degrees. */
export function wcsLatpole(): f64 {
  return slot(OUT_LATPOLE);
}

/**
 * Checks a WCS and prepares its block (Paper II §2.4). Angles in degrees; LONPOLE and LATPOLE
 * NaN for their defaults; the projection a WCS_TAN / WCS_SIN / WCS_CAR code. Returns a code of
 * errors.ts.
 */
export function wcsPrepare(
  crpix1: f64,
  crpix2: f64,
  m11: f64,
  m12: f64,
  m21: f64,
  m22: f64,
  crvalLng: f64,
  crvalLat: f64,
  lonpole: f64,
  latpole: f64,
  xi: f64,
  eta: f64,
  projectionCode: f64,
): i32 {
  setSlot(CRPIX1, crpix1);
  setSlot(CRPIX2, crpix2);
  setSlot(M11, m11);
  setSlot(M12, m12);
  setSlot(M21, m21);
  setSlot(M22, m22);
  setSlot(CRVAL_LNG, crvalLng);
  setSlot(CRVAL_LAT, crvalLat);
  setSlot(LONPOLE, lonpole);
  setSlot(LATPOLE, latpole);
  setSlot(PV_XI, xi);
  setSlot(PV_ETA, eta);
  setSlot(PROJECTION, projectionCode);
  for (let k = 0; k <= PROJECTION; k++) {
    if (k == LONPOLE || k == LATPOLE) continue;
    if (!isFinite(slot(k))) return WCS_BAD_PARAMETER;
  }
  const projection = <i32>slot(PROJECTION);
  if (<f64>projection != slot(PROJECTION) || projection < WCS_TAN || projection > WCS_CAR) return WCS_BAD_PARAMETER;
  const det = slot(M11) * slot(M22) - slot(M12) * slot(M21);
  if (det == 0.0 || !isFinite(1.0 / det)) return WCS_SINGULAR_MATRIX;
  setSlot(INV11, slot(M22) / det);
  setSlot(INV12, -slot(M12) / det);
  setSlot(INV21, -slot(M21) / det);
  setSlot(INV22, slot(M11) / det);

  // Fiducial point (φ₀, θ₀) in degrees: the native pole for zenithal projections, the native
  // origin for cylindrical ones.
  const phi0: f64 = 0.0;
  const theta0: f64 = projection == WCS_CAR ? 0.0 : 90.0;
  const lng0 = slot(CRVAL_LNG);
  const lat0 = slot(CRVAL_LAT);
  if (lat0 < -90.0 || lat0 > 90.0) return WCS_BAD_PARAMETER;
  let phip = slot(LONPOLE);
  if (isNaN(phip)) phip = lat0 < theta0 ? phi0 + 180.0 : phi0;
  let thetap = slot(LATPOLE);
  if (isNaN(thetap)) thetap = 90.0;
  if (!isFinite(phip) || !isFinite(thetap)) return WCS_BAD_PARAMETER;

  let lngp: f64;
  let latp: f64;
  if (theta0 == 90.0) {
    // The fiducial point is the native pole: the celestial pole is CRVAL itself (eq. 8's
    // degenerate case).
    lngp = lng0;
    latp = lat0;
  } else {
    const slat0 = Math.sin(lat0 * D2R);
    const clat0 = Math.cos(lat0 * D2R);
    const sthe0 = Math.sin(theta0 * D2R);
    const cthe0 = Math.cos(theta0 * D2R);
    const dphi = (phip - phi0) * D2R;
    const sinphi = phip == phi0 ? 0.0 : Math.sin(dphi);
    const cosphi = phip == phi0 ? 1.0 : Math.cos(dphi);
    // δₚ = arg(cos θ₀ cos(φₚ − φ₀), sin θ₀) ± acos(sin δ₀ / √(1 − cos²θ₀ sin²(φₚ − φ₀))) (eq. 8)
    const x = cthe0 * cosphi;
    const y = sthe0;
    const z = Math.sqrt(x * x + y * y);
    if (z == 0.0) {
      if (slat0 != 0.0) return WCS_BAD_POLE;
      latp = thetap; // LATPOLE alone decides
    } else {
      let t = slat0 / z;
      if (Math.abs(t) > 1.0) {
        if (Math.abs(t) > 1.0 + TOLERANCE) return WCS_BAD_POLE;
        t = t > 0 ? 1.0 : -1.0;
      }
      const u = Math.atan2(y, x) * R2D;
      const v = Math.acos(t) * R2D;
      let latp1 = u + v;
      if (latp1 > 180.0) latp1 -= 360.0;
      else if (latp1 < -180.0) latp1 += 360.0;
      let latp2 = u - v;
      if (latp2 > 180.0) latp2 -= 360.0;
      else if (latp2 < -180.0) latp2 += 360.0;
      const ok1 = Math.abs(latp1) < 90.0 + TOLERANCE;
      const ok2 = Math.abs(latp2) < 90.0 + TOLERANCE;
      // Two valid solutions: the one nearer LATPOLE (§2.4).
      if (ok1 && ok2) latp = Math.abs(latp1 - thetap) < Math.abs(latp2 - thetap) ? latp1 : latp2;
      else if (ok1) latp = latp1;
      else if (ok2) latp = latp2;
      else return WCS_BAD_POLE;
    }
    if (Math.abs(latp) > 90.0) latp = latp > 0 ? 90.0 : -90.0;

    // αₚ (eq. 9 and 10), with the pole on the native pole as its own case.
    const zz = Math.cos(latp * D2R) * clat0;
    if (Math.abs(zz) < TOLERANCE) {
      if (Math.abs(clat0) < TOLERANCE) lngp = lng0;
      else if (latp > 0.0) lngp = lng0 + phip - phi0 - 180.0;
      else lngp = lng0 - phip + phi0;
    } else {
      const xx = (sthe0 - Math.sin(latp * D2R) * slat0) / zz;
      const yy = (sinphi * cthe0) / clat0;
      if (xx == 0.0 && yy == 0.0) return WCS_BAD_POLE;
      lngp = lng0 - Math.atan2(yy, xx) * R2D;
    }
  }
  setSlot(POLE_LNG, lngp * D2R);
  setSlot(SIN_POLE_LAT, Math.sin(latp * D2R));
  setSlot(COS_POLE_LAT, Math.cos(latp * D2R));
  setSlot(PHI_P, phip * D2R);
  setSlot(OUT_LONPOLE, phip);
  setSlot(OUT_LATPOLE, latp);
  // With the poles aligned the rotation is a shift of longitude, written as such (as wcslib
  // does): the general formulas lose the longitude of points on the pole itself.
  setSlot(POLES_ALIGNED, latp == 90.0 ? 1.0 : latp == -90.0 ? -1.0 : 0.0);
  return WCS_OK;
}

/**
 * The latitude of the unit vector (x, y, z), radians. Near a pole asin(z) loses half the digits
 * (a fiducial point off by 1e-8 rad), so there it is taken from the other two components, as
 * wcslib does.
 */
// @ts-ignore: decorator
@inline function latitude(x: f64, y: f64, z: f64): f64 {
  if (Math.abs(z) > 0.99) {
    const theta = Math.acos(Math.min(1.0, Math.sqrt(x * x + y * y)));
    return z < 0.0 ? -theta : theta;
  }
  return Math.asin(z);
}

/**
 * Pixels (x[i], y[i], 1-based FITS) → celestial (lng[i], lat[i]) degrees, lng in [0, 360).
 * Returns how many points had no position (written NaN).
 */
export function wcsPix2sky(px: usize, py: usize, lng: usize, lat: usize, n: i32): i32 {
  const r1 = slot(CRPIX1);
  const r2 = slot(CRPIX2);
  const m11 = slot(M11);
  const m12 = slot(M12);
  const m21 = slot(M21);
  const m22 = slot(M22);
  const projection = <i32>slot(PROJECTION);
  const xi = slot(PV_XI);
  const eta = slot(PV_ETA);
  const slant = xi * xi + eta * eta;
  const lngp = slot(POLE_LNG);
  const sdp = slot(SIN_POLE_LAT);
  const cdp = slot(COS_POLE_LAT);
  const phip = slot(PHI_P);
  const aligned = slot(POLES_ALIGNED);
  let invalid = 0;
  for (let i = 0; i < n; i++) {
    const at = <usize>i << 3;
    const dx = load<f64>(px + at) - r1;
    const dy = load<f64>(py + at) - r2;
    // Intermediate world coordinates, radians.
    const x = (m11 * dx + m12 * dy) * D2R;
    const y = (m21 * dx + m22 * dy) * D2R;
    let phi: f64 = NaN; // native longitude, radians
    let theta: f64 = NaN; // native latitude, radians
    if (projection == WCS_TAN) {
      // R_θ = cot θ (eq. 54); φ = arg(−y, x)
      const r = Math.sqrt(x * x + y * y);
      phi = r == 0.0 ? 0.0 : Math.atan2(x, -y);
      theta = Math.atan2(1.0, r);
    } else if (projection == WCS_SIN) {
      const r2 = x * x + y * y;
      if (slant == 0.0) {
        // Orthographic: R_θ = cos θ (eq. 56)
        phi = r2 == 0.0 ? 0.0 : Math.atan2(x, -y);
        if (r2 < 0.5) theta = Math.acos(Math.sqrt(r2));
        else if (r2 <= 1.0) theta = Math.asin(Math.sqrt(1.0 - r2));
      } else {
        // Slant orthographic (eq. 58–60): sin θ solves a quadratic; the root nearer the pole.
        const xy = x * xi + y * eta;
        let z: f64 = NaN; // 1 − sin θ
        if (r2 < 1.0e-10) {
          theta = Math.PI / 2 - Math.sqrt(r2 / (1.0 + xy));
          z = r2 / 2.0;
        } else {
          const a = slant + 1.0;
          const b = xy - slant;
          const c = r2 - xy - xy + slant - 1.0;
          const d = b * b - a * c;
          if (d >= 0.0) {
            const root = Math.sqrt(d);
            const s1 = (-b + root) / a;
            const s2 = (-b - root) / a;
            let s = s1 > s2 ? s1 : s2;
            if (s > 1.0) s = s - 1.0 < TOLERANCE ? 1.0 : s1 < s2 ? s1 : s2;
            if (s < -1.0 && s + 1.0 > -TOLERANCE) s = -1.0;
            if (s >= -1.0 && s <= 1.0) {
              theta = Math.asin(s);
              z = 1.0 - s;
            }
          }
        }
        if (!isNaN(theta)) {
          const x1 = -y + eta * z;
          const y1 = x - xi * z;
          phi = x1 == 0.0 && y1 == 0.0 ? 0.0 : Math.atan2(y1, x1);
        }
      }
    } else {
      // CAR: (φ, θ) = (x, y) (eq. 84); beyond ±180° and ±90° is off the sphere.
      if (Math.abs(y) <= Math.PI / 2 + BOUND && Math.abs(x) <= Math.PI + BOUND) {
        phi = x;
        theta = y;
      }
    }
    if (isNaN(theta)) {
      store<f64>(lng + at, NaN);
      store<f64>(lat + at, NaN);
      invalid++;
      continue;
    }
    if (aligned != 0.0) {
      const phiDegrees = phi * R2D;
      const thetaDegrees = theta * R2D;
      const north = aligned > 0.0;
      store<f64>(lng + at, wrap360(north ? phiDegrees + lngp * R2D + 180.0 - phip * R2D : (lngp + phip) * R2D - phiDegrees));
      store<f64>(lat + at, north ? thetaDegrees : -thetaDegrees);
      continue;
    }
    // Native → celestial (eq. 2).
    const st = Math.sin(theta);
    const ct = Math.cos(theta);
    const dphi = phi - phip;
    const sdphi = Math.sin(dphi);
    const cdphi = Math.cos(dphi);
    const across = st * cdp - ct * sdp * cdphi;
    const along = -ct * sdphi;
    store<f64>(lng + at, wrap360((lngp + Math.atan2(along, across)) * R2D));
    store<f64>(lat + at, latitude(across, along, st * sdp + ct * cdp * cdphi) * R2D);
  }
  return invalid;
}

/**
 * Celestial (lng[i], lat[i]) degrees → pixels (x[i], y[i], 1-based FITS). Returns how many
 * points have no pixel (not a direction, or off the projection's side of the sky: written NaN).
 */
export function wcsSky2pix(lng: usize, lat: usize, px: usize, py: usize, n: i32): i32 {
  const r1 = slot(CRPIX1);
  const r2 = slot(CRPIX2);
  const i11 = slot(INV11);
  const i12 = slot(INV12);
  const i21 = slot(INV21);
  const i22 = slot(INV22);
  const projection = <i32>slot(PROJECTION);
  const xi = slot(PV_XI);
  const eta = slot(PV_ETA);
  const lngp = slot(POLE_LNG);
  const sdp = slot(SIN_POLE_LAT);
  const cdp = slot(COS_POLE_LAT);
  const phipDegrees = slot(PHI_P) * R2D;
  const aligned = slot(POLES_ALIGNED);
  let invalid = 0;
  for (let i = 0; i < n; i++) {
    const at = <usize>i << 3;
    const alpha = load<f64>(lng + at);
    const delta = load<f64>(lat + at);
    let x: f64 = NaN;
    let y: f64 = NaN;
    if (isFinite(alpha) && delta >= -90.0 && delta <= 90.0) {
      // Celestial → native (eq. 5), or a shift of longitude with the poles aligned.
      let phi: f64;
      let theta: f64;
      if (aligned != 0.0) {
        const north = aligned > 0.0;
        phi = wrap180(north ? alpha + phipDegrees - 180.0 - lngp * R2D : phipDegrees + lngp * R2D - alpha) * D2R;
        theta = (north ? delta : -delta) * D2R;
      } else {
        const sd = Math.sin(delta * D2R);
        const cd = Math.cos(delta * D2R);
        const da = alpha * D2R - lngp;
        const sda = Math.sin(da);
        const cda = Math.cos(da);
        const across = sd * cdp - cd * sdp * cda;
        const along = -cd * sda;
        phi = wrap180(phipDegrees + Math.atan2(along, across) * R2D) * D2R;
        theta = latitude(across, along, sd * sdp + cd * cdp * cda);
      }
      const st = Math.sin(theta);
      const ct = Math.cos(theta);
      const sphi = Math.sin(phi);
      const cphi = Math.cos(phi);
      if (projection == WCS_TAN) {
        if (st > 0.0) {
          const r = ct / st;
          x = r * sphi;
          y = -r * cphi;
        }
      } else if (projection == WCS_SIN) {
        // The visible side: θ ≥ −atan(ξ sin φ − η cos φ) (θ ≥ 0 without slant).
        if (theta >= -Math.atan(xi * sphi - eta * cphi)) {
          const z = 1.0 - st;
          x = ct * sphi + xi * z;
          y = -ct * cphi + eta * z;
        }
      } else {
        x = phi;
        y = theta;
      }
    }
    if (isNaN(x) || isNaN(y)) {
      store<f64>(px + at, NaN);
      store<f64>(py + at, NaN);
      invalid++;
      continue;
    }
    const xd = x * R2D;
    const yd = y * R2D;
    store<f64>(px + at, i11 * xd + i12 * yd + r1);
    store<f64>(py + at, i21 * xd + i22 * yd + r2);
  }
  return invalid;
}
