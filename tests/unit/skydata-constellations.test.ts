// The bundled constellation module (viewer-spec §3): every line names two stars of its own
// constellation, the twelve zodiac constellations are ecliptical, names come in English,
// Hiragana and Kanji, and the committed JSON is exactly what the generator makes from
// d3-celestial (so the two cannot drift).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONSTELLATIONS, lineEnds } from '../../core/constellations';
import { CONSTELLATIONS_FILE, generateConstellations, toHiragana } from '../../skydata/constellations';

describe('constellation data module', () => {
  it('has the 88 IAU constellations once each', () => {
    expect(CONSTELLATIONS).toHaveLength(88);
    expect(new Set(CONSTELLATIONS.map((c) => c.id)).size).toBe(88);
  });

  it('every constellation line names two stars of its constellation', () => {
    let lines = 0;
    for (const constellation of CONSTELLATIONS) {
      const names = new Set(constellation.stars.map((star) => star.name));
      expect(names.size).toBe(constellation.stars.length);
      expect(constellation.lines.length).toBeGreaterThan(0);
      for (const line of constellation.lines) {
        const [a, b] = lineEnds(line);
        expect(names.has(a), `${constellation.id}: ${a}`).toBe(true);
        expect(names.has(b), `${constellation.id}: ${b}`).toBe(true);
        expect(a).not.toBe(b);
        lines++;
      }
    }
    expect(lines).toBeGreaterThan(600);
  });

  it('draws the Big Dipper’s bowl and Orion’s shoulders with the real stars', () => {
    const uma = CONSTELLATIONS.find((c) => c.id === 'UMa')!;
    expect(uma.lines.some((l) => l === 'Dubhe-Merak' || l === 'Merak-Dubhe')).toBe(true);
    const ori = CONSTELLATIONS.find((c) => c.id === 'Ori')!;
    const betelgeuse = ori.stars.find((s) => s.name === 'Betelgeuse')!;
    expect(betelgeuse.ra).toBeCloseTo(88.79, 1);
    expect(betelgeuse.dec).toBeCloseTo(7.41, 1);
  });

  it('flags the twelve zodiac constellations as ecliptical, not Ophiuchus', () => {
    const ecliptical = CONSTELLATIONS.filter((c) => c.ecliptical).map((c) => c.id);
    expect(ecliptical.sort()).toEqual([
      'Aqr',
      'Ari',
      'Cap',
      'Cnc',
      'Gem',
      'Leo',
      'Lib',
      'Psc',
      'Sco',
      'Sgr',
      'Tau',
      'Vir',
    ]);
    expect(CONSTELLATIONS.find((c) => c.id === 'Oph')!.ecliptical).toBe(false);
  });

  it('names each constellation in English, Hiragana and Kanji', () => {
    const ari = CONSTELLATIONS.find((c) => c.id === 'Ari')!;
    expect(ari.name).toEqual({ en: 'Aries', hiragana: 'おひつじざ', kanji: '牡羊座' });
    expect(CONSTELLATIONS.find((c) => c.id === 'Ori')!.name.hiragana).toBe('おりおんざ');
    expect(toHiragana('カシオペヤ座')).toBe('かしおぺやざ');
    for (const constellation of CONSTELLATIONS) {
      expect(constellation.name.en).toMatch(/^[A-Z]/);
      expect(constellation.name.hiragana).toMatch(/^[\u3041-\u3096\u30fc]+$/);
      expect(constellation.name.kanji).toMatch(/座$/);
    }
  });

  it('is exactly what the generator makes from d3-celestial', () => {
    expect(JSON.parse(fs.readFileSync(CONSTELLATIONS_FILE, 'utf8'))).toEqual(generateConstellations());
  });
});
