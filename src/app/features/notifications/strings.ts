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
    unlocked: {
      title_one: '{{count}} new level unlocked',
      title_other: '{{count}} new levels unlocked',
      next: 'Your cruise goes on to these levels as you classify: choose their course in the course menu at the top of the screen and sail on.',
    },
    counter: '{{index}} of {{count}}',
    link: 'Messages',
    linkUnread: 'Messages, {{count}} unread',
    listTitle: 'Messages',
    filter: 'Show',
    all: 'All',
    unread: 'Unread',
    empty: 'No messages here yet.',
    loading: 'Loading messages',
    error: 'The messages could not be loaded.',
    retry: 'Try again',
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
    unlocked: {
      title_one: '新しいレベルが{{count}}件解放されました',
      title_other: '新しいレベルが{{count}}件解放されました',
      next: '分類を進めると、これらのレベルへ航海が続きます。画面上部のコースメニューでそのコースを選んで航海を続けましょう。',
    },
    counter: '{{count}}件中{{index}}件目',
    link: 'メッセージ',
    linkUnread: 'メッセージ（未読{{count}}件）',
    listTitle: 'メッセージ',
    filter: '表示',
    all: 'すべて',
    unread: '未読',
    empty: 'ここにはまだメッセージがありません。',
    loading: 'メッセージを読み込み中',
    error: 'メッセージを読み込めませんでした。',
    retry: '再試行',
    custom: {
      present2025winter: '2025年冬のプレゼントキャンペーンを実施中です。十分な数の銀河を分類した方は応募できます。',
      present2025winterLink: '応募フォームを開く',
    },
  },
);
