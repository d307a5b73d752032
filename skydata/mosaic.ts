// Mosaics of rendered survey tiles for people to look at: one row per class (isolated spirals,
// isolated ellipticals, mergers with tails, or any rows of catalogue predicates), each cell a
// true-colour cut-out assembled from the level-0 tiles of the three filters, exactly as written.
//   npx tsx skydata/mosaic.ts <var dir> <out.png> [cell pixels] [columns] [skip] [classes|features]
import fs from 'node:fs';
import path from 'node:path';
import type { Catalogue, CatalogueTarget } from '../shared/catalogue';
import { cataloguePath, skyRoot } from './paths';
import { decodePng, encodePng } from './png';
import { decodeTileValue, FILTERS, TILE_SIZE } from './tract';
import { skyToPixel, type TanWcs } from './wcs';

export const MOSAIC_ROWS: [string, (t: CatalogueTarget) => boolean][] = [
  ['spirals', (t) => t.galaxy_type === 'spiral' && t.interaction === 'no'],
  ['ellipticals', (t) => t.galaxy_type === 'elliptical' && t.interaction === 'no'],
  ['mergers', (t) => t.interaction === 'yes' && t.tail],
];

/** Rows of the interaction features: collisional rings, shells and fans, distorted discs. */
export const FEATURE_ROWS: [string, (t: CatalogueTarget) => boolean][] = [
  ['rings', (t) => t.ring],
  ['shells and fans', (t) => t.fan],
  ['distorted', (t) => t.distorted && !t.tail],
];

const BETA = 57338.67;
const WEIGHTS = [1.02, 0.98, 0.95];
const NORM = Math.asinh(BETA * 0.03);

export function tileMosaic(varDirectory: string, rows = MOSAIC_ROWS, cell = 320, columns = 5, skip = 0): Buffer {
  const root = skyRoot(varDirectory);
  const catalogue = JSON.parse(fs.readFileSync(cataloguePath(varDirectory), 'utf8')) as Catalogue;
  const metas = new Map<string, Map<number, TanWcs>>();
  const wcsOf = (survey: string, tract: number) => {
    if (!metas.has(survey)) {
      const meta = JSON.parse(fs.readFileSync(path.join(root, survey, 'meta.json'), 'utf8')) as {
        tracts: { tract: number; wcs: TanWcs }[];
      };
      metas.set(survey, new Map(meta.tracts.map((t) => [t.tract, t.wcs])));
    }
    return metas.get(survey)!.get(tract)!;
  };
  const all = catalogue.courses.flatMap((course) =>
    course.levels.flatMap((level) =>
      level.areas.flatMap((area) => area.targets.map((target) => ({ target, survey: level.survey, tract: area.id }))),
    ),
  );
  const width = cell * columns;
  const pixels = new Uint8Array(width * cell * rows.length * 3);
  rows.forEach(([, predicate], row) => {
    all
      .filter(({ target }) => predicate(target))
      .slice(skip, skip + columns)
      .forEach(({ target, survey, tract }, column) => {
        const wcs = wcsOf(survey, tract);
        const [fx, fy] = skyToPixel(wcs, target.ra, target.dec);
        const cx = Math.round(fx - 1);
        const cy = Math.round(fy - 1);
        const tiles = new Map<string, Uint8Array>();
        const tile = (filter: string, p: number, q: number) => {
          const key = `${filter}/${p}/${q}`;
          if (!tiles.has(key)) {
            const file = path.join(root, survey, filter, String(tract), '0', String(p), `${q}.png`);
            tiles.set(key, fs.existsSync(file) ? decodePng(fs.readFileSync(file)).pixels : new Uint8Array(0));
          }
          return tiles.get(key)!;
        };
        for (let r = 0; r < cell; r++) {
          const y = cy + cell / 2 - 1 - r; // north up
          for (let c = 0; c < cell; c++) {
            const x = cx - cell / 2 + c;
            if (x < 0 || y < 0 || x >= wcs.NAXIS1 || y >= wcs.NAXIS2) continue;
            const out = ((row * cell + r) * width + column * cell + c) * 3;
            FILTERS.forEach((filter, band) => {
              const data = tile(filter, Math.floor(x / TILE_SIZE), Math.floor(y / TILE_SIZE));
              const flux = decodeTileValue(data[(y % TILE_SIZE) * TILE_SIZE + (x % TILE_SIZE)]);
              const value = Math.asinh(BETA * WEIGHTS[band] * flux) / NORM;
              pixels[out + 2 - band] = Math.max(0, Math.min(255, Math.round(value * 255)));
            });
          }
        }
      });
  });
  return encodePng({ width, height: cell * rows.length, channels: 3, pixels });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  const [varDirectory, out, cell, columns, skip, rows] = process.argv.slice(2);
  const chosen = rows === 'features' ? FEATURE_ROWS : MOSAIC_ROWS;
  fs.writeFileSync(out, tileMosaic(varDirectory, chosen, Number(cell ?? 320), Number(columns ?? 5), Number(skip ?? 0)));
}
