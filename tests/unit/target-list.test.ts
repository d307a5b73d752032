// Target lists (skydata/import/targets.ts): files astropy.table wrote in CSV, FITS BINTABLE and
// VOTable (TABLEDATA) read to the values it wrote, sexagesimal positions to astropy's reading of
// them; hand-written malformed files refused with the file, the row and the column named; and
// a 100,000-row CSV list read in bounded memory.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTargetList } from '../../skydata/import/targets';
import { separation } from '../../core/wcs';
import { targetListReferences, type TargetListReferences } from '../helpers/target-list-references';

let refs: TargetListReferences;
let dir: string;

beforeAll(() => {
  refs = targetListReferences();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'target-list-'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Writes a hand-made file into the test's directory and returns its path. */
function write(name: string, content: string | Uint8Array): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

async function refusal(file: string): Promise<string> {
  try {
    await readTargetList(file);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${file} was read`);
}

describe('target lists astropy wrote', () => {
  for (const file of ['targets.csv', 'targets.fits', 'targets.vot']) {
    it(`reads ${file} to the values astropy wrote`, async () => {
      const targets = await readTargetList(path.join(refs.dir, file));
      expect(targets).toHaveLength(refs.targets.length);
      for (const [k, want] of refs.targets.entries()) {
        const got = targets[k];
        expect(got.row).toBe(k + 1);
        expect(got.id).toBe(want.id);
        // 359.9999999 stays itself; only 360 itself would wrap to 0
        expect(got.ra).toBe(want.ra);
        expect(got.dec).toBe(want.dec);
        expect(got.name).toBe(want.name);
        expect(got.galaxyType).toBe(want.galaxy_type);
        expect(got.interaction).toBe(want.interaction);
        expect(got.ring).toBe(want.ring);
        expect(got.fan).toBeNull();
        expect(got.captainNote).toBe(want.captain_note);
      }
    });
  }

  for (const file of ['targets-hms.csv', 'targets-hms.vot']) {
    it(`reads the sexagesimal positions of ${file} as astropy reads them`, async () => {
      const targets = await readTargetList(path.join(refs.dir, file));
      for (const [k, want] of refs.hms.entries()) {
        expect(targets[k].id).toBe(want.id);
        const off = separation(targets[k].ra, targets[k].dec, want.ra_deg, want.dec_deg) * 3600;
        expect(off, `${want.ra} ${want.dec}`).toBeLessThan(1e-6);
      }
      expect(targets[1].ra).toBe(0); // astropy wrote 24:00:00.000
    });
  }

  it('refuses a VOTable serialised as BINARY, naming the file', async () => {
    expect(await refusal(path.join(refs.dir, 'targets-binary.vot'))).toBe(
      'targets-binary.vot: the table is serialised as BINARY: only TABLEDATA is read',
    );
  });
});

/** A CSV with `rows` good rows, then `last` as the next row. */
function csv(last: string, rows = 0, header = 'id,ra,dec'): string {
  const lines = [header];
  for (let i = 1; i <= rows; i++) lines.push(`${i},${i},${-i / 2}`);
  if (last !== '') lines.push(last);
  return `${lines.join('\r\n')}\r\n`;
}

describe('malformed CSV lists are refused with the file, row and column', () => {
  const cases: [string, string, string][] = [
    [
      'a declination past the pole',
      csv('17,10,-95.2', 16),
      "row 17, column dec: '-95.2' is not a declination (−90 to 90)",
    ],
    ['a declination of 91°', csv('1,10,+91:00:00'), "row 1, column dec: '+91:00:00' is not a declination (−90 to 90)"],
    ['60 arc-minutes', csv('1,10,-10:60:00'), "row 1, column dec: '-10:60:00' is not a declination (−90 to 90)"],
    [
      'an hour of 25',
      csv('1,25:00:00,0'),
      "row 1, column ra: '25:00:00' is not a right ascension (0 to 360, or hh:mm:ss.s)",
    ],
    [
      'a right ascension past 360',
      csv('1,360.5,0'),
      "row 1, column ra: '360.5' is not a right ascension (0 to 360, or hh:mm:ss.s)",
    ],
    [
      'words for a position',
      csv('1,north,0'),
      "row 1, column ra: 'north' is not a right ascension (0 to 360, or hh:mm:ss.s)",
    ],
    ['an empty position', csv('1,,0'), "row 1, column ra: '' is not a right ascension (0 to 360, or hh:mm:ss.s)"],
    ['a fractional id', csv('1.5,1,0'), "row 1, column id: '1.5' is not an id (a whole number from 1 to 2^53 − 1)"],
    ['a zero id', csv('0,1,0'), "row 1, column id: '0' is not an id (a whole number from 1 to 2^53 − 1)"],
    [
      'an id past 2^53',
      csv('9007199254740993,1,0'),
      "row 1, column id: '9007199254740993' is not an id (a whole number from 1 to 2^53 − 1)",
    ],
    ['a repeated id', csv('2,5,5', 3), 'row 4, column id: 2 repeats the id of row 2'],
    [
      'an unknown morphology',
      csv('1,1,0,barred', 0, 'id,ra,dec,galaxy_type'),
      "row 1, column galaxy_type: 'barred' is not one of elliptical, spiral, not_sure",
    ],
    [
      'an unknown interaction',
      csv('1,1,0,Yes', 0, 'id,ra,dec,interaction'),
      "row 1, column interaction: 'Yes' is not one of yes, no, not_sure",
    ],
    [
      'a feature that is not a boolean',
      csv('1,1,0,maybe', 0, 'id,ra,dec,ring'),
      "row 1, column ring: 'maybe' is not true or false",
    ],
    [
      'a name too long',
      csv(`1,1,0,${'x'.repeat(201)}`, 0, 'id,ra,dec,name'),
      'row 1, column name: 201 characters, at most 200 allowed',
    ],
    ['a missing column', 'id,ra,name\n1,2,x\n', 'column dec: the column is missing (the table has id, ra, name)'],
    ['a column twice', 'id,ra,dec,RA\n1,2,3,4\n', 'column ra: the column appears twice'],
    ['a short row', csv('2,5', 1), 'row 2: 2 fields, the header has 3'],
    ['a quote left open', csv('1,2,"3', 0), 'row 1: a quoted field is not closed at the end of the file'],
    ['text after a closing quote', csv('1,"2"x,3', 0), 'row 1: a closing quote must end its field'],
    ['an empty file', '', 'the file is empty (a header line of column names comes first)'],
    ['a header alone', 'id,ra,dec\n', 'the list has no targets'],
  ];
  for (const [what, content, message] of cases) {
    it(`refuses ${what}`, async () => {
      expect(await refusal(write('targets.csv', content))).toBe(`targets.csv: ${message}`);
    });
  }

  it('reads quoted fields with commas, doubled quotes and line breaks, a BOM and blank lines', async () => {
    const file = write(
      'quoted.csv',
      '\uFEFFID,RA,Dec,Name,Captain_Note\n\n7,"10:00:28.6","+02:12:21","M 1, ""Crab""","two\nlines"\n\n8,0,−0:30:00,,\n',
    );
    const [first, second] = await readTargetList(file);
    expect(first).toMatchObject({ row: 1, id: 7, name: 'M 1, "Crab"', captainNote: 'two\nlines' });
    expect(first.ra).toBeCloseTo(150.119166667, 8);
    expect(first.dec).toBeCloseTo(2.205833333, 8);
    expect(second).toMatchObject({ row: 2, id: 8, ra: 0, dec: -0.5, name: null, captainNote: null });
  });

  it('refuses a file that is not a target list by its name', async () => {
    expect(await refusal(write('targets.txt', 'id,ra,dec\n1,2,3\n'))).toBe(
      'targets.txt: a target list is a .csv, .fits or .vot (VOTable) file',
    );
  });
});

/** A VOTable with the given FIELDs and rows of TDs. */
function votable(fields: string, rows: string[][], before = ''): string {
  const trs = rows.map((row) => `<TR>${row.map((cell) => `<TD>${cell}</TD>`).join('')}</TR>`).join('\n');
  return `${before}<?xml version="1.0"?>\n<VOTABLE version="1.4"><RESOURCE><TABLE>${fields}<DATA><TABLEDATA>\n${trs}\n</TABLEDATA></DATA></TABLE></RESOURCE></VOTABLE>\n`;
}
const FIELDS =
  '<FIELD name="id" datatype="long"/><FIELD name="ra" datatype="double" unit="deg"/><FIELD name="dec" datatype="char" arraysize="*"/>';

describe('malformed VOTables are refused with the file, row and column', () => {
  const cases: [string, string, string][] = [
    [
      'a declination past the pole',
      votable(FIELDS, [
        ['1', '2', '3'],
        ['2', '3', '-95.2'],
      ]),
      "row 2, column dec: '-95.2' is not a declination (−90 to 90)",
    ],
    [
      'a right ascension in words',
      votable(FIELDS, [['1', 'x', '3']]),
      "row 1, column ra: 'x' is not a right ascension (0 to 360, or hh:mm:ss.s)",
    ],
    [
      'radians',
      votable(FIELDS.replace('unit="deg"', 'unit="rad"'), [['1', '2', '3']]),
      "column ra: unit 'rad' is not degrees",
    ],
    ['a row short of a cell', votable(FIELDS, [['1', '2']]), 'row 1: 2 cells, the table has 3 fields'],
    [
      'a DOCTYPE',
      votable(FIELDS, [['1', '2', '3']]).replace('<VOTABLE', '<!DOCTYPE VOTABLE [<!ENTITY x "y">]>\n<VOTABLE'),
      'XML: a DOCTYPE or other declaration is not accepted',
    ],
    [
      'a tag closed by another',
      votable(FIELDS, [['1', '2', '3']]).replace('</TR>', '</TD></TR>'),
      'XML: </TD> closes <TR>',
    ],
    ['an unknown entity', votable(FIELDS, [['1', '2', '&deg;']]), 'XML: unknown entity &deg;'],
    ['another root element', '<?xml version="1.0"?><TABLE></TABLE>', 'the root element is <TABLE>, not <VOTABLE>'],
    [
      'an element left open',
      votable(FIELDS, [['1', '2', '3']]).replace('</VOTABLE>', ''),
      'XML: <VOTABLE> is not closed at the end of the file',
    ],
  ];
  for (const [what, content, message] of cases) {
    it(`refuses ${what}`, async () => {
      expect(await refusal(write('targets.vot', content))).toBe(`targets.vot: ${message}`);
    });
  }

  it('reads entities, CDATA, null values and a namespace prefix', async () => {
    const fields = `${FIELDS}<FIELD name="name" datatype="char" arraysize="*"/><FIELD name="ring" datatype="boolean"/><FIELD name="magnitude" datatype="int"><VALUES null="-1"/></FIELD>`;
    const text = votable(fields, [
      ['5', '10', '-10:30:00', 'a &amp; b &#x41;&#66;', 'T', '-1'],
      ['6', '11', '0', '<![CDATA[<b> & c]]>', '?', '3'],
    ])
      .replace(/<(\/?)(VOTABLE|RESOURCE|TABLE|FIELD|DATA|TABLEDATA|TR|TD)\b/g, '<$1v:$2')
      .replace('<v:VOTABLE', '<v:VOTABLE xmlns:v="http://www.ivoa.net/xml/VOTable/v1.3"');
    const [first, second] = await readTargetList(write('prefixed.vot', text));
    expect(first).toMatchObject({ id: 5, ra: 10, dec: -10.5, name: 'a & b AB', ring: true });
    expect(second).toMatchObject({ id: 6, name: '<b> & c', ring: null });
  });
});

/** A FITS file of a primary HDU and one BINTABLE; `columns` are [TTYPE, TFORM, TUNIT?]. */
function fitsTable(
  columns: [string, string, string?][],
  rows: ((view: DataView, at: number) => void)[],
  width: number,
): Uint8Array {
  const card = (text: string) => text.padEnd(80, ' ');
  const block = (cards: string[]) => {
    const text = [...cards, card('END')].join('');
    return text.padEnd(Math.ceil(text.length / 2880) * 2880, ' ');
  };
  const value = (keyword: string, v: string | number | boolean) =>
    card(
      `${keyword.padEnd(8)}= ${typeof v === 'string' ? `'${v.padEnd(8)}'`.padStart(20) : typeof v === 'boolean' ? (v ? 'T' : 'F').padStart(20) : String(v).padStart(20)}`,
    );
  const primary = block([value('SIMPLE', true), value('BITPIX', 8), value('NAXIS', 0), value('EXTEND', true)]);
  const table = block([
    value('XTENSION', 'BINTABLE'),
    value('BITPIX', 8),
    value('NAXIS', 2),
    value('NAXIS1', width),
    value('NAXIS2', rows.length),
    value('PCOUNT', 0),
    value('GCOUNT', 1),
    value('TFIELDS', columns.length),
    ...columns.flatMap(([type, form, unit], k) => [
      value(`TTYPE${k + 1}`, type),
      value(`TFORM${k + 1}`, form),
      ...(unit ? [value(`TUNIT${k + 1}`, unit)] : []),
    ]),
  ]);
  const data = new Uint8Array(Math.ceil((width * rows.length) / 2880) * 2880);
  const view = new DataView(data.buffer);
  rows.forEach((fill, i) => fill(view, i * width));
  const head = new TextEncoder().encode(primary + table);
  const file = new Uint8Array(head.length + data.length);
  file.set(head);
  file.set(data, head.length);
  return file;
}

describe('malformed FITS tables are refused with the file, row and column', () => {
  const position = (id: number, ra: number, dec: number) => (view: DataView, at: number) => {
    view.setInt32(at, id);
    view.setFloat64(at + 4, ra);
    view.setFloat64(at + 12, dec);
  };
  const columns: [string, string, string?][] = [
    ['ID', 'J'],
    ['RA', 'D', 'deg'],
    ['DEC', 'D', 'deg'],
  ];

  it('reads a table written here (row by row, big-endian)', async () => {
    const targets = await readTargetList(
      write('t.fits', fitsTable(columns, [position(3, 1.5, -2.5), position(4, 359, 89)], 20)),
    );
    expect(targets.map(({ id, ra, dec }) => [id, ra, dec])).toEqual([
      [3, 1.5, -2.5],
      [4, 359, 89],
    ]);
  });

  it('refuses a declination past the pole', async () => {
    const file = write('targets.fits', fitsTable(columns, [position(3, 1.5, -2.5), position(4, 10, 95.2)], 20));
    expect(await refusal(file)).toBe('targets.fits: row 2, column dec: 95.2 is not a declination (−90 to 90)');
  });

  it('refuses positions in radians', async () => {
    const file = write(
      'targets.fits',
      fitsTable(
        [
          ['ID', 'J'],
          ['RA', 'D', 'rad'],
          ['DEC', 'D'],
        ],
        [position(3, 1, 1)],
        20,
      ),
    );
    expect(await refusal(file)).toBe("targets.fits: column ra: unit 'rad' is not degrees");
  });

  it('refuses a vector where one number is needed', async () => {
    const file = write(
      'targets.fits',
      fitsTable(
        [
          ['ID', 'J'],
          ['RA', '2D'],
          ['DEC', 'D'],
        ],
        [position(3, 1, 1)],
        28,
      ),
    );
    expect(await refusal(file)).toBe('targets.fits: column RA: TFORM 2D is not a single number, logical or string');
  });

  it('refuses a file with no table, and a table whose rows do not add up', async () => {
    const image = fitsTable(columns, [], 20).subarray(0, 2880);
    expect(await refusal(write('targets.fits', image))).toBe(
      'targets.fits: the file has no binary table (XTENSION = BINTABLE)',
    );
    const wrong = write('targets.fits', fitsTable(columns, [position(3, 1, 1)], 24));
    expect(await refusal(wrong)).toBe("targets.fits: the table's columns take 20 bytes a row but NAXIS1 is 24");
  });
});

describe('a 100,000-row list', () => {
  const ROWS = 100_000;
  const NOTE = 'n'.repeat(600);

  function writeLarge(): string {
    const file = path.join(dir, 'large.csv');
    const out = fs.openSync(file, 'w');
    fs.writeSync(out, 'id,ra,dec,galaxy_type,captain_note\n');
    let chunk = '';
    for (let i = 1; i <= ROWS; i++) {
      chunk += `${i},${((i * 0.0137) % 360).toFixed(6)},${(((i * 0.0071) % 180) - 90).toFixed(6)},spiral,${NOTE}\n`;
      if (i % 5000 === 0) {
        fs.writeSync(out, chunk);
        chunk = '';
      }
    }
    fs.closeSync(out);
    return file;
  }

  it('streams through readTargets in a heap smaller than the file', () => {
    const file = writeLarge();
    const size = fs.statSync(file).size;
    expect(size).toBeGreaterThan(60e6);
    // A child with a 32 MiB old space: reading the whole file into memory would not fit.
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'helpers', 'count-targets.ts');
    const started = Date.now();
    const child = spawnSync(process.execPath, ['--max-old-space-size=32', '--import', 'tsx', script, file], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(child.stderr).toBe('');
    const report = JSON.parse(child.stdout) as { count: number; peakRss: number; peakHeap: number };
    expect(report.count).toBe(ROWS);
    console.info(
      `100,000-row CSV (${(size / 1e6).toFixed(0)} MB) streamed in ${((Date.now() - started) / 1000).toFixed(1)} s: peak heap ${(report.peakHeap / 2 ** 20).toFixed(0)} MiB, peak RSS ${(report.peakRss / 2 ** 20).toFixed(0)} MiB`,
    );
    expect(report.peakHeap).toBeLessThan(size / 2);
  }, 180_000);

  it('collects 100,000 targets with readTargetList', async () => {
    const file = path.join(dir, 'large.csv');
    if (!fs.existsSync(file)) writeLarge();
    const started = Date.now();
    const targets = await readTargetList(file);
    expect(targets).toHaveLength(ROWS);
    expect(targets.at(-1)).toMatchObject({ row: ROWS, id: ROWS, galaxyType: 'spiral' });
    console.info(`readTargetList: 100,000 targets in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 120_000);
});
