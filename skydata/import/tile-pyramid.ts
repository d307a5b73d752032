// The orders of a HiPS above its bottom order, folded as the bottom tiles come (in any order):
// each parent texel is the mean of the four texels below it that hold light, in flux, so a
// parent's quadrant depends on one child alone and is filled as soon as that child is known.
// A parent is complete, and handed on, once every child that can exist has been reported;
// only the parents still waiting for a child are held, so the memory follows the reports in
// flight, not the number of tiles.

/**
 * Fills parent quadrant `j` (child j = 4·npix + j covers the texel rows of its low bit and the
 * columns of its high bit: the nested index interleaves the row's bits in the even places) from
 * that child's texels, each the mean of the four below it that hold light.
 */
export function fillQuadrant(parent: Float32Array, child: Float32Array, j: number, tileWidth: number, bands: number) {
  const texels = tileWidth * tileWidth;
  const half = tileWidth / 2;
  const rowStart = j & 1 ? half : 0;
  const columnStart = j & 2 ? half : 0;
  for (let row = rowStart; row < rowStart + half; row += 1) {
    const r = (row - rowStart) * 2;
    for (let column = columnStart; column < columnStart + half; column += 1) {
      const c = (column - columnStart) * 2;
      for (let b = 0; b < bands; b += 1) {
        const at = b * texels + r * tileWidth + c;
        // The four texels in the order (0, 0), (0, 1), (1, 0), (1, 1): the sum's rounding with them.
        const v00 = child[at]!;
        const v01 = child[at + 1]!;
        const v10 = child[at + tileWidth]!;
        const v11 = child[at + tileWidth + 1]!;
        let total = 0;
        let n = 0;
        if (!Number.isNaN(v00)) {
          total += v00;
          n += 1;
        }
        if (!Number.isNaN(v01)) {
          total += v01;
          n += 1;
        }
        if (!Number.isNaN(v10)) {
          total += v10;
          n += 1;
        }
        if (!Number.isNaN(v11)) {
          total += v11;
          n += 1;
        }
        if (n > 0) parent[b * texels + row * tileWidth + column] = total / n;
      }
    }
  }
}

export class TilePyramid {
  /** Per order from the bottom's parents up: each expected tile's children not yet complete. */
  private readonly pending = new Map<number, Map<number, number>>();
  /** Per order: the parents that some child with light has begun to fill. */
  private readonly partial = new Map<number, Map<number, Float32Array>>();

  /**
   * `expected`: the bottom tiles that will be reported; `emit` gets each tile that holds light,
   * at every order from `bottom` to `top`, once complete.
   */
  constructor(
    private readonly bottom: number,
    private readonly top: number,
    expected: Iterable<number>,
    private readonly tileWidth: number,
    private readonly bands: number,
    private readonly emit: (order: number, npix: number, flux: Float32Array) => void,
  ) {
    let level = new Set(expected);
    for (let order = bottom - 1; order >= top; order -= 1) {
      const counts = new Map<number, number>();
      for (const npix of level) counts.set(Math.floor(npix / 4), (counts.get(Math.floor(npix / 4)) ?? 0) + 1);
      this.pending.set(order, counts);
      this.partial.set(order, new Map());
      level = new Set(counts.keys());
    }
  }

  /** A bottom tile: its fluxes, or undefined when it holds no light. */
  report(npix: number, flux: Float32Array | undefined): void {
    this.complete(this.bottom, npix, flux);
  }

  private complete(order: number, npix: number, flux: Float32Array | undefined): void {
    if (flux) this.emit(order, npix, flux);
    if (order === this.top) return;
    const parent = Math.floor(npix / 4);
    const partials = this.partial.get(order - 1)!;
    if (flux) {
      let filling = partials.get(parent);
      if (!filling) {
        filling = new Float32Array(flux.length).fill(NaN);
        partials.set(parent, filling);
      }
      fillQuadrant(filling, flux, npix % 4, this.tileWidth, this.bands);
    }
    const pending = this.pending.get(order - 1)!;
    const left = pending.get(parent)! - 1;
    if (left > 0) {
      pending.set(parent, left);
      return;
    }
    pending.delete(parent);
    const done = partials.get(parent);
    partials.delete(parent);
    this.complete(order - 1, parent, done);
  }
}
