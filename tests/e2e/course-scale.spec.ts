// A course of research size (issue 41): 100,000 targets spread over the whole sky, imported by the
// real command before the server starts (10,000 levels of 100,000 areas). The research dashboard
// stays readable: the course's progress comes as at most PROGRESS_ROWS runs of levels, each named
// by its span, with the course's totals; axe-clean in en and ja, screenshots attached. A volunteer
// asks for the course's levels and gets the window around the active one (LEVEL_WINDOW), the
// course's areas counted whole by GET /api/server_info, and sails it: the voyage log's cruise map
// draws the window's levels.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { LevelSummary, ServerInfoResponse } from '../../shared/api';
import type { ScienceSummary } from '../../shared/science';
import { LEVEL_WINDOW } from '../../server/game/levels';
import { PROGRESS_ROWS } from '../../server/science/dashboard';
import {
  ADMIN_EMAIL,
  readyVolunteerOn,
  startConfiguredServer,
  type ConfiguredServer,
} from '../helpers/configured-server';
import { writeSurvey, type FixtureTarget, type SurveyFolder } from '../helpers/import-fixture';
import { attachScreenshot } from './attach-screenshot';
import { expectNoSeriousViolations } from './axe';
import { untranslated } from './untranslated';

const COURSE = 'sky-wide';
const NAMES = { en: `Survey ${COURSE}`, ja: `サーベイ ${COURSE}` } as const;
const TARGETS = 100_000;

let server: ConfiguredServer;
let survey: SurveyFolder;

test.describe.configure({ mode: 'serial' });

/** `count` targets spread evenly over the sphere (a Fibonacci lattice). */
function skyWide(count: number): FixtureTarget[] {
  const golden = Math.PI * (3 - Math.sqrt(5));
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    ra: ((((index * golden * 180) / Math.PI) % 360) + 360) % 360,
    dec: (Math.asin(1 - (2 * (index + 0.5)) / count) * 180) / Math.PI,
  }));
}

test.beforeAll(async () => {
  test.setTimeout(600_000);
  survey = writeSurvey({ id: COURSE, targets: skyWide(TARGETS) });
  const bin = path.join(process.cwd(), 'bin', 'galaxy-cruise.mjs');
  server = await startConfiguredServer('course-scale', {
    beforeServe: (env) =>
      execFileSync(process.execPath, [bin, 'import', survey.manifest], { env: { ...process.env, ...env } }),
  });
});
test.afterAll(async () => {
  await server?.stop();
  survey?.remove();
});

/** Latin text left on a Japanese screen, but the group's own course id. */
async function groupText(found: Promise<string[]>): Promise<string[]> {
  return (await found).filter((text) => !text.includes(COURSE));
}

test('the research dashboard lists a course of 100,000 targets in runs of levels, in en and ja', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 2400 });
  await readyVolunteerOn(server, page.request, { email: ADMIN_EMAIL });
  const summary = (await (await page.request.get(`${server.url}/api/admin/science`)).json()) as ScienceSummary;
  const course = summary.courses.find((entry) => entry.course_id === COURSE)!;
  expect(course.targets).toBe(TARGETS);
  expect(course.levels.length).toBeLessThanOrEqual(PROGRESS_ROWS);
  expect(course.levels[0].levels!.first).toBe(1);
  const lastLevel = course.levels.at(-1)!.levels!.last;
  expect(lastLevel).toBeGreaterThan(1000);
  expect(course.levels.reduce((sum, row) => sum + row.targets, 0)).toBe(TARGETS);

  await page.goto(`${server.url}/#/admin/science`);
  await expect(page.getByRole('heading', { name: 'Research dashboard', level: 1 })).toBeVisible({ timeout: 60_000 });
  const count = (value: number, locale: string) => new Intl.NumberFormat(locale).format(value);
  const progress = page.locator('section', {
    has: page.getByRole('heading', { name: 'Progress per course and level' }),
  });
  const rows = progress.locator('tbody tr', { hasText: NAMES.en });
  await expect(rows).toHaveCount(course.levels.length);
  const firstSpan = `Levels 1–${count(course.levels[0].levels!.last, 'en')}`;
  await expect(rows.first().getByRole('rowheader')).toHaveText(firstSpan);
  await expect(rows.last().getByRole('rowheader')).toContainText(count(lastLevel, 'en'));
  await expect(page.getByTestId(`science-course-${COURSE}`)).toContainText(count(TARGETS, 'en'));
  await expectNoSeriousViolations(page, 'research dashboard with a 100,000-target course (en)');
  await attachScreenshot(page, 'research-dashboard-100k-en');

  await page.keyboard.press('Shift+J');
  await expect(page.getByRole('heading', { name: '研究ダッシュボード', level: 1 })).toBeVisible();
  const progressJa = page.locator('section', {
    has: page.getByRole('heading', { name: 'コース・レベルごとの進み具合' }),
  });
  await expect(progressJa.locator('tbody tr', { hasText: NAMES.ja }).first().getByRole('rowheader')).toHaveText(
    `レベル 1〜${count(course.levels[0].levels!.last, 'ja')}`,
  );
  await expectNoSeriousViolations(page, 'research dashboard with a 100,000-target course (ja)');
  expect(await groupText(untranslated(page))).toEqual([]);
  await attachScreenshot(page, 'research-dashboard-100k-ja');
  await page.keyboard.press('Shift+E');
});

test("a volunteer gets the window of the course's levels, its areas counted whole, and its cruise map", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await readyVolunteerOn(server, page.request, { email: `course-scale-${Date.now()}@example.org` });
  const info = (await (await page.request.get(`${server.url}/api/server_info`)).json()) as ServerInfoResponse;
  const areas = Object.values(info.number_of_areas[COURSE]!);
  expect(areas.reduce((sum, value) => sum + value, 0)).toBeGreaterThan(TARGETS / 8);
  expect(areas.length).toBeGreaterThan(LEVEL_WINDOW);
  const levels = (await (
    await page.request.get(`${server.url}/api/levels?course_id=${COURSE}`)
  ).json()) as LevelSummary[];
  expect(levels.map((level) => level.status)).toEqual(['active', ...Array<string>(LEVEL_WINDOW - 1).fill('locked')]);
  expect(levels.map((level) => level.key)).toEqual(Object.keys(info.number_of_areas[COURSE]!).slice(0, LEVEL_WINDOW));

  await page.addInitScript(() => localStorage.setItem('galaxy-cruise.locale', 'en'));
  await page.goto(`${server.url}/#/?course=${COURSE}`);
  await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('course-select')).toHaveValue(COURSE);
  // The voyage log's map asks for the window's levels only, and draws them.
  const details: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/levels\/\d+$/.test(request.url())) details.push(request.url());
  });
  await page.getByRole('button', { name: 'Voyage log' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: `Cruise map: ${NAMES.en}` })).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => details.length, { timeout: 60_000 }).toBe(LEVEL_WINDOW);
  await expectNoSeriousViolations(page, 'voyage log of a 100,000-target course');
  await attachScreenshot(page, 'cruise-map-100k-en');
  expect(details).toHaveLength(LEVEL_WINDOW);
  await context.close();
});
