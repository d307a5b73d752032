#!/usr/bin/python3
"""HEALPix reference vectors from healpy (Debian's python3-healpy, HEALPix C++ underneath).

Usage: make_healpix_references.py OUT_DIR

Writes OUT_DIR/healpix.json with, for every order 0..29 (nside 1 .. 2^29):
  ang2pix   points (theta, phi) -> ring and nested ids
  pix2ang   ids -> centres in both schemes; nest2ring / ring2nest of the same ids
  pix2vec   ids -> unit vectors in both schemes
  vec2pix   vectors of any length -> ring and nested ids
  boundaries nested ids -> healpy.boundaries(step=4) vectors (exact in-pixel positions)
  query_disc centre, radius, inclusive/fact, scheme -> merged ranges [lo, hi)

Pixel ids are written as decimal strings (they pass 2^53); floats as Python's repr, which
JavaScript parses back to the same double. Query centres are written as the (theta, phi) that
HEALPix C++ derives from the vector healpy is given (pointing(vec3)), so both sides start from
the same doubles.
"""

import json
import math
import os
import random
import sys
import time

import healpy
import numpy as np

SEED = 20240529
MAX_ORDER = 29


def ids_out(values):
    return [str(int(v)) for v in values]


def floats_out(values):
    return [float(v) for v in values]


def special_points(nside):
    """Poles, phi = 0 and just below 2π, the z = ±2/3 boundary, pixel edges, far-away phi."""
    two_pi = 2 * math.pi
    below_two_pi = math.nextafter(two_pi, 0)
    z23 = math.acos(2.0 / 3.0)
    z23s = math.acos(-2.0 / 3.0)
    pts = [
        (0.0, 0.0),
        (0.0, 1.0),
        (math.pi, 0.0),
        (math.pi, 4.0),
        (0.0, below_two_pi),
        (math.pi / 2, 0.0),
        (math.pi / 2, below_two_pi),
        (math.pi / 2, two_pi),
        (1.0, -1.0),
        (2.0, 7.5),
        (1.3, -20.0),
        (z23, 0.0),
        (z23, 0.3),
        (math.nextafter(z23, 0), 0.3),
        (math.nextafter(z23, 4), 0.3),
        (z23s, 5.0),
        (math.nextafter(z23s, 0), 5.0),
        (math.nextafter(z23s, 4), 5.0),
        (1e-300, 2.0),
        (1e-12, 3.0),
        (1e-9, below_two_pi),
        (math.pi - 1e-12, 0.5),
        (math.pi - 1e-9, 6.0),
        (0.01, 1.0),
        (math.nextafter(0.01, 0), 1.0),
        (math.pi - 0.01, 2.0),
    ]
    # Pixel edges and centres in longitude on the equator and on a cap ring.
    for k in (1, 2, 3, 5):
        pts.append((math.pi / 2, k * math.pi / (2 * nside)))
        pts.append((math.pi / 2, (k + 0.5) * math.pi / (2 * nside)))
    # Near the poles at this nside: a few rings from the pole.
    for rings in (0.5, 1.0, 1.5, 3.7):
        t = rings * math.sqrt(4.0 / 3.0) / nside
        if t < math.pi / 2:
            pts.append((t, 0.7))
            pts.append((math.pi - t, 2.9))
    return pts


def random_points(rng, n):
    pts = []
    for _ in range(n):
        z = rng.uniform(-1.0, 1.0)
        pts.append((math.acos(z), rng.uniform(0.0, 2 * math.pi)))
    return pts


