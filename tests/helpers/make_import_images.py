#!/usr/bin/env python3
"""FITS images with TAN, SIN and CAR headers written by astropy (Debian's python3-astropy), and
where healpy (python3-healpy) places their point sources in a HiPS, for the import's tests.

Usage: make_import_images.py DIR. Writes, in DIR:
  tan.fits                 one band, RA---TAN/DEC--TAN, 0.5"/px, rotated 30 degrees
  sin_g.fits, sin_r.fits, sin_i.fits
                           three bands, RA---SIN/DEC--SIN, a blue source (g only) and a red one (i only)
  car.fits                 one band, GLON-CAR/GLAT-CAR, 36"/px, in galactic coordinates
  expected.json            per image set its sources: ra, dec (ICRS degrees) and, per HiPS order
                           0..14 for tiles 64 texels wide, healpy's (tile, row, column): tile the
                           nested pixel at nside 2^order, row and column the texel's x and y in
                           its face (healpy.pix2xyf) modulo the tile width
  done                     marks a complete directory
"""
import json
import os
import sys

import healpy
import numpy as np
from astropy.coordinates import SkyCoord
from astropy.io import fits
from astropy.wcs import WCS

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
TILE = 64


def wcs_of(ctype, crval, cdelt, crpix, rotation_deg=0.0):
    w = WCS(naxis=2)
    w.wcs.ctype = ctype
    w.wcs.crval = crval
    w.wcs.crpix = crpix
    c, s = np.cos(np.radians(rotation_deg)), np.sin(np.radians(rotation_deg))
    w.wcs.cd = np.array([[-cdelt * c, cdelt * s], [cdelt * s, cdelt * c]])
    return w


def image(w, shape, sources):
    """A flat sky of 10 with Gaussian sources (sigma 1.5 px, peak `peak`) at sky positions."""
    ny, nx = shape
    y, x = np.mgrid[0:ny, 0:nx]
    data = np.full(shape, 10.0, dtype=np.float32)
    for coord, peak in sources:
        px, py = w.world_to_pixel(coord)
        data += (peak * np.exp(-((x - px) ** 2 + (y - py) ** 2) / (2 * 1.5**2))).astype(np.float32)
    return data


def write(name, w, data):
    fits.PrimaryHDU(data=data, header=w.to_header()).writeto(os.path.join(out, name), overwrite=True)


def placed(coord):
    icrs = coord.icrs
    ra, dec = float(icrs.ra.deg), float(icrs.dec.deg)
    theta, phi = np.radians(90 - dec), np.radians(ra)
    orders = {}
    for order in range(0, 15):
        nside = 2**order * TILE
        pixel = healpy.ang2pix(nside, theta, phi, nest=True)
        x, y, _face = healpy.pix2xyf(nside, pixel, nest=True)
        orders[order] = [int(pixel // TILE**2), int(x % TILE), int(y % TILE)]
    return {'ra': ra, 'dec': dec, 'orders': orders}


expected = {}

# TAN: two sources, one east and one north of the centre, so that a mirrored or turned image fails.
tan = wcs_of(['RA---TAN', 'DEC--TAN'], [150.1, 2.2], 0.5 / 3600, [120.5, 80.5], rotation_deg=30)
tan_sources = [
    SkyCoord(150.1 + 20 / 3600, 2.2, unit='deg'),
    SkyCoord(150.1, 2.2 + 12 / 3600, unit='deg'),
]
write('tan.fits', tan, image(tan, (160, 240), [(c, 1000.0) for c in tan_sources]))
expected['tan'] = [placed(c) for c in tan_sources]

# SIN, three bands: the blue source only in g, the red one only in i, a white one in all three.
sin = wcs_of(['RA---SIN', 'DEC--SIN'], [35.0, -4.5], 1.0 / 3600, [100.5, 100.5])
blue = SkyCoord(35.0 - 30 / 3600, -4.5, unit='deg')
red = SkyCoord(35.0 + 30 / 3600, -4.5 + 20 / 3600, unit='deg')
white = SkyCoord(35.0, -4.5 - 25 / 3600, unit='deg')
write('sin_g.fits', sin, image(sin, (200, 200), [(blue, 1000.0), (white, 1000.0)]))
write('sin_r.fits', sin, image(sin, (200, 200), [(white, 1000.0)]))
write('sin_i.fits', sin, image(sin, (200, 200), [(red, 1000.0), (white, 1000.0)]))
expected['sin'] = {'blue': placed(blue), 'red': placed(red), 'white': placed(white)}

# CAR in galactic coordinates, coarse pixels: a source at (l, b) = (120.3, 10.2).
car = wcs_of(['GLON-CAR', 'GLAT-CAR'], [120.0, 10.0], 36 / 3600, [64.5, 48.5])
galactic = SkyCoord(l=120.3, b=10.2, unit='deg', frame='galactic')
write('car.fits', car, image(car, (96, 128), [(galactic, 1000.0)]))
expected['car'] = [placed(galactic)]

with open(os.path.join(out, 'expected.json'), 'w') as f:
    json.dump(expected, f, indent=1)
open(os.path.join(out, 'done'), 'w').close()
