// A research course under a crowd (issue 39), in the browser, on a server where the real
// `galaxy-cruise import` wrote the course before it started: its imagery is a science HiPS of FITS
// tiles alone written by healpy (tests/helpers/make_import_hips.py, hips-fits/: six galaxies of
// Gaussian light), and its retirement rule settles a target at its first volunteer. A volunteer
// flies to the first target and sees its galaxy centred, drawn through the FITS decoder and the
// course's colour settings (bright in the middle of the screen, the sky around it black). Once
// other volunteers have classified every target, volunteers who come late are told, in English
// and in Japanese, that no galaxy is left (application-spec §4's "no available galaxy") and are
// offered another course.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { CurrentQuestResponse } from '../../shared/api';
import type { CourseEntry } from '../../shared/courses';
import { readyVolunteerOn, startConfiguredServer, type ConfiguredServer } from '../helpers/configured-server';
import { targetCluster, writeSurvey, type SurveyFolder } from '../helpers/import-fixture';
import { pythonReferences } from '../helpers/python-references';
import { expectNoSeriousViolations } from './axe';
import { canvasPixels } from './canvas-pixels';

const COURSE = 'crowd-e2e';
const NAMES = { en: `Survey ${COURSE}`, ja: `サーベイ ${COURSE}` } as const;
const DEGREE = Math.PI / 180;
/** application-spec §4's "no available galaxy" (src/app/features/cruise/strings.ts). */
const NO_GALAXY = { en: 'No galaxy available', ja: '分類できる銀河がありません' } as const;

let server: ConfiguredServer;
let survey: SurveyFolder;
let galaxies: { ra: number; dec: number }[];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const references = pythonReferences('make_import_hips.py', 'import-hips', 'expected.json');
  ({ galaxies } = JSON.parse(fs.readFileSync(path.join(references, 'expected.json'), 'utf8')) as {
    galaxies: { ra: number; dec: number }[];
  });
  // The list's targets are where healpy put the galaxies.
  survey = writeSurvey({
    id: COURSE,
    targets: targetCluster(galaxies.length, galaxies[0]!.ra, galaxies[0]!.dec),
    hips: path.join(references, 'hips-fits'),
    retirement: { max_volunteers: 1 },
  });
  const bin = path.join(process.cwd(), 'bin', 'galaxy-cruise.mjs');
  server = await startConfiguredServer('research-crowd', {
    beforeServe: (env) =>
      execFileSync(process.execPath, [bin, 'import', '--allow-root', references, survey.manifest], {
        env: { ...process.env, ...env },
      }),
  });
});
test.afterAll(async () => {
  await server?.stop();
  survey?.remove();
});

/** Opens the main screen on season2, then chooses the course by its name in the course menu. */
async function openCourse(page: Page, locale: 'en' | 'ja') {
  await page.addInitScript((language) => localStorage.setItem('galaxy-cruise.locale', language), locale);
  await page.goto(`${server.url}/#/?course=season2`);
  await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 90_000 });
  const menu = page.getByTestId('course-select');
  await expect(menu.locator('option', { hasText: NAMES[locale] })).toHaveCount(1, { timeout: 60_000 });
  await menu.selectOption({ label: NAMES[locale] });
}

/** The camera's centre and field of view, degrees. */
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

/** The median green of a 40 × 40 window of the globe, `dx`, `dy` pixels from its centre. */
async function brightness(page: Page, dx: number, dy: number, screenshot?: string): Promise<number> {
  const canvas = page.getByTestId('globe-canvas');
  const box = (await canvas.boundingBox())!;
  const pixels = await canvasPixels(
    page,
    canvas,
    { x0: box.width / 2 + dx - 20, y0: box.height / 2 + dy - 20, width: 40, height: 40 },
    screenshot,
  );
  const greens: number[] = [];
  for (let index = 0; index < pixels.data.length; index += 4) greens.push(pixels.data[index + 1]!);
  greens.sort((a, b) => a - b);
  return greens[Math.floor(greens.length / 2)]!;
}

