// The cruise suite: a scripted volunteer on the real main screen, in Debian's Chromium
// at 1280 × 720 with its CPU slowed down 4× (a low-end laptop), against our real server on this
// machine with the small sky. The page is opened as galaxy-cruise.bench, a name Chromium maps to
// 127.0.0.1 and not a local host name, so the application runs with a volunteer's constants, not
// developer mode's (developerMode.ts looks at the page's host name): the jump to the nearest
// unanswered galaxy takes 2 s, N's 1 s, flashes last 1 s. Every request to another host is aborted.
//   login → first target   from the click on 'Log in' (its pointerdown event's time) to the first
//                          frame at rest once the first target's answer form is up (its tiles in
//                          and faded, Globe.restingSince; the page goes on to prefetch the next
//                          target, so its network is not quiet then); beside it, in the same run,
//                          the reference:
//                          Aladin Lite's first complete view of the same field (fov 0.02°) from
//                          its page's load, measured alike (globe.ts); under the table, where
//                          it went: the login's POST and the quest answered, the first survey
//                          tile asked for, the last tile in; before each login the captain (an
//                          administrator) leaves a new message, so that the volunteer meets an
//                          unread one as after a real login: when it is on screen (OK'd at once),
//                          the answer form, the camera's first jump after the login
//   submit → quiet         from the key that sends an answer to the last frame drawn once the
//                          network and the drawing are quiet, as Aladin Lite's first view (the
//                          next target on screen and the one after it prefetched)
//   submit → sharp         from the key that sends an answer to the first frame at rest on the next
//                          target: its tiles all in and faded, the jump and its level-of-detail bias
//                          over, nothing asking for another frame (Globe.restingSince); beside it the
//                          jump's duration as drawn (its first to its last camera move; nominally
//                          2 s), the target being the jump + 300 ms (issue 31); the key is the
//                          answer's last (Enter on a captain's note), timed by its keydown event
//   frame median           the intervals between animation frames during the answers' jumps (from
//                          each jump's first camera move to its last: a moving view draws every
//                          frame, so each interval is a frame's whole main-thread cost, as the
//                          globe suite times its cruise), against Aladin Lite's flying the same
//                          jumps in the same run (the cruise's first ALADIN_JUMPS: same targets,
//                          same durations, the same great circle and zoom dip as our Jump, each
//                          from a complete view)
//   answers per minute     sustained over the whole session, keys only (1/2/3, Enter on a captain's
//                          note, N for the next galaxy)
//   heap                   the page's JavaScript heap after a garbage collection, after the first
//                          50 answers and after the last (200): growth at most 20 %
// The small sky's areas hold four galaxies, so the volunteer never answers the last unanswered
// galaxy of an area: N takes it to an answered one, answered again (the server replaces an
// answer); each answer still goes through the queue, the server and the jump to the next target.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CurrentQuestResponse, Question } from '../shared/api';
import {
  BROWSER_TIMEOUT_MS,
  buildClient,
  heapAfterGc,
  launchChromium,
  openPage,
  startServer,
  type BenchPage,
  type BenchServer,
  type PlaywrightBrowser,
  type PlaywrightPage,
} from './browser';
import { PROBE } from './globe-probe';
import { GLOBE_CONTENDERS, openAladin, watchPage } from './globe';
import { formatColumns, median } from './harness';

/** The name the page is opened under (Chromium resolves it to 127.0.0.1). */
export const BENCH_HOST = 'galaxy-cruise.bench';
export const VIEWPORT = { width: 1280, height: 720 };
/** The application's view of a target (CruiseScreen's TARGET_FOVY), degrees. */
const TARGET_FOV = 0.02;
const PASSWORD = 'correct horse battery';
/** The heap is compared between this answer and the last; the target limits its growth. */
const HEAP_BASELINE_ANSWERS = 50;
/** How many of the cruise's jumps Aladin Lite flies for its frame times (each waits for its view complete). */
const ALADIN_JUMPS = 20;
export const CRUISE_TARGETS = {
  loginRatio: 0.8,
  /** submit → sharp at most the jump's duration plus this, ms (issue 31). */
  sharpAfterJumpMs: 300,
  /** Our median frame during the answers at most this times Aladin Lite's over the same jumps. */
  frameRatio: 0.5,
  heapGrowth: 0.2,
};

