// The volunteer walk, part two (issue 33 items 3 to 6), checked by what is on screen rather than
// by the DOM alone: only the front dialog of the stack shows and takes the pointer, and a dialog
// owned by a route closes when the route changes (application-spec §2, §4); the "Galaxy N of M"
// label is not under the header; a finished course says so and what to do next, and several
// unlocks waiting at login come as one list, each marked read by its OK; the cruise map after a
// finished season; and the walk: season 2 played to its end in the browser with the keys, every
// area message in order to the course's completion, and the certificate, in English and Japanese.
// Debian's Chromium against the real server.
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { CurrentQuestResponse, MyRecordsResponse, ServerInfoResponse, UserNotification } from '../../shared/api';
import { readyVolunteer } from '../helpers/volunteers';
import { expectNoSeriousViolations } from './axe';
import { canvasPixels, type PixelWindow } from './canvas-pixels';
import { expectInSpecOrder } from './area-messages';
import { expectNotCovered, paintedDialogs } from './on-screen';

for (const [locale, texts] of [
  ['en', { profile: 'Profile', change: 'Change password', password: 'Set your password', cancel: 'Cancel' }],
  ['ja', { profile: 'プロフィール', change: 'パスワードを変更', password: 'パスワードの設定', cancel: 'キャンセル' }],
] as const) {
  test(`only the front dialog shows, and a route change closes the route's dialogs (${locale})`, async ({ page }) => {
    await readyVolunteer(page.request, { locale });
    await page.goto('/#/?course=training');
    const profileButton = page.getByRole('button', { name: texts.profile, exact: true });
    await profileButton.click({ timeout: 60_000 });
    const profile = page.getByRole('dialog', { name: texts.profile });
    await expect(profile).toBeVisible();

    // A second dialog over the first: the first is neither painted nor reachable through it.
    await profile.getByRole('button', { name: texts.change }).click();
    const password = page.getByRole('dialog', { name: texts.password });
    await expectNotCovered(password.getByRole('button', { name: texts.cancel }));
    await expect(profile).toBeHidden();
    expect(await paintedDialogs(page)).toBe(1);
    await page.screenshot({ path: test.info().outputPath(`dialog-stack-${locale}.png`) });
    await expectNoSeriousViolations(page, `two dialogs (${locale})`);

    // Cancelled, the first comes back to the front, its controls reachable again.
    await password.getByRole('button', { name: texts.cancel }).click();
    await expect(password).toHaveCount(0);
    await expectNotCovered(profile.getByRole('button', { name: texts.change }));

    // The address changes to another route: the profile (the main screen's) closes with it.
    await page.evaluate(() => (location.hash = '#/credits'));
    await expect(page.locator('.dialog-overlay')).toHaveCount(0);
    await expectNotCovered(page.getByRole('heading', { level: 1 }).first());
  });
}

/** Answers every galaxy of a course over HTTP, area after area, until none is left. */
async function finishCourse(request: APIRequestContext, course: string) {
  for (let areas = 0; areas < 200; areas++) {
    const quest = (await (await request.get(`/api/courses/${course}/quests/current`)).json()) as CurrentQuestResponse;
    if (quest.no_more_available_objects) return areas;
    for (const question of quest.questions) {
      const posted = await request.post(`/api/quests/${quest.id}/answers`, { data: { object_id: question.object_id } });
      expect(posted.ok()).toBe(true);
    }
  }
  throw new Error(`${course} did not end in 200 areas`);
}

/**
 * With no galaxy left the globe shows the finished course: its levels outlined (cyan, levels
 * finished) on screen, the camera flown out from the last galaxy (0.02°) to frame them.
 */
