#!/usr/bin/python3
"""Reads exported tables with astropy as an astronomer would and prints, as JSON, each file's
column names, row count and every column's values (a null as None).

- .fits: astropy.io.fits with verify('exception') on every HDU, then Table.read.
- .vot: astropy.io.votable.parse(..., verify='exception') (any departure from the IVOA standard
  that astropy checks fails), then to_table(); which serialization it holds (TABLEDATA, BINARY2).
- .csv: Table.read(format='ascii.ecsv').

Warnings are errors throughout.

Usage: read_tables.py FILE..."""
import json
import math
import sys
import warnings

import numpy

from astropy.io import fits
from astropy.io.votable import parse
from astropy.table import Table


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
        value = value.strip()
        return value or None
    return value


result = {}
with warnings.catch_warnings():
    warnings.simplefilter('error')
    for path in sys.argv[1:]:
        extra = {}
        if path.endswith('.fits'):
            with fits.open(path) as hdus:
                hdus.verify('exception')
            table = Table.read(path, format='fits')
        elif path.endswith('.vot'):
            votable = parse(path, verify='exception')
            first = votable.get_first_table()
            # astropy does not keep which serialization it read: the element says.
            with open(path, 'rb') as file:
                data = file.read()
            extra['serialization'] = next(
                (name.lower() for name in ('TABLEDATA', 'BINARY2', 'BINARY') if f'<{name}>'.encode() in data), None
            )
            table = first.to_table()
        else:
            table = Table.read(path, format='ascii.ecsv')
        result[path] = {
            'columns': table.colnames,
            'rows': len(table),
            'values': {name: [plain(value) for value in table[name]] for name in table.colnames},
            **extra,
        }

print(json.dumps(result))
