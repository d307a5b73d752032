#!/usr/bin/python3
"""Celestial WCS reference positions from astropy.wcs (Debian's python3-astropy, wcslib underneath).

Usage: make_wcs_references.py OUT_DIR

Writes, for each case, OUT_DIR/<name>.fits (a small image whose header astropy wrote) and
OUT_DIR/wcs.json listing every case with:
  pixels  x, y (1-based FITS pixels: a grid over the image and past its edges, plus random
          ones) and astropy's wcs_pix2world(x, y, 1): lng, lat (null where wcslib has none;
          longitude first whatever the header's axis order)
  worlds  lng, lat (astropy's own pix2world results and random directions around CRVAL) and
          astropy's wcs_world2pix(lng, lat, 1): x, y (null where wcslib has none)
  lonpole, latpole  what wcslib derived (Paper II §2.4 defaults)
  scale   the pixel scale in arcsec (the largest singular value of the linear matrix)

The cases cover TAN, SIN (plain and slanted) and CAR; CD and PC + CDELT forms; rotations and
flips; a field over the north pole, one centred on it, one across RA 0/360; galactic axes;
swapped axes (latitude first); CROTA2; and explicit LONPOLE / LATPOLE. Floats are written as Python's
repr, which JavaScript parses back to the same double.
"""

import json
import math
import os
import sys
import warnings

import numpy as np
from astropy.io import fits
from astropy.wcs import WCS

SEED = 20261127


def rotation_cd(scale_deg, angle_deg, flip=True):
    """A CD matrix: east-left (flip) pixels of scale_deg, rotated by angle_deg."""
    a = math.radians(angle_deg)
    sx = -scale_deg if flip else scale_deg
    return [
        [sx * math.cos(a), -scale_deg * math.sin(a)],
        [sx * math.sin(a), scale_deg * math.cos(a)],
    ]


def case(name, naxis, ctype, crval, crpix, cd=None, pc=None, cdelt=None, extra=None):
    cards = [
        ("CTYPE1", ctype[0]),
        ("CTYPE2", ctype[1]),
        ("CRVAL1", crval[0]),
        ("CRVAL2", crval[1]),
        ("CRPIX1", crpix[0]),
        ("CRPIX2", crpix[1]),
    ]
    if cd is not None:
        cards += [(f"CD{i + 1}_{j + 1}", cd[i][j]) for i in range(2) for j in range(2)]
    if cdelt is not None:
        cards += [("CDELT1", cdelt[0]), ("CDELT2", cdelt[1])]
    if pc is not None:
        cards += [(f"PC{i + 1}_{j + 1}", pc[i][j]) for i in range(2) for j in range(2)]
    cards += list((extra or {}).items())
    return {"name": name, "naxis": naxis, "cards": cards}