def pixel_ids(rng, nside, n):
    npix = 12 * nside * nside
    ncap = 2 * nside * (nside - 1)
    fixed = {0, 1, 2, 3, npix - 1, npix - 2, npix - 4, ncap - 1, ncap, ncap + 1, npix - ncap - 1, npix - ncap,
             npix // 2, npix // 12, 4 * nside * nside}
    ids = sorted(v for v in fixed if 0 <= v < npix)
    ids += [rng.randrange(npix) for _ in range(n)]
    # Near the poles in the ring scheme: the first and last rings.
    ids += [rng.randrange(min(npix, 40)) for _ in range(5)]
    ids += [npix - 1 - rng.randrange(min(npix, 40)) for _ in range(5)]
    return ids


def pointing(vec):
    """HEALPix C++ pointing(vec3): the (theta, phi) query_disc works from."""
    x, y, z = (float(v) for v in vec)
    theta = math.atan2(math.sqrt(x * x + y * y), z)
    phi = 0.0 if (x == 0 and y == 0) else math.atan2(y, x)
    if phi < 0:
        phi += 2 * math.pi
    return theta, phi


def ranges_of(pixels):
    out = []
    for p in sorted(int(v) for v in pixels):
        if out and out[-1][1] == p:
            out[-1][1] = p + 1
        else:
            out.append([p, p + 1])
    return [[str(a), str(b)] for a, b in out]


def flips_within_an_ulp(nside, theta, phi, radius, kwargs, pixels):
    """Whether healpy's pixels change when θ moves one ulp either way.

    HEALPix C++ takes cos θ of the disc's centre from the C library: glibc's cos and the musl
    cos our core follows differ in the last bit for some θ (0.6797365917104359: ...349 against
    ...35), and a disc whose pixels flip with one ulp of its centre has no answer common to both
    libraries. Such a random centre is left out; the others must match bit for bit.
    """
    for neighbour in (np.nextafter(theta, 0.0), np.nextafter(theta, math.pi)):
        moved = healpy.query_disc(nside, healpy.ang2vec(neighbour, phi), radius, **kwargs)
        if not np.array_equal(np.sort(moved), np.sort(pixels)):
            return True
    return False


def disc_cases(rng, order):
    nside = 1 << order
    pixsize = math.sqrt(4 * math.pi / (12.0 * nside * nside))
    cases = []
    centres = [(0.0, 0.0), (math.pi, 1.0), (math.acos(2.0 / 3.0), 0.0), (math.pi / 2, 0.0), (1e-7, 2.0)]
    fixed = len(centres)
    centres += random_points(rng, 4)
    radii = [0.4 * pixsize, 2.5 * pixsize, 7.0 * pixsize]
    if nside <= 64:
        radii += [0.3, 1.5]
    if nside == 1024:
        radii += [math.radians(1.0)]
    for index, (theta, phi) in enumerate(centres):
        for radius in radii:
            if radius >= math.pi / 2:
                continue
            vec = healpy.ang2vec(theta, phi)
            t, p = pointing(vec)
            for nest in (False, True):
                variants = [(False, 0)]
                facts = [1, 2, 4, 8] + ([] if nest else [3])
                if not nest and order > 14:
                    # healpy's ring-scheme inclusive search scans whole rings (O(nside·fact) each)
                    # where its extra rings miss the disc: minutes a call at these orders.
                    facts = []
                variants += [(True, f) for f in facts if nside * f <= (1 << MAX_ORDER)]
                for inclusive, fact in variants:
                    kwargs = {"inclusive": inclusive, "nest": nest}
                    if inclusive:
                        kwargs["fact"] = fact
                    started = time.time()
                    pixels = healpy.query_disc(nside, vec, radius, **kwargs)
                    if os.environ.get("HP_PROFILE") and time.time() - started > 0.3:
                        print(order, theta, phi, radius / pixsize, kwargs, time.time() - started, file=sys.stderr)
                    if index >= fixed and flips_within_an_ulp(nside, theta, phi, radius, kwargs, pixels):
                        continue
                    cases.append({"theta": t, "phi": p, "radius": radius, "nest": nest,
                                  "inclusive": inclusive, "fact": fact, "ranges": ranges_of(pixels),
                                  "count": int(len(pixels))})
    return cases


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    rng = random.Random(SEED)
    orders = []
    for order in range(MAX_ORDER + 1):
        nside = 1 << order
        pts = special_points(nside) + random_points(rng, 150)
        theta = np.array([p[0] for p in pts])
        phi = np.array([p[1] for p in pts])
        ang = {
            "theta": floats_out(theta),
            "phi": floats_out(phi),
            "ring": ids_out(healpy.ang2pix(nside, theta, phi)),
            "nest": ids_out(healpy.ang2pix(nside, theta, phi, nest=True)),
        }
        ids = pixel_ids(rng, nside, 150) + [int(v) for v in ang["ring"][:20]]
        ids_np = np.array(ids, dtype=np.int64)
        t_ring, p_ring = healpy.pix2ang(nside, ids_np)
        t_nest, p_nest = healpy.pix2ang(nside, ids_np, nest=True)
        v_ring = np.array(healpy.pix2vec(nside, ids_np)).T
        v_nest = np.array(healpy.pix2vec(nside, ids_np, nest=True)).T
        pix = {
            "ids": ids_out(ids),
            "ringTheta": floats_out(t_ring),
            "ringPhi": floats_out(p_ring),
            "nestTheta": floats_out(t_nest),
            "nestPhi": floats_out(p_nest),
            "ringVec": floats_out(v_ring.ravel()),
            "nestVec": floats_out(v_nest.ravel()),
            "nest2ring": ids_out(healpy.nest2ring(nside, ids_np)),
            "ring2nest": ids_out(healpy.ring2nest(nside, ids_np)),
        }
        # Vectors of assorted lengths, and some exactly on axes.
        vecs = [(0.0, 0.0, 1.0), (0.0, 0.0, -3.0), (1.0, 0.0, 0.0), (0.0, -2.0, 0.0), (1e-20, 1e-20, 1.0),
                (-1e-12, 1e-15, -1.0), (1.0, 1.0, 1.0)]
        for _ in range(100):
            v = [rng.gauss(0, 1) for _ in range(3)]
            scale = 10 ** rng.uniform(-3, 3)
            vecs.append(tuple(c * scale for c in v))
        vecs_np = np.array(vecs)
        vec = {
            "xyz": floats_out(vecs_np.ravel()),
            "ring": ids_out(healpy.vec2pix(nside, vecs_np[:, 0], vecs_np[:, 1], vecs_np[:, 2])),
            "nest": ids_out(healpy.vec2pix(nside, vecs_np[:, 0], vecs_np[:, 1], vecs_np[:, 2], nest=True)),
        }
        bids = ids[:40]
        bounds = []
        for b in bids:
            corners = healpy.boundaries(nside, b, step=4, nest=True)  # shape (3, 16)
            bounds.append(floats_out(np.asarray(corners).T.ravel()))
        orders.append({
            "order": order,
            "nside": nside,
            "ang2pix": ang,
            "pix": pix,
            "vec2pix": vec,
            "boundaries": {"ids": ids_out(bids), "step": 4, "xyz": bounds},
            "query_disc": disc_cases(rng, order),
        })
    with open(os.path.join(out_dir, "healpix.json"), "w") as f:
        json.dump({"healpy": healpy.__version__, "orders": orders}, f)


if __name__ == "__main__":
    main()
