// The cruise end to end (application-spec §2, §4, §9): a new volunteer classifies every galaxy
// of a training area through each answer path (spiral and no interaction; elliptical,
// interacting, with features; not sure twice), meets the captain-note review (retry cancels,
// next continues), the remaining-count flashes and the area-completed flash; the same with the
// keyboard alone; answers given offline and a reload before they are sent, after which every
// answer reaches the server exactly once; axe-core scans and screenshots in both languages and
// at phone width. Debian's Chromium against the real server.
import { expect, test, type Page } from '@playwright/test';
import type { Question } from '../../shared/api';
import { readyVolunteer } from '../helpers/volunteers';
import { recordAcceptedAnswers } from './accepted-answers';
import { expectInSpecOrder } from './area-messages';
import { expectNoSeriousViolations } from './axe';
import { flashes, recordFlashes } from './flashes';
import { change, restingRing } from './marker-ring';
import {
  answerWithKeys,
  answerWithMouse,
  confirm,
  confirmRewards,
  currentIndex,
  currentQuest,
  EXPECTED,
  openTraining,
  PATHS,
  reviewCaptainNote,
  type AnswerPath,
  type Quest,
} from './training-answers';

type AheadWindow = {
  galaxyCruiseGlobe: { globe: { addLayer(layer: unknown): void } };
  aheadSeen: [theta: number, phi: number, fovy: number][] | null;
};

/** A layer that keeps the views the globe last handed the layers as FrameContext.ahead (Globe.prefetch). */
async function watchAhead(page: Page) {
  await page.evaluate(() => {
    const win = window as unknown as AheadWindow;
    win.aheadSeen = null;
    win.galaxyCruiseGlobe.globe.addLayer({
      name: 'ahead-spy',
      create() {},
      update() {},
      release() {},
      draw(frame: { ahead?: { camera: { theta: number; phi: number; fovy: number } }[] }) {
        win.aheadSeen = frame.ahead?.map(({ camera }) => [camera.theta, camera.phi, camera.fovy]) ?? null;
      },
    });
  });
}

/**
 * The target the first prefetched view is on (within a millionth of a degree), once the layers
 * have it: the globe hands the views ahead from a frame at rest, its own tiles in (a loaded
 * machine's software GL may take a while).
 */
async function prefetchedTarget(page: Page, quest: Quest, current: Question): Promise<Question | undefined> {
  let target: Question | undefined;
  await expect
    .poll(
      async () => {
        const seen = await page.evaluate(() => (window as unknown as AheadWindow).aheadSeen);
        if (!seen || seen.length === 0) return 'none';
        const [theta, phi, fovy] = seen[0];
        const close = (a: number, b: number) => Math.abs(a - b) < (1e-6 * Math.PI) / 180;
        target = quest.questions.find(
          (question) =>
            close(theta, ((90 - question.dec) * Math.PI) / 180) && close(phi, (question.ra * Math.PI) / 180),
        );
        // The answer form's view: the application's TARGET_FOVY, 0.02°.
        expect(fovy).toBeCloseTo((0.02 * Math.PI) / 180, 9);
        return target && target.object_id !== current.object_id ? 'another target' : 'not yet';
      },
      { timeout: 60_000 },
    )
    .toBe('another target');
  return target;
}

