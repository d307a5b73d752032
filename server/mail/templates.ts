// The texts of account mail in en and ja. Sign-up mail is in the locale the visitor chose on
// the sign-up form; reset mail in the account's locale.
import type { Locale } from '../../shared/api';

export type MailKind = 'signup' | 'password_reset';

interface Template {
  subject: string;
  body: (link: string) => string;
}

const TEMPLATES: Record<MailKind, Record<Locale, Template>> = {
  signup: {
    en: {
      subject: 'Galaxy Cruise: confirm your e-mail address',
      body: (link) =>
        [
          'Welcome aboard Galaxy Cruise!',
          '',
          'Open this link to confirm your e-mail address and start your voyage:',
          '',
          link,
          '',
          'The link works once and expires in 24 hours.',
          'If you did not sign up, you can ignore this mail.',
        ].join('\n'),
    },
    ja: {
      subject: 'Galaxy Cruise: メールアドレスの確認',
      body: (link) =>
        [
          'Galaxy Cruise へようこそ！',
          '',
          '次のリンクを開いてメールアドレスを確認し、航海を始めてください。',
          '',
          link,
          '',
          'このリンクは一度だけ使え、24 時間で無効になります。',
          'お心当たりのない場合は、このメールを破棄してください。',
        ].join('\n'),
    },
  },
  password_reset: {
    en: {
      subject: 'Galaxy Cruise: reset your password',
      body: (link) =>
        [
          'Someone (we hope you) asked to reset the password of your Galaxy Cruise account.',
          '',
          'Open this link to log in and choose a new password:',
          '',
          link,
          '',
          'The link works once and expires in 1 hour.',
          'If you did not ask for it, you can ignore this mail: your password stays as it is.',
        ].join('\n'),
    },
    ja: {
      subject: 'Galaxy Cruise: パスワードの再設定',
      body: (link) =>
        [
          'Galaxy Cruise アカウントのパスワード再設定が申請されました。',
          '',
          '次のリンクを開いてログインし、新しいパスワードを設定してください。',
          '',
          link,
          '',
          'このリンクは一度だけ使え、1 時間で無効になります。',
          'お心当たりのない場合は、このメールを破棄してください。パスワードは変わりません。',
        ].join('\n'),
    },
  },
};

export function renderMail(kind: MailKind, locale: string, link: string): { subject: string; text: string } {
  const template = TEMPLATES[kind][locale === 'ja' ? 'ja' : 'en'];
  return { subject: template.subject, text: template.body(link) };
}
