// The administrator's notifications end to end (application-spec §2, §4, §5, §6): on a server
// with ADMIN_EMAILS, the administrator creates a notification in en and ja on
// /admin/notifications that volunteers then see at login in their own language, read on OK; an
// HTML body carrying a <script> and an onerror attribute runs nothing; the 'en' title alert;
// delete after 'delete?'; a volunteer sees 'You must be logged in to view this page.'. Each
// screen and dialog is scanned by axe-core and kept as a screenshot in both languages.
import { expect, test, type Page } from '@playwright/test';
import {
  ADMIN_EMAIL,
  readyVolunteerOn,
  startConfiguredServer,
  type ConfiguredServer,
} from '../helpers/configured-server';
import { expectNoSeriousViolations } from './axe';
import { untranslated } from './untranslated';

let server: ConfiguredServer;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startConfiguredServer('f2-admin');
});
test.afterAll(async () => {
  await server?.stop();
});

/**
 * Logs in over HTTP, so that the browser opens the admin page directly: the main screen, with its
 * own dialogs and the administrator's unread notifications, is not visited.
 */
async function logIn(page: Page, email: string, password = 'correct horse battery') {
  expect((await page.request.post(`${server.url}/api/session`, { data: { email, password } })).ok()).toBe(true);
}

test.describe.configure({ mode: 'serial' });

