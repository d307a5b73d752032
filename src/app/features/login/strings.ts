import { defineStrings } from '../../i18n/define';

export const login = defineStrings(
  {
    title: 'Log in',
    intro:
      'Sail the sky and classify galaxies from Subaru Hyper Suprime-Cam survey images. Your answers help astronomers study how galaxies interact and evolve.',
    email: 'E-mail',
    password: 'Password',
    submit: 'Log in',
    forgotPassword: 'Forgot your password?',
    signUp: 'Sign up for free',
    noAccount: 'New here?',
    season1Note: 'Accounts of season 1 (ended {{date}}) keep working: log in with the same e-mail address.',
    contact: 'Contact form',
    credits: 'Credits',
    unauthorized: 'E-mail or password is incorrect.',
  },
  {
    title: 'ログイン',
    intro:
      'すばる望遠鏡 Hyper Suprime-Cam の画像で銀河を分類しながら宇宙を航海しましょう。あなたの回答は、銀河の衝突や進化を調べる研究に役立ちます。',
    email: 'メールアドレス',
    password: 'パスワード',
    submit: 'ログイン',
    forgotPassword: 'パスワードをお忘れですか？',
    signUp: '無料で新規登録',
    noAccount: 'はじめての方',
    season1Note: 'シーズン1（{{date}}終了）のアカウントはそのまま使えます。同じメールアドレスでログインしてください。',
    contact: 'お問い合わせフォーム',
    credits: 'クレジット',
    unauthorized: 'メールアドレスまたはパスワードが正しくありません。',
  },
);
