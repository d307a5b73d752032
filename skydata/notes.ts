// Words of the catalogue: captain notes for training and review targets (application-spec §3:
// reference answer, comments and img_caption in en and ja, img_name), the map labels, campaigns
// and souvenirs. Notes are written from the target's true kind, so they explain the real answer.
import type { CaptainNote, Localized, Morphology } from '../shared/catalogue';
import type { TargetKind } from './targets';

const EXPLANATIONS: Record<TargetKind, Localized> = {
  spiral: {
    en: 'A disc with arms winding out of a yellowish bulge, strung with blue knots where new stars form. Nothing near it disturbs it: spiral, not interacting.',
    ja: '黄色っぽいバルジから腕が巻き出し、腕には星が生まれている青い粒が並んでいます。周りに乱すものはありません。渦巻銀河、相互作用なしです。',
  },
  elliptical: {
    en: 'Smooth, featureless and reddish light that fades evenly from a bright centre: an elliptical galaxy of old stars. Its outline is undisturbed: not interacting.',
    ja: '明るい中心からなめらかに暗くなる、模様のない赤っぽい光。古い星の集まりである楕円銀河です。形は乱れていないので相互作用なしです。',
  },
  lenticular: {
    en: 'It has a disc but no arms and no blue knots: a lenticular (S0) galaxy. Without spiral arms we count it as elliptical. Not interacting.',
    ja: '円盤はありますが腕も青い粒もありません。レンズ状銀河（S0）で、渦巻きの腕がないので楕円銀河に数えます。相互作用なしです。',
  },
  merger: {
    en: 'Two galaxies pulled into each other: long tidal tails stream away on opposite sides and a faint bridge joins them. Interacting, with tails, and both discs are distorted.',
    ja: '2つの銀河が引き合っています。反対側に長い潮汐の尾が伸び、かすかな橋が2つをつないでいます。相互作用あり、尾あり、どちらの円盤もゆがんでいます。',
  },
  ring: {
    en: 'A ring of blue star formation around an off-centre nucleus, with the small intruder that plunged through the disc nearby: a collisional ring galaxy. Interacting, ring.',
    ja: '中心からずれた核を青い星形成の環が取り巻き、そばには円盤を突き抜けた小さな銀河がいます。衝突リング銀河です。相互作用あり、リングです。',
  },
  shell: {
    en: 'Sharp-edged arcs (shells) lie on alternate sides of this elliptical: the debris of a small galaxy it swallowed. Interacting, with shells (fan).',
    ja: 'この楕円銀河の両側に、交互に縁のくっきりした弧（シェル）があります。飲み込まれた小さな銀河の名残です。相互作用あり、シェル（扇）です。',
  },
  fan: {
    en: 'A broad, faint fan of light spreads from one side of this elliptical: debris of a recent merger. Interacting, with a fan.',
    ja: 'この楕円銀河の片側から、かすかで幅の広い扇形の光が広がっています。最近の合体の名残です。相互作用あり、扇です。',
  },
  distorted: {
    en: 'A disc pulled out of shape: one side is stretched and bent, with a small neighbour close by. Spiral, interacting, distorted.',
    ja: '円盤の形がくずれ、片側が引き伸ばされて曲がっています。すぐそばに小さな銀河がいます。渦巻銀河、相互作用あり、ゆがみありです。',
  },
};

const KIND_NAMES: Record<TargetKind, Localized> = {
  spiral: { en: 'Spiral galaxy', ja: '渦巻銀河' },
  elliptical: { en: 'Elliptical galaxy', ja: '楕円銀河' },
  lenticular: { en: 'Lenticular galaxy', ja: 'レンズ状銀河' },
  merger: { en: 'Merging pair with tidal tails', ja: '潮汐の尾をもつ合体中の銀河' },
  ring: { en: 'Collisional ring galaxy', ja: '衝突リング銀河' },
  shell: { en: 'Shell galaxy', ja: 'シェル銀河' },
  fan: { en: 'Elliptical with a fan', ja: '扇をもつ楕円銀河' },
  distorted: { en: 'Distorted spiral', ja: 'ゆがんだ渦巻銀河' },
};

export function captainNote(
  kind: TargetKind,
  answer: Morphology,
  reviewType: 'training' | 'tng_review',
  imgName: string,
  name?: string,
): CaptainNote {
  const title = KIND_NAMES[kind];
  const simulated: Localized = {
    en: ' In the simulation, the galaxy’s history confirms it.',
    ja: 'シミュレーションでは、この銀河の歴史からも確かめられます。',
  };
  return {
    review_type: reviewType,
    answer,
    comments: {
      en: EXPLANATIONS[kind].en + (reviewType === 'tng_review' ? simulated.en : ''),
      ja: EXPLANATIONS[kind].ja + (reviewType === 'tng_review' ? simulated.ja : ''),
    },
    img_caption: { en: name ? `${title.en} (${name})` : title.en, ja: name ? `${title.ja}（${name}）` : title.ja },
    img_name: imgName,
  };
}

export const KIND_TITLES = KIND_NAMES;
