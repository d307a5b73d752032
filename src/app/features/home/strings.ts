import { defineStrings } from '../../i18n/define';

export const home = defineStrings(
  {
    course: 'Course: {{name}}',
    courses: {
      training: 'Training',
      season2: 'Season 2',
      illustris: 'Illustris',
      illustris_review: 'Illustris review',
      final_campaign: 'Final campaign',
    },
  },
  {
    course: 'コース：{{name}}',
    courses: {
      training: 'トレーニング',
      season2: 'シーズン2',
      illustris: 'イラストリス',
      illustris_review: 'イラストリス・レビュー',
      final_campaign: 'ファイナルキャンペーン',
    },
  },
);
