// An area finished offline (application-spec §4: the area's completion follows its answers): the
// network drops before the area's last galaxy is answered, so its answer waits in the queue. The
// main screen says why it waits and what comes next (the answers kept on this device, sent by
// themselves when the connection is back, then the next area) instead of a greyed "Next galaxy"
// alone; once online the answer goes, the area completes and the next one opens. Screenshots and
// axe-core, English and Japanese; Debian's Chromium against the real server.
import { expect, test, type Page } from '@playwright/test';
import { cruise } from '../../src/app/features/cruise/strings';
import { readyVolunteer } from '../helpers/volunteers';
import { expectNoSeriousViolations } from './axe';
import { expectNotCovered } from './on-screen';

const FRONT_DIALOG = '.dialog-overlay:not([data-behind]):not([data-closing])';

/**
 * Answers the galaxy on screen with 1, 2 (spiral, not interacting) once the form is ready, OKing
 * any dialog first, and waits until the answer is taken: the form on another galaxy, or gone (the
 * area's end). A message that an earlier answer earned (a medal, a piece) may open over the form
 * between its keys and take them: the keys it took are pressed again once it is OKed.
 */
async function answerShown(page: Page) {
  const target = page.getByTestId('cruise-target');
  const form = page.getByTestId('answer-form');
  const ready = page.locator('[data-testid="answer-form"][data-ready]');
  const front = page.locator(FRONT_DIALOG).getByRole('dialog');
  let shown: string | null = null;
  let pressedAt = 0;
  for (const until = Date.now() + 90_000; ; await page.waitForTimeout(50)) {
    expect(Date.now(), 'the answer form, ready, to take the answer').toBeLessThan(until);
    if ((await front.count()) > 0) {
      await front.getByRole('button', { name: 'OK' }).click();
      continue;
    }
    const now = (await target.count()) > 0 ? await target.innerText() : null;
    if (shown !== null && (now !== shown || (await form.count()) === 0)) return;
    if (!(await ready.isVisible()) || Date.now() - pressedAt < 1_000) continue;
    const step = await ready.getAttribute('data-step');
    shown = now;
    pressedAt = Date.now();
    if (step === '1') await page.keyboard.press('1');
    if (step === '1' || step === '2') await page.keyboard.press('2');
  }
}

for (const locale of ['en', 'ja'] as const) {
  test(`an area finished offline says why it waits and what comes next (${locale})`, async ({ page, context }) => {
    test.setTimeout(180_000);
    const texts = cruise[locale];
    await readyVolunteer(page.request, { locale });
    await page.goto('/#/?course=season2');
    const target = page.getByTestId('cruise-target');
    await expect(target).toBeVisible({ timeout: 90_000 });
    const count = Number(/\d+\D+(\d+)/.exec(await target.innerText())![1]);

    // All but the area's last galaxy online; the last offline.
    for (let answered = 0; answered < count - 1; answered++) await answerShown(page);
    await expect(page.getByTestId('pending-answers')).toHaveText('', { timeout: 30_000 });
    await context.setOffline(true);
    await answerShown(page);

    const waiting = page.getByTestId('area-waiting');
    await expect(waiting).toBeVisible();
    await expect(waiting).toHaveAttribute('data-state', 'offline');
    await expect(waiting.getByRole('heading')).toHaveText(texts.areaWaiting.offline.title);
    // One answer waits (Japanese has one plural form, the count written out).
    await expect(waiting.getByRole('paragraph')).toHaveText(
      locale === 'en'
        ? texts.areaWaiting.offline.message_one
        : texts.areaWaiting.offline.message_other.replace('{{count}}', '1'),
    );
    await expect(page.getByTestId('answer-form')).toHaveCount(0);
    await expect(page.getByRole('button', { name: texts.nextGalaxy })).toBeDisabled();
    await expectNotCovered(waiting.getByRole('button', { name: texts.areaWaiting.retry }));
    await page.screenshot({ path: test.info().outputPath(`area-offline-${locale}.png`) });
    await expectNoSeriousViolations(page, `area waiting offline (${locale})`);
    // "Send now" while still offline: it tries, and the panel stays, saying the same.
    await waiting.getByRole('button', { name: texts.areaWaiting.retry }).click();
    await expect(waiting).toHaveAttribute('data-state', 'offline');

    // Online again: the answer goes by itself, the area completes (its messages), the next opens.
    await context.setOffline(false);
    await expect(page.getByTestId('pending-answers')).toHaveText('', { timeout: 30_000 });
    await expect(waiting).toHaveCount(0, { timeout: 30_000 });
    const front = page.locator(FRONT_DIALOG).getByRole('dialog');
    await expect(front).toHaveCount(1, { timeout: 30_000 });
    for (let dialogs = 0; (await front.count()) > 0 || dialogs === 0; dialogs++) {
      expect(dialogs).toBeLessThan(10);
      if ((await front.count()) > 0) await front.getByRole('button', { name: 'OK' }).click();
      await page.waitForTimeout(600);
    }
    await expect(page.locator('[data-testid="answer-form"][data-ready]')).toBeVisible({ timeout: 90_000 });
    await expect(target).toContainText(locale === 'en' ? `Galaxy 1 of` : '銀河 1 /');
  });
}