test('draws the FITS tiles healpy wrote, coloured by the course, with the galaxy centred at the answer form', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await readyVolunteerOn(server, page.request, { email: `fits-${Date.now()}@example.org` });
  // The course carries the colour its FITS tiles are drawn with (from hips_pixel_cut = 0 100).
  const courses = (await (await page.request.get(`${server.url}/api/courses`)).json()) as CourseEntry[];
  const entry = courses.find((course) => course.id === COURSE)!;
  expect(entry.hips_colour).toMatchObject({ nFilters: 1, a: 0.01, b: 0 });
  const tiles: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(`/imports/${COURSE}/hips/Norder`)) tiles.push(request.url());
  });
  await openCourse(page, 'en');
  const quest = (await (
    await page.request.get(`${server.url}/api/courses/${COURSE}/quests/current`)
  ).json()) as Extract<CurrentQuestResponse, { no_more_available_objects: false }>;
  // Centred on a galaxy of the quest, at the answer form's zoom.
  await expect
    .poll(
      async () => {
        const view = await cameraView(page);
        return (
          quest.questions.some(
            (question) =>
              Math.hypot((view.ra - question.ra) * Math.cos(question.dec * DEGREE), view.dec - question.dec) < 0.0005,
          ) && view.fovy < 0.1
        );
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  // The galaxy's light in the middle, the black sky 27" (5 sigma) away.
  await expect
    .poll(() => brightness(page, 0, 0, 'research-crowd-fits-galaxy.png'), { timeout: 60_000 })
    .toBeGreaterThan(150);
  expect(await brightness(page, -300, 0)).toBeLessThan(30);
  expect(await brightness(page, 0, -250)).toBeLessThan(30);
  // Only FITS tiles were asked for, every one of them the HiPS has.
  expect(tiles.length).toBeGreaterThan(0);
  for (const url of tiles) expect(url).toMatch(/\.fits$/);
  await context.close();
});

test('tells the volunteers who come after every target is classified that no galaxy is left, in en and ja', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  // Volunteers before them classify every target (the rule retires each at its first volunteer).
  const early = await browser.newContext();
  await readyVolunteerOn(server, early.request, { email: `early-${Date.now()}@example.org` });
  for (let quests = 0; quests < 10; quests++) {
    const quest = (await (
      await early.request.get(`${server.url}/api/courses/${COURSE}/quests/current`)
    ).json()) as CurrentQuestResponse;
    if (quest.no_more_available_objects) break;
    for (const question of quest.questions) {
      const posted = await early.request.post(`${server.url}/api/quests/${quest.id}/answers`, {
        data: { object_id: question.object_id, galaxy_type: 'spiral', interaction: 'no' },
      });
      expect(posted.status()).toBeLessThan(500);
    }
  }
  await early.close();
  for (const locale of ['en', 'ja'] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await readyVolunteerOn(server, page.request, { email: `late-${locale}-${Date.now()}@example.org`, locale });
    // The science settles the answers within a second or two.
    await expect
      .poll(
        async () => {
          const response = await page.request.get(`${server.url}/api/courses/${COURSE}/quests/current`);
          expect(response.status()).toBe(200);
          return ((await response.json()) as CurrentQuestResponse).no_more_available_objects;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await openCourse(page, locale);
    const dialog = page.getByRole('dialog', { name: NO_GALAXY[locale] });
    await expect(dialog).toBeVisible({ timeout: 90_000 });
    await expect(page.getByTestId('course-complete')).toContainText(NO_GALAXY[locale]);
    await expectNoSeriousViolations(page, `no galaxy left (${locale})`);
    await page.screenshot({ path: test.info().outputPath(`research-crowd-no-galaxy-${locale}.png`) });
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    // Another course is offered.
    await expect(
      page.getByRole('button', { name: locale === 'en' ? 'Choose another course' : 'ほかのコースを選ぶ' }),
    ).toBeVisible();
    await context.close();
  }
});
