import { defineStrings } from '../../i18n/define';

export const campaigns = defineStrings(
  {
    region: 'Campaigns',
    progress: '{{count}} / {{target}}',
    progressLabel: '{{name}}: {{count}} of {{target}} galaxies for the next medal',
    medals: 'Medals won: {{count}}',
  },
  {
    region: 'キャンペーン',
    progress: '{{count}} / {{target}}',
    progressLabel: '{{name}}：次のメダルまで {{target}} 個中 {{count}} 個の銀河',
    medals: '獲得メダル：{{count}}',
  },
);
