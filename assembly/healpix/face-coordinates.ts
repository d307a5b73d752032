// Points anywhere inside a HEALPix pixel, not only its centre: a nested pixel and a fractional
// position (dx, dy) in it → a direction, and back to the base face and real face coordinates
// (HEALPix C++ xyf2loc and loc2xyf with x = (ix + dx)/nside). The shiftmap kernel
// (assembly/shiftmap.ts) and hpNest2loc, hpAng2xyf (batch.ts) are built on these.

import { HALFPI, INV_HALFPI, TWOPI, TWOTHIRD } from './constants';
import { below, fmodulo, gface, gx, gy, jpll, jrll, nearPole, nest2xyf, orderOf } from './geometry';

/**
 * Direction of the point at fractional position (dx, dy) ∈ [0,1]² inside nested pixel ipix:
 * dx along the face's x index, dy along y, (0.5, 0.5) the centre (HEALPix C++ xyf2loc with
 * x = (ix + dx)/nside). Writes theta at out and phi at out+8.
 *
 * The ring coordinate jr·nside = jrll·nside − ix − iy − dx − dy is formed from its integer part
 * first, so that near a pole (where it is small) it keeps full relative precision at nside 2^29.
 */
export function nest2loc(nside: i64, ipix: i64, dx: f64, dy: f64, out: usize): void {
  const order = orderOf(nside);
  nest2xyf(order, ipix);
  const face = gface;
  const fns = <f64>nside;
  const jri = (jrll(face) << <i64>order) - gx - gy; // integer part of jr, pixel units
  const jr = <f64>jri - (dx + dy);
  let nr: f64;
  let z: f64;
  let sth: f64 = 0;
  let have = false;
  if (jr < fns) {
    nr = jr;
    const u = nr / fns;
    const tmp = (u * u) / 3.0;
    z = 1.0 - tmp;
    if (z > 0.99) {
      sth = Math.sqrt(tmp * (2.0 - tmp));
      have = true;
    }
  } else if (jr > 3.0 * fns) {
    nr = <f64>((nside << 2) - jri) + (dx + dy);
    const u = nr / fns;
    const tmp = (u * u) / 3.0;
    z = tmp - 1.0;
    if (z < -0.99) {
      sth = Math.sqrt(tmp * (2.0 - tmp));
      have = true;
    }
  } else {
    nr = fns;
    z = ((<f64>((nside << 1) - jri) + (dx + dy)) * 2.0) / (3.0 * fns);
  }
  // Longitude in units of π/4 times nr: jpll·nr + x − y, wrapped to [0, 8·nr).
  let t = <f64>jpll(face) * nr + <f64>(gx - gy) + (dx - dy);
  if (t < 0) t += 8.0 * nr;
  if (t >= 8.0 * nr) t -= 8.0 * nr;
  const phi = nr < 1e-15 * fns ? 0.0 : (0.5 * HALFPI * t) / nr;
  store<f64>(out, have ? Math.atan2(sth, z) : Math.acos(z));
  store<f64>(out, phi, 8);
}

/**
 * Inverse of nest2loc, continuous: the base face (returned, 0..11) and the real face
 * coordinates x (at out) and y (at out+8) in pixel units of nside, so that the nested pixel
 * holding the point has ix = floor(x), iy = floor(y) (a point exactly on an edge belongs to the
 * pixel ang2pix gives it, and x, y stay just below that pixel's upper edge).
 */