test('the administrator creates a notification in en and ja; volunteers see it at login in their language', async ({
  page,
  browser,
}) => {
  test.setTimeout(360_000);
  await readyVolunteerOn(server, page.request, { email: ADMIN_EMAIL });
  await page.goto(`${server.url}/#/admin/notifications`);
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  // The administrators' menu is a drop-down in the page's header, closed until its button opens it.
  const menuButton = page.locator('.admin-header summary', { hasText: 'Admin menu' });
  await expect(menuButton).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Administrator menu' })).toBeHidden();
  await menuButton.click();
  await expect(page.getByRole('navigation', { name: 'Administrator menu' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Add notification' })).toHaveCount(2);
  await expectNoSeriousViolations(page, 'admin notifications');
  await page.screenshot({ path: 'test-results/screenshots/admin-notifications-en.png' });

  await page.getByRole('button', { name: 'Add notification' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New notification' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Title (en)' }).fill('Welcome aboard');
  await dialog.getByRole('textbox', { name: 'Body (en)' }).fill('The captain greets the crew.');
  await dialog.getByRole('group', { name: 'Title' }).getByRole('button', { name: 'Add a language' }).click();
  await dialog.getByRole('textbox', { name: 'Title (ja)' }).fill('ようこそ');
  await dialog.getByRole('group', { name: 'Body' }).getByRole('button', { name: 'Add a language' }).click();
  await dialog.getByRole('textbox', { name: 'Body (ja)' }).fill('船長から乗組員へのあいさつです。');
  await expect(dialog.getByRole('textbox', { name: 'Body (ja)' })).toHaveAttribute('rows', '4');
  await expect(dialog.getByTestId('preview-ja')).toContainText('ようこそ');
  await expect(dialog.getByTestId('preview-en')).toContainText('The captain greets the crew.');
  await expectNoSeriousViolations(page, 'edit dialog');
  await page.screenshot({ path: 'test-results/screenshots/admin-edit-dialog-en.png' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: 'en:Welcome aboard' });
  await expect(row).toContainText('ja:ようこそ');
  await expect(row).toContainText('Captain message');

  // Volunteers in each language log in and meet it once, in their language.
  for (const [locale, title, body] of [
    ['ja', 'ようこそ', '船長から乗組員へのあいさつです。'],
    ['en', 'Welcome aboard', 'The captain greets the crew.'],
  ] as const) {
    const context = await browser.newContext();
    const volunteer = await context.newPage();
    const email = `volunteer-${locale}-${Date.now()}@example.org`;
    await readyVolunteerOn(server, volunteer.request, { email, locale });
    await volunteer.goto(`${server.url}/#/`);
    // The page, the session and then the list load first: a slow start on a busy machine.
    const message = volunteer.getByRole('dialog', { name: title });
    await expect(message).toBeVisible();
    await expect(message).toContainText(body);
    await expectNoSeriousViolations(volunteer, `notification dialog ${locale}`);
    await volunteer.screenshot({ path: `test-results/screenshots/notification-at-login-${locale}.png` });
    // OK reads it (the cruise screen may stack its own dialog in front: click, not Enter).
    await message.getByRole('button', { name: 'OK' }).click();
    await expect(message).toBeHidden();
    const unread = await (await volunteer.request.get(`${server.url}/api/notifications`)).json();
    expect(unread).toEqual([]);
    // Once the list has been asked for again, no dialog comes back. The wait starts before the
    // reload: the list may be answered before the reload's own promise resolves.
    const asked = volunteer.waitForResponse((response) => response.url().endsWith('/api/notifications'));
    await volunteer.reload();
    await asked;
    await volunteer.waitForTimeout(1000);
    await expect(volunteer.getByRole('dialog', { name: title })).toHaveCount(0);
    await context.close();
  }
});

test('an HTML notification carrying <script> and onerror runs nothing in a volunteer page', async ({
  page,
  browser,
}) => {
  await logIn(page, ADMIN_EMAIL);
  await page.goto(`${server.url}/#/admin/notifications`);
  await page.getByRole('button', { name: 'Add notification' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'New notification' });
  await dialog.getByRole('textbox', { name: 'Title (en)' }).fill('HTML test');
  await dialog.getByRole('textbox', { name: 'Body (en)' }).fill(
    '<p id="html-body">Bold <b>text</b></p><script>window.__ran = "script"</script><img src="x" onerror="window.__ran = \'onerror\'">' +
      // Issue 32: no forms, no styles, no images of other origins (inline data: images stay).
      '<form action="https://probe.example/"><input name="password"><button>Log in</button></form>' +
      '<style>body { display: none }</style><p style="position: fixed">styled</p>' +
      '<img id="external" src="https://probe.example/pixel.png"><img id="inline" src="data:image/png;base64,iVBORw0KGgo=">',
  );
  await dialog.getByRole('checkbox', { name: 'Display the body as HTML' }).check();
  await expect(dialog.getByTestId('preview-en').locator('b')).toHaveText('text');
  expect(await page.evaluate(() => (window as unknown as { __ran?: string }).__ran)).toBeUndefined();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  const context = await browser.newContext();
  const volunteer = await context.newPage();
  await readyVolunteerOn(server, volunteer.request, { email: `html-${Date.now()}@example.org` });
  await volunteer.goto(`${server.url}/#/`);
  const message = volunteer.getByRole('dialog', { name: 'HTML test' });
  // Unread notifications open oldest first, one by one: the first test's comes before this one.
  const earlier = volunteer.getByRole('dialog', { name: 'Welcome aboard' });
  await expect(earlier.or(message).first()).toBeVisible();
  if (await earlier.isVisible()) await earlier.getByRole('button', { name: 'OK' }).click();
  await expect(message).toBeVisible();
  await expect(message.locator('#html-body b')).toHaveText('text');
  await expect(message.locator('img')).toHaveCount(2);
  await expect(message.locator('img').first()).not.toHaveAttribute('onerror');
  await expect(message.locator('#inline')).toHaveCount(1);
  await expect(message.locator('#external')).toHaveCount(0);
  await expect(
    message.locator('.notification-body').locator('script, form, input, button, style, [style]'),
  ).toHaveCount(0);
  await volunteer.waitForTimeout(300);
  expect(await volunteer.evaluate(() => (window as unknown as { __ran?: string }).__ran)).toBeUndefined();
  await context.close();
});

test("the 'en' title alert, delete after 'delete?', and the page closed to volunteers", async ({ page, browser }) => {
  await logIn(page, ADMIN_EMAIL);
  await page.goto(`${server.url}/#/admin/notifications`);
  await page.getByRole('button', { name: 'Add notification' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New notification' });
  await dialog.getByRole('combobox', { name: 'Title: Language' }).selectOption('ja');
  await dialog.getByRole('textbox', { name: 'Title (ja)' }).fill('日本語だけ');
  await dialog.getByRole('checkbox', { name: 'Fall back to English' }).check();
  await expect(dialog.getByTestId('preview-en')).toContainText('Not shown to users of this language');
  await dialog.getByRole('button', { name: 'Save' }).click();
  const alert = page.getByRole('dialog', { name: 'Cannot save' });
  await expect(alert).toContainText("With fall back to English on, the title needs an 'en' entry.");
  await page.keyboard.press('Enter');
  await expect(alert).toBeHidden();
  // Valid from and until, then cleared by their buttons.
  await dialog.getByRole('textbox', { name: 'Valid from' }).fill('2030-01-02T03:04');
  await dialog.getByRole('button', { name: 'Clear Valid from' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Valid from' })).toHaveValue('');
  await dialog.getByRole('checkbox', { name: 'Fall back to English' }).uncheck();
  // The special notification replaces the body after confirmation.
  await dialog.getByRole('button', { name: 'Special notification' }).click();
  const sure = page.getByRole('alertdialog', { name: 'Special notification' });
  await expectNoSeriousViolations(page, 'special confirmation');
  await sure.getByRole('button', { name: 'OK' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Body (en)' })).toHaveValue(
    '[[custom-component:Present2025Winter]]',
  );
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: 'ja:日本語だけ' });
  await expect(row).toBeVisible();

  // Keyboard only: focus the row's delete button, Enter, then the confirmation's buttons.
  await row.getByRole('button', { name: /^Delete/ }).focus();
  await page.keyboard.press('Enter');
  const confirmDelete = page.getByRole('alertdialog', { name: 'delete?' });
  await expect(confirmDelete).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirmDelete).toBeHidden();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /^Delete/ }).click();
  await expect(confirmDelete).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(row).toBeHidden();

  // Japanese: no English left on the page.
  await page.keyboard.press('Shift+J');
  await expect(page.getByRole('heading', { name: 'お知らせ' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/admin-notifications-ja.png' });
  await expectNoSeriousViolations(page, 'admin notifications (ja)');
  expect(await untranslated(page), 'admin notifications (ja)').toEqual([]);
  await page.getByRole('button', { name: 'お知らせを追加' }).first().click();
  await expect(page.getByRole('dialog', { name: '新しいお知らせ' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/admin-edit-dialog-ja.png' });
  await expectNoSeriousViolations(page, 'edit dialog (ja)');
  expect(await untranslated(page), 'edit dialog (ja)').toEqual([]);
  await page.getByRole('button', { name: 'キャンセル' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.keyboard.press('Shift+E');
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();

  const context = await browser.newContext();
  const volunteer = await context.newPage();
  await readyVolunteerOn(server, volunteer.request, { email: `plain-${Date.now()}@example.org` });
  await volunteer.goto(`${server.url}/#/admin/notifications`);
  await expect(volunteer.getByText('You must be logged in to view this page.')).toBeVisible();
  await expect(volunteer.getByRole('navigation', { name: 'Administrator menu' })).toHaveCount(0);
  await context.close();
});
