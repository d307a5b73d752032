// A research group's course in the browser (issue 30): on a server with an administrator, the
// real `galaxy-cruise import` writes a course before the server starts, from a manifest, a CSV
// list and a HiPS this project did not write (healpy and astropy: galactic frame, orders 1 to 2,
// tiles 16 texels wide; tests/helpers/make_import_hips.py). A volunteer finds the course in the
// main screen's course menu by its name, in English and in Japanese; choosing it flies the globe
// to its first target, where the course's HiPS lights the screen at the answer form's field of
// view (faded out as the sky's HiPS fades, the screen is dark there); the volunteer answers three
// targets (one in Japanese), each centred and lit on screen, and the answers are on the server. The administrator's #/admin/courses lists the course with its counts, is scanned
// by axe-core in both languages, and closes the course with the keyboard: it leaves the
// volunteer's course menu.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { CurrentQuestResponse, Question } from '../../shared/api';
import type { AdminCourseEntry } from '../../shared/courses';
import {
  ADMIN_EMAIL,
  readyVolunteerOn,
  startConfiguredServer,
  type ConfiguredServer,
} from '../helpers/configured-server';
import { targetCluster, writeSurvey, type SurveyFolder } from '../helpers/import-fixture';
import { pythonReferences } from '../helpers/python-references';
import { expectNoSeriousViolations } from './axe';
import { canvasPixels } from './canvas-pixels';
import { untranslated } from './untranslated';

const COURSE = 'lsb-e2e';
/** writeSurvey's names of the course. */
const NAMES = { en: `Survey ${COURSE}`, ja: `サーベイ ${COURSE}` } as const;
/** Object ids of imported targets start here (server/db/imported-course.ts: imported_object_ids). */
const IMPORTED_OBJECT_IDS = 5e15;
const DEGREE = Math.PI / 180;
/** Targets each volunteer answers in the browser: three in English (the journey), one in Japanese. */
const TARGETS_ANSWERED = { en: 3, ja: 1 } as const;

type Locale = keyof typeof NAMES;
type Quest = Extract<CurrentQuestResponse, { no_more_available_objects: false }>;

let server: ConfiguredServer;
let survey: SurveyFolder;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const references = pythonReferences('make_import_hips.py', 'import-hips', 'expected.json');
  const expected = JSON.parse(fs.readFileSync(path.join(references, 'expected.json'), 'utf8')) as {
    target: { ra: number; dec: number };
  };
  survey = writeSurvey({
    id: COURSE,
    targets: targetCluster(6, expected.target.ra, expected.target.dec),
    hips: path.join(references, 'hips'),
  });
  const bin = path.join(process.cwd(), 'bin', 'galaxy-cruise.mjs');
  server = await startConfiguredServer('imported-course', {
    beforeServe: (env) =>
      // The HiPS lies with the python references, outside the survey's folder.
      execFileSync(process.execPath, [bin, 'import', '--allow-root', references, survey.manifest], {
        env: { ...process.env, ...env },
      }),
  });
});
test.afterAll(async () => {
  await server?.stop();
  survey?.remove();
});

/** Latin text left on a Japanese screen, but the group's own: its course's names and its manifest's path. */
async function groupText(found: Promise<string[]>): Promise<string[]> {
  return (await found).filter((text) => !text.includes(COURSE) && !text.includes(survey.manifest));
}

async function openMainScreen(page: Page, locale: Locale) {
  await page.addInitScript((language) => localStorage.setItem('galaxy-cruise.locale', language), locale);
  await page.goto(`${server.url}/#/?course=season2`);
  await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 90_000 });
}

/** The camera's centre (degrees) and field of view (degrees). */
function cameraView(page: Page) {
  return page.evaluate(() => {
    const { globe } = (
      window as unknown as {
        galaxyCruiseGlobe: { globe: { camera: { state(): { theta: number; phi: number; fovy: number } } } };
      }
    ).galaxyCruiseGlobe;
    const { theta, phi, fovy } = globe.camera.state();
    return { ra: (phi * 180) / Math.PI, dec: 90 - (theta * 180) / Math.PI, fovy: (fovy * 180) / Math.PI };
  });
}

/** Chooses the imported course by its name and returns the quest the choice fetched. */
async function chooseCourse(page: Page, locale: Locale): Promise<Quest> {
  const menu = page.getByTestId('course-select');
  await expect(menu.locator('option', { hasText: NAMES[locale] })).toHaveCount(1, { timeout: 60_000 });
  const questResponse = page.waitForResponse((response) =>
    response.url().includes(`/api/courses/${COURSE}/quests/current`),
  );
  await menu.selectOption({ label: NAMES[locale] });
  const quest = (await (await questResponse).json()) as Quest;
  expect(quest.no_more_available_objects).toBe(false);
  return quest;
}

/**
 * The camera has flown onto one of the quest's targets not answered yet, zoomed in as far as the
 * answer form's view, and stays there: that target.
 */
