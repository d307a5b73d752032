// The questionnaire's error tooltips on screen (application-spec §5, §9; issue 33 item 5): after
// a submit with nothing answered, each field's error sits inside its own field and over no other,
// and stays there while the dialog scrolls and while a field appears above it (an 'other' text);
// in English at 1280×800 and in Japanese on a phone's width. Debian's Chromium against the real
// server.
import { expect, test } from '@playwright/test';
import { freshEmail, signUpThroughMail } from '../helpers/volunteers';
import { expectNoSeriousViolations } from './axe';
import { expectTooltipsAtTheirFields } from './on-screen';

for (const [locale, viewport, texts] of [
  ['en', { width: 1280, height: 800 }, { title: 'Welcome aboard', submit: 'Start the cruise', other: 'Other' }],
  ['ja', { width: 390, height: 740 }, { title: 'ようこそ', submit: 'クルーズを始める', other: 'その他' }],
] as const) {
  test(`the questionnaire's errors sit at their fields and move with them (${locale}, ${viewport.width}×${viewport.height})`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    // Through the gate's first two dialogs over HTTP: the questionnaire is what the page asks.
    await signUpThroughMail(page.request, freshEmail('tooltips'), locale);
    expect((await page.request.put('/api/signup/password', { data: { password: 'a long passphrase' } })).ok()).toBe(
      true,
    );
    expect((await page.request.put('/api/current_user', { data: { nickname: `t${Date.now()}`, locale } })).ok()).toBe(
      true,
    );
    await page.goto('/#/');
    const questionnaire = page.getByRole('dialog', { name: texts.title });
    await questionnaire.getByRole('button', { name: texts.submit }).click();
    const body = questionnaire.locator('.dialog-body');
    expect(await expectTooltipsAtTheirFields(questionnaire, body)).toBe(7);
    await page.screenshot({ path: test.info().outputPath(`questionnaire-errors-${locale}.png`) });
    await expectNoSeriousViolations(page, `questionnaire errors (${locale})`);

    // 'Other' opens a text field inside the group, above the next group and its error.
    await questionnaire.getByRole('radio', { name: texts.other, exact: true }).check();
    await expect(questionnaire.getByRole('textbox')).toHaveCount(2);
    expect(await expectTooltipsAtTheirFields(questionnaire, body)).toBe(7);
    await body.evaluate((element) => (element.scrollTop = element.scrollHeight));
    await page.screenshot({ path: test.info().outputPath(`questionnaire-errors-scrolled-${locale}.png`) });
  });
}
