import type { Strings } from './en';

export const ja: Strings = {
  common: {
    loading: '読み込み中',
    loadingSession: 'セッションを読み込み中...',
    language: '言語',
    appName: 'GALAXY CRUISE',
  },
  login: {
    title: 'ログイン',
    intro:
      'すばる望遠鏡 Hyper Suprime-Cam の画像で銀河を分類しながら宇宙を航海しましょう。あなたの回答は、銀河の衝突や進化を調べる研究に役立ちます。',
    email: 'メールアドレス',
    password: 'パスワード',
    submit: 'ログイン',
    forgotPassword: 'パスワードをお忘れですか？',
    signUp: '無料で新規登録',
    season1Note:
      'シーズン1（2022年4月25日終了）のアカウントはそのまま使えます。同じメールアドレスでログインしてください。',
    contact: 'お問い合わせフォーム',
    credits: 'クレジット',
    unauthorized: 'メールアドレスまたはパスワードが正しくありません。',
  },
  globe: {
    label: '天球：ドラッグまたは矢印キーで見回し、ホイールまたは + と − でズーム',
    indicator: 'カメラ',
    ra: '赤経',
    dec: '赤緯',
    fov: '視野',
  },
  home: {
    preparing: 'クルーズの準備中',
  },
};
