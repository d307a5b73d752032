// The bundled constellation data (viewer-spec §3): per constellation its stars (name, ra, dec in
// degrees), its lines as two star names joined by '-', the ecliptical flag (the twelve zodiac
// constellations; Ophiuchus is not one, see skydata/constellations.ts) and its names in English,
// Hiragana and Kanji. Generated from d3-celestial by `npx tsx skydata/constellations.ts`.
import data from './data/constellations.json';

export interface ConstellationStar {
  name: string;
  ra: number;
  dec: number;
}

export interface Constellation {
  /** IAU three-letter abbreviation. */
  id: string;
  name: { en: string; hiragana: string; kanji: string };
  ecliptical: boolean;
  stars: ConstellationStar[];
  lines: string[];
}

export const CONSTELLATIONS: readonly Constellation[] = data as Constellation[];

/** The two star names of a line 'name-name' (star names never contain '-'). */
export function lineEnds(line: string): [string, string] {
  const parts = line.split('-');
  if (parts.length !== 2) throw new Error(`constellation line '${line}' is not 'name-name'`);
  return [parts[0], parts[1]];
}
