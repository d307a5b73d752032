// Accessibility and languages of the login, sign-up, password-reset screens and the gate's
// dialogs (application-spec §1, §2; UI.md): an axe-core scan of each with no serious or
// critical violation, in English and in Japanese, a screenshot of each under
// test-results/screenshots/, no English left on a Japanese screen, and every dialog worked with
// the keyboard alone. The session and the calls that would change it are answered by the test
// (page.route), so that each gate dialog can be shown without spending the server's sign-up
// allowance; the journeys against the real server are in gate.spec.ts and login.spec.ts.
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { untranslated } from './untranslated';

type Locale = 'en' | 'ja';
type Step = 'password' | 'nickname' | 'questionnaire' | 'done';

function sessionFor(step: Step, locale: Locale) {
  return {
    current_user: {
      id: 1,
      email: 'volunteer@example.org',
      nickname: step === 'password' || step === 'nickname' ? '' : 'Sombrero',
      locale,
      password_is_set: step !== 'password',
      private_information_present: step === 'done',
      gravatar_private: false,
      gravatar_public: false,
      avatar_url: null,
      admin: false,
    },
    recommended_course: null,
  };
}

/** Answers GET /api/session with a user at `step`, and the gate's saves with success. */
async function fakeSession(page: Page, locale: Locale, initial: Step) {
  const state = { step: initial };
  await page.route('**/api/session', (route) => route.fulfill({ json: sessionFor(state.step, locale) }));
  await page.route('**/api/nicknames/**', (route) => route.fulfill({ json: { count: 0 } }));
  await page.route('**/api/signup/password', (route) => {
    state.step = 'nickname';
    return route.fulfill({ status: 204 });
  });
  await page.route('**/api/current_user', (route) => {
    state.step = 'questionnaire';
    return route.fulfill({ json: sessionFor('questionnaire', locale) });
  });
  await page.route('**/api/current_user/private_information', (route) => {
    state.step = 'done';
    return route.fulfill({ status: 204 });
  });
  return state;
}

async function useLocale(page: Page, locale: Locale) {
  await page.addInitScript((value) => localStorage.setItem('galaxy-cruise.locale', value), locale);
}

async function check(page: Page, name: string, locale: Locale) {
  // Let the entrance animations (fade 0.2 s, dialogs 0.4 s) finish before looking.
  await page.waitForTimeout(600);
  await page.screenshot({ path: `test-results/screenshots/${name}-${locale}.png` });
  expect(await seriousViolations(page), `${name} (${locale})`).toEqual([]);
  if (locale === 'ja') expect(await untranslated(page), `${name} (ja)`).toEqual([]);
}

for (const locale of ['en', 'ja'] as const) {
  const t = (en: string, ja: string) => (locale === 'en' ? en : ja);

  test(`screens without a session (${locale})`, async ({ page }) => {
    // Nine screens and states, each scanned by axe and screenshotted.
    test.setTimeout(480_000);
    await useLocale(page, locale);
    await page.route('**/api/signup/verify_email', (route) => route.fulfill({ status: 204 }));
    await page.route('**/api/password_reset/verify_email', (route) => route.fulfill({ status: 204 }));

    await page.goto('/#/login');
    await expect(page.getByRole('heading', { name: t('Galaxy Cruise', 'GALAXY CRUISE') })).toBeVisible();
    await check(page, 'login', locale);
    // A failed login's error line.
    await page.route('**/api/session', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 422, json: { statusCode: 422, error: 'Unprocessable Entity', message: '' } })
        : route.fallback(),
    );
    await page.getByLabel(t('E-mail', 'メールアドレス')).fill('volunteer@example.org');
    await page.getByLabel(t('Password', 'パスワード'), { exact: true }).fill('wrong');
    await page.getByRole('button', { name: t('Log in', 'ログイン') }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await check(page, 'login-error', locale);

    await page.goto('/#/signup');
    // The sign-up screen is a chunk of its own: until it arrives the login form, with its own
    // e-mail field, is still on screen.
    await expect(page.getByRole('heading', { name: t('Sign up', '新規登録'), level: 1 })).toBeVisible();
    const email = page.getByLabel(t('E-mail', 'メールアドレス'));
    await expect(email).toBeVisible();
    await email.fill('not an address');
    await page.getByRole('button', { name: t('Send verification mail', '確認メールを送信') }).click();
    await check(page, 'signup-invalid', locale);
    await email.fill('volunteer@example.org');
    await page.getByRole('button', { name: t('Send verification mail', '確認メールを送信') }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await check(page, 'signup-sent', locale);
    await page.keyboard.press('Enter'); // the back button has the focus
    await expect(page.getByRole('dialog')).toBeHidden();

    await page.goto('/#/password_reset');
    await expect(page.getByRole('dialog')).toBeVisible();
    await check(page, 'password-reset', locale);
    await page.keyboard.type('volunteer@example.org');
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('dialog', { name: t('Verification mail sent', '確認メールを送信しました') }),
    ).toBeVisible();
    await check(page, 'password-reset-sent', locale);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  });

  test(`the gate's dialogs, worked with the keyboard alone (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    await fakeSession(page, locale, 'password');
    await page.goto('/#/');

    const password = page.getByRole('dialog', { name: t('Set your password', 'パスワードの設定') });
    await expect(password).toBeVisible();
    await page.keyboard.press('Enter'); // the new-password field has the focus: submits, shows errors
    await check(page, 'gate-password', locale);
    await page.keyboard.type('a long enough passphrase');
    await page.keyboard.press('Tab');
    await page.keyboard.type('a long enough passphrase');
    await page.keyboard.press('Enter');
    await expect(password).toBeHidden();

    const nickname = page.getByRole('dialog', { name: t('Choose your nickname', 'ニックネームの設定') });
    await expect(nickname).toBeVisible();
    await page.keyboard.type('Sombrero');
    await expect(nickname.getByTestId('nickname-status')).not.toBeEmpty();
    await check(page, 'gate-nickname', locale);
    await page.keyboard.press('Enter');
    await expect(nickname).toBeHidden();

    const questionnaire = page.getByRole('dialog', { name: t('Welcome aboard', 'ようこそ') });
    await expect(questionnaire).toBeVisible();
    // Submit from the birth-year field with nothing answered: every field shows its error.
    await page.keyboard.press('Enter');
    await check(page, 'gate-questionnaire', locale);
    await page.keyboard.type('1990');
    await page.keyboard.press('Tab'); // country
    await page.keyboard.press('ArrowDown'); // Japan, the first entry
    for (let group = 0; group < 5; group++) {
      await page.keyboard.press('Tab'); // the group's first choice
      await page.keyboard.press('Space');
    }
    const submit = questionnaire.getByRole('button', { name: t('Start the cruise', 'クルーズを始める') });
    for (let step = 0; step < 20 && !(await submit.evaluate((button) => button === document.activeElement)); step++)
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(questionnaire).toBeHidden();
    await expect(page.getByTestId('course-select')).toBeVisible();
    await check(page, 'home', locale);
  });
}
