#!/usr/bin/python3
"""HiPS written by healpy and astropy, for the import's tests (issues 30 and 39; docs/import.md).

hips/: unlike skydata/'s HiPS (equatorial, order 3, PNG tiles 256 or 32 wide) it is galactic, of
orders 1 to 2, with tiles 16 texels wide in FITS and PNG. Texel (row r, column c) of a PNG tile
{order, npix} is the nested HEALPix pixel npix * 16^2 + interleave(r, c) at order + 4 (rows from
the top along the face's x index, Hipsgen's convention, as core/healpix.ts reads it); a FITS
tile holds the same texels upside down (its first row is the picture's bottom: HiPS's FITS tiles
are flipped against its PNG and JPEG ones, as Hipsgen writes them). A texel's value is the
galactic latitude (degrees) of that pixel's centre, computed by healpy: as float32 in the FITS
tile, and in the PNG tile (8-bit grey, written with zlib: no imaging library is a requirement of
the tests) as round((b + 90) / 180 * 255). expected.json names, for a target at (ra, dec) =
(40, 30), the order-2 tile that holds it, computed by astropy (ICRS to galactic) and healpy.

hips-fits/: a science HiPS of FITS tiles alone (hips_tile_format = fits, hips_pixel_cut = 0 100),
equatorial, orders 10 to 12, tiles 64 texels wide (0.8" texels at order 12), only the tiles
around the galaxies: six galaxies, Gaussian light of peak 100 and sigma 5" on a sky of 1, at the
positions of tests/helpers/import-fixture.ts targetCluster(6, 40, 30) (a grid 0.02 deg apart),
written to expected.json as `galaxies`.

Usage: make_import_hips.py OUTPUT_DIRECTORY
"""
import json
import os
import struct
import sys
import zlib

import healpy
import numpy
from astropy import units
from astropy.coordinates import SkyCoord
from astropy.io import fits

ORDER_MIN = 1
ORDER = 2
WIDTH = 16
TARGET = (40.0, 30.0)

FITS_ORDER_MIN = 10
FITS_ORDER = 12
FITS_WIDTH = 64
GALAXY_SIGMA_ARCSEC = 5.0
GALAXY_PEAK = 100.0


def interleave(x, y):
    out = 0
    for bit in range(8):
        out |= ((x >> bit) & 1) << (2 * bit)
        out |= ((y >> bit) & 1) << (2 * bit + 1)
    return out


def tile_path(order, npix, suffix):
    return f"Norder{order}/Dir{(npix // 10000) * 10000}/Npix{npix}.{suffix}"


