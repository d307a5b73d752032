// Campaigns (community time windows with medals at answer counts) and souvenirs (named galaxies
// whose images are revealed as the 7 × 8 jigsaw of application-spec §9). Souvenir images are
// rendered with the same physical components as the survey targets, 448 × 512 so that each of
// the 56 pieces is a 64 × 64 square.
import fs from 'node:fs';
import path from 'node:path';
import type { CatalogueCampaign, Souvenir } from '../shared/catalogue';
import { SOUVENIR_INDEX } from '../shared/rewards';
import { convolveGaussian } from './galaxy';
import { encodePng } from './png';
import { Random } from './random';
import { renderTarget, type TargetKind } from './targets';

export const JIGSAW_COLUMNS = 7;
export const JIGSAW_ROWS = 8;
const PIECE = 64;

const METALS: Record<string, [number, number, number]> = {
  bronze: [205, 127, 50],
  silver: [192, 192, 200],
  gold: [240, 200, 60],
};

/** Medal images: a shaded disc with a rim, RGBA 96 × 96. */
export function writeMedals(root: string) {
  const directory = path.join(root, 'campaigns');
  fs.mkdirSync(directory, { recursive: true });
  const size = 96;
  for (const [metal, [r, g, b]] of Object.entries(METALS)) {
    const pixels = new Uint8Array(size * size * 4);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const dx = (x + 0.5 - size / 2) / (size / 2);
        const dy = (y + 0.5 - size / 2) / (size / 2);
        const d = Math.hypot(dx, dy);
        if (d > 1) continue;
        const shade = (d > 0.85 ? 0.75 : 1) * (0.75 + 0.35 * (1 - (dx + dy + 2) / 4));
        const k = (y * size + x) * 4;
        pixels[k] = Math.min(255, r * shade);
        pixels[k + 1] = Math.min(255, g * shade);
        pixels[k + 2] = Math.min(255, b * shade);
        pixels[k + 3] = Math.round(255 * Math.min(1, (1 - d) * size * 0.5));
      }
    }
    fs.writeFileSync(
      path.join(directory, `medal-${metal}.png`),
      encodePng({ width: size, height: size, channels: 4, pixels }),
    );
  }
}

export function campaigns(): CatalogueCampaign[] {
  const medal = (count: number, notch: number, metal: string, ja: string) => ({
    count,
    image: `campaigns/medal-${metal}.png`,
    notch,
    messages: {
      en: `Together we have classified ${count.toLocaleString('en')} galaxies: the ${metal} medal is ours!`,
      ja: `みんなで ${count.toLocaleString('ja')} 個の銀河を分類しました。${ja}メダル獲得です！`,
    },
  });
  return [
    {
      id: 1,
      name: { en: 'Season 2 launch cruise', ja: 'シーズン2 出航記念クルーズ' },
      period_begin: '2022-11-01T00:00:00+09:00',
      period_end: '2023-01-31T23:59:59+09:00',
      medals: [medal(10000, 1, 'bronze', '銅'), medal(50000, 2, 'silver', '銀'), medal(100000, 3, 'gold', '金')],
    },
    {
      id: 2,
      name: { en: 'Winter cruise', ja: 'ウィンタークルーズ' },
      period_begin: '2026-11-01T00:00:00+09:00',
      period_end: '2027-02-28T23:59:59+09:00',
      medals: [medal(1000, 1, 'bronze', '銅'), medal(5000, 2, 'silver', '銀'), medal(20000, 3, 'gold', '金')],
    },
  ];
}

interface SouvenirGalaxy {
  id: string;
  name: [string, string];
  kind: TargetKind;
  q: number;
  description: [string, string];
  wiki: string;
}