export function ang2xyf(nside: i64, theta: f64, phi: f64, out: usize): i32 {
  const order = orderOf(nside);
  const z = Math.cos(theta);
  const have = nearPole(theta);
  const sth = have ? Math.sin(theta) : 0.0;
  const za = Math.abs(z);
  const tt = fmodulo((phi >= 0 && phi < TWOPI ? phi : fmodulo(phi, TWOPI)) * INV_HALFPI, 4.0);
  const fns = <f64>nside;
  let x: f64, y: f64;
  let face: i32;
  if (za <= TWOTHIRD) {
    const temp1 = fns * (0.5 + tt);
    const temp2 = fns * (z * 0.75);
    const jp = temp1 - temp2;
    const jm = temp1 + temp2;
    const jpi = <i64>jp;
    const jmi = <i64>jm;
    const ifp = jpi >> <i64>order;
    const ifm = jmi >> <i64>order;
    face = ifp == ifm ? <i32>(ifp | 4) : ifp < ifm ? <i32>ifp : <i32>(ifm + 8);
    const ix = jmi & (nside - 1);
    const iy = nside - (jpi & (nside - 1)) - 1;
    x = <f64>ix + (jm - <f64>jmi);
    y = below(<f64>iy + (1.0 - (jp - <f64>jpi)), <f64>(iy + 1));
  } else {
    const ntt = min(3, <i32>tt);
    const tp = tt - <f64>ntt;
    const tmp = za < 0.99 || !have ? fns * Math.sqrt(3.0 * (1.0 - za)) : (fns * sth) / Math.sqrt((1.0 + za) / 3.0);
    const jp = min(tp * tmp, fns);
    const jm = min((1.0 - tp) * tmp, fns);
    const jpi = min(<i64>jp, nside - 1);
    const jmi = min(<i64>jm, nside - 1);
    if (z > 0) {
      face = ntt;
      const ix = nside - jmi - 1;
      const iy = nside - jpi - 1;
      x = below(max(fns - jm, <f64>ix), <f64>(ix + 1));
      y = below(max(fns - jp, <f64>iy), <f64>(iy + 1));
    } else {
      face = ntt + 8;
      x = below(jp, <f64>(jpi + 1));
      y = below(jm, <f64>(jmi + 1));
    }
  }
  store<f64>(out, x);
  store<f64>(out, y, 8);
  return face;
}

/**
 * nest2loc as a unit vector: the direction of the point at (dx, dy) ∈ [0,1]² inside nested
 * pixel ipix, (x, y, z) f64 at out. z and sin θ come from the ring coordinate as in nest2loc
 * (HEALPix C++ xyf2loc keeps sth the same way), so no acos/atan2 and no sin(θ)/cos(θ) of a
 * rounded θ are needed: only cos φ and sin φ.
 */
export function nest2vec(nside: i64, ipix: i64, dx: f64, dy: f64, out: usize): void {
  const order = orderOf(nside);
  nest2xyf(order, ipix);
  const face = gface;
  const fns = <f64>nside;
  const jri = (jrll(face) << <i64>order) - gx - gy;
  const jr = <f64>jri - (dx + dy);
  let nr: f64;
  let z: f64;
  let sth: f64;
  if (jr < fns) {
    nr = jr;
    const u = nr / fns;
    const tmp = (u * u) / 3.0;
    z = 1.0 - tmp;
    sth = Math.sqrt(tmp * (2.0 - tmp));
  } else if (jr > 3.0 * fns) {
    nr = <f64>((nside << 2) - jri) + (dx + dy);
    const u = nr / fns;
    const tmp = (u * u) / 3.0;
    z = tmp - 1.0;
    sth = Math.sqrt(tmp * (2.0 - tmp));
  } else {
    nr = fns;
    z = ((<f64>((nside << 1) - jri) + (dx + dy)) * 2.0) / (3.0 * fns);
    sth = Math.sqrt((1.0 - z) * (1.0 + z));
  }
  let t = <f64>jpll(face) * nr + <f64>(gx - gy) + (dx - dy);
  if (t < 0) t += 8.0 * nr;
  if (t >= 8.0 * nr) t -= 8.0 * nr;
  const phi = nr < 1e-15 * fns ? 0.0 : (0.5 * HALFPI * t) / nr;
  store<f64>(out, sth * Math.cos(phi));
  store<f64>(out, sth * Math.sin(phi), 8);
  store<f64>(out, z, 16);
}

