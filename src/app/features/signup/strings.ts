import { defineStrings } from '../../i18n/define';

export const signup = defineStrings(
  {
    title: 'Sign up',
    intro: 'Enter your e-mail address. We will send you a link to start your cruise.',
    email: 'E-mail',
    send: 'Send verification mail',
    sentTitle: 'Verification mail sent',
    sent: 'We have sent a verification mail to {{email}}. Follow the link in it to continue.',
    alreadyRegistered: 'The email address has been already registered.',
    haveAccount: 'Already have an account? Log in',
  },
  {
    title: '新規登録',
    intro: 'メールアドレスを入力してください。クルーズを始めるためのリンクをお送りします。',
    email: 'メールアドレス',
    send: '確認メールを送信',
    sentTitle: '確認メールを送信しました',
    sent: '{{email}} に確認メールを送信しました。メールのリンクから続けてください。',
    alreadyRegistered: 'このメールアドレスはすでに登録されています。',
    haveAccount: 'アカウントをお持ちの方はログイン',
  },
);
