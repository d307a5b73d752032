import { defineStrings } from '../../i18n/define';

export const passwordReset = defineStrings(
  {
    title: 'Reset your password',
    intro: 'Enter the e-mail address of your account. We will send you a link to set a new password.',
    email: 'E-mail',
    send: 'Send verification mail',
    sentTitle: 'Verification mail sent',
    sent: 'If {{email}} belongs to an account, a verification mail is on its way. Follow the link in it to set a new password.',
  },
  {
    title: 'パスワードの再設定',
    intro: 'アカウントのメールアドレスを入力してください。新しいパスワードを設定するためのリンクをお送りします。',
    email: 'メールアドレス',
    send: '確認メールを送信',
    sentTitle: '確認メールを送信しました',
    sent: '{{email}} がアカウントのメールアドレスであれば、確認メールが届きます。メールのリンクから新しいパスワードを設定してください。',
  },
);