async function expectCourseOverview(page: Page, screenshot: string) {
  const fovyDegrees = () =>
    page.evaluate(() => {
      const handle = (window as unknown as { galaxyCruiseGlobe?: { globe: { camera: { fovy: number } } } })
        .galaxyCruiseGlobe;
      return handle ? (handle.globe.camera.fovy * 180) / Math.PI : 0;
    });
  await expect.poll(fovyDegrees, { timeout: 30_000 }).toBeGreaterThanOrEqual(0.049);
  const canvas = page.locator('canvas.globe-canvas');
  const box = (await canvas.boundingBox())!;
  await expect
    .poll(
      async () => {
        const { data } = await canvasPixels(page, canvas, {
          x0: 0,
          y0: 0,
          width: box.width * 4,
          height: box.height * 4,
        });
        let cyan = 0;
        for (let k = 0; k < data.length; k += 4) if (data[k] < 120 && data[k + 1] > 180 && data[k + 2] > 200) cyan++;
        return cyan;
      },
      { timeout: 30_000, message: "the finished levels' outlines on screen" },
    )
    .toBeGreaterThan(200);
  await page.screenshot({ path: test.info().outputPath(screenshot) });
}

for (const [locale, texts] of [
  [
    'en',
    {
      complete: 'Season 2 complete',
      choose: 'Choose another course',
      unlocked: /^\d+ new levels unlocked$/,
      ok: 'OK',
      course: 'Course',
    },
  ],
  [
    'ja',
    {
      complete: 'シーズン2完了',
      choose: 'ほかのコースを選ぶ',
      unlocked: /^新しいレベルが\d+件解放されました$/,
      ok: 'OK',
      course: 'コース',
    },
  ],
] as const) {
  test(`a finished course says what to do next, and the unlocks wait as one list (${locale})`, async ({ page }) => {
    test.setTimeout(180_000);
    await readyVolunteer(page.request, { locale });
    const areas = await finishCourse(page.request, 'season2');
    const unread = (await (await page.request.get('/api/notifications')).json()) as UserNotification[];
    const unlocks = unread.filter((entry) => entry.type === 'level_unlocked' && !entry.read);
    console.log(`season2: ${areas} areas, ${unlocks.length} unlock notifications`);
    expect(unlocks.length).toBeGreaterThanOrEqual(2);

    await page.goto('/#/?course=season2');
    // Two dialogs at login, the unlocks (one list) and the course's completion, in either order:
    // one after the other, never one over the other.
    const seen: string[] = [];
    for (let step = 0; step < 2; step++) {
      const front = page.locator('.dialog-overlay:not([data-behind]):not([data-closing])').getByRole('dialog');
      await expect(front).toHaveCount(1, { timeout: 60_000 });
      await expect(page.locator('.dialog-overlay')).toHaveCount(1);
      const title = (await front.getByRole('heading').first().innerText()).trim();
      seen.push(title);
      const ok = front.getByRole('button', { name: texts.ok });
      await expectNotCovered(ok);
      if (texts.unlocked.test(title)) {
        await expect(front.getByTestId('unlocked-levels').getByRole('listitem')).toHaveCount(unlocks.length);
        await page.screenshot({ path: test.info().outputPath(`unlocks-${locale}.png`) });
        await expectNoSeriousViolations(page, `unlocks listed (${locale})`);
      }
      await ok.click();
      await expect(page.getByRole('dialog', { name: title, exact: true })).toHaveCount(0);
    }
    expect(seen.filter((title) => texts.unlocked.test(title))).toHaveLength(1);
    expect(seen).toContain(texts.complete);
    // The list's one OK marked each of the unlocks read.
    await expect
      .poll(async () => {
        const after = (await (await page.request.get('/api/notifications')).json()) as UserNotification[];
        return after.filter((entry) => entry.type === 'level_unlocked' && !entry.read).length;
      })
      .toBe(0);

    // The panel that stays: what happened and what to do next.
    await expect(page.locator('.dialog-overlay')).toHaveCount(0);
    const panel = page.getByTestId('course-complete');
    await expect(panel.getByRole('heading', { name: texts.complete })).toBeVisible();
    await expect(page.getByRole('button', { name: /Next galaxy|次の銀河/ })).toHaveCount(0);
    const choose = panel.getByRole('button', { name: texts.choose });
    await expectNotCovered(choose);
    await expectNoSeriousViolations(page, `course complete (${locale})`);
    await expectCourseOverview(page, `course-overview-${locale}.png`);
    await choose.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('combobox', { name: texts.course })).toBeFocused();
  });
}

