// A research group's folder as `galaxy-cruise import` reads it (docs/import.md): a manifest, a
// CSV target list and a HiPS folder (a hand-written properties file unless the test makes a real
// HiPS), under a temporary directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface FixtureTarget {
  id: number;
  ra: number;
  dec: number;
  name?: string;
  galaxy_type?: 'elliptical' | 'spiral' | 'not_sure';
  captain_note?: string;
}

/** A properties file the manifest reader accepts (core/hipsProperties.ts). */
export const SMALL_HIPS_PROPERTIES = [
  'creator_did = ivo://example/galaxy-cruise-test',
  'hips_order = 3',
  'hips_order_min = 0',
  'hips_tile_width = 64',
  'hips_frame = equatorial',
  'hips_tile_format = png',
  '',
].join('\n');

/** `count` targets around (ra, dec), a grid 0.02° apart, ids from `firstId`. */
export function targetCluster(count: number, ra: number, dec: number, firstId = 1): FixtureTarget[] {
  return Array.from({ length: count }, (_, index) => ({
    id: firstId + index,
    ra: ra + ((index % 5) * 0.02) / Math.cos((dec * Math.PI) / 180),
    dec: dec + Math.floor(index / 5) * 0.02,
    galaxy_type: index % 2 === 0 ? 'spiral' : 'elliptical',
  }));
}

export function writeTargetList(file: string, targets: readonly FixtureTarget[]): void {
  const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
  const lines = ['id,ra,dec,name,galaxy_type,captain_note'];
  for (const target of targets)
    lines.push(
      [
        target.id,
        target.ra,
        target.dec,
        target.name ? quote(target.name) : '',
        target.galaxy_type ?? '',
        target.captain_note ? quote(target.captain_note) : '',
      ].join(','),
    );
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

export interface SurveyFolder {
  folder: string;
  manifest: string;
  targets: string;
  remove(): void;
}

/** A new folder holding survey.json, targets.csv and hips/ (its properties, unless `hips` is a URL or a folder). */
export function writeSurvey(options: {
  id: string;
  targets: readonly FixtureTarget[];
  hips?: string;
  retirement?: Record<string, number> | null;
}): SurveyFolder {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-import-'));
  let hips = options.hips;
  if (hips === undefined) {
    fs.mkdirSync(path.join(folder, 'hips'));
    fs.writeFileSync(path.join(folder, 'hips', 'properties'), SMALL_HIPS_PROPERTIES);
    hips = 'hips/';
  }
  const manifest = path.join(folder, 'survey.json');
  fs.writeFileSync(
    manifest,
    JSON.stringify({
      id: options.id,
      name: { en: `Survey ${options.id}`, ja: `サーベイ ${options.id}` },
      imagery: { hips },
      targets: 'targets.csv',
      ...(options.retirement === undefined ? {} : { retirement: options.retirement }),
    }),
  );
  const targets = path.join(folder, 'targets.csv');
  writeTargetList(targets, options.targets);
  return { folder, manifest, targets, remove: () => fs.rmSync(folder, { recursive: true, force: true }) };
}
