// Generates the bundled constellation data module (viewer-spec §3 "Constellation data"):
// core/data/constellations.json, per constellation its stars (name, ra, dec), its lines as
// star names joined by '-', the ecliptical flag and names in English, Hiragana and Kanji.
// Source: d3-celestial (BSD-3-Clause) constellations.json (IAU names and Japanese names),
// constellations.lines.json (polylines whose every vertex is exactly a star of stars.14.json),
// starnames.json (proper names and Bayer designations by Hipparcos number).
//   npx tsx skydata/constellations.ts && npx prettier --write core/data   (rewrites the JSON)
import fs from 'node:fs';
import path from 'node:path';
import type { Constellation } from '../core/constellations';
import { packageData, projectRoot } from './paths';

/**
 * The twelve zodiac constellations of the traditional (Ptolemaic) zodiac. Ophiuchus is NOT
 * flagged: the ecliptic does cross it (late November to mid December), but it has never been a
 * sign of the zodiac, and the flag marks the classical twelve whose lines are drawn in the
 * zodiac colour.
 */
export const ZODIAC = ['Ari', 'Tau', 'Gem', 'Cnc', 'Leo', 'Vir', 'Lib', 'Sco', 'Sgr', 'Cap', 'Aqr', 'Psc'];

/** Traditional kanji names (those with no kanji form keep their katakana, as in Japanese use). */
const KANJI: Record<string, string> = {
  Aps: '風鳥座',
  Aqr: '水瓶座',
  Aql: '鷲座',
  Ara: '祭壇座',
  Ari: '牡羊座',
  Aur: '馭者座',
  Boo: '牛飼座',
  Cae: '彫刻具座',
  Cam: '麒麟座',
  Cnc: '蟹座',
  CVn: '猟犬座',
  CMa: '大犬座',
  CMi: '小犬座',
  Cap: '山羊座',
  Car: '竜骨座',
  Cet: '鯨座',
  Col: '鳩座',
  Com: '髪座',
  CrA: '南冠座',
  CrB: '冠座',
  Crv: '烏座',
  Cru: '南十字座',
  Cyg: '白鳥座',
  Del: '海豚座',
  Dor: '旗魚座',
  Dra: '竜座',
  Equ: '小馬座',
  For: '炉座',
  Gem: '双子座',
  Gru: '鶴座',
  Hor: '時計座',
  Hya: '海蛇座',
  Hyi: '水蛇座',
  Lac: '蜥蜴座',
  Leo: '獅子座',
  LMi: '小獅子座',
  Lep: '兎座',
  Lib: '天秤座',
  Lup: '狼座',
  Lyn: '山猫座',
  Lyr: '琴座',
  Men: 'テーブル山座',
  Mic: '顕微鏡座',
  Mon: '一角獣座',
  Mus: '蠅座',
  Nor: '定規座',
  Oct: '八分儀座',
  Oph: '蛇遣座',
  Pav: '孔雀座',
  Phe: '鳳凰座',
  Pic: '画架座',
  Psc: '魚座',
  PsA: '南魚座',
  Pup: '艫座',
  Pyx: '羅針盤座',
  Sge: '矢座',
  Sgr: '射手座',
  Sco: '蠍座',
  Scl: '彫刻室座',
  Sct: '楯座',
  Ser: '蛇座',
  Sex: '六分儀座',
  Tau: '牡牛座',
  Tel: '望遠鏡座',
  Tri: '三角座',
  TrA: '南三角座',
  Tuc: '巨嘴鳥座',
  UMa: '大熊座',
  UMi: '小熊座',
  Vel: '帆座',
  Vir: '乙女座',
  Vol: '飛魚座',
  Vul: '小狐座',
};

/** Katakana → hiragana (the Unicode blocks are 0x60 apart) and 座 → ざ. */
export function toHiragana(japanese: string): string {
  return japanese
    .replace(/[\u30a1-\u30f6]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0x60))
    .replace(/座$/, 'ざ');
}

function read<T>(file: string): T {
  return JSON.parse(fs.readFileSync(packageData('d3-celestial', file), 'utf8')) as T;
}

const key = (lon: number, lat: number) => `${lon.toFixed(4)},${lat.toFixed(4)}`;

export function generateConstellations(): Constellation[] {
  const stars = read<{ features: { id: number; geometry: { coordinates: [number, number] } }[] }>('stars.14.json');
  const byPosition = new Map<string, { hip: number; lon: number; lat: number }>();
  for (const star of stars.features) {
    const [lon, lat] = star.geometry.coordinates;
    byPosition.set(key(lon, lat), { hip: star.id, lon, lat });
  }
  const names = read<Record<string, { name?: string; desig?: string; c?: string }>>('starnames.json');
  const constellations = read<{ features: { id: string; properties: { name: string; ja: string } }[] }>(
    'constellations.json',
  );
  const lines = read<{ features: { id: string; geometry: { coordinates: [number, number][][] } }[] }>(
    'constellations.lines.json',
  );
  const result = new Map<string, Constellation>();
  for (const feature of constellations.features) {
    if (result.has(feature.id)) continue; // Serpens appears twice (Caput, Cauda): one constellation
    result.set(feature.id, {
      id: feature.id,
      name: {
        en: feature.properties.name,
        hiragana: toHiragana(feature.properties.ja),
        kanji: KANJI[feature.id] ?? feature.properties.ja,
      },
      ecliptical: ZODIAC.includes(feature.id),
      stars: [],
      lines: [],
    });
  }
  for (const feature of lines.features) {
    const constellation = result.get(feature.id);
    if (!constellation) throw new Error(`lines of unknown constellation ${feature.id}`);
    const starNames = new Map<number, string>();
    const taken = new Map<string, number>(constellation.stars.map((s) => [s.name, -1]));
    const nameOf = (lon: number, lat: number): string => {
      const star = byPosition.get(key(lon, lat));
      if (!star) throw new Error(`${feature.id}: line vertex ${lon},${lat} is not a star of stars.14`);
      if (!starNames.has(star.hip)) {
        const entry = names[String(star.hip)];
        // Proper name, else Bayer/Flamsteed designation with the constellation, else 'HIP n';
        // a '-' inside a name would break the 'name-name' line notation, so it becomes '‐'.
        let name = (
          entry?.name || (entry?.desig ? `${entry.desig} ${entry.c ?? feature.id}` : `HIP ${star.hip}`)
        ).replace(/-/g, '\u2010');
        if (taken.has(name) && taken.get(name) !== star.hip) name = `${name} (HIP ${star.hip})`;
        taken.set(name, star.hip);
        starNames.set(star.hip, name);
        constellation.stars.push({ name, ra: Number(((star.lon + 360) % 360).toFixed(4)), dec: star.lat });
      }
      return starNames.get(star.hip)!;
    };
    for (const polyline of feature.geometry.coordinates) {
      for (let k = 1; k < polyline.length; k++) {
        const line = `${nameOf(...polyline[k - 1])}-${nameOf(...polyline[k])}`;
        if (!constellation.lines.includes(line)) constellation.lines.push(line);
      }
    }
  }
  return [...result.values()];
}

export const CONSTELLATIONS_FILE = path.join(projectRoot, 'core', 'data', 'constellations.json');

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  fs.mkdirSync(path.dirname(CONSTELLATIONS_FILE), { recursive: true });
  fs.writeFileSync(CONSTELLATIONS_FILE, JSON.stringify(generateConstellations(), null, 1) + '\n');
}
