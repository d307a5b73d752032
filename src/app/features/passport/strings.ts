import { defineStrings } from '../../i18n/define';

export const passport = defineStrings(
  {
    open: 'Passport',
    title: 'Passport',
    courses: 'Courses',
    loading: 'Opening your passport',
    error: 'Your passport could not be loaded.',
    retry: 'Retry',
    count: '{{stamped}} of {{total}} stamps',
    stampAlt: 'Stamp of {{stage}}',
    notYet: 'Not yet visited',
    current: 'Current stage: in progress',
    completedOn: 'Completed {{date}}',
    empty: 'This course has no stages yet.',
  },
  {
    open: 'パスポート',
    title: 'パスポート',
    courses: 'コース',
    loading: 'パスポートを開いています',
    error: 'パスポートを読み込めませんでした。',
    retry: '再読み込み',
    count: 'スタンプ {{stamped}} / {{total}}',
    stampAlt: '{{stage}}のスタンプ',
    notYet: 'まだ訪れていません',
    current: '現在のステージ（航行中）',
    completedOn: '{{date}} 達成',
    empty: 'このコースにはまだステージがありません。',
  },
);
