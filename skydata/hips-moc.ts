// The coverage map of a HiPS the import writes (IVOA MOC 1.1, "MOC - HEALPix Multi-Order Coverage
// map", §2.3.1 and §3.1): the tiles of the deepest order that hold data, as a FITS file
// `Moc.fits` beside `properties` (IVOA HiPS 1.0 §4.5). A cell of order k and nested index n is
// written as its NUNIQ number 4·4^k + n in a one-column binary table (UNIQ, 32-bit integers while
// they fit, else 64-bit), sorted, with MOCORDER (the deepest order), COORDSYS = 'C' (ICRS) and
// ORDERING = 'NUNIQ'. A viewer asks only for the tiles inside it (core/hips-moc.ts), so no
// request goes to a tile that does not exist.
import fs from 'node:fs';
import path from 'node:path';

const BLOCK = 2880;

function card(keyword: string, value: string | number | boolean, comment = ''): string {
  const formatted =
    typeof value === 'string'
      ? `'${value.padEnd(8)}'`.padEnd(20)
      : typeof value === 'boolean'
        ? (value ? 'T' : 'F').padStart(20)
        : String(value).padStart(20);
  return `${keyword.padEnd(8)}= ${formatted}${comment ? ` / ${comment}` : ''}`.slice(0, 80).padEnd(80);
}

function header(cards: string[]): Buffer {
  const text = [...cards, 'END'.padEnd(80)].join('');
  return Buffer.from(text.padEnd(Math.ceil(text.length / BLOCK) * BLOCK), 'ascii');
}

/** The MOC FITS file of the cells `npix` of `order`. */
export function mocFits(order: number, npix: Iterable<number>): Buffer {
  const uniq = [...new Set(npix)].sort((a, b) => a - b).map((n) => 4 * 4 ** order + n);
  const wide = uniq.some((value) => value > 2 ** 31 - 1);
  const bytes = wide ? 8 : 4;
  const primary = header([card('SIMPLE', true), card('BITPIX', 8), card('NAXIS', 0), card('EXTEND', true)]);
  const table = header([
    card('XTENSION', 'BINTABLE', 'binary table extension'),
    card('BITPIX', 8),
    card('NAXIS', 2),
    card('NAXIS1', bytes, 'bytes per row'),
    card('NAXIS2', uniq.length, 'cells'),
    card('PCOUNT', 0),
    card('GCOUNT', 1),
    card('TFIELDS', 1),
    card('TTYPE1', 'UNIQ', 'HEALPix cell, NUNIQ'),
    card('TFORM1', wide ? '1K' : '1J'),
    card('PIXTYPE', 'HEALPIX'),
    card('ORDERING', 'NUNIQ'),
    card('COORDSYS', 'C', 'ICRS'),
    card('MOCORDER', order, 'deepest order'),
    card('MOCTOOL', 'galaxy-cruise import'),
  ]);
  const data = Buffer.alloc(Math.ceil((uniq.length * bytes) / BLOCK) * BLOCK);
  uniq.forEach((value, index) => {
    if (wide) data.writeBigInt64BE(BigInt(value), index * bytes);
    else data.writeInt32BE(value, index * bytes);
  });
  return Buffer.concat([primary, table, data]);
}

/** Writes `Moc.fits` into the HiPS folder; returns the share of the sky it covers (moc_sky_fraction). */
export function writeMoc(directory: string, order: number, npix: Iterable<number>): number {
  const cells = new Set(npix);
  fs.writeFileSync(path.join(directory, 'Moc.fits'), mocFits(order, cells));
  return cells.size / (12 * 4 ** order);
}