/** Classifies every galaxy of the current training area; returns the quest and the paths used. */
async function classifyArea(page: Page, keyboard: boolean) {
  const quest = await currentQuest(page);
  const count = quest.questions.length;
  const given = new Map<number, AnswerPath>();
  let retried = false;
  for (let n = 0; n < count; n++) {
    const question: Question = quest.questions[await currentIndex(page)];
    expect(given.has(question.object_id)).toBe(false);
    const path = PATHS[n % PATHS.length];
    const answer = () => (keyboard ? answerWithKeys(page, path) : answerWithMouse(page, path));
    // While the form is up the globe prefetches where submit goes: the nearest unanswered galaxy,
    // or after the area's last one where N goes.
    const prefetched = await prefetchedTarget(page, quest, question);
    await answer();
    if (question.captain_note) {
      await reviewCaptainNote(page, !retried, keyboard, answer);
      retried = true;
    }
    given.set(question.object_id, path);
    const remaining = count - n - 1;
    if (remaining > 0) {
      await confirmRewards(page, keyboard);
      const text = `${remaining} ${remaining === 1 ? 'galaxy remains' : 'galaxies remain'} in this area`;
      await expect.poll(() => flashes(page)).toContain(text);
      // The camera moves to the nearest unanswered galaxy and the form starts again at step 1.
      await expect(page.getByTestId('answer-form')).toHaveAttribute('data-step', '1');
      await expect.poll(async () => given.has(quest.questions[await currentIndex(page)].object_id)).toBe(false);
      expect(quest.questions[await currentIndex(page)].object_id).toBe(prefetched?.object_id);
    }
  }
  expect(retried).toBe(true);
  return { quest, given };
}

/** After the area: the area-completed flash, the level messages (each confirmed), the next quest. */
async function finishArea(page: Page, finished: Quest, keyboard = false) {
  await expect.poll(() => flashes(page)).toContain('Area completed!');
  const titles: string[] = [];
  await expect
    .poll(async () => {
      // The front dialog: a captain's note still fading out (data-closing) is not a message.
      const dialog = page.locator('.dialog-overlay:not([data-behind]):not([data-closing])').getByRole('dialog');
      if ((await dialog.count()) === 1 && (await dialog.isVisible())) {
        titles.push((await dialog.getByRole('heading').first().innerText()).trim());
        await confirm(page, dialog, keyboard);
        await expect(dialog).toBeHidden();
        return 'dialog';
      }
      const record = await page.request.get('/api/my_record/training');
      const quests = ((await record.json()) as { quests: { id: number; finished_at: string | null }[] }).quests;
      return quests.find((quest) => quest.id === finished.id)?.finished_at ? 'finished' : 'open';
    })
    .toBe('finished');
  // Whatever level messages came, they came in the spec's order.
  expectInSpecOrder(titles);
  return titles;
}

test('a new volunteer classifies every galaxy of a training area with the mouse, through each answer path', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await recordFlashes(page);
  await readyVolunteer(page.request);
  await openTraining(page);
  await watchAhead(page);
  await expectNoSeriousViolations(page, 'main screen with the answer form');

  // The rudder: the next galaxy, and the form starts again at step 1 there.
  const before = await currentIndex(page);
  await page.getByRole('button', { name: /Next galaxy/ }).click();
  await expect.poll(() => currentIndex(page)).not.toBe(before);
  await expect(page.getByTestId('answer-form')).toBeVisible();

  const { quest, given } = await classifyArea(page, false);
  await finishArea(page, quest);

  expect(given.size).toBe(quest.questions.length);
  await expect(page.getByTestId('pending-answers')).toHaveText('');
  expect(errors).toEqual([]);
});

test('the same with the keyboard alone: 1 / 2 / 3, Backspace, Enter, R and N', async ({ page }) => {
  test.setTimeout(240_000);
  await recordFlashes(page);
  await readyVolunteer(page.request);
  await openTraining(page);
  await watchAhead(page);
  const before = await currentIndex(page);
  await page.keyboard.press('n');
  await expect.poll(() => currentIndex(page)).not.toBe(before);
  const { quest } = await classifyArea(page, true);
  await finishArea(page, quest, true);
});

