// The login screen and password reset end to end (application-spec §2, §4, §5, §8): Debian's
// Chromium against the real server (`npm start`), the reset mail read from its outbox.
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { waitForMail } from '../helpers/outbox';
import { freshEmail, outbox, readyVolunteer } from '../helpers/volunteers';

test.describe('login screen', () => {
  test('a visitor with no session is sent to the login screen, drawn over a WebGL globe', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/');
    await expect(page).toHaveURL(/#\/login$/);
    await expect(page.getByRole('heading', { name: 'Galaxy Cruise' })).toBeVisible();
    await expect(page.getByLabel('E-mail')).toBeVisible();
    await expect(page.getByLabel('Password')).toBeVisible();
    // Every part of §2's login screen.
    await expect(page.getByText('Sail the sky and classify galaxies')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Forgot your password?' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign up for free' })).toBeVisible();
    await expect(page.getByText('Accounts of season 1 (ended April 25, 2022) keep working')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Contact form' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Credits' })).toBeVisible();
    await expect(page.getByLabel('Language')).toBeVisible();

    const canvas = page.getByTestId('globe-canvas');
    await expect(canvas).toBeVisible();
    // The grid and the stars are drawn with WebGL: a screenshot of the canvas (what a person
    // sees) must hold more than one colour. The PNG is decoded by the browser's own decoder.
    await expect
      .poll(async () => {
        const png = (await canvas.screenshot()).toString('base64');
        return page.evaluate(async (data) => {
          const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
          const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
          context.drawImage(bitmap, 0, 0);
          const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
          const seen = new Set<number>();
          for (let i = 0; i < pixels.length; i += 4) seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
          return seen.size;
        }, png);
      })
      .toBeGreaterThan(10);
    expect(errors).toEqual([]);
  });

  test('the idle camera tour moves the sky, and stands still for a reduced-motion visitor', async ({ browser }) => {
    const fov = async (reducedMotion: 'reduce' | 'no-preference') => {
      const context = await browser.newContext({ reducedMotion });
      const page = await context.newPage();
      await page.goto('/#/login');
      const indicator = page.getByTestId('camera-indicator');
      await expect(indicator).toBeVisible();
      // Let the start settle (the globe appears, the tour sets its first pose), then watch.
      await page.waitForTimeout(1500);
      const first = await indicator.innerText();
      await page.waitForTimeout(1500);
      const second = await indicator.innerText();
      await context.close();
      return first !== second;
    };
    expect(await fov('no-preference')).toBe(true);
    expect(await fov('reduce')).toBe(false);
  });

  test('the tour pauses from the click on Log in and goes on when the login fails', async ({ page }) => {
    await page.goto('/#/login');
    const indicator = page.getByTestId('camera-indicator');
    await expect(indicator).toBeVisible();
    await page.waitForTimeout(1500);
    // The login request is held until the test lets it go on.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/session', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await held;
      await route.continue();
    });
    await page.getByLabel('E-mail').fill('nobody@example.org');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeDisabled();
    const paused = await indicator.innerText();
    await page.waitForTimeout(1500);
    expect(await indicator.innerText()).toBe(paused);
    release();
    await expect(page.getByText('E-mail or password is incorrect.')).toBeVisible();
    await expect.poll(() => indicator.innerText(), { timeout: 10_000 }).not.toBe(paused);
  });

  test('the language switch shows the login screen in Japanese, with the date in Japanese', async ({ page }) => {
    await page.goto('/#/login');
    await page.getByLabel('Language').selectOption('ja');
    await expect(page.getByLabel('メールアドレス')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByText('シーズン1（2022年4月25日終了）')).toBeVisible();
    // The choice is kept for the next visit.
    await page.reload();
    await expect(page.getByRole('link', { name: '無料で新規登録' })).toBeVisible();
    await page.getByLabel('言語').selectOption('en');
    await expect(page.getByLabel('E-mail')).toBeVisible();
  });
});

test('password reset: the modal goes back on a backdrop click, the loose pattern sends nothing, the mailed link leads to a new password', async ({
  page,
  baseURL,
}) => {
  // A long journey over three screens and a mail: on a busy machine it needs more than three minutes.
  test.setTimeout(360_000);
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.dismiss();
  });
  const context = await playwrightRequest.newContext({ baseURL });
  const { email } = await readyVolunteer(context, { email: freshEmail('reset') });
  await context.dispose();

  await page.goto('/#/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  const modal = page.getByRole('dialog', { name: 'Reset your password' });
  await expect(modal).toBeVisible();
  await expect(page).toHaveURL(/#\/password_reset$/);
  // The backdrop goes back to where the visitor was.
  await page.getByTestId('dialog-backdrop').click({ position: { x: 5, y: 5 } });
  await expect(page).toHaveURL(/#\/login$/);
  await expect(modal).toBeHidden();

  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(modal).toBeVisible();
  let sent = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/password_reset/verify_email')) sent++;
  });
  await modal.getByLabel('E-mail').fill('nobody-at-example.org');
  await modal.getByRole('button', { name: 'Send verification mail' }).click();
  await expect(modal.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
  expect(sent).toBe(0);
  await modal.getByLabel('E-mail').fill(email);
  await modal.getByRole('button', { name: 'Send verification mail' }).click();
  await expect(page.getByRole('dialog', { name: 'Verification mail sent' })).toBeVisible();
  expect(sent).toBe(1);

  // The link's page and its button log the volunteer in with the password cleared: the gate
  // asks for a new one. The second mail to this address: the first was its sign-up mail.
  const mail = await waitForMail(outbox(), email, { count: 2 });
  await page.goto(mail.link!);
  await page.getByRole('button', { name: 'Choose a new password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set your password' });
  await expect(dialog).toBeVisible();
  const password = 'a brand new passphrase';
  await dialog.getByLabel('New password').fill(password);
  await dialog.getByLabel('Password again').fill(password);
  await dialog.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByTestId('course-select')).toBeVisible();

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('course-select')).toBeVisible();
  expect(alerts).toEqual([]);
});
