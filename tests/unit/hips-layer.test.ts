// The HiPS layer's choices that need no GL (viewer-spec §3, §9): which order a view loads, when
// the Allsky cell or an ancestor stands in for a tile and which part of it, and the zoom fade.
import { describe, expect, it } from 'vitest';
import { Healpix } from '../../core/healpix';
import { allskyCell } from '../../core/hipsProperties';
import { loadCoreSync } from '../../core/wasm';
import {
  allskyServes,
  ancestorTransform,
  hipsViewOrder,
  hipsVisibility,
  MAX_FINER_TILES,
  texelAngle,
  tilesInCone,
  tooFineForView,
} from '../../src/globe/layers/hips-orders';
import { TILE_LIMITS } from '../../src/globe/tiles/limits';

const DEG = Math.PI / 180;

describe('HiPS layer', () => {
  it('loads through the engine with the HiPS limits of viewer-spec §9', () => {
    expect(TILE_LIMITS.hips).toEqual({ cacheSize: 1000, concurrency: 4 });
    expect(TILE_LIMITS.shiftmaps).toBe(5000);
  });

  it('a texel of order k is √(4π/(12·4^k)) / width', () => {
    // Order 3 with 512-texel tiles: 7.33° / 512.
    expect(texelAngle(3, 512) / DEG).toBeCloseTo(7.3295 / 512, 5);
    expect(texelAngle(4, 256)).toBeCloseTo(texelAngle(3, 512), 15);
  });

  it('picks the coarsest order whose texels are no larger than a screen pixel, within the HiPS orders', () => {
    const properties = { order: 9, orderMin: 3, tileWidth: 512 };
    for (const pixel of [1e-2, 1e-3, 1e-4, 1e-5]) {
      const order = hipsViewOrder(pixel, properties);
      if (order > properties.orderMin) expect(texelAngle(order - 1, 512)).toBeGreaterThan(pixel);
      if (order < properties.order) expect(texelAngle(order, 512)).toBeLessThanOrEqual(pixel);
    }
    // A wide view: the minimum order; a view finer than the HiPS: its deepest order.
    expect(hipsViewOrder(1, properties)).toBe(3);
    expect(hipsViewOrder(1e-9, properties)).toBe(9);
  });

  it('asks for an order coarser while the camera moves (its lodBias 1), within the HiPS orders', () => {
    const properties = { order: 9, orderMin: 3, tileWidth: 512 };
    const resting = hipsViewOrder(1e-5, properties);
    expect(hipsViewOrder(1e-5, properties, 1)).toBe(resting - 1);
    expect(hipsViewOrder(1e-5, properties, 0)).toBe(resting);
    expect(hipsViewOrder(1, properties, 1)).toBe(3);
  });

  it('asks for no tile of a deep minimum order seen from far off, and for its tiles up close', () => {
    // A survey's cut-outs (hips_order_min 10, 64-texel tiles), as an imported course's HiPS may be.
    const properties = { order: 12, orderMin: 10, tileWidth: 64 };
    const view = (fovy: number, height = 800) => {
      const pixel = fovy / height;
      const radius = fovy * 0.9;
      const order = hipsViewOrder(pixel, properties);
      return tooFineForView(order, hipsViewOrder(pixel, { ...properties, orderMin: 0 }), radius);
    };
    // The whole sky holds 12·4^k tiles of order k; a cone its share of them.
    expect(tilesInCone(10, Math.PI)).toBe(12 * 4 ** 10);
    expect(tilesInCone(10, 30 * DEG)).toBeCloseTo(12 * 4 ** 10 * ((1 - Math.cos(30 * DEG)) / 2), 6);
    // At 60° the view would reach about 840,000 order-10 tiles of a pixel or two: none.
    expect(tilesInCone(10, 54 * DEG)).toBeGreaterThan(MAX_FINER_TILES);
    expect(view(60 * DEG)).toBe(true);
    // At the answer form's zoom, and wherever the minimum order is no finer than the view needs.
    expect(view(0.02 * DEG)).toBe(false);
    expect(view(2 * DEG)).toBe(false);
    expect(tooFineForView(3, 3, Math.PI)).toBe(false);
  });

  it('fades out by zoom between maxTexelPixels and twice that; Infinity never fades', () => {
    expect(hipsVisibility(3, 4)).toBe(1);
    expect(hipsVisibility(4, 4)).toBe(1);
    expect(hipsVisibility(6, 4)).toBeCloseTo(0.5, 12);
    expect(hipsVisibility(8, 4)).toBe(0);
    expect(hipsVisibility(1e6, Infinity)).toBe(1);
  });

  it("draws a tile from the part of its ancestor's image (or Allsky cell) that covers it", () => {
    const core = loadCoreSync();
    // Tile 4·(4·37 + 2) + 1 of order 5 inside tile 37 of order 3.
    const ipix = 4 * (4 * 37 + 2) + 1;
    const child = new Healpix(core, 2 ** 5, 'nest');
    const parent = new Healpix(core, 2 ** 3, 'nest');
    const [scale, , s0, t0] = ancestorTransform(ipix, 2);
    expect(scale).toBe(0.25);
    for (const [dx, dy] of [
      [0, 0],
      [1, 0],
      [0.3, 0.8],
      [1, 1],
    ]) {
      // Image row = face x = t, column = face y = s: the child's (t, s) = (dx, dy).
      const [theta, phi] = child.nest2loc(ipix, dx, dy);
      const [thetaParent, phiParent] = parent.nest2loc(37, t0 + scale * dx, s0 + scale * dy);
      expect(theta).toBeCloseTo(thetaParent, 12);
      expect(phi).toBeCloseTo(phiParent, 12);
    }
    expect(ancestorTransform(ipix, 0)).toEqual([1, 1, 0, 0]);
    // The Allsky cell of tile 37 at order 3 in an image of 27 cells of 64 texels a row.
    expect(allskyCell(3, 37, 27 * 64)).toEqual({ x: 10 * 64, y: 64, size: 64 });
  });

  it('lets the Allsky image stand in for the minimum order when its cells are the tiles whole, or fine enough for the screen', () => {
    const pixel = (1 / 60) * (Math.PI / 180); // one arc-minute
    // Tiles of 32 texels are whole in Allsky cells of 32: no zoom needs them.
    expect(allskyServes(3, 32, 32, pixel / 100)).toBe(true);
    // Tiles of 256 texels, cells of 64: a cell texel of order 3 spans 6.9′.
    expect(texelAngle(3, 64) / pixel).toBeCloseTo(6.87, 2);
    expect(allskyServes(3, 256, 64, 7 * pixel)).toBe(true);
    expect(allskyServes(3, 256, 64, 5 * pixel)).toBe(false);
    // While the view moves (lodBias 1) a texel may span two pixels.
    expect(allskyServes(3, 256, 64, 5 * pixel, 1)).toBe(true);
    expect(allskyServes(3, 256, 64, 3 * pixel, 1)).toBe(false);
  });
});