export interface CruiseOptions {
  runs: number;
  answers: number;
  throttle: number;
  log: (line: string) => void;
}

export interface CruiseRow {
  suite: 'cruise';
  runs: number;
  throttle: number;
  /** Medians over the runs, ms; null when a view never became quiet. */
  loginToTargetMs: number | null;
  aladinFirstViewMs: number | null;
  /**
   * Where login → first target went, medians over the runs of ms from the click: the login's POST
   * answered, the quest answered, the first survey tile asked for, the last tile in before sharp.
   */
  loginBreakdown: {
    sessionMs: number | null;
    questMs: number | null;
    /** The captain's unread message on screen; the answer form up once it is OK'd. */
    messageMs: number | null;
    formMs: number | null;
    /** The camera's first jump after the login: its first and last frame on the move. */
    jumpStartMs: number | null;
    jumpEndMs: number | null;
    firstTileMs: number | null;
    lastTileMs: number | null;
  };
  answers: number;
  /** Median and p95 over the answers of submit → quiet, ms. */
  submitToNextMs: number | null;
  submitToNextP95Ms: number | null;
  /** Median and p95 of submit → next target sharp, and the median jump as drawn, ms. */
  submitToSharpMs: number | null;
  submitToSharpP95Ms: number | null;
  jumpMs: number | null;
  /**
   * Where submit → sharp went, medians over the answers of ms from the key: the jump asked for
   * (jumpTo), its first move, the answer's POST answered, the last tile arrived before sharp.
   */
  breakdown: {
    jumpAskedMs: number | null;
    jumpStartMs: number | null;
    answerPostMs: number | null;
    lastTileMs: number | null;
  };
  /** Median frame during the answers' jumps (ours) and during Aladin Lite's flights of the same jumps, ms. */
  medianFrameMs: number | null;
  aladinMedianFrameMs: number | null;
  aladinJumps: number;
  answersPerMinute: number;
  heapBaselineBytes: number;
  heapEndBytes: number;
}

/** An HTTP call with a session's cookies: method, URL on the server, JSON body. */
type SessionCall = (method: string, url: string, body?: unknown) => Promise<Response>;

/**
 * A volunteer past the gate, made over HTTP as a visitor makes one (the mailed link from the
 * outbox): its e-mail, and a call that carries its session.
 */