def png(grey):
    """An 8-bit greyscale PNG (ISO/IEC 15948) of a 2-d uint8 array, rows top first."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    height, width = grey.shape
    raw = b"".join(b"\0" + row.tobytes() for row in grey)
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main(out):
    hips = os.path.join(out, "hips")
    inside = numpy.array([[interleave(r, c) for c in range(WIDTH)] for r in range(WIDTH)])
    depth = int(numpy.log2(WIDTH))
    for order in range(ORDER_MIN, ORDER + 1):
        for npix in range(12 * 4**order):
            ids = npix * WIDTH * WIDTH + inside
            _, latitude = healpy.pix2ang(2 ** (order + depth), ids, nest=True, lonlat=True)
            path = os.path.join(hips, tile_path(order, npix, "fits"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fits.PrimaryHDU(numpy.flipud(latitude).astype(numpy.float32)).writeto(path)
            grey = numpy.round((latitude + 90) / 180 * 255).astype(numpy.uint8)
            with open(os.path.join(hips, tile_path(order, npix, "png")), "wb") as f:
                f.write(png(grey))
    properties = {
        "creator_did": "ivo://example/galaxy-cruise/import-test",
        "obs_title": "Galactic latitude (healpy)",
        "dataproduct_type": "image",
        "hips_version": "1.4",
        "hips_frame": "galactic",
        "hips_order": str(ORDER),
        "hips_order_min": str(ORDER_MIN),
        "hips_tile_width": str(WIDTH),
        "hips_tile_format": "png fits",
    }
    with open(os.path.join(hips, "properties"), "w") as f:
        f.write("".join(f"{key:<20}= {value}\n" for key, value in properties.items()))

    galactic = SkyCoord(ra=TARGET[0] * units.deg, dec=TARGET[1] * units.deg, frame="icrs").galactic
    npix = int(healpy.ang2pix(2**ORDER, galactic.l.deg, galactic.b.deg, nest=True, lonlat=True))
    expected = {
        "target": {"ra": TARGET[0], "dec": TARGET[1], "l": galactic.l.deg, "b": galactic.b.deg},
        "tile": {
            "order": ORDER,
            "npix": npix,
            "fits": tile_path(ORDER, npix, "fits"),
            "png": tile_path(ORDER, npix, "png"),
        },
        "properties": {"order": ORDER, "order_min": ORDER_MIN, "tile_width": WIDTH, "frame": "galactic", "format": "png"},
    }
    expected["galaxies"] = write_galaxies(os.path.join(out, "hips-fits"))
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)


def galaxy_positions():
    """targetCluster(6, 40, 30): five a row 0.02 deg apart in ra (scaled by 1/cos dec), rows 0.02 deg apart."""
    dec0 = TARGET[1]
    return [
        (TARGET[0] + (index % 5) * 0.02 / numpy.cos(numpy.radians(dec0)), dec0 + (index // 5) * 0.02)
        for index in range(6)
    ]


def write_galaxies(hips):
    galaxies = galaxy_positions()
    vectors = [healpy.ang2vec(ra, dec, lonlat=True) for ra, dec in galaxies]
    depth = int(numpy.log2(FITS_WIDTH))
    inside = numpy.array([[interleave(r, c) for c in range(FITS_WIDTH)] for r in range(FITS_WIDTH)])
    sigma = numpy.radians(GALAXY_SIGMA_ARCSEC / 3600)
    for order in range(FITS_ORDER_MIN, FITS_ORDER + 1):
        nside = 2**order
        tiles = set()
        for vector in vectors:
            tiles.update(int(t) for t in healpy.query_disc(nside, vector, numpy.radians(0.02), inclusive=True, nest=True))
        for npix in sorted(tiles):
            ids = npix * FITS_WIDTH * FITS_WIDTH + inside
            x, y, z = healpy.pix2vec(2 ** (order + depth), ids.ravel(), nest=True)
            light = numpy.ones(ids.size)
            for vector in vectors:
                angle = numpy.arccos(numpy.clip(x * vector[0] + y * vector[1] + z * vector[2], -1, 1))
                light += GALAXY_PEAK * numpy.exp(-0.5 * (angle / sigma) ** 2)
            grid = light.reshape(FITS_WIDTH, FITS_WIDTH)
            path = os.path.join(hips, tile_path(order, npix, "fits"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fits.PrimaryHDU(numpy.flipud(grid).astype(numpy.float32)).writeto(path)
    properties = {
        "creator_did": "ivo://example/galaxy-cruise/import-test-fits",
        "obs_title": "Six galaxies (healpy, FITS tiles)",
        "dataproduct_type": "image",
        "hips_version": "1.4",
        "hips_frame": "equatorial",
        "hips_order": str(FITS_ORDER),
        "hips_order_min": str(FITS_ORDER_MIN),
        "hips_tile_width": str(FITS_WIDTH),
        "hips_tile_format": "fits",
        "hips_pixel_cut": f"0 {GALAXY_PEAK:g}",
    }
    with open(os.path.join(hips, "properties"), "w") as f:
        f.write("".join(f"{key:<20}= {value}\n" for key, value in properties.items()))
    return [{"ra": ra, "dec": dec} for ra, dec in galaxies]


if __name__ == "__main__":
    main(sys.argv[1])
