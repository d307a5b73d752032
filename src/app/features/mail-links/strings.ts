import { defineStrings } from '../../i18n/define';

// Keyed by MailLinkKind (shared/api.ts): the page reads t(`mailLinks.${kind}.title`). <name>
// marks an address or a nickname: the volunteer's data, shown as it is in either language.
export const mailLinks = defineStrings(
  {
    checking: 'Checking the link...',
    signup: {
      title: 'Create your account',
      intro: 'This creates the Galaxy Cruise account of <name>{{email}}</name> and logs you in.',
      next: 'You then choose a password and a nickname.',
      button: 'Create my account',
      otherAccount:
        'You are logged in as <name>{{current}}</name>. Continuing logs <name>{{current}}</name> out and signs in the new account of <name>{{email}}</name>.',
    },
    password_reset: {
      title: 'Choose a new password',
      intro:
        'This logs you in to the account of <name>{{email}}</name> with its password cleared, and logs it out everywhere else.',
      next: 'You then choose a new password.',
      button: 'Choose a new password',
      otherAccount:
        'You are logged in as <name>{{current}}</name>. Continuing logs <name>{{current}}</name> out and logs you in to the account of <name>{{email}}</name>.',
    },
    // The texts of a link that cannot be used (used, expired or unknown).
    failure: {
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
  },
  {
    checking: 'リンクを確認しています...',
    signup: {
      title: 'アカウントの作成',
      intro: '<name>{{email}}</name> の GALAXY CRUISE アカウントを作成してログインします。',
      next: '続いてパスワードとニックネームを設定します。',
      button: 'アカウントを作成する',
      otherAccount:
        '現在 <name>{{current}}</name> としてログインしています。続けると <name>{{current}}</name> はログアウトし、<name>{{email}}</name> の新しいアカウントでログインします。',
    },
    password_reset: {
      title: '新しいパスワードの設定',
      intro:
        '<name>{{email}}</name> のアカウントにパスワードを消去した状態でログインし、ほかの端末のログインをすべて終了します。',
      next: '続いて新しいパスワードを設定します。',
      button: '新しいパスワードを設定する',
      otherAccount:
        '現在 <name>{{current}}</name> としてログインしています。続けると <name>{{current}}</name> はログアウトし、<name>{{email}}</name> のアカウントでログインします。',
    },
    failure: {
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
  },
);
