import { defineStrings } from '../../i18n/define';

export const credits = defineStrings(
  {
    title: 'Credits',
    intro:
      'Galaxy Cruise is built from real astronomical data. Each dataset below is used under its licence, with thanks to its authors.',
    usedFor: 'Used for',
    source: 'Source',
    licence: 'Licence',
    failed: 'The credits could not be loaded.',
  },
  {
    title: 'クレジット',
    intro:
      'GALAXY CRUISE は実際の天文データから作られています。以下のデータはそれぞれのライセンスに従って使用しています。作成者の皆様に感謝します。',
    usedFor: '用途',
    source: '出典',
    licence: 'ライセンス',
    failed: 'クレジットを読み込めませんでした。',
  },
);