test('a volunteer who logs in after another logged out on the same page sees their own quest', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(240_000);
  await readyVolunteer(page.request);
  const other = await playwright.request.newContext({ baseURL });
  const second = await readyVolunteer(other);
  await other.dispose();

  // The first volunteer answers the galaxy on screen, and the server has it.
  await openTraining(page);
  const quest = await currentQuest(page);
  const answeredIndex = await currentIndex(page);
  await answerWithKeys(page, 'spiral, no');
  if (quest.questions[answeredIndex].captain_note) await reviewCaptainNote(page, false, true, async () => {});
  await expect(page.getByTestId('pending-answers')).toHaveText('', { timeout: 60_000 });
  await expect.poll(() => currentIndex(page)).not.toBe(answeredIndex);

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByLabel('E-mail').fill(second.email);
  await page.getByLabel('Password').fill(second.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  const form = page.getByTestId('answer-form');
  await expect(form).toBeVisible({ timeout: 90_000 });

  // On the same galaxy the second volunteer has no answer of their own: nothing is pressed.
  for (let press = 0; press <= quest.questions.length && (await currentIndex(page)) !== answeredIndex; press++) {
    const before = await currentIndex(page);
    await page.keyboard.press('n');
    await expect.poll(() => currentIndex(page)).not.toBe(before);
  }
  expect(await currentIndex(page)).toBe(answeredIndex);
  await expect(form.getByRole('button', { name: 'Spiral', exact: false })).not.toHaveAttribute('aria-pressed');
});

test('answers given offline and a reload before they are sent reach the server exactly once', async ({
  page,
  context,
}) => {
  await recordFlashes(page);
  await readyVolunteer(page.request);
  const accepted = recordAcceptedAnswers(page);
  await openTraining(page);
  const quest = await currentQuest(page);
  expect(quest.questions.length).toBeGreaterThanOrEqual(3);
  const given = new Map<number, AnswerPath>();
  const answerOne = async (path: AnswerPath) => {
    const question = quest.questions[await currentIndex(page)];
    await answerWithMouse(page, path);
    if (question.captain_note) await reviewCaptainNote(page, false, false, async () => {});
    given.set(question.object_id, path);
  };

  // One answer online, then the network drops: two more answers wait, marked as pending.
  await answerOne('spiral, no');
  await expect(page.getByTestId('pending-answers')).toHaveText('');
  await context.setOffline(true);
  await answerOne('elliptical, yes, ring and tail');
  await answerOne('not sure, not sure');
  await expect(page.getByTestId('pending-answers')).toHaveText('2 answers waiting to be sent');
  const stored = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('galaxy-cruise-answers');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('answers').objectStore('answers').count();
          count.onsuccess = () => resolve(count.result);
        };
      }),
  );
  expect(stored).toBe(2);

  // The page is reloaded before the server comes back (its answer route still fails): the
  // answers come back from IndexedDB, still pending, and go once the server answers again.
  await page.route('**/api/quests/*/answers', (route) => route.abort('internetdisconnected'));
  await context.setOffline(false);
  await page.reload();
  await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('pending-answers')).toHaveText('2 answers waiting to be sent');
  await page.unroute('**/api/quests/*/answers');
  await expect(page.getByTestId('pending-answers')).toHaveText('', { timeout: 60_000 });
  await confirmRewards(page);

  // Exactly once: one accepted post per answer, and the server's quest holds each as given. The
  // page may show the queue empty before Playwright has delivered the last response's event.
  await expect.poll(() => [...accepted.values()], { timeout: 10_000 }).toEqual([1, 1, 1]);
  const after = await currentQuest(page);
  expect([...accepted.values()]).toEqual([1, 1, 1]);
  expect(after.id).toBe(quest.id);
  expect(after.answers).toHaveLength(3);
  for (const answer of after.answers) {
    const path = given.get(answer.object_id);
    expect(path).toBeDefined();
    expect(answer).toEqual({ object_id: answer.object_id, ...EXPECTED[path!] });
  }

  // An answer can be changed later: answering the same target again replaces it on the server.
  const changed = after.answers[0].object_id;
  const index = quest.questions.findIndex((question) => question.object_id === changed);
  // The rudder (N) goes through every target in order, answered ones included.
  for (let presses = 0; presses < quest.questions.length && (await currentIndex(page)) !== index; presses++) {
    const from = await currentIndex(page);
    await page.keyboard.press('n');
    await expect.poll(() => currentIndex(page)).not.toBe(from);
  }
  expect(await currentIndex(page)).toBe(index);
  await expect(page.getByTestId('answer-form')).toBeVisible();
  await expect(page.getByTestId('cruise-target')).toContainText('answered');
  const previous = given.get(changed)!;
  // The saved answer is reloaded: its galaxy type is the pressed choice of step 1.
  const savedType = {
    'spiral, no': 'Spiral',
    'elliptical, yes, ring and tail': 'Elliptical',
    'not sure, not sure': 'Not sure',
  }[previous];
  await expect(
    page.getByTestId('answer-form').getByRole('button', { name: new RegExp(`^\\d ${savedType}$`) }),
  ).toHaveAttribute('aria-pressed', 'true');
  const replacement = PATHS.find((path) => path !== previous)!;
  await answerOne(replacement);
  await expect(page.getByTestId('pending-answers')).toHaveText('');
  const replaced = (await currentQuest(page)).answers.filter((answer) => answer.object_id === changed);
  expect(replaced).toEqual([{ object_id: changed, ...EXPECTED[replacement] }]);
});

