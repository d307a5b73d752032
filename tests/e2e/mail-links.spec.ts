// Mail links ask before they act (issue 32, items 5 and 6), in English and in Japanese: the
// sign-up and password-reset links from the server's outbox open a page in the link's language
// that changes nothing (the visitor is still who they were), says plainly when this browser is
// logged in as another account, and has one focused button that uses the link and lands on the
// access gate's set-password dialog. A used link then says so, and so does the button of a page
// whose link was used elsewhere while it stood open. Each page is scanned by axe,
// checked for English left on a Japanese screen and kept as a screenshot in the report. The
// token, after '#', is never in a URL or a Referer the browser sends.
import {
  expect,
  request as playwrightRequest,
  test,
  type APIRequestContext,
  type Page,
  type TestInfo,
} from '@playwright/test';
import { mailLinkParts, waitForMail } from '../helpers/outbox';
import { freshEmail, outbox, readyVolunteer } from '../helpers/volunteers';
import { seriousViolations } from './axe';
import { untranslated } from './untranslated';

type Locale = 'en' | 'ja';

const TEXTS = {
  en: {
    signupTitle: 'Create your account',
    signupButton: 'Create my account',
    resetTitle: 'Choose a new password',
    resetButton: 'Choose a new password',
    loggedInAs: 'You are logged in as',
    used: 'This link has already been used: each link works only once.',
    newSignupMail: 'Send a new sign-up mail',
    setPassword: 'Set your password',
  },
  ja: {
    signupTitle: 'アカウントの作成',
    signupButton: 'アカウントを作成する',
    resetTitle: '新しいパスワードの設定',
    resetButton: '新しいパスワードを設定する',
    loggedInAs: '現在',
    used: 'このリンクはすでに使用されています。リンクは一度だけ使えます。',
    newSignupMail: '登録メールを再送する',
    setPassword: 'パスワードの設定',
  },
} as const;

/** Fails the test on a page error or an alert, and records every URL and Referer the page sends. */
function watch(page: Page) {
  const sent: string[] = [];
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('dialog', (dialog) => {
    problems.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    sent.push(request.url());
    const referer = request.headers()['referer'];
    if (referer) sent.push(referer);
  });
  return { sent, problems };
}

/** Waits for the page's fade, then axe, the Japanese check and a screenshot in the report. */
async function check(page: Page, testInfo: TestInfo, name: string, locale: Locale) {
  await page.waitForTimeout(600);
  await testInfo.attach(`${name}-${locale}`, { body: await page.screenshot(), contentType: 'image/png' });
  expect(await seriousViolations(page), `${name} (${locale})`).toEqual([]);
  if (locale === 'ja') expect(await untranslated(page), `${name} (ja)`).toEqual([]);
}

async function currentUser(context: APIRequestContext) {
  return (await (await context.get('/api/session')).json()).current_user as { email: string } | null;
}

/** The POSTs that use a link, from now on. */
function countConfirms(page: Page) {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/(signup|password_reset)\/confirm$/.test(request.url())) seen.count++;
  });
  return seen;
}

