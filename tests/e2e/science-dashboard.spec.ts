// The research dashboard end to end (issue 29): on a server with ADMIN_EMAILS, a volunteer
// answers galaxies of season2 in the browser, and the administrator's #/admin/science shows them
// (the course's answer count and today's classifications grow) and so does the course's CSV,
// downloaded through the page's own link: one row per target of the course, the answered targets
// with their volunteers. Two more volunteers answer the same targets the other way over HTTP, so
// that they become the most disputed targets, whose links fly the globe to them. The page is
// scanned by axe-core in English and Japanese, no English is left on the Japanese one, its
// screenshots are attached to the report, and the export and disputed-target links are reached
// with Tab. A volunteer is refused the page (told, in en and ja, that it is for administrators)
// and its calls, and the main screen never loads the chart library.
import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { CurrentQuestResponse } from '../../shared/api';
import type { ScienceSummary } from '../../shared/science';
import {
  ADMIN_EMAIL,
  readyVolunteerOn,
  startConfiguredServer,
  type ConfiguredServer,
} from '../helpers/configured-server';
import { attachScreenshot } from './attach-screenshot';
import { expectNoSeriousViolations } from './axe';
import { untranslated } from './untranslated';

type Quest = Extract<CurrentQuestResponse, { no_more_available_objects: false }>;

const COURSE = 'season2';
/** Answers given in the browser: fewer than the 3 that earn a puzzle piece in developer mode. */
const BROWSER_ANSWERS = 2;

let server: ConfiguredServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startConfiguredServer('science-dashboard');
});
test.afterAll(async () => {
  await server?.stop();
});

async function summary(page: Page): Promise<ScienceSummary> {
  const response = await page.request.get(`${server.url}/api/admin/science`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as ScienceSummary;
}

const count = (value: number) => new Intl.NumberFormat('en').format(value);

/** Presses Tab until `target` has the focus; fails after `limit` presses. */
async function tabTo(page: Page, target: Locator, limit = 150) {
  for (let press = 0; press < limit; press++) {
    if (await target.evaluate((element) => element === document.activeElement)) return press;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** A sentence of Observable Plot's own (one of its warnings), kept by any minifier. */
const PLOT_MARKER = 'implicit z channel has high cardinality';

/** The scripts `page` loads from now on, as their texts. */
function recordScripts(page: Page): Promise<string>[] {
  const scripts: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.text().catch(() => ''));
  });
  return scripts;
}

/** Warnings Observable Plot prints when a chart is drawn from data it does not expect. */
function recordPlotWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' && message.text().startsWith('Warning:')) warnings.push(message.text());
  });
  return warnings;
}

/** The dashboard of a server with no answers: every chart's 'No data yet.', the menu covering nothing. */
async function expectEmptyDashboard(
  page: Page,
  { locale, caption, none }: { locale: 'en' | 'ja'; caption: string; none: string },
) {
  const daily = page.locator('figure', { has: page.getByRole('heading', { name: caption, exact: true }) });
  await expect(daily.getByText(none, { exact: true })).toBeVisible();
  await expect(daily.locator('svg')).toHaveCount(0);
  for (const figure of await page.locator('figure.science-figure').all()) {
    await expect(figure.getByText(none, { exact: true })).toBeVisible();
  }
  await expectNoSeriousViolations(page, `research dashboard with no answers (${locale})`);
  await attachScreenshot(page, `research-dashboard-empty-${locale}`);
  // At 1280 × 720 the menu's button is in the page's header, and each table's first cell is itself
  // at its centre, not under the menu.
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(page.locator('.admin-header details.admin-menu-drop-down')).toBeVisible();
  for (const table of await page.locator('table.science-table').all()) {
    const cell = table.locator('th').first();
    await cell.scrollIntoViewIfNeeded();
    const box = (await cell.boundingBox())!;
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.closest('table')?.className ?? null,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(hit, 'a table under the menu').toContain('science-table');
  }
  await page.setViewportSize(size);
}