test('the "Galaxy N of M" label is on screen, under no header, at 1280×800', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await readyVolunteer(page.request);
  await page.goto('/#/?course=training');
  const label = page.getByTestId('cruise-target');
  await expect(label).toContainText(/Galaxy \d+ of \d+/, { timeout: 60_000 });
  await expectNotCovered(label);
  const header = await page.locator('.cruise-header').boundingBox();
  const box = await label.boundingBox();
  expect(box!.y, 'below the header').toBeGreaterThanOrEqual(header!.y + header!.height);
});

/** OKs the dialogs that meet a volunteer at login (unlocks, a completion), the front one each time. */
async function acceptLoginDialogs(page: Page, expected: number) {
  for (let step = 0; step < expected; step++) {
    const front = page.locator('.dialog-overlay:not([data-behind]):not([data-closing])').getByRole('dialog');
    await expect(front).toHaveCount(1, { timeout: 60_000 });
    await front.getByRole('button', { name: 'OK' }).click();
  }
  await expect(page.locator('.dialog-overlay')).toHaveCount(0);
}

/** The map's labels on screen: some, each inside the map, and no two overlapping. */
async function expectLabelsApart(map: Locator) {
  await expect(map.locator('.cruise-map-label[data-placed="true"]').first()).toBeVisible();
  const frame = (await map.locator('.cruise-map-frame').boundingBox())!;
  const boxes = await map.locator('.cruise-map-label[data-placed="true"]').evaluateAll((labels) =>
    labels.map((label) => {
      const { left, top, right, bottom } = label.getBoundingClientRect();
      return { text: label.textContent ?? '', left, top, right, bottom };
    }),
  );
  for (const box of boxes) {
    expect(box.left, `${box.text} inside the map`).toBeGreaterThanOrEqual(frame.x - 0.5);
    expect(box.right, `${box.text} inside the map`).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
    expect(box.top, `${box.text} inside the map`).toBeGreaterThanOrEqual(frame.y - 0.5);
    expect(box.bottom, `${box.text} inside the map`).toBeLessThanOrEqual(frame.y + frame.height + 0.5);
  }
  const overlapping = boxes.flatMap((a, i) =>
    boxes
      .slice(i + 1)
      .filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
      .map((b) => `${a.text} / ${b.text}`),
  );
  expect(overlapping, 'labels over one another').toEqual([]);
}

/**
 * The sizes (pixels) of the separate shapes drawn in the finished levels' cyan (0.2, 0.9, 1),
 * told from the grid's dim blue (0.35, 0.55, 0.85 at 55 %) and the labels' white; 8-connected.
 */
function cyanShapes({ data, width, height }: PixelWindow): number[] {
  const cyan = (k: number) => data[4 * k] < 120 && data[4 * k + 1] > 150 && data[4 * k + 2] > 150;
  const seen = new Uint8Array(width * height);
  const sizes: number[] = [];
  for (let start = 0; start < width * height; start++) {
    if (seen[start] || !cyan(start)) continue;
    seen[start] = 1;
    const stack = [start];
    let size = 0;
    while (stack.length > 0) {
      const k = stack.pop()!;
      size++;
      const [x, y] = [k % width, Math.floor(k / width)];
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny] = [x + dx, y + dy];
          const n = ny * width + nx;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height || seen[n] || !cyan(n)) continue;
          seen[n] = 1;
          stack.push(n);
        }
    }
    sizes.push(size);
  }
  return sizes;
}