/**
 * ang2xyf in vector form for two directions at once (f64x2 lanes; the shiftmap kernel's texel
 * pairs): directions (x, y, z) of any non-zero length and their longitudes as tt = φ/(π/2) in
 * [0, 4). Returns each lane's base face (as f64) and writes the real face coordinates x (f64x2
 * at out) and y (at out+16), in pixel units of nside, not clamped into a pixel as ang2xyf's.
 *
 * Górski et al. 2005 eq. 4–9 straight from the vector: |z|/r stands for |cos θ|, and in the
 * polar caps nside·√(3(1 − |z|/r)) is formed as nside·√(3ρ²/(r(r + |z|))) (ρ² = x² + y²,
 * since 1 − |z|/r = ρ²/(r(r + |z|))), which keeps full precision next to the poles as
 * HEALPix C++'s sin θ path does. So no acos, asin, sin or cos: only φ needs a transcendental,
 * and the caller brings it. The face logic is HEALPix C++'s (loc2pix): in the equatorial zone
 * the lines jp, jm of the two edge directions pick the face; in a cap the quadrant does. Both
 * zones are computed only when the lanes straddle |z| = 2/3.
 */
// @ts-ignore: decorator
@inline export function vec2xyf2(nside: i64, x: v128, y: v128, z: v128, tt: v128, out: usize): v128 {
  const fns = <f64>nside;
  const ns = f64x2.splat(fns);
  const rho2 = f64x2.add(f64x2.mul(x, x), f64x2.mul(y, y));
  const r = f64x2.sqrt(f64x2.add(rho2, f64x2.mul(z, z)));
  const za = f64x2.abs(z);
  const equatorial = f64x2.le(za, f64x2.mul(f64x2.splat(TWOTHIRD), r));
  let face = f64x2.splat(0);
  let fx = face;
  let fy = face;
  if (v128.any_true(equatorial)) {
    const zr = f64x2.mul(f64x2.splat(0.75), f64x2.div(z, r));
    const base = f64x2.add(f64x2.splat(0.5), tt);
    const jp = f64x2.mul(ns, f64x2.sub(base, zr)); // ascending edge lines
    const jm = f64x2.mul(ns, f64x2.add(base, zr)); // descending edge lines
    const inv = f64x2.splat(1.0 / fns); // a power of two: exact
    const ifp = f64x2.floor(f64x2.mul(jp, inv));
    const ifm = f64x2.floor(f64x2.mul(jm, inv));
    // ifp == ifm: equatorial face ifp | 4 (ifp = 4 is face 4 again, across φ = 0); ifp < ifm:
    // north polar face ifp; else south polar face ifm + 8.
    let same = f64x2.add(ifp, f64x2.splat(4));
    same = v128.bitselect(f64x2.splat(4), same, f64x2.eq(same, f64x2.splat(8)));
    const other = v128.bitselect(ifp, f64x2.add(ifm, f64x2.splat(8)), f64x2.lt(ifp, ifm));
    face = v128.bitselect(same, other, f64x2.eq(ifp, ifm));
    fx = f64x2.sub(jm, f64x2.mul(ifm, ns));
    fy = f64x2.sub(ns, f64x2.sub(jp, f64x2.mul(ifp, ns)));
  }
  if (!i64x2.all_true(equatorial)) {
    const ntt = f64x2.pmin(f64x2.splat(3), f64x2.floor(tt)); // tt finite: pmin is min
    const tp = f64x2.sub(tt, ntt);
    const q = f64x2.div(f64x2.mul(f64x2.splat(3), rho2), f64x2.mul(r, f64x2.add(r, za)));
    const tmp = f64x2.mul(ns, f64x2.sqrt(q));
    const jp = f64x2.mul(tp, tmp);
    const jm = f64x2.mul(f64x2.sub(f64x2.splat(1), tp), tmp);
    const north = f64x2.gt(z, f64x2.splat(0));
    const pface = v128.bitselect(ntt, f64x2.add(ntt, f64x2.splat(8)), north);
    const px = v128.bitselect(f64x2.sub(ns, jm), jp, north);
    const py = v128.bitselect(f64x2.sub(ns, jp), jm, north);
    face = v128.bitselect(face, pface, equatorial);
    fx = v128.bitselect(fx, px, equatorial);
    fy = v128.bitselect(fy, py, equatorial);
  }
  v128.store(out, fx);
  v128.store(out, fy, 16);
  return face;
}
