// The data credits the app's credits screen shows (credits.json beside the data) and the README
// repeats under "Data credits": every real dataset the sky is built from, with its licence. What
// each is used for is the project's own words, in English and Japanese; so is the title of an
// entry that describes data rather than naming a published dataset. A dataset's published name,
// its source and licence stay as published (in English).
import type { Localized } from '../shared/catalogue';

export interface Credit {
  /** The dataset's published name (kept in English), or our own description of the data (en, ja). */
  name: string | Localized;
  usedFor: Localized;
  source: string;
  licence: string;
  url: string;
}

export const CREDITS: Credit[] = [
  {
    name: 'Hipparcos catalogue (ESA 1997)',
    usedFor: {
      en: 'star layer (positions, magnitudes and B−V colours), pretty-picture stars',
      ja: '星のレイヤー（位置、等級、B−V の色）、きれいな画像の星',
    },
    source: 'd3-celestial data/stars.*.json by Olaf Frohn',
    licence: 'd3-celestial: BSD-3-Clause; Hipparcos data: ESA, free use with acknowledgement',
    url: 'https://github.com/ofrohn/d3-celestial',
  },
  {
    name: { en: 'Star names, constellations and constellation lines', ja: '星の名前、星座と星座線' },
    usedFor: {
      en: 'constellation data module (names in English and Japanese)',
      ja: '星座のデータ（英語と日本語の名前）',
    },
    source: 'd3-celestial data/starnames.json, constellations.json, constellations.lines.json',
    licence: 'BSD-3-Clause',
    url: 'https://github.com/ofrohn/d3-celestial',
  },
  {
    name: { en: 'Milky Way outlines', ja: '天の川の輪郭' },
    usedFor: { en: 'Milky Way cube faces and HiPS', ja: '天の川のキューブの面と HiPS' },
    source: 'd3-celestial data/mw.json (after the Milky Way outlines of Jim Kaler / Milky Way Atlas)',
    licence: 'BSD-3-Clause',
    url: 'https://github.com/ofrohn/d3-celestial',
  },
  {
    name: 'Saguaro Astronomy Club deep-sky database',
    usedFor: {
      en: 'the deep-sky objects on the globe (Messier and bright NGC/IC galaxies, nebulae, clusters, the Magellanic Clouds); real galaxy positions, sizes and Hubble types in the survey fields',
      ja: '天球上の星雲・星団・銀河（メシエ天体、明るい NGC/IC 天体、マゼラン雲）、観測領域にある実在の銀河の位置、大きさ、ハッブル分類',
    },
    source: 'd3-celestial data/dsos.20.json',
    licence: 'SAC database: free use with credit to the Saguaro Astronomy Club; d3-celestial BSD-3-Clause',
    url: 'https://www.saguaroastro.org/sac-downloads/',
  },
  {
    name: { en: 'HSC-SSP field centres', ja: 'HSC-SSP の観測領域の中心' },
    usedFor: {
      en: 'season2 level positions (AEGIS, SXDS, DEEP2-3, COSMOS, ELAIS-N1, XMM-LSS, HECTOMAP, WIDE12h, GAMA09h, GAMA15h, VVDS)',
      ja: 'season2 のレベルの位置（AEGIS、SXDS、DEEP2-3、COSMOS、ELAIS-N1、XMM-LSS、HECTOMAP、WIDE12h、GAMA09h、GAMA15h、VVDS）',
    },
    source: 'Aihara et al. 2018, PASJ 70, S4 (published coordinates only; no HSC pixels are used)',
    licence: 'facts (coordinates)',
    url: 'https://hsc.mtk.nao.ac.jp/ssp/',
  },
];
