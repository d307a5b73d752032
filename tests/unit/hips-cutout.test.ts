// A captain note's picture cut from a HiPS (skydata/hips-cutout.ts): made here from the HiPS of
// astropy's TAN image (tests/helpers/make_import_images.py), the picture centred on one source
// shows it at its centre and the other source where the sky puts it, north up and east left.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { parseHipsProperties } from '../../core/hipsProperties';
import { CUTOUT_SIZE, writeCutouts } from '../../skydata/hips-cutout';
import { writeHipsFromImages } from '../../skydata/import/hips-from-images';
import { decodePng } from '../../skydata/png';
import { pythonReferences } from '../helpers/python-references';

const images = pythonReferences('make_import_images.py', 'import-images', 'done');
const expected = JSON.parse(fs.readFileSync(path.join(images, 'expected.json'), 'utf8')) as {
  tan: { ra: number; dec: number }[];
};
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hips-cutout-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The brightest pixel of a picture (the sum of its channels). */
function brightest(image: ReturnType<typeof decodePng>, rows: [number, number], columns: [number, number]) {
  let best = { row: -1, column: -1, light: -1 };
  for (let row = rows[0]; row < rows[1]; row += 1)
    for (let column = columns[0]; column < columns[1]; column += 1) {
      const k = image.channels * (row * image.width + column);
      const light = image.pixels[k]! + image.pixels[k + 1]! + image.pixels[k + 2]!;
      if (light > best.light) best = { row, column, light };
    }
  return best;
}

test('a picture centred on the target, north up and east to the left, one texel a pixel', async () => {
  const hips = path.join(scratch, 'hips');
  const result = await writeHipsFromImages({
    fields: [[path.join(images, 'tan.fits')]],
    directory: hips,
    tileWidth: 64,
    title: 'cut-out test',
    preset: { a: 1 / 2000, b: -10 },
  });
  const properties = parseHipsProperties(fs.readFileSync(path.join(hips, 'properties'), 'utf8'));
  const [east, north] = expected.tan as [{ ra: number; dec: number }, { ra: number; dec: number }];
  const file = path.join(scratch, 'notes', 'east.png');
  expect(writeCutouts(hips, properties, [east], () => file)).toEqual([east]);
  const picture = decodePng(fs.readFileSync(file));
  expect([picture.width, picture.height]).toEqual([CUTOUT_SIZE, CUTOUT_SIZE]);
  const half = CUTOUT_SIZE / 2;
  // The target at the centre.
  const centre = brightest(picture, [half - 8, half + 8], [half - 8, half + 8]);
  expect(Math.abs(centre.row - half)).toBeLessThanOrEqual(2);
  expect(Math.abs(centre.column - half)).toBeLessThanOrEqual(2);
  expect(centre.light).toBeGreaterThan(300);
  // The other source, 20″ west and 12″ north of it: to the right and up, at one texel a pixel.
  const texel = (Math.sqrt((4 * Math.PI) / 12) / (2 ** result.order * 64)) * (180 / Math.PI) * 3600;
  const row = half - 12 / texel;
  const column = half + (20 * Math.cos((east.dec * Math.PI) / 180)) / texel;
  const other = brightest(picture, [0, half - 10], [half + 10, CUTOUT_SIZE]);
  expect(Math.abs(other.row - row)).toBeLessThanOrEqual(2);
  expect(Math.abs(other.column - column)).toBeLessThanOrEqual(2);
  expect(north.dec).toBeGreaterThan(east.dec);
});

test('a HiPS without PNG tiles gives no picture', () => {
  const properties = parseHipsProperties(
    'hips_order = 3\nhips_tile_width = 64\nhips_frame = equatorial\nhips_tile_format = jpeg\n',
  );
  expect(writeCutouts(scratch, properties, [{ ra: 1, dec: 2 }], () => path.join(scratch, 'x.png'))).toEqual([]);
  expect(fs.existsSync(path.join(scratch, 'x.png'))).toBe(false);
  // Nor where the HiPS has no tile.
  const png = parseHipsProperties('hips_order = 3\nhips_tile_width = 64\nhips_tile_format = png\n');
  expect(writeCutouts(scratch, png, [{ ra: 1, dec: 2 }], () => path.join(scratch, 'y.png'))).toEqual([]);
  expect(fs.existsSync(path.join(scratch, 'y.png'))).toBe(false);
});
