// The star catalogue regrouped by HEALPix cell for drawing (core/stars.ts), on d3-celestial's
// Hipparcos stars to magnitude 6, each star's cell checked against @hscmap/healpix, an
// independent JavaScript HEALPix, and the query_disc ranges of a narrow view against the stars'
// own angular distances.
import { createRequire } from 'node:module';
import * as hscmap from '@hscmap/healpix';
import { describe, expect, it } from 'vitest';
import { Healpix } from '../../core/healpix';
import { STAR_CELL_ORDER, STAR_RECORD_FLOATS, STAR_VERTEX_FLOATS, starCells } from '../../core/stars';
import { loadCoreSync } from '../../core/wasm';

interface StarFeature {
  properties: { mag: number };
  geometry: { coordinates: [number, number] };
}
const { features } = createRequire(import.meta.url)('d3-celestial/data/stars.6.json') as { features: StarFeature[] };

/** (ra, dec, magnitude) records as skydata/hipparcos.ts writes them (ra in 0..360). */
function records(): Float32Array {
  const out = new Float32Array(STAR_RECORD_FLOATS * features.length);
  features.forEach(
    (
      {
        properties,
        geometry: {
          coordinates: [lon, lat],
        },
      },
      k,
    ) => out.set([(lon + 360) % 360, lat, properties.mag], STAR_RECORD_FLOATS * k),
  );
  return out;
}

describe('starCells', () => {
  const input = records();
  // Each star's B−V as the colour files give it (here: its index, to follow it through the sort).
  const colors = Float32Array.from({ length: input.length / STAR_RECORD_FLOATS }, (_, k) => k / 1000);
  const { vertices, offsets } = starCells(input, loadCoreSync(), colors);
  const nside = 2 ** STAR_CELL_ORDER;
  const count = features.length;

  it('keeps every star once, as a unit vector with its magnitude and B−V, in the cell that holds it', () => {
    expect(count).toBeGreaterThan(5000);
    expect(offsets.length).toBe(12 * nside * nside + 1);
    expect(offsets[0]).toBe(0);
    expect(offsets.at(-1)).toBe(count);
    expect(vertices.length).toBe(STAR_VERTEX_FLOATS * count);
    // The input's stars by the cell the peer puts them in, in input order (the sort is stable).
    const byCell = new Map<number, number[]>();
    for (let k = 0; k < count; k++) {
      const [ra, dec] = input.subarray(STAR_RECORD_FLOATS * k, STAR_RECORD_FLOATS * k + 2);
      const cell = hscmap.ang2pix_nest(nside, ((90 - dec) * Math.PI) / 180, (ra * Math.PI) / 180);
      byCell.set(cell, [...(byCell.get(cell) ?? []), k]);
    }
    for (let cell = 0; cell < offsets.length - 1; cell++) {
      const stars = byCell.get(cell) ?? [];
      expect(offsets[cell + 1] - offsets[cell]).toBe(stars.length);
      stars.forEach((star, j) => {
        const [ra, dec, magnitude] = input.subarray(STAR_RECORD_FLOATS * star, STAR_RECORD_FLOATS * (star + 1));
        const at = STAR_VERTEX_FLOATS * (offsets[cell] + j);
        const [x, y, z, drawnMagnitude, bv] = vertices.subarray(at, at + STAR_VERTEX_FLOATS);
        const [raRadians, decRadians] = [(ra * Math.PI) / 180, (dec * Math.PI) / 180];
        expect(x).toBeCloseTo(Math.cos(decRadians) * Math.cos(raRadians), 6);
        expect(y).toBeCloseTo(Math.cos(decRadians) * Math.sin(raRadians), 6);
        expect(z).toBeCloseTo(Math.sin(decRadians), 6);
        expect(drawnMagnitude).toBe(magnitude);
        expect(bv).toBe(colors[star]);
      });
    }
  });

  it('the cells query_disc finds for a 2° cone hold every star within it, and a small part of the sky', () => {
    // Around Orion's belt (ra 84°, dec −1.2°).
    const theta = Math.PI / 2 + (1.2 * Math.PI) / 180;
    const phi = (84 * Math.PI) / 180;
    const radius = (2 * Math.PI) / 180;
    const centre = [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)];
    const ranges = new Healpix(loadCoreSync(), nside, 'nest').queryDiscRanges(theta, phi, radius, { inclusive: true });
    const drawn = new Set<number>();
    for (let k = 0; k < ranges.length; k += 2)
      for (let star = offsets[Number(ranges[k])]; star < offsets[Number(ranges[k + 1])]; star++) drawn.add(star);
    let inside = 0;
    for (let star = 0; star < count; star++) {
      const v = vertices.subarray(STAR_VERTEX_FLOATS * star, STAR_VERTEX_FLOATS * star + 3);
      const cosine = v[0] * centre[0] + v[1] * centre[1] + v[2] * centre[2];
      if (cosine >= Math.cos(radius)) {
        inside++;
        expect(drawn.has(star)).toBe(true);
      }
    }
    expect(inside).toBeGreaterThan(0);
    expect(drawn.size).toBeLessThan(count / 50);
  });
});