async function flownToUnanswered(page: Page, quest: Quest, answered: readonly number[]): Promise<Question> {
  let reached: Question | undefined;
  await expect
    .poll(
      async () => {
        const view = await cameraView(page);
        reached = quest.questions.find(
          (question) =>
            !answered.includes(question.object_id) &&
            Math.hypot((view.ra - question.ra) * Math.cos(question.dec * DEGREE), view.dec - question.dec) < 0.001,
        );
        return reached !== undefined && view.fovy < 0.1;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  return reached!;
}

/** The median grey of the middle of the globe (the course's HiPS is grey: b ↦ (b + 90) / 180 · 255). */
async function centreBrightness(page: Page, screenshot: string): Promise<number> {
  const canvas = page.getByTestId('globe-canvas');
  const box = (await canvas.boundingBox())!;
  const pixels = await canvasPixels(
    page,
    canvas,
    { x0: box.width / 2 - 40, y0: box.height / 2 - 40, width: 80, height: 80 },
    screenshot,
  );
  const greys: number[] = [];
  for (let index = 0; index < pixels.data.length; index += 4) greys.push(pixels.data[index + 1]);
  greys.sort((a, b) => a - b);
  return greys[Math.floor(greys.length / 2)];
}

/** The course layer's zoom limit: 1 fades it out as the sky's HiPS fades; Infinity is the course's own. */
function fadeLimit(page: Page, limit: number) {
  return page.evaluate(
    (maxTexelPixels) =>
      (
        window as unknown as {
          galaxyCruiseGlobe: { layers: { courseHips: { update(options: { maxTexelPixels: number }): void } } };
        }
      ).galaxyCruiseGlobe.layers.courseHips.update({ maxTexelPixels: maxTexelPixels ?? Infinity }),
    Number.isFinite(limit) ? limit : null,
  );
}

/** Closes every dialog open or queued (what answers earn arrives on its own). */
async function closeDialogs(page: Page) {
  const dialogs = page.getByRole('dialog');
  await expect
    .poll(
      async () => {
        if ((await dialogs.count()) > 0) await page.keyboard.press('Escape');
        return dialogs.count();
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBe(0);
}

/** Answers the target on screen (spiral, not interacting) and returns the object id posted. */
async function answer(page: Page): Promise<number> {
  const form = page.getByTestId('answer-form');
  await expect(form).toHaveAttribute('data-step', '1', { timeout: 60_000 });
  const posted = page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' && /\/api\/quests\/\d+\/answers$/.test(response.url()) && response.ok(),
    { timeout: 90_000 },
  );
  await page.keyboard.press('1');
  await expect(form).toHaveAttribute('data-step', '2');
  await page.keyboard.press('2');
  const response = await posted;
  return (response.request().postDataJSON() as { object_id: number }).object_id;
}

test('a volunteer chooses the imported course by its name, flies to its targets, sharp at the answer form, and answers them, in en and ja', async ({
  browser,
}) => {
  test.setTimeout(480_000);
  for (const locale of ['en', 'ja'] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await readyVolunteerOn(server, page.request, { email: `imported-${locale}-${Date.now()}@example.org`, locale });
    await openMainScreen(page, locale);
    const quest = await chooseCourse(page, locale);
    expect(quest.course_id).toBe(COURSE);
    for (const question of quest.questions) expect(question.object_id).toBeGreaterThanOrEqual(IMPORTED_OBJECT_IDS);
    // The course's HiPS is the course's survey layer, from the data repository.
    const courseHips = await page.evaluate(
      () =>
        (window as unknown as { galaxyCruiseGlobe: { layers: { courseHips: { options: { baseUrl: string } } } } })
          .galaxyCruiseGlobe.layers.courseHips.options.baseUrl,
    );
    expect(courseHips).toBe(`${server.url}/stellar-globe/static/imports/${COURSE}/hips`);
    const answered = quest.answers.map((entry) => entry.object_id);
    for (let step = 1; step <= TARGETS_ANSWERED[locale]; step++) {
      // Centred on the next target, at the answer form's zoom, which the course's light fills.
      const target = await flownToUnanswered(page, quest, answered);
      await expect(page.getByTestId('answer-form')).toBeVisible();
      await expect
        .poll(() => centreBrightness(page, `imported-course-${locale}-${step}.png`), { timeout: 60_000 })
        .toBeGreaterThan(40);
      if (step === 1) {
        // Faded out as the sky's HiPS is (a texel past a screen pixel), the screen would be dark here.
        await fadeLimit(page, 1);
        await expect.poll(() => centreBrightness(page, `imported-course-faded-${locale}.png`)).toBeLessThan(40);
        await fadeLimit(page, Infinity);
        await expect.poll(() => centreBrightness(page, `imported-course-${locale}-${step}.png`)).toBeGreaterThan(40);
        if (locale === 'ja') expect(await groupText(untranslated(page))).toEqual([]);
      }
      expect(await answer(page)).toBe(target.object_id);
      answered.push(target.object_id);
    }
    // The answers are on the server: the course's current quest holds them.
    await expect(page.getByTestId('pending-answers')).toHaveText('', { timeout: 60_000 });
    const current = (await (
      await page.request.get(`${server.url}/api/courses/${COURSE}/quests/current`)
    ).json()) as CurrentQuestResponse;
    expect(current.answers.map((entry) => entry.object_id).sort()).toEqual([...answered].sort());
    if (locale === 'en') {
      // The course's day ranking counts them, and the voyage log maps the course by its name (once
      // what the answers earned, a souvenir's piece, has been shown and closed).
      await closeDialogs(page);
      await page.getByTestId('ranking-link').click();
      const ranking = page.getByRole('dialog', { name: 'Ranking' });
      await ranking.getByRole('radio', { name: NAMES.en }).check();
      await expect(ranking.getByRole('table')).toContainText(NAMES.en);
      await expect(ranking.locator('tr[aria-current="true"] td').last()).toContainText(String(answered.length));
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Voyage log' }).click();
      await expect(page.getByRole('heading', { name: `Cruise map: ${NAMES.en}` })).toBeVisible({ timeout: 60_000 });
      await page.keyboard.press('Escape');
    }
    await context.close();
  }
});

test('the administrator lists the courses and closes the imported one, which leaves the volunteers’ course menu', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await readyVolunteerOn(server, page.request, { email: ADMIN_EMAIL });
  const volunteerContext = await browser.newContext();
  const volunteer = await volunteerContext.newPage();
  await readyVolunteerOn(server, volunteer.request, { email: `imported-closed-${Date.now()}@example.org` });
  await openMainScreen(volunteer, 'en');
  await expect(volunteer.getByTestId('course-select').locator('option', { hasText: NAMES.en })).toHaveCount(1);

  const listed = (await (await page.request.get(`${server.url}/api/admin/courses`)).json()) as AdminCourseEntry[];
  const entry = listed.find((course) => course.id === COURSE)!;
  expect(entry).toMatchObject({ imported: true, open: true, targets: 6 });
  expect(entry.answers).toBeGreaterThanOrEqual(2);

  for (const locale of ['ja', 'en'] as const) {
    await page.addInitScript((language) => localStorage.setItem('galaxy-cruise.locale', language), locale);
    await page.goto(`${server.url}/#/admin/courses`);
    // The same address again is no new load: the page reads the language the init script set.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: locale === 'en' ? 'Courses' : 'コース' })).toBeVisible({
      timeout: 60_000,
    });
    const row = page.locator(`tr[data-course="${COURSE}"]`);
    await expect(row.getByRole('rowheader')).toHaveText(NAMES[locale]);
    await expect(row.locator('td.number')).toHaveText(
      [entry.levels, entry.targets, entry.answered_targets, entry.volunteers, entry.answers].map(String),
    );
    await expect(page.locator('tr[data-course="season2"] td').last()).toHaveText(
      locale === 'en' ? 'Always open' : '常に公開',
    );
    await expectNoSeriousViolations(page, `admin courses (${locale})`);
    if (locale === 'ja') expect(await groupText(untranslated(page))).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`admin-courses-${locale}.png`), fullPage: true });
  }

  // Closed with the keyboard alone.
  const toggle = page.getByRole('button', { name: `Close ${NAMES.en} to volunteers` });
  for (let press = 0; press < 60 && !(await toggle.evaluate((element) => element === document.activeElement)); press++)
    await page.keyboard.press('Tab');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  const row = page.locator(`tr[data-course="${COURSE}"]`);
  await expect(row.locator('td').nth(6)).toHaveText('Closed');
  await expect(page.getByRole('button', { name: `Open ${NAMES.en} to volunteers` })).toBeVisible();

  // The volunteer's next visit no longer offers it, and its quests are refused. Had it been the
  // course chosen last, the screen opens season2 without asking for the closed course's quest
  // (whose refusal would raise an alert).
  const alerts: string[] = [];
  volunteer.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.dismiss();
  });
  await volunteer.evaluate((course) => localStorage.setItem('galaxy-cruise.course', course), COURSE);
  // A new load (not a change of the hash in the page, whose list of courses is the one from before).
  await volunteer.goto('about:blank');
  await volunteer.goto(`${server.url}/#/`);
  await expect(volunteer.getByTestId('answer-form')).toBeVisible({ timeout: 90_000 });
  await expect(volunteer.getByTestId('course-select').locator('option')).toHaveCount(5);
  await expect(volunteer.getByTestId('course-select')).toHaveValue('season2');
  expect(alerts).toEqual([]);
  expect((await volunteer.request.get(`${server.url}/api/courses/${COURSE}/quests/current`)).status()).toBe(403);
  await volunteerContext.close();
});
