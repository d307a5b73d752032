#!/usr/bin/python3
"""Reads a FITS, a VOTable and a CSV (ECSV) export with astropy as an astronomer would, and prints
what it found as JSON: column names, units, descriptions, row count, the first row's values, the
provenance each carries, and every row's `id` (the research group's own, where there is one).

- FITS: Table.read (its descriptions from astropy's serialized-columns header, its meta from the
  table HDU's keywords), and astropy.io.fits with verify('exception') on every HDU; the primary
  header's keywords too.
- VOTable: parse(..., verify='exception'), so any departure from the IVOA standard that astropy
  checks fails; its INFO and PARAM elements.
- CSV: Table.read(format='ascii.ecsv') and, as a plain CSV reader that skips '#' lines would,
  format='ascii.csv' with comment='#'.

With a fourth argument, a research group's target list (CSV with id and name), each export is
joined back to it by `id` (astropy.table.join) and the joined rows are printed under 'joined'.

Usage: read_catalogue_exports.py FITS VOTABLE [CSV [TARGET_LIST]]"""
import json
import math
import sys
import warnings

import numpy

from astropy.io import fits
from astropy.io.votable import parse
from astropy.table import Table

fits_path, votable_path = sys.argv[1], sys.argv[2]
csv_path = sys.argv[3] if len(sys.argv) > 3 else None
list_path = sys.argv[4] if len(sys.argv) > 4 else None


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


def described(table):
    return {
        'columns': table.colnames,
        'units': {name: str(table[name].unit) for name in table.colnames if table[name].unit is not None},
        'descriptions': {name: table[name].description for name in table.colnames},
        'rows': len(table),
        'first': {name: plain(table[name][0]) for name in table.colnames} if len(table) else None,
        'ids': [plain(value) for value in table['id']] if 'id' in table.colnames else None,
        'object_ids': [plain(value) for value in table['object_id']],
    }


with warnings.catch_warnings():
    warnings.simplefilter('error')
    table = Table.read(fits_path, format='fits')
    with fits.open(fits_path) as hdus:
        hdus.verify('exception')
        header = hdus[1].header
        primary = hdus[0].header
        tcomm = {header[f'TTYPE{i}']: header.get(f'TCOMM{i}') for i in range(1, header['TFIELDS'] + 1)}
        primary_keys = {key: primary[key] for key in primary if key not in ('COMMENT', 'HISTORY', '')}
        primary_comments = [str(card) for card in primary.get('COMMENT', [])]

fits_result = described(table)
fits_result['tcomm'] = tcomm
fits_result['meta'] = {key: value for key, value in table.meta.items() if key != 'comments'}
fits_result['comments'] = table.meta.get('comments', [])
fits_result['primary'] = primary_keys
fits_result['primary_comments'] = primary_comments

votable = parse(votable_path, verify='exception')
vot_table = votable.get_first_table()
vot_result = described(vot_table.to_table())
vot_result['descriptions'] = {field.name: field.description for field in vot_table.fields}
vot_result['ucds'] = {field.name: field.ucd for field in vot_table.fields}
vot_result['infos'] = {info.name: info.value for resource in votable.resources for info in resource.infos}
vot_result['params'] = {param.name: plain(param.value) for param in vot_table.params}

result = {'fits': fits_result, 'votable': vot_result}
if csv_path:
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        ecsv = Table.read(csv_path, format='ascii.ecsv')
    csv_result = described(ecsv)
    csv_result['meta'] = dict(ecsv.meta)
    csv_result['plain_rows'] = len(Table.read(csv_path, format='ascii.csv', comment='#'))
    result['csv'] = csv_result

if list_path:
    from astropy.table import join

    group = Table.read(list_path, format='ascii.csv')
    exported = {
        'fits': Table.read(fits_path, format='fits'),
        'votable': parse(votable_path).get_first_table().to_table(),
        'csv': Table.read(csv_path, format='ascii.ecsv'),
    }
    for name, table in exported.items():
        joined = join(table, group, keys='id', table_names=['export', 'list'])
        result[name]['joined'] = [
            {
                'id': plain(row['id']),
                'object_id': plain(row['object_id']),
                'name_export': plain(row['name_export']),
                'name_list': plain(row['name_list']),
                'removed': plain(row['removed']),
                'volunteers': plain(row['volunteers']),
            }
            for row in joined
        ]

print(json.dumps(result, default=str))