test('screenshots of the main screen in English, Japanese and at phone width; axe-clean menu', async ({ browser }) => {
  test.setTimeout(360_000);
  const shots = [
    { name: 'cruise-en-1280', locale: 'en-US', viewport: { width: 1280, height: 800 } },
    { name: 'cruise-ja-1280', locale: 'ja-JP', viewport: { width: 1280, height: 800 } },
    { name: 'cruise-en-360', locale: 'en-US', viewport: { width: 360, height: 740 } },
    { name: 'cruise-ja-360', locale: 'ja-JP', viewport: { width: 360, height: 740 } },
  ];
  const context = await browser.newContext();
  await readyVolunteer(context.request);
  const storageState = await context.storageState();
  await context.close();
  for (const shot of shots) {
    const shotContext = await browser.newContext({ storageState, locale: shot.locale, viewport: shot.viewport });
    // The app speaks the volunteer's own language (the session's locale).
    const language = shot.locale === 'ja-JP' ? 'ja' : 'en';
    expect((await shotContext.request.put('/api/current_user', { data: { locale: language } })).ok()).toBe(true);
    const page = await shotContext.newPage();
    await page.goto('/#/?course=training');
    await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 90_000 });
    await expect(page.getByTestId('stage-name')).toContainText(shot.locale === 'ja-JP' ? 'ステージ' : 'Stage');
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(3000);
    await page.screenshot({ path: `test-results/screenshots/${shot.name}.png` });
    await expectNoSeriousViolations(page, shot.name);
    if (shot.viewport.width === 360) {
      // The links collapse into a menu that also holds home.
      const menu = page.getByRole('button', { name: shot.locale === 'ja-JP' ? 'メニュー' : 'Menu' });
      await expect(page.getByRole('button', { name: shot.locale === 'ja-JP' ? 'ログアウト' : 'Log out' })).toBeHidden();
      await menu.click();
      await expect(page.getByRole('link', { name: shot.locale === 'ja-JP' ? 'ホーム' : 'Home' })).toBeVisible();
      await expect(
        page.getByRole('button', { name: shot.locale === 'ja-JP' ? 'ログアウト' : 'Log out' }),
      ).toBeVisible();
      await page.screenshot({ path: `test-results/screenshots/${shot.name}-menu.png` });
      await expectNoSeriousViolations(page, `${shot.name} menu`);
    }
    await shotContext.close();
  }
});

