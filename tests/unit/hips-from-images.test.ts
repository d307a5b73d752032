// The HiPS that `galaxy-cruise import` makes of FITS images (skydata/import/hips-from-images.ts), tested
// on images written by astropy with TAN, SIN and CAR headers (tests/helpers/make_import_images.py):
// each point source must be found at the texel where healpy places its sky position, the three
// bands must keep their colours, and a galactic CAR image must land at its ICRS position.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { parseMocFits } from '../../core/hips-moc';
import { parseHipsProperties } from '../../core/hipsProperties';
import { hipsTilePath } from '../../skydata/hips';
import { ImageImportError, orderForScale, writeHipsFromImages } from '../../skydata/import/hips-from-images';
import { encodeFits } from '../../skydata/fits';
import { decodePng } from '../../skydata/png';
import { pythonReferences } from '../helpers/python-references';

const TILE = 64;
const images = pythonReferences('make_import_images.py', 'import-images', 'done');
const expected = JSON.parse(fs.readFileSync(path.join(images, 'expected.json'), 'utf8')) as {
  tan: Source[];
  sin: { blue: Source; red: Source; white: Source };
  car: Source[];
};
interface Source {
  ra: number;
  dec: number;
  /** Per order: healpy's tile, texel row and column. */
  orders: Record<string, [number, number, number]>;
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hips-from-images-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function build(name: string, fields: string[][], workers?: number, title = `test ${name}`) {
  const directory = path.join(scratch, name);
  const result = await writeHipsFromImages({
    fields: fields.map((field) => field.map((file) => path.join(images, file))),
    directory,
    tileWidth: TILE,
    title,
    // The sources' peak (1000 above a sky of 10) at half scale, so that no core saturates and
    // the brightest texel is the source's centre.
    preset: { a: 1 / 2000, b: -10 },
    workers,
  });
  return { directory, result };
}

function tile(directory: string, order: number, npix: number) {
  const file = path.join(directory, hipsTilePath(order, npix, 'png'));
  expect(fs.existsSync(file), `tile ${order}/${npix} written`).toBe(true);
  return decodePng(fs.readFileSync(file));
}

/** The brightest texel (the sum of its channels) within `radius` texels of (row, column). */
function brightestNear(image: ReturnType<typeof decodePng>, row: number, column: number, radius = 6) {
  let peak = { row: -1, column: -1, light: -1 };
  for (let r = Math.max(0, row - radius); r <= Math.min(TILE - 1, row + radius); r += 1) {
    for (let c = Math.max(0, column - radius); c <= Math.min(TILE - 1, column + radius); c += 1) {
      const k = image.channels * (r * TILE + c);
      const light = image.pixels[k]! + image.pixels[k + 1]! + image.pixels[k + 2]!;
      if (light > peak.light) peak = { row: r, column: c, light };
    }
  }
  return peak;
}

function rgbAt(image: ReturnType<typeof decodePng>, row: number, column: number) {
  const k = image.channels * (row * TILE + column);
  return [image.pixels[k]!, image.pixels[k + 1]!, image.pixels[k + 2]!];
}

function expectSourceAt(directory: string, source: Source, order: number) {
  const [npix, row, column] = source.orders[order]!;
  const found = brightestNear(tile(directory, order, npix), row, column);
  // healpy gives the texel that holds the source's centre; the brightest texel is that one or a
  // neighbour (the texel grid cuts the source anywhere).
  expect(Math.abs(found.row - row), `order ${order} row`).toBeLessThanOrEqual(1);
  expect(Math.abs(found.column - column), `order ${order} column`).toBeLessThanOrEqual(1);
  expect(found.light, `order ${order}: light at the source`).toBeGreaterThan(150);
  return found;
}

describe('a HiPS from FITS images with a celestial WCS', () => {
  test('TAN, one band, turned 30°: each source at healpy’s texel, at the deepest order and two above', async () => {
    const { directory, result } = await build('tan', [['tan.fits']]);
    // 0.5″ pixels: the first order whose 64-texel tile has texels no larger is 13 (0.43″).
    expect(result.order).toBe(orderForScale(0.5 / 3600, TILE));
    expect(result.order).toBe(13);
    expect(result.orderMin).toBe(3);
    expect(result.bands).toBe(1);
    const properties = parseHipsProperties(fs.readFileSync(path.join(directory, 'properties'), 'utf8'));
    expect(properties).toMatchObject({ order: 13, orderMin: 3, tileWidth: TILE, frame: 'equatorial' });
    expect(properties.raw.get('hips_tile_format')).toBe('png');
    expect(Number(properties.raw.get('hips_initial_ra'))).toBeCloseTo(150.1, 2);
    expect(Number(properties.raw.get('hips_initial_dec'))).toBeCloseTo(2.2, 2);
    for (const source of expected.tan) {
      for (const order of [13, 12, 11]) {
        const found = expectSourceAt(directory, source, order);
        const [r, g, b] = rgbAt(tile(directory, order, source.orders[order]![0]), found.row, found.column);
        // Grey: one band gives equal channels.
        expect(r).toBe(g);
        expect(g).toBe(b);
      }
    }
    // Every order from the deepest to hips_order_min has tiles, and Allsky at order 3.
    for (let order = 3; order <= 13; order += 1) {
      expect(fs.existsSync(path.join(directory, `Norder${order}`)), `Norder${order}`).toBe(true);
    }
    expect(fs.existsSync(path.join(directory, 'Norder3', 'Allsky.png'))).toBe(true);

    // Its coverage map (IVOA MOC 1.1): every tile written lies inside, at every order, and a tile
    // of the far sky does not; astropy reads the file as a valid FITS binary table.
    const moc = fs.readFileSync(path.join(directory, 'Moc.fits'));
    const coverage = parseMocFits(moc);
    expect(coverage.order).toBe(13);
    expect(Number(properties.raw.get('moc_sky_fraction'))).toBeGreaterThan(0);
    for (const order of [13, 8, 3]) {
      const folder = path.join(directory, `Norder${order}`);
      const written = fs
        .readdirSync(folder)
        .filter((name) => name.startsWith('Dir'))
        .flatMap((dir) => fs.readdirSync(path.join(folder, dir)).map((name) => Number(/\d+/.exec(name)![0])));
      expect(written.length).toBeGreaterThan(0);
      for (const npix of written) expect(coverage.intersects(order, npix), `${order}/${npix}`).toBe(true);
      const far = Math.floor((12 * 4 ** order) / 2 + (12 * 4 ** order) / 3) % (12 * 4 ** order);
      expect(written.includes(far) || !coverage.intersects(order, far)).toBe(true);
    }
    const astropy = execFileSync(
      '/usr/bin/python3',
      [
        '-c',
        "import sys; from astropy.io import fits\nwith fits.open(sys.argv[1]) as h:\n h.verify('exception'); print(h[1].header['ORDERING'], h[1].header['MOCORDER'], len(h[1].data))",
        path.join(directory, 'Moc.fits'),
      ],
      { encoding: 'utf8' },
    ).trim();
    expect(astropy).toMatch(/^NUNIQ 13 \d+$/);
  });

  test('SIN, three bands: the g-only source is blue, the i-only one red, the one in all three white', async () => {
    const { directory, result } = await build('sin', [['sin_g.fits', 'sin_r.fits', 'sin_i.fits']]);
    expect(result.bands).toBe(3);
    const properties = parseHipsProperties(fs.readFileSync(path.join(directory, 'properties'), 'utf8'));
    expect(properties.raw.get('dataproduct_subtype')).toBe('color');
    const order = result.order;
    const colour = (source: Source) => {
      const found = expectSourceAt(directory, source, order);
      return rgbAt(tile(directory, order, source.orders[order]![0]), found.row, found.column);
    };
    const [blueR, , blueB] = colour(expected.sin.blue);
    expect(blueB).toBeGreaterThan(blueR + 100);
    const [redR, , redB] = colour(expected.sin.red);
    expect(redR).toBeGreaterThan(redB + 100);
    const [whiteR, whiteG, whiteB] = colour(expected.sin.white);
    expect(Math.max(whiteR, whiteG, whiteB) - Math.min(whiteR, whiteG, whiteB)).toBeLessThan(8);
    expect(whiteG).toBeGreaterThan(150);
  });

  test('CAR in galactic coordinates lands at the source’s ICRS position', async () => {
    const { directory, result } = await build('car', [['car.fits']]);
    expect(result.order).toBe(orderForScale(36 / 3600, TILE));
    expectSourceAt(directory, expected.car[0]!, result.order);
  });

  test('refusals name the file: no celestial WCS, mixed band counts, no images', async () => {
    const plain = path.join(scratch, 'plain.fits');
    fs.writeFileSync(plain, encodeFits({ width: 8, height: 8, data: new Uint8Array(64) }));
    await expect(
      writeHipsFromImages({ fields: [[plain]], directory: path.join(scratch, 'x'), title: 'x' }),
    ).rejects.toThrow(ImageImportError);
    await expect(
      writeHipsFromImages({ fields: [[plain]], directory: path.join(scratch, 'x'), title: 'x' }),
    ).rejects.toThrow(/^plain\.fits: /);
    await expect(
      writeHipsFromImages({
        fields: [[path.join(images, 'tan.fits')], [path.join(images, 'sin_g.fits'), path.join(images, 'sin_r.fits')]],
        directory: path.join(scratch, 'x'),
        title: 'x',
      }),
    ).rejects.toThrow('every field needs the same bands (1) as the first');
    await expect(writeHipsFromImages({ fields: [], directory: path.join(scratch, 'x'), title: 'x' })).rejects.toThrow(
      'the imagery lists no FITS images',
    );
  });

  test('the same files, byte for byte, made in this thread, on two worker threads and on three', async () => {
    /** Every file under `directory`, relative path → bytes. */
    const files = (directory: string) =>
      new Map(
        (fs.readdirSync(directory, { recursive: true }) as string[])
          .filter((file) => fs.statSync(path.join(directory, file)).isFile())
          .sort()
          .map((file) => [file, fs.readFileSync(path.join(directory, file))]),
      );
    for (const [name, fields] of [
      ['grey', [['tan.fits']]],
      ['colour', [['sin_g.fits', 'sin_r.fits', 'sin_i.fits']]],
    ] as const) {
      const one = await build(
        `${name}-1`,
        fields.map((field) => [...field]),
        1,
        name,
      );
      const reference = files(one.directory);
      // Tiles at every order from the deepest to hips_order_min, the Allsky, the MOC and the properties.
      expect(reference.has('properties')).toBe(true);
      expect(reference.has('Moc.fits')).toBe(true);
      expect(reference.has(path.join('Norder3', 'Allsky.png'))).toBe(true);
      for (let order = one.result.orderMin; order <= one.result.order; order += 1)
        expect([...reference.keys()].some((file) => file.startsWith(`Norder${order}${path.sep}Dir`))).toBe(true);
      for (const workers of [2, 3]) {
        const many = await build(
          `${name}-${workers}`,
          fields.map((field) => [...field]),
          workers,
          name,
        );
        expect(many.result).toEqual({ ...one.result, directory: many.directory });
        const made = files(many.directory);
        expect([...made.keys()], `${name}, ${workers} workers: the files`).toEqual([...reference.keys()]);
        for (const [file, bytes] of reference)
          expect(Buffer.compare(made.get(file)!, bytes), `${name}, ${workers} workers: ${file}`).toBe(0);
      }
    }
  });
});