export async function makeVolunteer(
  server: BenchServer,
  email = `bench-${Date.now()}@example.org`,
): Promise<{ email: string; call: SessionCall }> {
  const cookies = new Map<string, string>();
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(new URL(url, server.origin), {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const equals = pair.indexOf('=');
      cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
    }
    if (response.status >= 400) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return response;
  };
  await call('POST', '/api/signup/verify_email', { email, locale: 'en' });
  const outbox = path.join(server.varDirectory, 'outbox');
  // The mail links the app's page #/signup/confirm?token=…, whose button posts the token.
  let token: string | undefined;
  for (let tries = 0; !token && tries < 600; tries++) {
    for (const file of fs.existsSync(outbox) ? fs.readdirSync(outbox) : []) {
      // Quoted-printable soft line breaks and '=' written as =3D.
      const text = fs
        .readFileSync(path.join(outbox, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (text.includes(email)) token = /#\/signup\/confirm\?token=([\w-]+)/.exec(text)?.[1];
    }
    if (!token) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!token) throw new Error(`no sign-up mail for ${email} in ${outbox}`);
  await call('POST', '/api/signup/confirm', { token });
  await call('PUT', '/api/signup/password', { password: PASSWORD });
  await call('PUT', '/api/current_user', { nickname: `bench${Date.now()}`, locale: 'en' });
  await call('POST', '/api/current_user/private_information', {
    birth_year: 1990,
    country_code: 392,
    gender: 'other',
    reasons_for_participation: ['science'],
    relation_to_astronomy: 2,
    time_spent_in_astronomy: 1,
    way_to_know_this_site: 'search',
  });
  return { email, call };
}

/** The administrator (ADMIN_EMAILS) who leaves the captain's message before each login. */
const CAPTAIN_EMAIL = 'captain@bench.example.org';
/** The captain's message's title, as its dialog is named. */
const CAPTAIN_TITLE = 'Fair winds';

/** A new captain's message (application-spec §5), unread by every volunteer until OK'd. */
async function leaveCaptainMessage(captain: SessionCall): Promise<void> {
  await captain('POST', '/api/notifications', {
    type: 'captain_message',
    title: { en: CAPTAIN_TITLE, ja: '順風満帆' },
    message: { en: 'The captain thanks the crew.', ja: '船長から乗組員へ感謝を込めて。' },
    locale_fallback: false,
  });
}

/** The time of the last key pressed on the page (its keydown event's, followCamera). */
const lastKey = (page: PlaywrightPage) =>
  page.evaluate(() => (window as unknown as { benchKeys: number[] }).benchKeys.at(-1)!);

/** The galaxy on screen: "Galaxy i of n" names it by its place in the quest. */
async function currentIndex(page: PlaywrightPage): Promise<number> {
  const text = await page.getByTestId('cruise-target').innerText();
  const match = /Galaxy (\d+) of/.exec(text);
  if (!match) throw new Error(`the target line reads '${text}'`);
  return Number(match[1]) - 1;
}

/** The volunteer's current quest of `course`, asked for by the page (its session, its host name). */
function currentQuest(page: PlaywrightPage, course: string): Promise<CurrentQuestResponse> {
  return page.evaluate(
    async (url) => (await (await fetch(url)).json()) as CurrentQuestResponse,
    `/api/courses/${course}/quests/current`,
  );
}

/** Waits for the answer form at step 1 on another galaxy than `previous`. */
async function formOnAnotherGalaxy(page: PlaywrightPage, previous: number): Promise<void> {
  const form = page.getByTestId('answer-form');
  const started = Date.now();
  for (;;) {
    if ((await form.count()) > 0 && (await form.getAttribute('data-step')) === '1') {
      const index = await currentIndex(page).catch(() => previous);
      if (index !== previous) return;
    }
    // A reward's message (a medal, a puzzle piece) is confirmed as a volunteer would.
    const ok = page.getByRole('dialog').getByRole('button', { name: 'OK' });
    if ((await ok.count()) > 0) await ok.first().click();
    if (Date.now() - started > BROWSER_TIMEOUT_MS) throw new Error('the next galaxy never came');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A window of the page's clock, ms. */
type Span = [from: number, to: number];

interface BenchWindow {
  __bench: { ticks: number[]; drewAt: number[]; drive: ((time: number) => void) | null };
  galaxyCruiseGlobe?: {
    globe: {
      restingSince: number | null;
      jumping: boolean;
      onCameraChange(listener: () => void): () => void;
      jumpTo(...args: unknown[]): unknown;
    };
  };
  benchMoves?: number[];
  benchKeys?: number[];
  benchJumps?: number[];
}

/**
 * The page's frames within `spans` (in time order, apart): the intervals between PROBE's
 * animation-frame ticks, each a frame's whole main-thread cost, as the globe suite times its
 * cruise (a moving view draws every frame).
 */
function frameTimes(page: PlaywrightPage, spans: Span[]): Promise<number[]> {
  return page.evaluate((spans) => {
    const { ticks } = (window as unknown as BenchWindow).__bench;
    const times: number[] = [];
    let span = 0;
    for (let k = 1; k < ticks.length && span < spans.length; k++) {
      while (span < spans.length && ticks[k] > spans[span][1]) span++;
      if (span < spans.length && ticks[k - 1] >= spans[span][0]) times.push(ticks[k] - ticks[k - 1]);
    }
    return times;
  }, spans);
}

/**
 * Records on the page's clock (ms) its camera moves (window.benchMoves: a jump's first and last
 * frame), the globe's jumpTo calls (benchJumps) and the keys pressed (benchKeys, each keydown
 * event's own time: the key that sends an answer, however long the page takes to handle it).
 */
async function followCamera(page: PlaywrightPage): Promise<void> {
  await page.waitForFunction(() => !!(window as unknown as BenchWindow).galaxyCruiseGlobe, undefined, {
    timeout: BROWSER_TIMEOUT_MS,
  });
  await page.evaluate(() => {
    const bench = window as unknown as BenchWindow;
    const moves: number[] = (bench.benchMoves = []);
    const keys: number[] = (bench.benchKeys = []);
    const jumps: number[] = (bench.benchJumps = []);
    const globe = bench.galaxyCruiseGlobe!.globe;
    globe.onCameraChange(() => moves.push(performance.now()));
    const jumpTo = globe.jumpTo.bind(globe);
    globe.jumpTo = (...args) => {
      jumps.push(performance.now());
      return jumpTo(...args);
    };
    window.addEventListener('keydown', (event) => keys.push(event.timeStamp), { capture: true });
  });
}

/**
 * Waits for the next target sharp after the key at `submitAt`: the globe at rest (restingSince)
 * after the last move of a jump that started after the key. Answers the times on the page's clock.
 */
async function nextSharp(page: PlaywrightPage, submitAt: number) {
  const handle = await page.waitForFunction(
    (submitAt) => {
      const bench = window as unknown as BenchWindow;
      const moves = bench.benchMoves ?? [];
      const rest = bench.galaxyCruiseGlobe?.globe.restingSince ?? null;
      const last = moves.at(-1);
      if (rest === null || last === undefined || last < submitAt || rest < last) return null;
      return {
        sharpAt: rest,
        jumpAsked: (bench.benchJumps ?? []).find((time) => time >= submitAt) ?? null,
        jumpStart: moves.find((move) => move >= submitAt)!,
        jumpEnd: last,
      };
    },
    submitAt,
    { timeout: BROWSER_TIMEOUT_MS, polling: 50 },
  );
  return (await handle.jsonValue())!;
}

/** A survey tile's file, as the main screen asks for it (the sky repository's layout). */
const SURVEY_TILE_URL = /\/(wide|dud|simulation)\/HSC-[GRI]\/.+\.png$/;

interface LoginRun {
  loginToTargetMs: number | null;
  aladinFirstViewMs: number | null;
  breakdown: CruiseRow['loginBreakdown'];
}

async function loginOnce(browser: PlaywrightBrowser, server: BenchServer, email: string, throttle: number) {
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

/** A jump of the cruise: from one target to the next, its duration as drawn. */
interface CruiseJump {
  from: Question;
  to: Question;
  durationMs: number;
}

/**
 * Aladin Lite flying `jumps` (PROBE's drive): each along the great circle on smoothstep, its zoom
 * dipping as our Jump's does (log fov up by log(angle / fov) · sin(π·t) when the jump is longer than
 * the field), then left until its view is complete. Answers the frames drawn from each jump's start
 * to its view complete.
 */
async function aladinFlights(
  browser: PlaywrightBrowser,
  server: BenchServer,
  jumps: CruiseJump[],
  options: Pick<CruiseOptions, 'throttle' | 'log'>,
) {
  const { throttle, log } = options;
  const { context, page } = await openPage(browser, { throttle, viewport: VIEWPORT, initScripts: [PROBE] });
  try {
    const watch = watchPage(context, page);
    await openAladin(page, server.origin, { ra: jumps[0].from.ra, dec: jumps[0].from.dec, fov: TARGET_FOV });
    await watch.ready();
    await watch.quiet();
    const spans: Span[] = [];
    for (const jump of jumps) {
      await page.evaluate(
        ({ from, to, fov, duration }) => {
          // No named functions in here: the bench's TypeScript loader would wrap them in a helper
          // the page lacks.
          const rad = Math.PI / 180;
          const [p, q] = [from, to].map((v) => [
            Math.cos(v.dec * rad) * Math.cos(v.ra * rad),
            Math.cos(v.dec * rad) * Math.sin(v.ra * rad),
            Math.sin(v.dec * rad),
          ]);
          const omega = Math.acos(Math.min(1, Math.max(-1, p[0] * q[0] + p[1] * q[1] + p[2] * q[2])));
          const dip = omega > fov * rad ? Math.log(omega / (fov * rad)) : 0;
          const aladin = (
            window as unknown as {
              aladin: { gotoRaDec(ra: number, dec: number): void; setFoV(fov: number): void };
            }
          ).aladin;
          const bench = (window as unknown as BenchWindow).__bench as BenchWindow['__bench'] & {
            flight: { start: number | null; end: number | null };
          };
          bench.flight = { start: null, end: null };
          bench.drive = (time) => {
            const flight = bench.flight;
            flight.start ??= time;
            const t = Math.min(1, (time - flight.start) / duration);
            const eased = t * t * (3 - 2 * t);
            const [k0, k1] =
              omega < 1e-12
                ? [1 - eased, eased]
                : [Math.sin((1 - eased) * omega) / Math.sin(omega), Math.sin(eased * omega) / Math.sin(omega)];
            const [x, y, z] = [0, 1, 2].map((i) => k0 * p[i] + k1 * q[i]);
            aladin.gotoRaDec(
              (Math.atan2(y, x) / rad + 360) % 360,
              Math.asin(Math.max(-1, Math.min(1, z / Math.hypot(x, y, z)))) / rad,
            );
            const fovNow = fov * Math.exp(dip * Math.sin(Math.PI * eased));
            // Aladin Lite's fov is the horizontal one (stereographic, as in PROBE).
            aladin.setFoV((4 * Math.atan(Math.tan((fovNow * rad) / 4) * (innerWidth / innerHeight))) / rad);
            if (t >= 1) {
              flight.end = time;
              bench.drive = null;
            }
          };
        },
        {
          from: { ra: jump.from.ra, dec: jump.from.dec },
          to: { ra: jump.to.ra, dec: jump.to.dec },
          fov: TARGET_FOV,
          duration: jump.durationMs,
        },
      );
      const flight = (await (
        await page.waitForFunction(
          () => {
            const flight = (window as unknown as { __bench: { flight: { start: number | null; end: number | null } } })
              .__bench.flight;
            return flight.end === null ? null : flight;
          },
          undefined,
          { timeout: BROWSER_TIMEOUT_MS, polling: 50 },
        )
      ).jsonValue())!;
      spans.push([flight.start!, flight.end!]);
      // The next jump starts from a complete view, as the volunteer's.
      await watch.quiet();
    }
    const frames = await frameTimes(page, spans);
    log(
      `bench cruise: ${GLOBE_CONTENDERS.aladin} flew ${jumps.length} jumps: ${frames.length} frames, ` +
        `median ${median(frames).toFixed(0)} ms`,
    );
    return frames;
  } finally {
    await context.close();
  }
}

async function aladinOnce(browser: PlaywrightBrowser, server: BenchServer, field: Question, throttle: number) {
  const { context, page } = await openPage(browser, { throttle, viewport: VIEWPORT, initScripts: [PROBE] });
  try {
    const watch = watchPage(context, page);
    await openAladin(page, server.origin, { ra: field.ra, dec: field.dec, fov: TARGET_FOV });
    await watch.ready();
    return await watch.quiet();
  } finally {
    await context.close();
  }
}

export async function runCruise(options: CruiseOptions): Promise<CruiseRow[]> {
  const { log } = options;
  buildClient(log, 'cruise');
  log('bench cruise: starting the server with the small sky on 127.0.0.1');
  const server = await startServer({
    sky: true,
    env: (port) => ({ PUBLIC_URL: `http://${BENCH_HOST}:${port}`, ADMIN_EMAILS: CAPTAIN_EMAIL }),
  });
  let browser: PlaywrightBrowser | undefined;
  try {
    const { email } = await makeVolunteer(server);
    const captain = await makeVolunteer(server, CAPTAIN_EMAIL);
    browser = await launchChromium([`--host-resolver-rules=MAP ${BENCH_HOST} 127.0.0.1`]);
    const logins: LoginRun[] = [];
    let session: Awaited<ReturnType<typeof loginOnce>> | undefined;
    for (let run = 1; run <= options.runs; run++) {
      await session?.context.close();
      await leaveCaptainMessage(captain.call);
      session = await loginOnce(browser, server, email, options.throttle);
      const course = new URL(session.page.url()).hash.match(/course=(\w+)/)?.[1] ?? 'training';
      const quest = await currentQuest(session.page, course);
      if (quest.no_more_available_objects) throw new Error(`no galaxy left in the ${course} course`);
      const field = quest.questions[await currentIndex(session.page)];
      const aladinFirstViewMs = await aladinOnce(browser, server, field, options.throttle);
      const ms = (value: number | null) => (value === null ? '—' : `${value.toFixed(0)} ms`);
      log(
        `bench cruise: run ${run}/${options.runs}: login → first target ${ms(session.loginToTargetMs)} ` +
          `(${session.tiles} tiles, the last in at ${ms(session.tilesMs)}), ` +
          `${GLOBE_CONTENDERS.aladin} first view ${ms(aladinFirstViewMs)}`,
      );
      logins.push({ loginToTargetMs: session.loginToTargetMs, aladinFirstViewMs, breakdown: session.breakdown });
    }
    // The answers, in the last run's page.
    const { page, cdp, watch, answerPosts } = session!;
    await followCamera(page);
    const course = new URL(page.url()).hash.match(/course=(\w+)/)?.[1] ?? 'training';
    const quest = await currentQuest(page, course);
    if (quest.no_more_available_objects) throw new Error(`no galaxy left in the ${course} course`);
    const answered = new Set(quest.answers.map((answer) => answer.object_id));
    const submitToNext: number[] = [];
    const sharp: { submitAt: number; sharpAt: number; jumpStart: number; jumpEnd: number }[] = [];
    const parts = {
      jumpAsked: [] as number[],
      jumpStart: [] as number[],
      answerPost: [] as number[],
      lastTile: [] as number[],
    };
    const jumps: CruiseJump[] = [];
    let heapBaselineBytes = 0;
    const started = Date.now();
    for (let given = 0; given < options.answers;) {
      let index = await currentIndex(page);
      let question = quest.questions[index];
      const unanswered = quest.questions.filter((candidate) => !answered.has(candidate.object_id));
      if (unanswered.length === 1 && unanswered[0].object_id === question.object_id) {
        // The area's last galaxy stays unanswered: on to an answered one.
        await page.keyboard.press('n');
        await formOnAnotherGalaxy(page, index);
        await watch.quiet();
        index = await currentIndex(page);
        question = quest.questions[index];
      }
      await page.keyboard.press('1');
      await page.locator('[data-testid=answer-form][data-step="2"]').waitFor({ timeout: BROWSER_TIMEOUT_MS });
      await page.keyboard.press('2');
      if (question.captain_note) {
        const note = page.getByRole('dialog', { name: "Captain's note" });
        await note.waitFor({ timeout: BROWSER_TIMEOUT_MS });
        await page.keyboard.press('Enter');
      }
      const submitAt = await lastKey(page);
      await formOnAnotherGalaxy(page, index);
      const next = await nextSharp(page, submitAt);
      sharp.push({ submitAt, ...next });
      const shown = await watch.quiet();
      if (shown !== null) submitToNext.push(shown - submitAt);
      // Where submit → sharp went (the page's clock): the requests' ends as the bench saw them.
      const onPage = (epochMs: number) => epochMs - watch.timeOrigin();
      if (next.jumpAsked !== null) parts.jumpAsked.push(next.jumpAsked - submitAt);
      parts.jumpStart.push(next.jumpStart - submitAt);
      const post = answerPosts.map(onPage).find((time) => time >= submitAt);
      if (post !== undefined) parts.answerPost.push(post - submitAt);
      const lastTile = watch.tiles
        .map(onPage)
        .filter((time) => time >= submitAt && time <= next.sharpAt)
        .at(-1);
      if (lastTile !== undefined) parts.lastTile.push(lastTile - submitAt);
      jumps.push({
        from: question,
        to: quest.questions[await currentIndex(page)],
        durationMs: next.jumpEnd - next.jumpStart,
      });
      answered.add(question.object_id);
      given++;
      if (given === Math.min(HEAP_BASELINE_ANSWERS, options.answers)) heapBaselineBytes = await heapAfterGc(cdp);
      if (given % 10 === 0) log(`bench cruise: ${given}/${options.answers} answers`);
    }
    const minutes = (Date.now() - started) / 60_000;
    const heapEndBytes = await heapAfterGc(cdp);
    const frames = await frameTimes(
      page,
      sharp.map(({ jumpStart, jumpEnd }) => [jumpStart, jumpEnd]),
    );
    await session!.context.close();
    const flown = jumps.slice(0, ALADIN_JUMPS);
    log(`bench cruise: ${GLOBE_CONTENDERS.aladin} flying the first ${flown.length} jumps`);
    const aladinFrames = flown.length === 0 ? [] : await aladinFlights(browser, server, flown, options);
    submitToNext.sort((a, b) => a - b);
    const submitToSharp = sharp.map(({ submitAt, sharpAt }) => sharpAt - submitAt).sort((a, b) => a - b);
    const medianOf = (values: (number | null)[]) => {
      const known = values.filter((value): value is number => value !== null);
      return known.length === 0 ? null : median(known);
    };
    const p95 = (sorted: number[]) =>
      sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))];
    return [
      {
        suite: 'cruise',
        runs: options.runs,
        throttle: options.throttle,
        loginToTargetMs: medianOf(logins.map((login) => login.loginToTargetMs)),
        aladinFirstViewMs: medianOf(logins.map((login) => login.aladinFirstViewMs)),
        loginBreakdown: {
          sessionMs: medianOf(logins.map((login) => login.breakdown.sessionMs)),
          questMs: medianOf(logins.map((login) => login.breakdown.questMs)),
          messageMs: medianOf(logins.map((login) => login.breakdown.messageMs)),
          formMs: medianOf(logins.map((login) => login.breakdown.formMs)),
          jumpStartMs: medianOf(logins.map((login) => login.breakdown.jumpStartMs)),
          jumpEndMs: medianOf(logins.map((login) => login.breakdown.jumpEndMs)),
          firstTileMs: medianOf(logins.map((login) => login.breakdown.firstTileMs)),
          lastTileMs: medianOf(logins.map((login) => login.breakdown.lastTileMs)),
        },
        answers: options.answers,
        submitToNextMs: medianOf(submitToNext),
        submitToNextP95Ms: p95(submitToNext),
        submitToSharpMs: medianOf(submitToSharp),
        submitToSharpP95Ms: p95(submitToSharp),
        jumpMs: medianOf(sharp.map(({ jumpStart, jumpEnd }) => jumpEnd - jumpStart)),
        breakdown: {
          jumpAskedMs: medianOf(parts.jumpAsked),
          jumpStartMs: medianOf(parts.jumpStart),
          answerPostMs: medianOf(parts.answerPost),
          lastTileMs: medianOf(parts.lastTile),
        },
        medianFrameMs: medianOf(frames),
        aladinMedianFrameMs: medianOf(aladinFrames),
        aladinJumps: flown.length,
        answersPerMinute: options.answers / minutes,
        heapBaselineBytes,
        heapEndBytes,
      },
    ];
  } finally {
    await browser?.close();
    await server.stop();
  }
}

export function formatCruiseTable(rows: CruiseRow[]): string {
  const ms = (value: number | null) => (value === null ? '—' : `${value.toFixed(0)} ms`);
  const mB = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const header = ['suite', 'runs', 'CPU', 'login → target', 'Aladin first view', 'answers', 'submit → quiet'];
  header.push('p95', 'submit → sharp', 'p95', 'jump', 'frame median', 'Aladin frame median');
  header.push('answers/min', `heap @${HEAP_BASELINE_ANSWERS}`, 'heap @end', 'growth');
  const growth = (row: CruiseRow) => row.heapEndBytes / row.heapBaselineBytes - 1;
  const lines = rows.map((row) => [
    row.suite,
    String(row.runs),
    `${row.throttle}×`,
    ms(row.loginToTargetMs),
    ms(row.aladinFirstViewMs),
    String(row.answers),
    ms(row.submitToNextMs),
    ms(row.submitToNextP95Ms),
    ms(row.submitToSharpMs),
    ms(row.submitToSharpP95Ms),
    ms(row.jumpMs),
    ms(row.medianFrameMs),
    ms(row.aladinMedianFrameMs),
    row.answersPerMinute.toFixed(1),
    mB(row.heapBaselineBytes),
    mB(row.heapEndBytes),
    `${(growth(row) * 100).toFixed(1)} %`,
  ]);
  const verdict = (holds: boolean) => (holds ? 'holds' : 'does not hold');
  const ratioOf = (ours: number | null, theirs: number | null) =>
    ours === null || theirs === null ? null : ours / theirs;
  const times = (ratio: number | null) => (ratio === null ? '—' : `${ratio.toFixed(2)}×`);
  const targets = rows.flatMap((row) => {
    const login = ratioOf(row.loginToTargetMs, row.aladinFirstViewMs);
    const frame = ratioOf(row.medianFrameMs, row.aladinMedianFrameMs);
    const budget = row.jumpMs === null ? null : row.jumpMs + CRUISE_TARGETS.sharpAfterJumpMs;
    const { jumpAskedMs, jumpStartMs, answerPostMs, lastTileMs } = row.breakdown;
    return [
      `target: submit → next target sharp ≤ the jump + ${CRUISE_TARGETS.sharpAfterJumpMs} ms ` +
        `(${ms(row.submitToSharpMs)} against ${ms(budget)}): ` +
        verdict(row.submitToSharpMs !== null && budget !== null && row.submitToSharpMs <= budget),
      `  medians from the key: jumpTo ${ms(jumpAskedMs)}, the jump's first frame ${ms(jumpStartMs)}, ` +
        `the answer's POST answered ${ms(answerPostMs)}, ` +
        `the last tile in ${ms(lastTileMs)}, sharp ${ms(row.submitToSharpMs)}`,
      `target: login → first target ≤ ${CRUISE_TARGETS.loginRatio.toFixed(1)}× ${GLOBE_CONTENDERS.aladin}'s first view ` +
        `(${times(login)}): ${verdict(login !== null && login <= CRUISE_TARGETS.loginRatio)}`,
      `  medians from the click: the login answered ${ms(row.loginBreakdown.sessionMs)}, ` +
        `the quest answered ${ms(row.loginBreakdown.questMs)}, the captain's message on screen ` +
        `${ms(row.loginBreakdown.messageMs)} (OK'd at once), the answer form ${ms(row.loginBreakdown.formMs)}, ` +
        `the first jump ${ms(row.loginBreakdown.jumpStartMs)} to ${ms(row.loginBreakdown.jumpEndMs)}, the first survey tile asked ` +
        `${ms(row.loginBreakdown.firstTileMs)}, the last tile in ${ms(row.loginBreakdown.lastTileMs)}, ` +
        `sharp ${ms(row.loginToTargetMs)}`,
      `target: median frame during the jumps ≤ ${CRUISE_TARGETS.frameRatio}× ${GLOBE_CONTENDERS.aladin}'s ` +
        `flying the first ${row.aladinJumps} jumps (${times(frame)}): ${verdict(frame !== null && frame <= CRUISE_TARGETS.frameRatio)}`,
      `target: heap growth after the first ${HEAP_BASELINE_ANSWERS} answers ≤ ${CRUISE_TARGETS.heapGrowth * 100} % ` +
        `(${(growth(row) * 100).toFixed(1)} %): ${verdict(growth(row) <= CRUISE_TARGETS.heapGrowth)}`,
    ];
  });
  return [formatColumns(header, lines), '', ...targets].join('\n');
}
