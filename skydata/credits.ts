// The data credits the app's credits screen shows (credits.json beside the data) and the README
// repeats under "Data credits": every real dataset the sky is built from, with its licence.
export interface Credit {
  name: string;
  usedFor: string;
  source: string;
  licence: string;
  url: string;
}

export const CREDITS: Credit[] = [
  {
    name: 'Hipparcos catalogue (ESA 1997)',
    usedFor: 'star layer, HiPS and Milky Way stars, pretty-picture M45',
    source: 'd3-celestial data/stars.*.json by Olaf Frohn',
    licence: 'd3-celestial: BSD-3-Clause; Hipparcos data: ESA, free use with acknowledgement',
    url: 'https://github.com/ofrohn/d3-celestial',
  },
  {
    name: 'Star names, constellations and constellation lines',
    usedFor: 'constellation data module (names in English and Japanese)',
    source: 'd3-celestial data/starnames.json, constellations.json, constellations.lines.json',
    licence: 'BSD-3-Clause',
    url: 'https://github.com/ofrohn/d3-celestial',
  },
  {
    name: 'Milky Way outlines',
    usedFor: 'Milky Way cube faces and HiPS',
    source: 'd3-celestial data/mw.json (after the Milky Way outlines of Jim Kaler / Milky Way Atlas)',
    licence: 'BSD-3-Clause',
    url: 'https://github.com/ofrohn/d3-celestial',
  },
  {
    name: 'Saguaro Astronomy Club deep-sky database',
    usedFor: 'real galaxy positions, sizes and Hubble types in the survey fields',
    source: 'd3-celestial data/dsos.20.json',
    licence: 'SAC database: free use with credit to the Saguaro Astronomy Club; d3-celestial BSD-3-Clause',
    url: 'https://www.saguaroastro.org/sac-downloads/',
  },
  {
    name: 'HSC-SSP field centres',
    usedFor:
      'season2 level positions (AEGIS, SXDS, DEEP2-3, COSMOS, ELAIS-N1, XMM-LSS, HECTOMAP, WIDE12h, GAMA09h, GAMA15h, VVDS)',
    source: 'Aihara et al. 2018, PASJ 70, S4 (published coordinates only; no HSC pixels are used)',
    licence: 'facts (coordinates)',
    url: 'https://hsc.mtk.nao.ac.jp/ssp/',
  },
];
