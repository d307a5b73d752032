// Accounts end to end: Debian's Chromium against the real server (`npm start`), the sign-up
// mail read from the server's outbox (SMTP_URL unset) and its link followed as a volunteer would.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_VAR_DIR } from '../helpers/e2e-server';
import { waitForMail } from '../helpers/outbox';

test.describe('accounts', () => {
  test('the sign-up link logs the volunteer in, and the password set afterwards logs in from the login screen', async ({
    page,
  }) => {
    const email = `e2e-${Date.now()}@example.org`;
    const password = 'a long enough passphrase';
    const signup = await page.request.post('/api/signup/verify_email', { data: { email, locale: 'en' } });
    expect(signup.status()).toBe(204);
    const mail = await waitForMail(path.join(E2E_VAR_DIR, 'outbox'), email);
    expect(mail.link).toBeDefined();

    // Following the link logs in: the access gate lets the main screen through.
    await page.goto(mail.link!);
    await expect(page).not.toHaveURL(/#\/login/);
    await expect(page.getByText('Preparing your cruise')).toBeVisible();
    const session = await (await page.request.get('/api/session')).json();
    expect(session.current_user).toMatchObject({ email, password_is_set: false });

    // The gate would now ask for a password (password_is_set false): set it in this session.
    const set = await page.request.put('/api/signup/password', { data: { password } });
    expect(set.ok()).toBe(true);
    // The link is single use, and the address is now registered.
    expect((await page.request.get(mail.link!, { maxRedirects: 0 })).status()).toBe(410);
    const again = await page.request.post('/api/signup/verify_email', { data: { email, locale: 'en' } });
    expect(again.status()).toBe(409);

    // Logged out, the gate sends the volunteer to the login screen; a wrong password is refused.
    expect((await page.request.delete('/api/session')).ok()).toBe(true);
    await page.goto('/');
    await expect(page).toHaveURL(/#\/login$/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('not the passphrase');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('E-mail or password is incorrect.');

    // The right one logs in and sends a volunteer who has not answered yet to the training course.
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/#\/\?course=training$/);
    await expect(page.getByText('Preparing your cruise')).toBeVisible();
  });
});
