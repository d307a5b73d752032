// The page a mail link shows when it cannot be used (used, expired or unknown): a plain,
// self-contained page in the link's language that says why and where to get a new one.
import type { EmailTokenPurpose } from '../auth/email-tokens';

type Reason = 'unknown' | 'used' | 'expired';

const TEXTS = {
  en: {
    title: 'This link cannot be used',
    reasons: {
      used: 'This link has already been used: each link works only once.',
      expired: 'This link has expired.',
      unknown: 'This link is not valid. Please check that it was copied whole.',
    },
    validity: {
      signup: 'Sign-up links work once, for 24 hours.',
      password_reset: 'Password-reset links work once, for 1 hour.',
    },
    again: { signup: 'Send a new sign-up mail', password_reset: 'Send a new password-reset mail' },
    login: 'Log in',
  },
  ja: {
    title: 'このリンクは使用できません',
    reasons: {
      used: 'このリンクはすでに使用されています。リンクは一度だけ使えます。',
      expired: 'このリンクの有効期限が切れています。',
      unknown: 'このリンクは無効です。リンク全体がコピーされているか確認してください。',
    },
    validity: {
      signup: '登録用のリンクは 24 時間、一度だけ使えます。',
      password_reset: 'パスワード再設定用のリンクは 1 時間、一度だけ使えます。',
    },
    again: { signup: '登録メールを再送する', password_reset: 'パスワード再設定メールを再送する' },
    login: 'ログイン',
  },
} as const;

const ROUTES: Record<EmailTokenPurpose, string> = { signup: '/#/signup', password_reset: '/#/password_reset' };

export function linkFailurePage(purpose: EmailTokenPurpose, reason: Reason, locale: string | undefined): string {
  const language = locale === 'ja' ? 'ja' : 'en';
  const text = TEXTS[language];
  return `<!doctype html>
<html lang="${language}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Galaxy Cruise: ${text.title}</title>
  </head>
  <body>
    <main>
      <h1>${text.title}</h1>
      <p>${text.reasons[reason]}</p>
      <p>${text.validity[purpose]}</p>
      <p><a href="${ROUTES[purpose]}">${text.again[purpose]}</a> · <a href="/#/login">${text.login}</a></p>
    </main>
  </body>
</html>
`;
}