for (const [locale, log] of [
  ['en', 'Voyage log'],
  ['ja', '航海日誌'],
] as const) {
  test(`the cruise map after a finished season, and the wheel over it scrolls the dialog (${locale})`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await readyVolunteer(page.request, { locale });
    await finishCourse(page.request, 'season2');
    await page.goto('/#/?course=season2');
    await acceptLoginDialogs(page, 2);
    await page.keyboard.press('m');
    const dialog = page.getByRole('dialog', { name: log });
    const map = dialog.getByTestId('cruise-map');
    await map.scrollIntoViewIfNeeded();
    await expect(map.locator('.cruise-map-loading')).toHaveCount(0, { timeout: 30_000 });
    await page.screenshot({ path: test.info().outputPath(`cruise-map-${locale}.png`) });
    await expectNoSeriousViolations(page, `cruise map (${locale})`);
    await expectLabelsApart(map);
    // The whole course at the opening view: every level's labels placed, and every level drawn as
    // an outline of its own (cyan, finished), not one block of colour over its neighbours.
    const levels = (await (await page.request.get('/api/levels?course_id=season2')).json()) as unknown[];
    await expect(map.locator('.cruise-map-label[data-placed="true"]')).toHaveCount(
      Number(await map.getAttribute('data-labels')),
    );
    // The canvas alone: the labels, centred on their points, would cover the small outlines.
    const labelList = map.getByTestId('cruise-map-labels');
    await labelList.evaluate((element) => (element.style.visibility = 'hidden'));
    const shapes = cyanShapes(
      await canvasPixels(page, map.locator('canvas'), { x0: 0, y0: 0, width: 4096, height: 4096 }),
    );
    expect(shapes.length, 'one outline per level').toBeGreaterThanOrEqual(levels.length);
    expect(Math.max(...shapes), 'the largest outline, pixels').toBeLessThan(400);
    await labelList.evaluate((element) => (element.style.visibility = ''));
    // Zoomed out, the season's far-apart levels crowd together: still no label over another.
    await map.locator('canvas').focus();
    for (let step = 0; step < 30; step++) await page.keyboard.press('-');
    await expectLabelsApart(map);
    await page.screenshot({ path: test.info().outputPath(`cruise-map-zoomed-out-${locale}.png`) });

    // A wheel over the map scrolls the dialog, as over any other part of it.
    const body = dialog.locator('.dialog-body');
    await body.evaluate((element) => (element.scrollTop = 0));
    await map.locator('canvas').scrollIntoViewIfNeeded();
    const before = await body.evaluate((element) => element.scrollTop);
    const box = (await map.locator('canvas').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 400);
    await expect.poll(() => body.evaluate((element) => element.scrollTop)).toBeGreaterThan(before);
  });
}

