// Strings used across screens: the app name, buttons, the spinner, the validation messages of
// application-spec §5 and the errors of §8, and the globe's labels.
import { defineStrings } from './define';

export const common = defineStrings(
  {
    appName: 'Galaxy Cruise',
    loading: 'Loading',
    loadingSession: 'Loading session...',
    language: 'Language',
    languageNames: { en: 'English', ja: '日本語' },
    ok: 'OK',
    cancel: 'Cancel',
    back: 'Back',
    close: 'Close',
    save: 'Save',
    send: 'Send',
    logout: 'Log out',
    unexpectedError: 'Unexpected Application Error!',
    pleaseReload: 'Please reload',
    alertReload: 'Please Reload.',
    alertTooManyRequests: 'Too many attempts. Please wait a few minutes and try again.',
    reload: 'Reload',
    notFound: 'This page does not exist.',
  },
  {
    appName: 'GALAXY CRUISE',
    loading: '読み込み中',
    loadingSession: 'セッションを読み込み中...',
    language: '言語',
    languageNames: { en: 'English', ja: '日本語' },
    ok: 'OK',
    cancel: 'キャンセル',
    back: '戻る',
    close: '閉じる',
    save: '保存',
    send: '送信',
    logout: 'ログアウト',
    unexpectedError: '予期しないアプリケーションエラーが発生しました',
    pleaseReload: 'ページを再読み込みしてください',
    alertReload: 'ページを再読み込みしてください。',
    alertTooManyRequests: '試行回数が多すぎます。数分待ってからもう一度お試しください。',
    reload: '再読み込み',
    notFound: 'このページは存在しません。',
  },
);

/** The §5 messages, keyed as validation/messages.ts maps them. */
export const validation = defineStrings(
  {
    blank: 'Cannot be blank',
    invalidFormat: 'Invalid Format',
    tooShort: 'must be at least {{min}} characters',
    tooLong: 'is too long (maximum is {{max}} characters)',
    mismatch: 'does not match',
    taken: 'already taken',
    tooCommon: 'is too common or too easy to guess',
    onlyDigits: 'Only digits are allowed here',
  },
  {
    blank: '入力してください',
    invalidFormat: '形式が正しくありません',
    tooShort: '{{min}}文字以上で入力してください',
    tooLong: '長すぎます（最大{{max}}文字）',
    mismatch: '一致しません',
    taken: 'すでに使われています',
    tooCommon: 'よく使われている、または推測されやすいパスワードです',
    onlyDigits: '数字のみ入力できます',
  },
);

export const globe = defineStrings(
  {
    label: 'Sky globe: drag or use the arrow keys to look around, the wheel or + and − to zoom',
    indicator: 'Camera',
    ra: 'RA',
    dec: 'Dec',
    fov: 'FoV',
    loading: 'Loading the sky',
    copyLink: 'Copy link to this view',
    linkCopied: 'Link copied',
    copyByHand: 'Copy this link:',
    close: 'Close',
    noWebGlTitle: 'This browser cannot show the sky',
    noWebGlText:
      'Galaxy Cruise draws the sky with WebGL 2, which this browser does not offer or has turned off. Please open this page in a recent Chrome, Edge, Firefox or Safari, with hardware acceleration turned on in its settings.',
    noWebGlCause: 'What the browser said:',
  },
  {
    label: '天球：ドラッグまたは矢印キーで見回し、ホイールまたは + と − でズーム',
    indicator: 'カメラ',
    ra: '赤経',
    dec: '赤緯',
    fov: '視野',
    loading: '天球を読み込み中',
    copyLink: 'この視点へのリンクをコピー',
    linkCopied: 'リンクをコピーしました',
    copyByHand: 'このリンクをコピーしてください：',
    close: '閉じる',
    noWebGlTitle: 'このブラウザでは天球を表示できません',
    noWebGlText:
      'Galaxy Cruise は WebGL 2 で天球を描きますが、このブラウザでは使えないか、無効になっています。最新の Chrome、Edge、Firefox または Safari で、設定のハードウェアアクセラレーションを有効にしてこのページを開いてください。',
    noWebGlCause: 'ブラウザからのメッセージ：',
  },
);
