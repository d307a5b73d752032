// The access gate end to end (application-spec §2, §4, §5, §8): a visitor signs up on /signup,
// follows the link from the mail outbox and meets the forced set-password, nickname and
// questionnaire dialogs in turn, each validation error once; then logs out, fails a login and
// logs in to the recommended course. Debian's Chromium against the real server.
import { expect, request as playwrightRequest, test, type Locator, type Page } from '@playwright/test';
import { waitForMail } from '../helpers/outbox';
import { freshEmail, outbox, signUpThroughMail } from '../helpers/volunteers';

/** Requests to `path` the page sends from now on. */
function countRequests(page: Page, path: string, method?: string): { count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith(path) && (!method || request.method() === method)) seen.count++;
  });
  return seen;
}

/** The §5 tooltip of a field: react-aria's tooltip, found by the field's aria-describedby. */
async function tooltipOf(field: Locator): Promise<string> {
  const ids = (await field.getAttribute('aria-describedby'))?.split(' ') ?? [];
  const id = ids.find((candidate) => candidate.endsWith('-error'));
  if (!id) return '';
  return (await field.page().locator(`[id="${id}"]`).innerText()).trim();
}

/** Counts the 200 ms shakes (an element gaining the 'shake' class) in every page. */
async function watchShakes(page: Page) {
  await page.addInitScript(() => {
    const counter = window as unknown as { shakes: number };
    counter.shakes = 0;
    new MutationObserver((records) => {
      for (const record of records)
        if ((record.target as Element).classList.contains('shake') && !/\bshake\b/.test(record.oldValue ?? ''))
          counter.shakes++;
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'], attributeOldValue: true });
  });
}

/** Runs `action` and expects it to shake something. */
async function expectShake(page: Page, action: () => Promise<void>) {
  const shakes = () => page.evaluate(() => (window as unknown as { shakes: number }).shakes);
  // A shake that starts while the last one's 200 ms still run adds no 'shake' class of its own:
  // the last one ends first.
  await expect(page.locator('.shake')).toHaveCount(0);
  const before = await shakes();
  await action();
  await expect.poll(shakes).toBeGreaterThan(before);
}

test('sign up, pass the three gate dialogs meeting each validation error, log out, fail a login, log in', async ({
  page,
  baseURL,
}) => {
  // A long journey of some forty steps, each waiting on a page that draws the globe: on a busy
  // machine it needs more than the default three minutes.
  test.setTimeout(360_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.dismiss();
  });
  const email = freshEmail('gate');
  await watchShakes(page);

  // /signup: the loose e-mail pattern shakes the form and sends nothing.
  await page.goto('/#/signup');
  const address = page.getByLabel('E-mail');
  await expect(address).toHaveAttribute('size', '36');
  await expect(page.getByLabel('Language')).toBeVisible();
  const verify = countRequests(page, '/api/signup/verify_email');
  await address.fill('no-at-sign.example.org');
  await expectShake(page, () => page.getByRole('button', { name: 'Send verification mail' }).click());
  expect(await tooltipOf(address)).toBe('Invalid Format');
  expect(verify.count).toBe(0);

  // A good address: the verification-sent dialog, whose back button returns to /.
  await address.fill(email);
  await page.getByRole('button', { name: 'Send verification mail' }).click();
  const sent = page.getByRole('dialog', { name: 'Verification mail sent' });
  await expect(sent).toBeVisible();
  expect(verify.count).toBe(1);
  await sent.getByRole('button', { name: 'Back' }).click();
  await expect(sent).toBeHidden();
  await expect(page).toHaveURL(/#\/login$/);

  // The link from the mail opens a page whose button logs the new volunteer in; the gate asks
  // for a password first.
  const mail = await waitForMail(outbox(), email);
  await page.goto(mail.link!);
  await page.getByRole('button', { name: 'Create my account' }).click();
  const passwordDialog = page.getByRole('dialog', { name: 'Set your password' });
  await expect(passwordDialog).toBeVisible();

  // Undismissable: a backdrop click shakes it and Escape leaves it open.
  await expectShake(page, () => page.getByTestId('dialog-backdrop').click({ position: { x: 5, y: 5 } }));
  await page.keyboard.press('Escape');
  await expect(passwordDialog).toBeVisible();

  const passwordPut = countRequests(page, '/api/signup/password', 'PUT');
  const newPassword = passwordDialog.getByLabel('New password');
  const again = passwordDialog.getByLabel('Password again');
  await expectShake(page, () => passwordDialog.getByRole('button', { name: 'Set password' }).click());
  expect(await tooltipOf(newPassword)).toBe('Cannot be blank');
  expect(await tooltipOf(again)).toBe('Cannot be blank');
  await newPassword.fill('short');
  expect(await tooltipOf(newPassword)).toBe('must be at least 8 characters');
  await newPassword.fill('x'.repeat(129));
  expect(await tooltipOf(newPassword)).toBe('is too long (maximum is 128 characters)');
  const password = 'a long enough passphrase';
  await newPassword.fill(password);
  await again.fill('a different passphrase');
  expect(await tooltipOf(again)).toBe('does not match');
  await passwordDialog.getByRole('button', { name: 'Set password' }).click();
  expect(passwordPut.count).toBe(0);
  await again.fill(password);
  await again.press('Enter');
  await expect(passwordDialog).toBeHidden();
  expect(passwordPut.count).toBe(1);

  // The nickname dialog: blank, then a name another volunteer holds, looked up live.
  const other = await playwrightRequest.newContext({ baseURL });
  await signUpThroughMail(other, freshEmail('holder'));
  expect((await other.put('/api/current_user', { data: { nickname: 'Andromeda' } })).ok()).toBe(true);
  await other.dispose();

  const nicknameDialog = page.getByRole('dialog', { name: 'Choose your nickname' });
  await expect(nicknameDialog).toBeVisible();
  const nickname = nicknameDialog.getByLabel('Nickname');
  const nicknamePut = countRequests(page, '/api/current_user', 'PUT');
  await expectShake(page, () => nicknameDialog.getByRole('button', { name: 'Save nickname' }).click());
  expect(await tooltipOf(nickname)).toBe('Cannot be blank');

  // The look-up of a text is cancelled when the text changes: hold the answers back a while.
  const aborted: string[] = [];
  page.on('requestfailed', (request) => {
    if (request.url().includes('/api/nicknames/')) aborted.push(decodeURIComponent(request.url().split('/').pop()!));
  });
  await page.route('**/api/nicknames/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue().catch(() => {});
  });
  await nickname.pressSequentially('Androm', { delay: 30 });
  await nickname.pressSequentially('eda', { delay: 30 });
  await expect.poll(() => tooltipOf(nickname)).toBe('The nickname has already been taken');
  expect(aborted).toContain('Androm');
  await page.unroute('**/api/nicknames/**');
  await expectShake(page, () => nicknameDialog.getByRole('button', { name: 'Save nickname' }).click());
  expect(nicknamePut.count).toBe(0);

  await nickname.fill('Sombrero');
  await expect(nicknameDialog.getByTestId('nickname-status')).toHaveText('This nickname is available');
  await nicknameDialog.getByRole('button', { name: 'Save nickname' }).click();
  await expect(nicknameDialog).toBeHidden();
  expect(nicknamePut.count).toBe(1);

  // The questionnaire: every rule of §5 once, shake and no request on error.
  const questionnaire = page.getByRole('dialog', { name: 'Welcome aboard' });
  await expect(questionnaire).toBeVisible();
  const answers = countRequests(page, '/api/current_user/private_information');
  await expectShake(page, () => questionnaire.getByRole('button', { name: 'Start the cruise' }).click());
  expect(answers.count).toBe(0);
  const birthYear = questionnaire.getByLabel('Year of birth');
  const country = questionnaire.getByLabel('Country or region');
  expect(await tooltipOf(birthYear)).toBe('Cannot be blank');
  expect(await tooltipOf(country)).toBe('Cannot be blank');
  for (const legend of [
    'Gender',
    'How are you related to astronomy?',
    'How much time do you spend on astronomy?',
    'How did you learn about this site?',
    'Why are you taking part? (choose all that apply)',
  ])
    expect(await tooltipOf(questionnaire.getByRole('group', { name: legend })), legend).toBe('Cannot be blank');

  await birthYear.fill('19x0');
  expect(await tooltipOf(birthYear)).toBe('Invalid Format\nOnly digits are allowed here');
  await birthYear.fill(' 1987 ');
  expect(await tooltipOf(birthYear)).toBe('');

  // The country table: Japan (392) first, 'other' (-1) last.
  const codes = await country
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  expect(codes[1]).toBe('392');
  expect(codes.at(-1)).toBe('-1');
  expect(codes.length).toBe(2 + 249);
  await country.selectOption({ label: 'Iceland' });
  await questionnaire.getByRole('radio', { name: 'Woman' }).check();
  await questionnaire.getByRole('radio', { name: 'I like it as a hobby' }).check();
  await questionnaire.getByRole('radio', { name: 'A few hours a week' }).check();

  // 'other' needs its text, for the way to know and for the reasons.
  await questionnaire.getByRole('radio', { name: 'Other', exact: true }).check();
  await questionnaire.getByRole('checkbox', { name: 'Other', exact: true }).check();
  await expectShake(page, () => questionnaire.getByRole('button', { name: 'Start the cruise' }).click());
  expect(answers.count).toBe(0);
  const otherTexts = questionnaire.getByLabel('Please tell us more');
  await expect(otherTexts).toHaveCount(2);
  expect(await tooltipOf(otherTexts.nth(0))).toBe('Cannot be blank');
  expect(await tooltipOf(otherTexts.nth(1))).toBe('Cannot be blank');
  await otherTexts.nth(0).fill('a radio programme');
  await otherTexts.nth(1).fill('my daughter asked me to');
  await questionnaire.getByRole('checkbox', { name: 'I want to contribute to research' }).check();
  await questionnaire.getByRole('button', { name: 'Start the cruise' }).click();
  await expect(questionnaire).toBeHidden();
  expect(answers.count).toBe(1);

  // Only now is the page shown.
  await expect(page.getByTestId('course-select')).toBeVisible();
  const session = await (await page.request.get('/api/session')).json();
  expect(session.current_user).toMatchObject({
    email,
    nickname: 'Sombrero',
    password_is_set: true,
    private_information_present: true,
  });

  // The address is now registered: signing up again says so and stays on the form.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  await page.goto('/#/signup');
  // Each screen is a chunk of its own: until it arrives the previous one, with its own e-mail
  // field, is still on screen.
  await expect(page.getByRole('heading', { name: 'Sign up', level: 1 })).toBeVisible();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send verification mail' }).click();
  await expect(page.getByRole('alert')).toHaveText('The email address has been already registered.');
  await expect(page).toHaveURL(/#\/signup$/);

  // Log in: a wrong password first, then the right one opens the recommended course.
  await page.goto('/#/login');
  await expect(page.getByRole('heading', { name: 'Sign up', level: 1 })).toBeHidden();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('not the passphrase');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toHaveText('E-mail or password is incorrect.');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/#\/\?course=training/);
  await expect(page.getByTestId('course-select')).toBeVisible();

  expect(alerts).toEqual([]);
  expect(errors).toEqual([]);
});