for (const [locale, texts] of [
  [
    'en',
    {
      stamp: 'Passport stamp added',
      complete: 'Season 2 complete',
      log: 'Voyage log',
      certificates: 'Certificates',
      piece: 'A souvenir puzzle piece',
      souvenirs: 'Souvenirs',
      progress: (revealed: number) => `${revealed} of 56 pieces`,
    },
  ],
  [
    'ja',
    {
      stamp: 'パスポートにスタンプ',
      complete: 'シーズン2完了',
      log: '航海日誌',
      certificates: '証明書',
      piece: 'おみやげパズルのピース',
      souvenirs: 'おみやげ',
      progress: (revealed: number) => `ピース ${revealed} / 56`,
    },
  ],
] as const) {
  test(`the walk: season 2 played to its end in the browser with the keys (${locale})`, async ({ page }) => {
    test.setTimeout(420_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await readyVolunteer(page.request, { locale });
    await page.goto('/#/?course=season2');
    const form = page.getByTestId('answer-form');
    const front = page.locator('.dialog-overlay:not([data-behind]):not([data-closing])').getByRole('dialog');
    /** What is on screen: a front dialog, the answer form waiting for a new galaxy, or neither yet. */
    const onScreen = async (): Promise<'dialog' | 'form' | 'wait'> => {
      if ((await front.count()) === 1) return 'dialog';
      if ((await page.locator('.dialog-overlay').count()) > 0 || !(await form.isVisible())) return 'wait';
      return (await form.getAttribute('data-step')) === '1' ? 'form' : 'wait';
    };
    // Every area of the course in turn with the keys: each galaxy of its quest, then its messages
    // one at a time (and a souvenir's piece when an answer earns one), until the course's completion.
    const groups: string[][] = [[]];
    let answers = 0;
    for (let step = 0; !groups.flat().includes(texts.complete); step += 1) {
      expect(step, groups.flat().join(' → ')).toBeLessThan(120);
      let now = await onScreen();
      for (const until = Date.now() + 90_000; now === 'wait' && Date.now() < until; now = await onScreen())
        await page.waitForTimeout(100);
      expect(now, `after ${answers} answers: ${groups.flat().join(' → ')}`).not.toBe('wait');
      if (now === 'dialog') {
        expect(await paintedDialogs(page)).toBe(1);
        const title = (await front.getByRole('heading').first().innerText()).trim();
        groups.at(-1)!.push(title);
        await expectNotCovered(front.getByRole('button', { name: 'OK' }));
        await front.getByRole('button', { name: 'OK' }).click();
        await expect(page.getByRole('dialog', { name: title, exact: true })).toHaveCount(0);
        continue;
      }
      if (groups.at(-1)!.length > 0) groups.push([]);
      await expectNotCovered(page.getByTestId('cruise-target'));
      await page.keyboard.press('1');
      await expect(form).toHaveAttribute('data-step', '2');
      await page.keyboard.press('2');
      answers += 1;
      // What the answer earned comes a moment after it.
      await front.waitFor({ state: 'visible', timeout: 1_500 }).catch(() => undefined);
    }
    const titles = groups.flat();
    const rewards = titles;
    // Each answer's messages in the order of application-spec §4 (checked on the English titles).
    if (locale === 'en') for (const group of groups) expectInSpecOrder(group);
    const info = (await (await page.request.get('/api/server_info')).json()) as ServerInfoResponse;
    const galaxies = Object.values(info.number_of_areas.season2 ?? {}).reduce((sum, count) => sum + count, 0);
    expect(answers).toBeGreaterThanOrEqual(galaxies);
    console.log(`walk (${locale}): ${titles.join(' → ')}`);
    // The last area of the last stage: its stamp, then the course's completion last (§4's order).
    expect(titles).toContain(texts.stamp);
    expect(titles.indexOf(texts.stamp)).toBeLessThan(titles.indexOf(texts.complete));
    expect(titles.at(-1)).toBe(texts.complete);
    await expect(page.getByTestId('course-complete')).toBeVisible();
    await expectCourseOverview(page, `walk-course-overview-${locale}.png`);

    // The souvenir's pieces: earned on screen (§9: every 3 answers in developer mode), and the bag
    // shows every piece of the course on the first souvenir's jigsaw (a whole souvenir, 168
    // answers, is souvenir-complete.spec.ts's).
    expect(rewards).toContain(texts.piece);
    const records = (await (await page.request.get('/api/my_records')).json()) as MyRecordsResponse;
    const pieces = Math.floor((records.season2?.answers_count ?? 0) / 3);
    expect(pieces).toBeGreaterThan(0);
    await page.keyboard.press('b');
    const bag = page.getByRole('dialog', { name: texts.souvenirs });
    const first = bag.getByTestId('souvenir').first();
    await expect(first).toContainText(texts.progress(pieces));
    await expect(first.locator('.souvenir-piece[data-revealed]')).toHaveCount(pieces);
    await expectNotCovered(first.getByRole('img'));
    await expectNoSeriousViolations(page, `souvenirs (${locale})`);
    await page.keyboard.press('Escape');
    await expect(bag).toHaveCount(0);

    // The certificate in the voyage log.
    await page.keyboard.press('m');
    const log = page.getByRole('dialog', { name: texts.log });
    const certificates = log.getByTestId('certificates');
    await certificates.scrollIntoViewIfNeeded();
    await expect(certificates.getByRole('heading', { name: texts.certificates })).toBeVisible();
    await expectNoSeriousViolations(page, `certificate (${locale})`);
  });
}