test('switching course: training asks continue or new game; continue keeps the quest, a new game deletes it', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await readyVolunteer(page.request);
  // One answer in a training quest, given over HTTP before the page opens.
  const started = await currentQuest(page);
  const first = started.questions[0];
  const answered = await page.request.post(`/api/quests/${started.id}/answers`, {
    data: { object_id: first.object_id, galaxy_type: 'spiral', interaction: 'no' },
  });
  expect(answered.ok()).toBe(true);

  await page.goto('/#/?course=season2');
  const courses = page.getByTestId('course-select');
  await expect(courses).toHaveValue('season2', { timeout: 90_000 });

  // Continue, from the keyboard: the dialog opens on its Continue button.
  await courses.selectOption('training');
  const dialog = page.getByRole('dialog', { name: 'Training: continue or start a new game?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Continue' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(courses).toHaveValue('training');
  await expect(page).toHaveURL(/course=training/);
  const continued = await currentQuest(page);
  expect(continued.id).toBe(started.id);
  expect(continued.answers.map((answer) => answer.object_id)).toEqual([first.object_id]);

  // Season 2 asks nothing.
  await courses.selectOption('season2');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page).toHaveURL(/course=season2/);

  // A new game: the training quests are deleted and a fresh quest is fetched.
  await courses.selectOption('training');
  await expect(dialog).toBeVisible();
  const deleted = page.waitForResponse(
    (response) => response.request().method() === 'DELETE' && /\/api\/courses\/training\/quests$/.test(response.url()),
  );
  await dialog.getByRole('button', { name: 'New game' }).click();
  expect((await deleted).ok()).toBe(true);
  await expect(courses).toHaveValue('training');
  const fresh = await currentQuest(page);
  expect(fresh.id).not.toBe(started.id);
  expect(fresh.answers).toEqual([]);
  await expect(page.getByTestId('stage-name')).toContainText('Stage:', { timeout: 90_000 });
});

test('the spacebar hides and shows the markers, warning on its first use; after it they stay on a zoomed-in galaxy', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await readyVolunteer(page.request);
  await openTraining(page);
  const canvas = page.getByTestId('globe-canvas');
  await canvas.focus();
  // At the jump's field of view (0.02°, above 0.0003 rad) the current target's ring is drawn.
  const shown = await restingRing(page);
  await page.keyboard.press(' ');
  const warning = page.getByRole('dialog', { name: 'Markers hidden' });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('press the spacebar again to show them');
  await page.screenshot({ path: 'test-results/screenshots/cruise-markers-warning-en.png' });
  await page.keyboard.press('Enter');
  await expect(warning).toBeHidden();
  const hidden = await restingRing(page);
  console.log(`ring change when hidden: ${change(shown.ring, hidden.ring).toFixed(1)}`);
  expect(change(shown.ring, hidden.ring)).toBeGreaterThan(20);
  expect(change(shown.outside, hidden.outside)).toBeLessThan(5);

  // Zoomed in below 0.0003 rad (the '+' key: × 0.8) with the markers shown again: after the
  // first use they are drawn down to 0.000001 rad, and the spacebar asks nothing more.
  await canvas.focus();
  await page.keyboard.press('+');
  const zoomedHidden = await restingRing(page);
  await page.keyboard.press(' ');
  await expect(page.getByRole('dialog')).toBeHidden();
  const zoomedShown = await restingRing(page);
  console.log(`ring change when shown again, zoomed in: ${change(zoomedHidden.ring, zoomedShown.ring).toFixed(1)}`);
  expect(change(zoomedHidden.ring, zoomedShown.ring)).toBeGreaterThan(20);
  expect(change(zoomedHidden.outside, zoomedShown.outside)).toBeLessThan(5);
  // The markers of a volunteer who never used the spacebar stay off a galaxy zoomed in so far.
  await page.evaluate((key) => localStorage.removeItem(key), 'galaxy-cruise.markers-toggled');
  await page.reload();
  await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 90_000 });
  const reopened = await restingRing(page);
  expect(change(zoomedHidden.ring, reopened.ring)).toBeLessThan(5);
});