for (const locale of ['en', 'ja'] as const) {
  const text = TEXTS[locale];

  test(`a sign-up link asks before it creates the account, and works once (${locale})`, async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(240_000);
    const { sent, problems } = watch(page);
    const email = freshEmail(`link-${locale}`);
    expect((await page.request.post('/api/signup/verify_email', { data: { email, locale } })).status()).toBe(204);
    const link = (await waitForMail(outbox(), email)).link!;
    const { token } = mailLinkParts(link);
    const confirms = countConfirms(page);

    // The browser starts in English: the page takes the link's language.
    await page.goto(link);
    const form = page.locator('form', { has: page.getByRole('heading', { name: text.signupTitle }) });
    await expect(form).toBeVisible();
    await expect(form).toContainText(email);
    await expect(page.getByTestId('other-account')).toHaveCount(0);
    const button = form.getByRole('button', { name: text.signupButton });
    await expect(button).toBeFocused();
    await check(page, testInfo, 'signup-link', locale);
    expect(confirms.count).toBe(0);
    expect(await currentUser(page.request)).toBeNull();

    // Enter presses the focused button: the account exists, the gate asks for a password, and the
    // main screen under it is the recommended course's, as after a login (application-spec §2).
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: text.setPassword })).toBeVisible();
    await expect(page).toHaveURL(/#\/\?course=training$/);
    expect(confirms.count).toBe(1);
    expect((await currentUser(page.request))?.email).toBe(email);

    // The same link again, in another browser (a scanner, or the volunteer on another device): it
    // says the link was used, and where to get a new one.
    const elsewhere = await browser.newContext({ baseURL: mailLinkParts(link).origin });
    try {
      const later = await elsewhere.newPage();
      const laterConfirms = countConfirms(later);
      await later.goto(link);
      await expect(later.getByText(text.used)).toBeVisible();
      await expect(later.getByRole('link', { name: text.newSignupMail })).toHaveAttribute('href', '#/signup');
      await check(later, testInfo, 'signup-link-used', locale);
      expect(laterConfirms.count).toBe(0);
      expect(await currentUser(later.request)).toBeNull();
    } finally {
      await elsewhere.close();
    }

    expect(sent.filter((url) => url.includes(token))).toEqual([]);
    expect(problems).toEqual([]);
  });

  test(`a link used elsewhere while its page stood open says so when its button is pressed (${locale})`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(240_000);
    const { problems } = watch(page);
    const email = freshEmail(`late-${locale}`);
    expect((await page.request.post('/api/signup/verify_email', { data: { email, locale } })).status()).toBe(204);
    const link = (await waitForMail(outbox(), email)).link!;
    await page.goto(link);
    const button = page.getByRole('button', { name: text.signupButton });
    await expect(button).toBeFocused();
    // Another tab (or device) uses the link first.
    const elsewhere = await playwrightRequest.newContext({ baseURL: mailLinkParts(link).origin });
    try {
      const { token } = mailLinkParts(link);
      expect((await elsewhere.post('/api/signup/confirm', { data: { token } })).ok()).toBe(true);
    } finally {
      await elsewhere.dispose();
    }
    await button.click();
    await expect(page.getByText(text.used)).toBeVisible();
    await check(page, testInfo, 'signup-link-used-meanwhile', locale);
    expect(await currentUser(page.request)).toBeNull();
    // A 409 the page explains: no 'Please Reload.' alert.
    expect(problems).toEqual([]);
  });

  test(`a sign-up link opened while logged in says which account continuing logs out (${locale})`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(240_000);
    const { problems } = watch(page);
    const volunteer = await readyVolunteer(page.request, { locale });
    const email = freshEmail(`other-${locale}`);
    expect((await page.request.post('/api/signup/verify_email', { data: { email, locale } })).status()).toBe(204);
    const link = (await waitForMail(outbox(), email)).link!;

    await page.goto(link);
    const warning = page.getByTestId('other-account');
    await expect(warning).toContainText(text.loggedInAs);
    await expect(warning).toContainText(volunteer.nickname);
    await expect(warning).toContainText(email);
    await check(page, testInfo, 'signup-link-logged-in', locale);
    // Opening it switched nobody.
    expect((await currentUser(page.request))?.email).toBe(volunteer.email);

    await page.getByRole('button', { name: text.signupButton }).click();
    await expect(page.getByRole('dialog', { name: text.setPassword })).toBeVisible();
    expect((await currentUser(page.request))?.email).toBe(email);
    expect(problems).toEqual([]);
  });

  test(`a password-reset link asks before it clears the password, naming the account logged in (${locale})`, async ({
    page,
    baseURL,
  }, testInfo) => {
    test.setTimeout(240_000);
    const { sent, problems } = watch(page);
    // The owner of the link, set up in a context of their own; this browser is someone else.
    const owner = await playwrightRequest.newContext({ baseURL });
    try {
      const account = await readyVolunteer(owner, { locale });
      const volunteer = await readyVolunteer(page.request, { locale });
      await owner.post('/api/password_reset/verify_email', { data: { email: account.email } });
      // The owner's second mail: the first was their sign-up mail.
      const link = (await waitForMail(outbox(), account.email, { count: 2 })).link!;
      const { token } = mailLinkParts(link);
      const confirms = countConfirms(page);

      await page.goto(link);
      const form = page.locator('form', { has: page.getByRole('heading', { name: text.resetTitle }) });
      await expect(form).toContainText(account.email);
      const warning = page.getByTestId('other-account');
      await expect(warning).toContainText(volunteer.nickname);
      await expect(form.getByRole('button', { name: text.resetButton })).toBeFocused();
      await check(page, testInfo, 'reset-link-logged-in', locale);
      // Opening it changed nothing: both still logged in, the owner's password still set.
      expect(confirms.count).toBe(0);
      expect((await currentUser(page.request))?.email).toBe(volunteer.email);
      expect((await (await owner.get('/api/session')).json()).current_user.password_is_set).toBe(true);

      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog', { name: text.setPassword })).toBeVisible();
      expect((await currentUser(page.request))?.email).toBe(account.email);
      // The reset logged the owner out everywhere else.
      expect(await currentUser(owner)).toBeNull();
      expect(sent.filter((url) => url.includes(token))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await owner.dispose();
    }
  });
}

test('a link whose look-up is refused (a rate limit) shows the error page with its reload, not a spinner for ever', async ({
  page,
}) => {
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.dismiss();
  });
  await page.route('**/api/signup/link', (route) =>
    route.fulfill({
      status: 429,
      headers: { 'retry-after': '60' },
      json: { statusCode: 429, error: 'Too Many Requests', message: 'Too many requests: try again in 60 seconds.' },
    }),
  );
  await page.goto('/#/signup/confirm?token=anything');
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
  expect(alerts).toHaveLength(1);
});

test("a sign-up link opened in the tab of the sign-up form shows the link's page, the form's dialog closed with its route", async ({
  page,
}) => {
  const { problems } = watch(page);
  const email = freshEmail('same-tab');
  await page.goto('/#/signup');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send verification mail' }).click();
  const sent = page.getByRole('dialog', { name: 'Verification mail sent' });
  await expect(sent).toBeVisible();
  // The volunteer pastes the mail's link into the same tab: only the address's hash changes.
  const link = (await waitForMail(outbox(), email)).link!;
  await page.goto(link);
  const form = page.locator('form', { has: page.getByRole('heading', { name: TEXTS.en.signupTitle }) });
  await expect(form).toBeVisible();
  await expect(sent).toHaveCount(0);
  await expect(page.locator('.dialog-overlay')).toHaveCount(0);
  // The link's page is in front and usable: its button has the focus and creates the account.
  await expect(form.getByRole('button', { name: TEXTS.en.signupButton })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: TEXTS.en.setPassword })).toBeVisible();
  expect((await currentUser(page.request))?.email).toBe(email);
  expect(problems).toEqual([]);
});