const SOUVENIR_GALAXIES: SouvenirGalaxy[] = [
  {
    id: 'm51',
    name: ['Whirlpool Galaxy (M51)', '子持ち銀河（M51）'],
    kind: 'distorted',
    q: 0.9,
    description: [
      'A grand-design spiral in Canes Venatici, pulled by its small companion NGC 5195.',
      'りょうけん座の渦巻銀河。小さな伴銀河 NGC 5195 に引っ張られています。',
    ],
    wiki: 'Whirlpool_Galaxy',
  },
  {
    id: 'm101',
    name: ['Pinwheel Galaxy (M101)', '回転花火銀河（M101）'],
    kind: 'spiral',
    q: 0.95,
    description: [
      'A face-on spiral in Ursa Major, twice the size of the Milky Way.',
      'おおぐま座の正面向きの渦巻銀河。天の川銀河の約2倍の大きさです。',
    ],
    wiki: 'Pinwheel_Galaxy',
  },
  {
    id: 'm87',
    name: ['Messier 87', 'M87'],
    kind: 'elliptical',
    q: 0.9,
    description: [
      'The giant elliptical at the heart of the Virgo cluster, whose black hole was imaged in 2019.',
      'おとめ座銀河団の中心にある巨大楕円銀河。2019年にブラックホールが撮影されました。',
    ],
    wiki: 'Messier_87',
  },
  {
    id: 'antennae',
    name: ['Antennae Galaxies (NGC 4038/4039)', 'アンテナ銀河（NGC 4038/4039）'],
    kind: 'merger',
    q: 0.7,
    description: [
      'Two spirals colliding in Corvus, their tidal tails like an insect’s antennae.',
      'からす座で衝突する2つの渦巻銀河。潮汐の尾が昆虫の触角のようです。',
    ],
    wiki: 'Antennae_Galaxies',
  },
  {
    id: 'cartwheel',
    name: ['Cartwheel Galaxy', '車輪銀河'],
    kind: 'ring',
    q: 0.75,
    description: [
      'A ring galaxy in Sculptor, made when a smaller galaxy punched through its disc.',
      'ちょうこくしつ座のリング銀河。小さな銀河が円盤を突き抜けてできました。',
    ],
    wiki: 'Cartwheel_Galaxy',
  },
  {
    id: 'ngc474',
    name: ['NGC 474', 'NGC 474'],
    kind: 'shell',
    q: 0.9,
    description: [
      'A lenticular galaxy in Pisces surrounded by shells from past mergers.',
      'うお座のレンズ状銀河。過去の合体でできたシェルに囲まれています。',
    ],
    wiki: 'NGC_474',
  },
  {
    id: 'm104',
    name: ['Sombrero Galaxy (M104)', 'ソンブレロ銀河（M104）'],
    kind: 'lenticular',
    q: 0.4,
    description: [
      'A nearly edge-on galaxy in Virgo with a huge bulge and a dusty rim.',
      'おとめ座のほぼ真横向きの銀河。大きなバルジと塵の縁が特徴です。',
    ],
    wiki: 'Sombrero_Galaxy',
  },
  {
    id: 'ngc4565',
    name: ['Needle Galaxy (NGC 4565)', 'ニードル銀河（NGC 4565）'],
    kind: 'spiral',
    q: 0.18,
    description: [
      'An edge-on spiral in Coma Berenices, thin as a needle.',
      'かみのけ座の真横向きの渦巻銀河。針のように細く見えます。',
    ],
    wiki: 'NGC_4565',
  },
];

/**
 * The souvenir galaxies, their images written under `root`. Their names, descriptions and links
 * are also served as `souvenirs/index.json` beside the images (the souvenirs screen reads it),
 * since catalogue.json holds the true answers and is not served.
 */
export function souvenirs(root: string): Souvenir[] {
  const directory = path.join(root, 'souvenirs');
  fs.mkdirSync(directory, { recursive: true });
  const list = SOUVENIR_GALAXIES.map((galaxy, index) => souvenir(root, galaxy, index));
  fs.writeFileSync(path.join(root, SOUVENIR_INDEX), JSON.stringify(list));
  return list;
}

function souvenir(root: string, galaxy: SouvenirGalaxy, index: number): Souvenir {
  const width = JIGSAW_COLUMNS * PIECE;
  const height = JIGSAW_ROWS * PIECE;
  const random = new Random(7000 + index);
  const spec = {
    kind: galaxy.kind,
    x: 0,
    y: 0,
    radius: galaxy.kind === 'merger' ? 70 : 110,
    q: galaxy.q,
    pa: 0.5,
    brightness: 1.5,
    primarySpiral: true,
    seed: 11 + index,
  };
  const stamp = renderTarget(spec, random);
  convolveGaussian(stamp, [1.2, 1.1, 1]);
  const pixels = new Uint8Array(width * height * 3);
  const beta = 57338.67;
  const norm = Math.asinh(beta * 0.03);
  const weights = [1.02, 0.98, 0.95];
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const sx = col - width / 2 - stamp.x0;
      const sy = height / 2 - row - stamp.y0;
      for (let c = 0; c < 3; c++) {
        const band = 2 - c;
        const flux =
          sx >= 0 && sy >= 0 && sx < stamp.width && sy < stamp.height ? stamp.bands[band][sy * stamp.width + sx] : 0;
        const noise = 6e-6 * random.gaussian();
        pixels[(row * width + col) * 3 + c] = Math.max(
          0,
          Math.min(255, Math.round((Math.asinh(beta * weights[band] * (flux + noise)) / norm) * 255)),
        );
      }
    }
  }
  const image = `souvenirs/${galaxy.id}.png`;
  fs.writeFileSync(path.join(root, image), encodePng({ width, height, channels: 3, pixels }));
  return {
    id: galaxy.id,
    name: { en: galaxy.name[0], ja: galaxy.name[1] },
    description: { en: galaxy.description[0], ja: galaxy.description[1] },
    image,
    links: [`https://en.wikipedia.org/wiki/${galaxy.wiki}`],
  };
}
