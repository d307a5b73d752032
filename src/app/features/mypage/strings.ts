import { defineStrings } from '../../i18n/define';

export const mypage = defineStrings(
  {
    open: 'Voyage log',
    title: 'Voyage log',
    greeting: 'Welcome aboard, {{nickname}}!',
    account: 'Account info',
    cabin: {
      heading: 'Cabin',
      rank: 'Cabin rank {{rank}}',
      delux: 'Delux cabin',
      stars: '{{stars}} of 4 stars',
      explain:
        'Finished areas of Season 2: {{finished}} of {{total}}. Your cabin is upgraded as you finish more areas.',
    },
    counts: {
      heading: 'Classified galaxies',
    },
    map: {
      heading: 'Cruise map: {{course}}',
      label: 'Map of the levels of {{course}}: active levels in orange, locked in dark orange, unlocked in cyan',
      legend: { active: 'Active', locked: 'Locked', unlocked: 'Unlocked' },
      loading: 'Loading the map',
      zoomHint: 'Drag to look around; Ctrl + wheel, or + and −, to zoom',
    },
    events: {
      heading: 'Events',
      empty: 'No events yet.',
      period: '{{begin}} – {{end}}',
      status: { active: 'Now on', ended: 'Ended', upcoming: 'Upcoming' },
      count: 'Galaxies classified by all volunteers: {{count}}',
      medal: 'Medal at {{count}}',
      reached: 'won',
      notReached: 'not yet',
    },
    certificates: {
      heading: 'Certificates',
      course: 'Certificate of completion: {{course}}',
      levels: 'Certificate: every level of {{course}} unlocked',
      completed: 'Completed on {{date}}',
    },
    loading: 'Loading your voyage log',
    error: 'Your voyage log could not be loaded.',
    retry: 'Try again',
  },
  {
    open: '航海日誌',
    title: '航海日誌',
    greeting: 'ようこそ、{{nickname}}さん！',
    account: 'アカウント情報',
    cabin: {
      heading: '客室',
      rank: '客室ランク {{rank}}',
      delux: 'デラックス客室',
      stars: '星4つ中{{stars}}つ',
      explain: 'シーズン2で完了したエリア：{{total}}中{{finished}}。エリアを完了するほど客室がアップグレードされます。',
    },
    counts: {
      heading: '分類した銀河',
    },
    map: {
      heading: 'クルーズマップ：{{course}}',
      label: '{{course}}のレベルの地図：進行中はオレンジ、ロック中は濃いオレンジ、アンロック済みはシアン',
      legend: { active: '進行中', locked: 'ロック中', unlocked: 'アンロック済み' },
      loading: '地図を読み込み中',
      zoomHint: 'ドラッグで見回し、コントロールキーを押しながらホイール、または + と − で拡大縮小',
    },
    events: {
      heading: 'イベント',
      empty: 'イベントはまだありません。',
      period: '{{begin}}～{{end}}',
      status: { active: '開催中', ended: '終了', upcoming: '開催予定' },
      count: '参加者全員で分類した銀河：{{count}}',
      medal: '{{count}}でメダル',
      reached: '獲得',
      notReached: '未獲得',
    },
    certificates: {
      heading: '証明書',
      course: '修了証：{{course}}',
      levels: '証明書：{{course}}の全レベルをアンロック',
      completed: '{{date}}に達成',
    },
    loading: '航海日誌を読み込み中',
    error: '航海日誌を読み込めませんでした。',
    retry: '再試行',
  },
);