test('answers given in the browser appear in the research dashboard and its CSV export, in en and ja', async ({
  page,
  browser,
}) => {
  test.setTimeout(480_000);
  // Tall enough for the whole dashboard in one screenshot.
  await page.setViewportSize({ width: 1280, height: 2800 });
  const plotWarnings = recordPlotWarnings(page);
  const dashboardScripts = recordScripts(page);
  await readyVolunteerOn(server, page.request, { email: ADMIN_EMAIL });
  await page.goto(`${server.url}/#/admin/science`);
  await expect(page.getByRole('heading', { name: 'Research dashboard', level: 1 })).toBeVisible();
  const before = await summary(page);
  const courseBefore = before.courses.find((course) => course.course_id === COURSE)!;
  const todayBefore = before.days.at(-1)!;
  const courseRow = page.getByTestId(`science-course-${COURSE}`);
  await expect(courseRow.getByTestId('answers')).toHaveText(count(courseBefore.answers));

  // No answers yet (a fresh server): each chart says so rather than drawing bars of zeros, in en
  // and ja, axe-clean; the administrators' menu sits in the header, over none of the tables.
  expect(before.days.every((day) => day.answers === 0 && day.volunteers === 0)).toBe(true);
  await expectEmptyDashboard(page, { locale: 'en', caption: 'Classifications per day', none: 'No data yet.' });
  await page.keyboard.press('Shift+J');
  await expectEmptyDashboard(page, { locale: 'ja', caption: '1日ごとの分類数', none: 'まだデータがありません。' });
  await page.keyboard.press('Shift+E');
  await expect(page.getByRole('heading', { name: 'Research dashboard', level: 1 })).toBeVisible();

  // A volunteer answers galaxies of the course in the browser (spiral, not interacting), and is
  // refused the dashboard and its calls.
  const context = await browser.newContext();
  const volunteer = await context.newPage();
  await readyVolunteerOn(server, volunteer.request, { email: `science-${Date.now()}@example.org` });
  expect((await volunteer.request.get(`${server.url}/api/admin/science`)).status()).toBe(403);
  expect((await volunteer.request.get(`${server.url}/api/admin/courses/${COURSE}/export?format=csv`)).status()).toBe(
    403,
  );
  const answered: number[] = [];
  volunteer.on('response', (response) => {
    if (response.request().method() === 'POST' && /\/api\/quests\/\d+\/answers$/.test(response.url()) && response.ok())
      answered.push((response.request().postDataJSON() as { object_id: number }).object_id);
  });
  const mainScreenScripts = recordScripts(volunteer);
  await volunteer.goto(`${server.url}/#/?course=${COURSE}`);
  const form = volunteer.getByTestId('answer-form');
  for (let answer = 1; answer <= BROWSER_ANSWERS; answer++) {
    await expect(form).toBeVisible({ timeout: 90_000 });
    await expect(volunteer.getByTestId('cruise-target')).not.toContainText('answered');
    await expect(form).toHaveAttribute('data-step', '1');
    await volunteer.keyboard.press('1');
    await expect(form).toHaveAttribute('data-step', '2');
    await volunteer.keyboard.press('2');
    await expect(volunteer.getByTestId('pending-answers')).toHaveText('', { timeout: 60_000 });
    await expect.poll(() => answered.length, { timeout: 60_000 }).toBe(answer);
  }
  // The chart library comes with the dashboard only: the main screen never loads it.
  expect(mainScreenScripts.length).toBeGreaterThan(0);
  for (const script of await Promise.all(mainScreenScripts)) expect(script).not.toContain(PLOT_MARKER);
  expect((await Promise.all(dashboardScripts)).some((script) => script.includes(PLOT_MARKER))).toBe(true);
  // A volunteer is told the page is for administrators, in English and in Japanese.
  await volunteer.goto(`${server.url}/#/admin/science`);
  await expect(volunteer.getByRole('alert')).toHaveText('This page is for administrators. Your account is not one.');
  await volunteer.evaluate(() => localStorage.setItem('galaxy-cruise.locale', 'ja'));
  await volunteer.reload();
  await expect(volunteer.getByRole('alert')).toHaveText(
    'このページは管理者専用です。あなたのアカウントは管理者ではありません。',
  );
  await context.close();

  // The dashboard, left open, shows them within its refresh.
  await expect(courseRow.getByTestId('answers')).toHaveText(count(courseBefore.answers + BROWSER_ANSWERS));
  await expect(courseRow.getByTestId('volunteers')).toHaveText(count(courseBefore.volunteers + 1));
  const today = page.getByTestId('science-daily-answers').locator(`tr[data-day="${todayBefore.day}"] td`);
  await expect(today).toHaveText(count(todayBefore.answers + BROWSER_ANSWERS));

  // Two more volunteers answer the same targets the other way (elliptical, interacting) over
  // HTTP: three volunteers split two to one make them disputed.
  for (const label of ['second', 'third']) {
    const other = await browser.newContext();
    await readyVolunteerOn(server, other.request, { email: `science-${label}-${Date.now()}@example.org` });
    const quest = (await (
      await other.request.get(`${server.url}/api/courses/${COURSE}/quests/current`)
    ).json()) as Quest;
    for (const objectId of answered) {
      const posted = await other.request.post(`${server.url}/api/quests/${quest.id}/answers`, {
        data: {
          object_id: objectId,
          galaxy_type: 'elliptical',
          interaction: 'yes',
          ring: false,
          fan: false,
          tail: false,
          distorted: false,
        },
      });
      expect(posted.ok(), await posted.text()).toBe(true);
    }
    await other.close();
  }
  for (const objectId of answered)
    await expect(page.getByRole('link', { name: `Fly to ${objectId}` })).toBeVisible({ timeout: 60_000 });
  await expect(courseRow.getByTestId('answers')).toHaveText(count(courseBefore.answers + 3 * BROWSER_ANSWERS));

  await expectNoSeriousViolations(page, 'research dashboard (en)');
  expect(plotWarnings).toEqual([]);
  await attachScreenshot(page, 'research-dashboard-en');

  // The keyboard reaches the course's exports and the disputed targets' links.
  await page.getByRole('button', { name: 'Back' }).focus();
  const csv = courseRow.getByRole('link', { name: 'Download the Season 2 catalogue as CSV' });
  await tabTo(page, csv);
  await tabTo(page, courseRow.getByRole('link', { name: 'Download the Season 2 catalogue as VOTable' }));
  const disputed = page.getByRole('link', { name: `Fly to ${answered[0]}` });
  await tabTo(page, disputed);

  // The CSV, downloaded through the page's link: a row per target, the answered ones with their
  // three volunteers.
  const downloaded = page.waitForEvent('download');
  await csv.click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const lines = fs
    .readFileSync(await download.path(), 'utf8')
    .split(/\r\n/)
    // The ECSV header's '#' lines say where the file comes from; the table follows.
    .filter((line) => line !== '' && !line.startsWith('#'));
  const header = lines[0].split(',');
  const rows = lines.slice(1).map((line) => line.split(','));
  const after = (await summary(page)).courses.find((course) => course.course_id === COURSE)!;
  expect(rows).toHaveLength(after.targets);
  const column = (name: string) => header.indexOf(name);
  expect(column('object_id')).toBeGreaterThanOrEqual(0);
  expect(new Set(rows.map((row) => row[column('object_id')])).size).toBe(after.targets);
  for (const objectId of answered) {
    const row = rows.find((fields) => fields[column('object_id')] === String(objectId));
    expect(row?.[column('volunteers')], `volunteers of ${objectId}`).toBe('3');
    expect(row?.[column('n_spiral')]).toBe('1');
    expect(row?.[column('n_elliptical')]).toBe('2');
  }

  // The same page in Japanese: axe-clean, no English left, its screenshot.
  await page.keyboard.press('Shift+J');
  await expect(page.getByRole('heading', { name: '研究ダッシュボード', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: `${answered[0]}へ移動` })).toBeVisible();
  await expectNoSeriousViolations(page, 'research dashboard (ja)');
  expect(await untranslated(page)).toEqual([]);
  await attachScreenshot(page, 'research-dashboard-ja');
  await page.keyboard.press('Shift+E');

  // A disputed target's link flies the globe to it: the main screen at its view.
  const target = (await summary(page)).disputed.find((entry) => entry.object_id === answered[0])!;
  await disputed.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/\?ra=/);
  // The main screen settles on the linked view (its camera writes the address as it moves there).
  const view = () => new URLSearchParams(new URL(page.url()).hash.split('?')[1]);
  await expect.poll(() => Math.abs(Number(view().get('ra')) - target.ra)).toBeLessThan(5e-5);
  expect(Number(view().get('dec'))).toBeCloseTo(target.dec, 4);
  expect(Number(view().get('fov'))).toBeCloseTo(0.05, 6);
});

test('the administrator menu opens the research dashboard', async ({ page }) => {
  expect(
    (
      await page.request.post(`${server.url}/api/session`, {
        data: { email: ADMIN_EMAIL, password: 'correct horse battery' },
      })
    ).ok(),
  ).toBe(true);
  await page.goto(`${server.url}/#/admin/notifications`);
  // The menu is a drop-down at the end of the admin page's header.
  await page.locator('.admin-header summary', { hasText: 'Admin menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Administrator menu' });
  await menu.getByText('Admin', { exact: true }).click();
  await menu.getByRole('link', { name: 'Research dashboard' }).click();
  await expect(page).toHaveURL(/#\/admin\/science$/);
  await expect(page.getByRole('heading', { name: 'Research dashboard', level: 1 })).toBeVisible();
});
