// A new volunteer's first course (application-spec §2 "On login the user is sent to a recommended
// course", §4 Login): signed up through the mail link in the browser, past the gate's three
// dialogs, the main screen opens the recommended course, training, not season 2; and again after
// a later login. On the way, the mail link's page opened cold: no warning of a missing
// HydrateFallback, and its look-up (POST /api/signup/link) is asked once and never aborted.
// English and Japanese; Debian's Chromium against the real server.
import { expect, test, type Page } from '@playwright/test';
import { common } from '../../src/app/i18n/common';
import { gate } from '../../src/app/features/gate/strings';
import { home } from '../../src/app/features/home/strings';
import { login } from '../../src/app/features/login/strings';
import { mailLinks } from '../../src/app/features/mail-links/strings';
import { freshEmail, outbox } from '../helpers/volunteers';
import { waitForMail } from '../helpers/outbox';
import { expectNoSeriousViolations } from './axe';

/** The main screen's course, as the volunteer reads it in the header's course menu. */
async function expectCourse(page: Page, name: string) {
  const select = page.getByTestId('course-select');
  await expect(select).toBeVisible({ timeout: 60_000 });
  await expect(select).toHaveValue('training');
  expect(await select.evaluate((element) => (element as HTMLSelectElement).selectedOptions[0]?.text)).toBe(name);
  await expect(page).toHaveURL(/#\/\?course=training\b/);
}

for (const locale of ['en', 'ja'] as const) {
  test(`a new volunteer's first main screen is the recommended course, training, after the gate and after a later login (${locale})`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const texts = {
      gate: gate[locale],
      links: mailLinks[locale].signup,
      login: login[locale],
      common: common[locale],
      training: home[locale].courses.training,
    };
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${request.method()} ${new URL(request.url()).pathname}`));
    const lookUps: string[] = [];
    const season2Quests: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path === '/api/signup/link') lookUps.push(request.method());
      if (path.startsWith('/api/courses/season2/')) season2Quests.push(path);
    });

    // The sign-up mail asked for in the volunteer's language; its link opened cold.
    const email = freshEmail(`first-${locale}`);
    expect((await page.request.post('/api/signup/verify_email', { data: { email, locale } })).status()).toBe(204);
    const mail = await waitForMail(outbox(), email);
    await page.goto(mail.link!);
    await page.getByRole('button', { name: texts.links.button }).click();

    // The gate: password, nickname, questionnaire.
    const password = 'a long enough passphrase';
    const passwordDialog = page.getByRole('dialog', { name: texts.gate.password.title });
    await passwordDialog.getByLabel(texts.gate.password.new).fill(password);
    await passwordDialog.getByLabel(texts.gate.password.again).fill(password);
    await passwordDialog.getByRole('button', { name: texts.gate.password.save }).click();
    const nicknameDialog = page.getByRole('dialog', { name: texts.gate.nickname.title });
    await nicknameDialog.getByLabel(texts.gate.nickname.label).fill(`first${Date.now()}`);
    await nicknameDialog.getByRole('button', { name: texts.gate.nickname.save }).click();
    const questionnaire = page.getByRole('dialog', { name: texts.gate.questionnaire.title });
    const q = texts.gate.questionnaire;
    await questionnaire.getByLabel(q.birthYear).fill('1990');
    await questionnaire.getByLabel(q.country).selectOption('392');
    await questionnaire.getByRole('radio', { name: q.genders.other }).check();
    await questionnaire.getByRole('radio', { name: q.relations['2'] }).check();
    await questionnaire.getByRole('radio', { name: q.timesSpent['2'] }).check();
    await questionnaire.getByRole('radio', { name: q.waysToKnow.search }).check();
    await questionnaire.getByRole('checkbox', { name: q.reasonChoices.science }).check();
    await questionnaire.getByRole('button', { name: q.submit }).click();
    await expect(questionnaire).toHaveCount(0);

    // The mail link's page, behind: its look-up asked once, nothing of it aborted, no warning.
    expect.soft(lookUps).toEqual(['POST']);
    expect.soft(failed.filter((request) => request.includes('/api/signup/'))).toEqual([]);
    expect.soft(warnings.filter((text) => /HydrateFallback/.test(text))).toEqual([]);

    // The first main screen: training, the course the server recommends to a volunteer with no
    // answer yet. Season 2 (the default course) was never opened, so no quest was made there.
    await expectCourse(page, texts.training);
    await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 90_000 });
    await page.screenshot({ path: test.info().outputPath(`first-course-${locale}.png`) });
    await expectNoSeriousViolations(page, `first main screen (${locale})`);
    expect(season2Quests).toEqual([]);

    // A later login: training again.
    await page.getByRole('button', { name: texts.common.logout }).click();
    await page.getByLabel(texts.login.email).fill(email);
    await page.getByLabel(texts.login.password).fill(password);
    await page.getByRole('button', { name: texts.login.submit }).click();
    await expectCourse(page, texts.training);
    expect(season2Quests).toEqual([]);
    expect(failed.filter((request) => request.includes('/api/signup/'))).toEqual([]);
    expect(warnings.filter((text) => /HydrateFallback/.test(text))).toEqual([]);
  });
}
