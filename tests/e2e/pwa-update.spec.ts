// A new version of the installable app (issue 43, docs/offline.md), with two real builds: the
// e2e build (A) and a second one made here with another GALAXY_CRUISE_VERSION (B), served in turn
// by a server of this spec's own from one folder whose link is switched from A to B, as a deploy
// replaces the files. A page that holds A (its service worker in control) starts again after the
// deploy: it opens on A from the cache, says that a new version is ready (in English, then in
// Japanese), and its Reload runs B.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServer, varDirectoryWithSmallSky, type RunningServer } from '../helpers/serve';
import { expectNoSeriousViolations } from './axe';
import { SCREENSHOTS } from './canvas-pixels';

const VERSION_B = 'update-test-b';

let directory: string;
let varDirectory: string;
let served: string;
let buildA: string;
let buildB: string;
let server: RunningServer | undefined;

/** Points the served folder at `build`, replacing the link in one rename. */
function deploy(build: string): void {
  const next = `${served}.next`;
  fs.rmSync(next, { force: true });
  fs.symlinkSync(build, next);
  fs.renameSync(next, served);
}

test.beforeAll(async () => {
  test.setTimeout(600_000);
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-pwa-update-'));
  buildA = path.resolve(process.env.DIST_DIR ?? 'dist');
  buildB = path.join(directory, 'dist-b');
  // The second build: the same sources, another version, so another bundle and another worker.
  execFileSync(path.resolve('node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn', '--emptyOutDir'], {
    env: { ...process.env, DIST_DIR: buildB, GALAXY_CRUISE_VERSION: VERSION_B },
    stdio: 'ignore',
  });
  served = path.join(directory, 'served');
  deploy(buildA);
  varDirectory = await varDirectoryWithSmallSky();
  server = await startServer(
    { VAR_DIR: varDirectory, DIST_DIR: served, GALAXY_CRUISE_SKY: 'small', RATE_LIMITS: 'off' },
    240_000,
  );
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(directory, { recursive: true, force: true });
  fs.rmSync(varDirectory, { recursive: true, force: true });
});

const version = (page: Page) => page.evaluate(() => document.documentElement.dataset.version);

test('a new build served to a page holding the old one: the notice appears, in English and Japanese, and Reload runs the new version', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto(`${server!.url}/#/login`);
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, {
    timeout: 120_000,
  });
  const versionA = await version(page);
  expect(versionA).toBe((JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version);
  await expect(page.getByTestId('update-notice')).toHaveCount(0);

  deploy(buildB);
  // The next start: the page opens on the version it holds, from its cache, while the browser
  // fetches the worker again and finds a new one, which waits.
  await page.reload();
  expect(await version(page)).toBe(versionA);
  const notice = page.getByTestId('update-notice');
  await expect(notice).toBeVisible({ timeout: 120_000 });
  await expect(notice).toHaveText('A new version is ready.Reload');
  await expectNoSeriousViolations(page, 'the new-version notice over the login screen');
  await page.getByLabel('Language').selectOption('ja');
  await expect(notice).toHaveText('新しいバージョンがあります。再読み込み');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'pwa-update-notice-ja.png') });
  expect(await version(page)).toBe(versionA);

  await notice.getByRole('button', { name: '再読み込み' }).click();
  await expect.poll(() => version(page), { timeout: 60_000 }).toBe(VERSION_B);
  await expect(page.getByTestId('update-notice')).toHaveCount(0);
  // And it stays the new version: the page is B's from the cache too.
  await page.reload();
  expect(await version(page)).toBe(VERSION_B);
  await expect(page.getByTestId('update-notice')).toHaveCount(0);
});
