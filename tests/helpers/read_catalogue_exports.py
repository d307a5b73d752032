#!/usr/bin/python3
"""Reads a FITS and a VOTable export with astropy as an astronomer would, and prints what it found
as JSON: column names, units, descriptions, row count and the first row's values. The VOTable is
parsed with verify='exception', so any departure from the IVOA standard that astropy checks fails."""
import json
import math
import sys
import warnings

import numpy

from astropy.io import fits
from astropy.io.votable import parse
from astropy.table import Table

fits_path, votable_path = sys.argv[1], sys.argv[2]


def plain(value):
    if value is numpy.ma.masked:
        return None
    if hasattr(value, 'item'):
        value = value.item()
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, str):
        return value.strip()
    return value


with warnings.catch_warnings():
    warnings.simplefilter('error')
    table = Table.read(fits_path, format='fits')
    with fits.open(fits_path) as hdus:
        hdus.verify('exception')
        header = hdus[1].header
        fits_descriptions = {header[f'TTYPE{i}']: header.get(f'TCOMM{i}') for i in range(1, header['TFIELDS'] + 1)}

votable = parse(votable_path, verify='exception')
vot_table = votable.get_first_table()
vot = vot_table.to_table()

print(json.dumps({
    'fits': {
        'columns': table.colnames,
        'units': {name: str(table[name].unit) for name in table.colnames if table[name].unit is not None},
        'descriptions': fits_descriptions,
        'rows': len(table),
        'first': {name: plain(table[name][0]) for name in table.colnames} if len(table) else None,
        'dtypes': {name: table[name].dtype.kind for name in table.colnames},
    },
    'votable': {
        'columns': vot.colnames,
        'units': {name: str(vot[name].unit) for name in vot.colnames if vot[name].unit is not None},
        'descriptions': {field.name: field.description for field in vot_table.fields},
        'ucds': {field.name: field.ucd for field in vot_table.fields},
        'rows': len(vot),
        'first': {name: plain(vot[name][0]) for name in vot.colnames} if len(vot) else None,
    },
}))
