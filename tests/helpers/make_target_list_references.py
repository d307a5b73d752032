#!/usr/bin/python3
"""Target lists written by astropy.table (Debian's python3-astropy), for the target list tests.

Usage: make_target_list_references.py OUT_DIR

Writes one table of targets in each format a research group may bring, as astropy writes it:
  targets.csv            ascii.csv
  targets.fits           a FITS BINTABLE (int64 ids, float64 degrees with TUNIT 'deg', strings,
                         logicals)
  targets.vot            a VOTable, TABLEDATA
  targets-binary.vot     the same VOTable serialised as BINARY (refused: only TABLEDATA is read)
  targets-hms.csv        ra and dec as sexagesimal strings (SkyCoord.to_string('hmsdms', sep=':'))
  targets-hms.vot        the same as a VOTable
and expected.json: each target's id, ra, dec (degrees; for the sexagesimal files, astropy's
reading of the strings it wrote), name, galaxy_type, interaction, ring, captain_note, with null
for a cell left empty.
"""

import json
import os
import sys
import warnings

import numpy as np
from astropy import units as u
from astropy.coordinates import SkyCoord
from astropy.table import MaskedColumn, Table

SEED = 20261127
COUNT = 60


def main():
    out = sys.argv[1]
    os.makedirs(out)
    rng = np.random.default_rng(SEED)
    ids = np.arange(1, COUNT + 1, dtype=np.int64) * 1_000_003 + 2**40  # past 2^32: 64-bit ids
    ra = rng.uniform(0, 360, COUNT)
    dec = np.degrees(np.arcsin(rng.uniform(-1, 1, COUNT)))
    ra[0], dec[0] = 0.0, 90.0
    ra[1], dec[1] = 359.9999999, -90.0
    types = np.array(["elliptical", "spiral", "not_sure"])[rng.integers(0, 3, COUNT)]
    interactions = np.array(["yes", "no", "not_sure"])[rng.integers(0, 3, COUNT)]
    type_mask = rng.uniform(size=COUNT) < 0.2
    names = np.array([f"GC-{i:04d} \"ring\", a & <b>" for i in range(COUNT)])
    name_mask = rng.uniform(size=COUNT) < 0.1
    ring = rng.uniform(size=COUNT) < 0.3
    notes = np.array([f'Note {i}: "quoted", comma, <tag>' if i % 7 == 0 else "" for i in range(COUNT)])

    table = Table()
    table["id"] = ids
    table["ra"] = ra * u.deg
    table["dec"] = dec * u.deg
    table["name"] = MaskedColumn(names, mask=name_mask)
    table["galaxy_type"] = MaskedColumn(types, mask=type_mask)
    table["interaction"] = interactions
    table["ring"] = ring
    table["captain_note"] = notes
    table["magnitude"] = rng.uniform(14, 22, COUNT)  # a column the import ignores

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table.write(os.path.join(out, "targets.csv"), format="ascii.csv")
        table.write(os.path.join(out, "targets.fits"), format="fits")
        table.write(os.path.join(out, "targets.vot"), format="votable")
        table.write(os.path.join(out, "targets-binary.vot"), format="votable", tabledata_format="binary")

    coords = SkyCoord(ra=ra * u.deg, dec=dec * u.deg)
    strings = coords.to_string("hmsdms", sep=":", precision=3)
    hms = Table()
    hms["id"] = ids
    hms["RA"] = [s.split(" ")[0] for s in strings]
    hms["Dec"] = [s.split(" ")[1] for s in strings]
    back = SkyCoord(hms["RA"], hms["Dec"], unit=(u.hourangle, u.deg))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hms.write(os.path.join(out, "targets-hms.csv"), format="ascii.csv")
        hms.write(os.path.join(out, "targets-hms.vot"), format="votable")

    def text(column, i):
        value = column[i]
        return None if np.ma.is_masked(value) or value == "" else str(value)

    expected = {
        "targets": [
            {
                "id": int(ids[i]),
                "ra": float(ra[i]),
                "dec": float(dec[i]),
                "name": text(table["name"], i),
                "galaxy_type": text(table["galaxy_type"], i),
                "interaction": str(interactions[i]),
                "ring": bool(ring[i]),
                "captain_note": text(table["captain_note"], i),
            }
            for i in range(COUNT)
        ],
        "hms": [
            {"id": int(ids[i]), "ra": hms["RA"][i], "dec": hms["Dec"][i],
             "ra_deg": float(back.ra.deg[i]), "dec_deg": float(back.dec.deg[i])}
            for i in range(COUNT)
        ],
    }
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
