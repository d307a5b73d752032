import { defineStrings } from '../../i18n/define';

export const notifications = defineStrings(
  {
    types: {
      campaign_start: 'Campaign start',
      captain_message: 'Captain message',
      level_unlocked: 'Unlocked',
      no_group: 'Other',
    },
    received: 'Received {{date}}',
    counter: '{{index}} of {{count}}',
    custom: {
      present2025winter:
        'The winter 2025 gift campaign is open: volunteers who have classified enough galaxies can apply.',
      present2025winterLink: 'Open the application form',
    },
  },
  {
    types: {
      campaign_start: 'キャンペーン開始',
      captain_message: '船長からのメッセージ',
      level_unlocked: 'アンロック',
      no_group: 'その他',
    },
    received: '{{date}} 受信',
    counter: '{{count}}件中{{index}}件目',
    custom: {
      present2025winter: '2025年冬のプレゼントキャンペーンを実施中です。十分な数の銀河を分類した方は応募できます。',
      present2025winterLink: '応募フォームを開く',
    },
  },
);
