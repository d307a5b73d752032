import { defineStrings } from '../../i18n/define';

export const souvenirs = defineStrings(
  {
    open: 'Souvenirs',
    title: 'Souvenirs',
    loading: 'Unpacking your souvenirs',
    error: 'Your souvenirs could not be loaded.',
    retry: 'Retry',
    intro:
      'Every {{perPiece}} galaxies you classify in a course earn a puzzle piece; {{pieces}} pieces make a souvenir picture.',
    earned_one: 'You have earned {{count}} piece.',
    earned_other: 'You have earned {{count}} pieces.',
    progress: '{{revealed}} of {{total}} pieces',
    complete: 'Complete!',
    imageAlt: '{{name}}: {{revealed}} of {{total}} jigsaw pieces revealed',
    links: 'Read more',
    linkAbout: 'Read more: {{name}}',
  },
  {
    open: 'おみやげ',
    title: 'おみやげ',
    loading: 'おみやげを広げています',
    error: 'おみやげを読み込めませんでした。',
    retry: '再読み込み',
    intro:
      'コースで銀河を{{perPiece}}個分類するごとにパズルのピースが1つもらえます。{{pieces}}ピースで1枚の絵が完成します。',
    earned_one: 'これまでに集めたピース：{{count}}個',
    earned_other: 'これまでに集めたピース：{{count}}個',
    progress: 'ピース {{revealed}} / {{total}}',
    complete: '完成！',
    imageAlt: '{{name}}：ジグソーパズル {{total}} ピース中 {{revealed}} ピース',
    links: 'くわしく',
    linkAbout: 'くわしく：{{name}}',
  },
);