def rotation_pc(angle_deg):
    a = math.radians(angle_deg)
    return [[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]


CASES = [
    case("tan-cd-rotated", (400, 300), ("RA---TAN", "DEC--TAN"), (150.1, 2.2), (200.5, 150.5),
         cd=rotation_cd(1 / 3600, 30)),
    case("tan-pc-cdelt", (500, 500), ("RA---TAN", "DEC--TAN"), (10.68, 41.27), (250.0, 260.0),
         pc=rotation_pc(-47), cdelt=(-2.0 / 3600, 1.5 / 3600)),
    case("tan-over-pole", (1000, 1000), ("RA---TAN", "DEC--TAN"), (37.95, 89.26), (500.5, 500.5),
         cd=rotation_cd(10 / 3600, 12)),
    case("tan-pole-centred", (600, 600), ("RA---TAN", "DEC--TAN"), (0.0, 90.0), (300.5, 300.5),
         cd=rotation_cd(20 / 3600, 0)),
    case("tan-across-ra0", (800, 600), ("RA---TAN", "DEC--TAN"), (359.9, -30.0), (400.5, 300.5),
         cd=rotation_cd(3 / 3600, -5)),
    case("tan-south-pole", (400, 400), ("RA---TAN", "DEC--TAN"), (120.0, -89.9), (100.0, 300.0),
         pc=rotation_pc(75), cdelt=(-5 / 3600, 5 / 3600)),
    case("tan-lonpole", (300, 300), ("RA---TAN", "DEC--TAN"), (200.0, 35.0), (150.5, 150.5),
         cd=rotation_cd(4 / 3600, 0), extra={"LONPOLE": 170.0}),
    case("tan-galactic", (400, 400), ("GLON-TAN", "GLAT-TAN"), (0.5, -1.2), (200.5, 200.5),
         cd=rotation_cd(6 / 3600, 20)),
    case("tan-swapped-axes", (300, 400), ("DEC--TAN", "RA---TAN"), (54.35, 210.8), (150.5, 200.5),
         cd=[[0, 2 / 3600], [-2 / 3600, 0]]),
    case("tan-crota2", (300, 300), ("RA---TAN", "DEC--TAN"), (5.0, -12.0), (150.5, 150.5),
         cdelt=(-3 / 3600, 2 / 3600), extra={"CROTA2": 25.0}),
    case("sin-cd", (512, 512), ("RA---SIN", "DEC--SIN"), (83.63, 22.01), (256.5, 256.5),
         cd=rotation_cd(2 / 3600, 0)),
    case("sin-pc-rotated", (600, 400), ("RA---SIN", "DEC--SIN"), (266.4, -60.0), (310.0, 190.0),
         pc=rotation_pc(33), cdelt=(-1 / 3600, 1 / 3600)),
    case("sin-wide", (400, 400), ("RA---SIN", "DEC--SIN"), (45.0, 20.0), (200.5, 200.5),
         cd=rotation_cd(0.3, 10)),
    case("sin-zero-slant", (300, 300), ("RA---SIN", "DEC--SIN"), (300.0, 45.0), (150.5, 150.5),
         cd=rotation_cd(5 / 3600, 0), extra={"PV2_1": 0.0, "PV2_2": 0.0}),
    case("sin-slant", (400, 400), ("RA---SIN", "DEC--SIN"), (120.0, 60.0), (200.5, 200.5),
         cd=rotation_cd(0.1, 0), extra={"PV2_1": 0.1, "PV2_2": -0.2}),
    case("car-origin", (720, 360), ("RA---CAR", "DEC--CAR"), (0.0, 0.0), (360.5, 180.5),
         cdelt=(-0.5, 0.5)),
    case("car-offset-north", (400, 400), ("RA---CAR", "DEC--CAR"), (120.0, 40.0), (200.5, 200.5),
         cdelt=(-0.01, 0.01)),
    case("car-south-rotated", (400, 300), ("RA---CAR", "DEC--CAR"), (200.0, -50.0), (180.0, 160.0),
         pc=rotation_pc(15), cdelt=(-0.02, 0.02)),
    case("car-across-ra0", (600, 200), ("RA---CAR", "DEC--CAR"), (359.5, 10.0), (300.5, 100.5),
         cd=rotation_cd(0.005, 0)),
    case("car-latpole", (300, 300), ("RA---CAR", "DEC--CAR"), (60.0, 30.0), (150.5, 150.5),
         cdelt=(-0.02, 0.02), extra={"LATPOLE": -30.0}),
    case("car-galactic", (500, 250), ("GLON-CAR", "GLAT-CAR"), (0.0, 0.0), (250.5, 125.5),
         cdelt=(-0.04, 0.04)),
]


def finite_or_none(values):
    return [float(v) if math.isfinite(v) else None for v in values]


def main():
    out = sys.argv[1]
    os.makedirs(out)
    rng = np.random.default_rng(SEED)
    manifest = []
    for spec in CASES:
        nx, ny = spec["naxis"]
        header = fits.Header()
        for key, value in spec["cards"]:
            header[key] = value
        hdu = fits.PrimaryHDU(np.zeros((ny, nx), dtype=np.uint8), header=header)
        file = spec["name"] + ".fits"
        hdu.writeto(os.path.join(out, file))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            wcs = WCS(fits.getheader(os.path.join(out, file)))
            wcs.wcs.set()

        # A grid over the image and a little past its edges, then random pixels.
        gx = np.linspace(-0.2 * nx, 1.2 * nx, 15)
        gy = np.linspace(-0.2 * ny, 1.2 * ny, 15)
        x, y = (a.ravel() for a in np.meshgrid(gx, gy))
        x = np.concatenate([x, [spec_crpix(spec, 0)], rng.uniform(0.5, nx + 0.5, 200)])
        y = np.concatenate([y, [spec_crpix(spec, 1)], rng.uniform(0.5, ny + 0.5, 200)])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            world = wcs.wcs_pix2world(x, y, 1)
        # World coordinates come in the header's axis order; the manifest is longitude first.
        lng, lat = world[wcs.wcs.lng], world[wcs.wcs.lat]

        # Directions: astropy's own answers, and random ones around the field's centre.
        centre = wcs.wcs_pix2world([(nx + 1) / 2], [(ny + 1) / 2], 1)
        cx, cy = centre[wcs.wcs.lng], centre[wcs.wcs.lat]
        radius = math.hypot(nx, ny) * wcs.proj_plane_pixel_scales()[0].value
        offsets = rng.uniform(-radius, radius, (2, 200))
        wlat = np.clip(cy[0] + offsets[1], -90, 90)
        wlng = np.mod(cx[0] + offsets[0] / max(math.cos(math.radians(min(abs(cy[0]), 89.0))), 0.05), 360)
        good = np.isfinite(lng) & np.isfinite(lat)
        world_lng = np.concatenate([lng[good], wlng])
        world_lat = np.concatenate([lat[good], wlat])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            axes = [None, None]
            axes[wcs.wcs.lng], axes[wcs.wcs.lat] = world_lng, world_lat
            px, py = wcs.wcs_world2pix(axes[0], axes[1], 1)

        scale = float(np.max(np.linalg.svd(wcs.wcs.get_pc() * wcs.wcs.get_cdelt()[:, None], compute_uv=False)))
        manifest.append(
            {
                "name": spec["name"],
                "file": file,
                "lonpole": float(wcs.wcs.lonpole),
                "latpole": float(wcs.wcs.latpole),
                "scale": scale * 3600,
                "pixels": {
                    "x": finite_or_none(x),
                    "y": finite_or_none(y),
                    "lng": finite_or_none(lng),
                    "lat": finite_or_none(lat),
                },
                "worlds": {
                    "lng": finite_or_none(world_lng),
                    "lat": finite_or_none(world_lat),
                    "x": finite_or_none(px),
                    "y": finite_or_none(py),
                },
            }
        )
    with open(os.path.join(out, "wcs.json"), "w") as f:
        json.dump({"astropy": __import__("astropy").__version__, "cases": manifest}, f)


def spec_crpix(spec, axis):
    return dict(spec["cards"])["CRPIX%d" % (axis + 1)]


if __name__ == "__main__":
    main()
