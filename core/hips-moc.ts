// A HiPS's coverage map (IVOA MOC 1.1 in FITS: a binary table whose first column holds NUNIQ cell
// numbers, uniq = 4·4^order + npix), read so that a viewer asks only for the tiles inside it: a
// tile of any order is wanted when it holds a cell of the map, or lies inside one.
import { readFitsHdus } from './fits';

export class HipsCoverage {
  /** Every cell of the map, and every ancestor of one, as NUNIQ numbers. */
  private readonly reached = new Set<number>();
  /** The map's own cells. */
  private readonly cells = new Set<number>();
  private readonly deepest: number;

  constructor(uniq: Iterable<number>) {
    let deepest = 0;
    for (const value of uniq) {
      this.cells.add(value);
      // uniq = 4·4^order + npix: the order is the largest with 4·4^order <= uniq.
      let order = Math.floor(Math.log2(value / 4) / 2);
      while (4 * 4 ** (order + 1) <= value) order++;
      while (order > 0 && 4 * 4 ** order > value) order--;
      deepest = Math.max(deepest, order);
      let npix = value - 4 * 4 ** order;
      for (let up = order; up >= 0; up--, npix = Math.floor(npix / 4)) this.reached.add(4 * 4 ** up + npix);
    }
    this.deepest = deepest;
  }

  /** Whether tile `npix` of `order` holds part of the map. */
  intersects(order: number, npix: number): boolean {
    if (this.reached.has(4 * 4 ** order + npix)) return true;
    // A tile deeper than a cell of the map lies inside it if one of its ancestors is that cell.
    for (let up = order - 1, n = Math.floor(npix / 4); up >= 0; up--, n = Math.floor(n / 4))
      if (this.cells.has(4 * 4 ** up + n)) return true;
    return false;
  }

  get order(): number {
    return this.deepest;
  }
}

/** Reads a MOC FITS file: the first binary table's first column (1J or 1K). */
export function parseMocFits(bytes: Uint8Array): HipsCoverage {
  const table = readFitsHdus(bytes).find((hdu) => hdu.type === 'BINTABLE');
  if (!table) throw new Error('a MOC file holds a binary table');
  const form = table.header.string('TFORM1').trim().toUpperCase();
  const width = table.axes[0]!;
  const rows = table.axes[1]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset + table.dataOffset, table.dataLength);
  const uniq: number[] = [];
  for (let row = 0; row < rows; row++) {
    if (form === '1K' || form === 'K') uniq.push(Number(view.getBigInt64(row * width)));
    else if (form === '1J' || form === 'J') uniq.push(view.getInt32(row * width));
    else throw new Error(`a MOC's UNIQ column is 1J or 1K, not ${form}`);
  }
  return new HipsCoverage(uniq);
}
