// The cruise suite's login: a volunteer logs in on the main screen and sails to the first target,
// timed from the click on 'Log in' to the first frame at rest on it, with where the time went (the
// login's POST and the quest answered, the captain's message, the answer form, the first jump, the
// survey tiles). The second visit (cruise-revisit.ts) times its logins with it too.
import os from 'node:os';
import path from 'node:path';
import { BROWSER_TIMEOUT_MS, openPage, type BenchPage, type BenchServer, type PlaywrightBrowser } from './browser';
import { BENCH_HOST, VIEWPORT, type BenchWindow } from './cruise-page';
import { CAPTAIN_TITLE, PASSWORD } from './cruise-volunteer';
import { PROBE } from './globe-probe';
import { watchPage } from './globe';

/** A survey tile's file, as the main screen asks for it (the sky repository's layout). */
const SURVEY_TILE_URL = /\/(wide|dud|simulation)\/HSC-[GRI]\/.+\.png$/;

/** Opens a throttled page as galaxy-cruise.bench and logs `email` in (loginOnPage). */
export async function loginOnce(browser: PlaywrightBrowser, server: BenchServer, email: string, throttle: number) {
  const opened = await openPage(browser, {
    throttle,
    viewport: VIEWPORT,
    hosts: [BENCH_HOST, '127.0.0.1'],
    initScripts: [PROBE],
  });
  return loginOnPage(opened, `http://${BENCH_HOST}:${server.port}`, email);
}

/**
 * Opens the login screen of `origin` in `opened`'s page (PROBE injected), logs `email` in and
 * waits for the first target sharp, then for the page to settle; the times are login → target's.
 * With `captainMessage` the captain's unread message is awaited and OK'd on the way.
 */
export async function loginOnPage(
  opened: BenchPage,
  origin: string,
  email: string,
  { captainMessage = true }: { captainMessage?: boolean } = {},
) {
  const { context, page } = opened;
  const watch = watchPage(context, page);
  await page.goto(`${origin}/#/login`, { timeout: BROWSER_TIMEOUT_MS });
  await watch.ready();
  await page.getByLabel('E-mail').fill(email, { timeout: BROWSER_TIMEOUT_MS });
  await page.getByLabel('Password').fill(PASSWORD);
  // The click's own time (its event's timeStamp, on the page's clock), not the moment Playwright
  // starts to check that the button can be clicked: with frames hundreds of ms long on a slow
  // machine, its checks (the button stable over two animation frames) take as long again.
  await page.evaluate(() =>
    window.addEventListener('pointerdown', (event) => Object.assign(window, { benchClickAt: event.timeStamp }), {
      capture: true,
      once: true,
    }),
  );
  // The login's requests, as the network saw them (ms since the epoch, as watch.tiles).
  const seen: { sessionAt?: number; questAt?: number; firstTileAt?: number } = {};
  context.on('requestfinished', (request) => {
    const pathname = new URL(request.url()).pathname;
    if (request.method() === 'POST' && pathname === '/api/session') seen.sessionAt ??= Date.now();
    if (/^\/api\/courses\/\w+\/quests\/current$/.test(pathname)) seen.questAt ??= Date.now();
  });
  context.on('request', (request) => {
    if (seen.sessionAt !== undefined && SURVEY_TILE_URL.test(new URL(request.url()).pathname))
      seen.firstTileAt ??= Date.now();
  });
  // The camera's first jump after the login: its first and last frame on the move (page clock).
  await page.evaluate(() => {
    const bench = window as unknown as BenchWindow & { benchLoginJump: { start: number | null; end: number | null } };
    bench.benchLoginJump = { start: null, end: null };
    setInterval(() => {
      if (!bench.galaxyCruiseGlobe?.globe.jumping) return;
      bench.benchLoginJump.start ??= performance.now();
      bench.benchLoginJump.end = performance.now();
    }, 16);
  });
  await page.getByRole('button', { name: 'Log in' }).click();
  const clickAt = await page.evaluate(() => (window as unknown as { benchClickAt: number }).benchClickAt);
  // The captain's unread message opens on its own; the volunteer reads it and presses OK at once.
  let messageAt: number | null = null;
  if (captainMessage) {
    const message = page.getByRole('dialog', { name: CAPTAIN_TITLE });
    await message.waitFor({ timeout: BROWSER_TIMEOUT_MS });
    messageAt = await page.evaluate(() => performance.now());
    await message.getByRole('button', { name: 'OK' }).click();
  }
  try {
    await page.getByTestId('answer-form').waitFor({ timeout: BROWSER_TIMEOUT_MS });
  } catch (error) {
    // What the volunteer saw instead, for whoever reads the failure.
    const shot = path.join(os.tmpdir(), 'bench-cruise-login.png');
    await page.screenshot({ path: shot }).catch(() => {});
    throw new Error(`no answer form after logging in at ${page.url()} (screenshot: ${shot})`, { cause: error });
  }
  const formAt = await page.evaluate(() => performance.now());
  // The first frame at rest once the form is up: the jump there over, its tiles in and faded. Any
  // frame of the jump came before the form and reset the rest.
  const sharpAt = (await (
    await page.waitForFunction(
      () => (window as unknown as BenchWindow).galaxyCruiseGlobe?.globe.restingSince ?? null,
      undefined,
      { timeout: BROWSER_TIMEOUT_MS, polling: 50 },
    )
  ).jsonValue())!;
  // Settled (the next target prefetched too) before Aladin Lite's run beside it.
  await watch.quiet();
  // The answers' POSTs as they end (ms since the epoch, as watch.tiles).
  const answerPosts: number[] = [];
  context.on('requestfinished', (request) => {
    if (request.method() === 'POST' && /\/api\/quests\/\d+\/answers$/.test(new URL(request.url()).pathname))
      answerPosts.push(Date.now());
  });
  // The tiles that came in before the view was sharp, for the log: how many, the last one when.
  const tilesIn = watch.tiles
    .map((time) => time - watch.timeOrigin())
    .filter((time) => time >= clickAt && time <= sharpAt);
  const tilesMs = tilesIn.length === 0 ? null : tilesIn[tilesIn.length - 1] - clickAt;
  const fromClick = (at: number | undefined) => (at === undefined ? null : at - watch.timeOrigin() - clickAt);
  const jump = await page.evaluate(
    () => (window as unknown as { benchLoginJump: { start: number | null; end: number | null } }).benchLoginJump,
  );
  const breakdown = {
    sessionMs: fromClick(seen.sessionAt),
    questMs: fromClick(seen.questAt),
    messageMs: messageAt === null ? null : messageAt - clickAt,
    formMs: formAt - clickAt,
    jumpStartMs: jump.start === null ? null : jump.start - clickAt,
    jumpEndMs: jump.end === null ? null : jump.end - clickAt,
    firstTileMs: fromClick(seen.firstTileAt),
    lastTileMs: tilesMs,
  };
  return {
    ...opened,
    watch,
    answerPosts,
    /** The page's clock: the click on 'Log in' and the first frame at rest on the first target. */
    clickAt,
    sharpAt,
    loginToTargetMs: sharpAt - clickAt,
    tiles: tilesIn.length,
    tilesMs,
    breakdown,
  };
}
