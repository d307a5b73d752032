// The cruise suite: a scripted volunteer on the real main screen, in Debian's Chromium
// at 1280 × 720 with its CPU slowed down 4× (a low-end laptop), against our real server on this
// machine with the small sky. The page is opened as galaxy-cruise.bench, a name Chromium maps to
// 127.0.0.1: from a loopback address the application runs in developer mode (application-spec
// §6), whose jumps are ten times shorter and whose flashes and rewards come sooner than a
// volunteer's. Every request to another host is aborted.
//   login → first target   from the click on 'Log in' (its pointerdown event's time) to the last
//                          frame drawn once the first target's answer form is up and the network
//                          and the drawing are quiet (its tiles in and faded); beside it, in the
//                          same run, the reference:
//                          Aladin Lite's first complete view of the same field (fov 0.02°) from
//                          its page's load, measured alike (globe.ts)
//   submit → next target   from the key that sends an answer to the next target on screen, alike
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
import type { CurrentQuestResponse, Question } from '../../src/shared/api';
import {
  BROWSER_TIMEOUT_MS,
  buildClient,
  heapAfterGc,
  launchChromium,
  openPage,
  startServer,
  type BenchServer,
  type PlaywrightBrowser,
  type PlaywrightPage,
} from './browser';
import { PROBE } from './globe-probe';
import { GLOBE_CONTENDERS, openAladin, watchPage } from './globe';
import { formatColumns, median } from './harness';

/** The name the page is opened under (Chromium resolves it to 127.0.0.1). */
const BENCH_HOST = 'galaxy-cruise.bench';
const VIEWPORT = { width: 1280, height: 720 };
/** The application's view of a target (CruiseScreen's TARGET_FOVY), degrees. */
const TARGET_FOV = 0.02;
const PASSWORD = 'correct horse battery';
/** The heap is compared between this answer and the last; the target limits its growth. */
const HEAP_BASELINE_ANSWERS = 50;
export const CRUISE_TARGETS = { loginRatio: 1, heapGrowth: 0.2 };

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
  answers: number;
  /** Median and p95 over the answers, ms. */
  submitToNextMs: number | null;
  submitToNextP95Ms: number | null;
  answersPerMinute: number;
  heapBaselineBytes: number;
  heapEndBytes: number;
}

/** A volunteer past the gate, made over HTTP as a visitor makes one (the mailed link from the outbox). */
export async function makeVolunteer(server: BenchServer): Promise<string> {
  const email = `bench-${Date.now()}@example.org`;
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
  let link: string | undefined;
  for (let tries = 0; !link && tries < 600; tries++) {
    for (const file of fs.existsSync(outbox) ? fs.readdirSync(outbox) : []) {
      // Quoted-printable soft line breaks and '=' written as =3D.
      const text = fs
        .readFileSync(path.join(outbox, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (text.includes(email)) link = /https?:\/\/\S+\/api\/signup\/confirm\?token=[\w-]+/.exec(text)?.[0];
    }
    if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!link) throw new Error(`no sign-up mail for ${email} in ${outbox}`);
  const confirm = new URL(link);
  await call('GET', `${confirm.pathname}${confirm.search}`);
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
  return email;
}

const pageNow = (page: PlaywrightPage) => page.evaluate(() => performance.now());

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

interface LoginRun {
  loginToTargetMs: number | null;
  aladinFirstViewMs: number | null;
}

async function loginOnce(browser: PlaywrightBrowser, server: BenchServer, email: string, throttle: number) {
  const opened = await openPage(browser, {
    throttle,
    viewport: VIEWPORT,
    hosts: [BENCH_HOST, '127.0.0.1'],
    initScripts: [PROBE],
  });
  const { context, page } = opened;
  const watch = watchPage(context, page);
  await page.goto(`http://${BENCH_HOST}:${server.port}/#/login`, { timeout: BROWSER_TIMEOUT_MS });
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
  await page.getByRole('button', { name: 'Log in' }).click();
  const clickAt = await page.evaluate(() => (window as unknown as { benchClickAt: number }).benchClickAt);
  try {
    await page.getByTestId('answer-form').waitFor({ timeout: BROWSER_TIMEOUT_MS });
  } catch (error) {
    // What the volunteer saw instead, for whoever reads the failure.
    const shot = path.join(os.tmpdir(), 'bench-cruise-login.png');
    await page.screenshot({ path: shot }).catch(() => {});
    throw new Error(`no answer form after logging in at ${page.url()} (screenshot: ${shot})`, { cause: error });
  }
  const shown = await watch.quiet();
  return { ...opened, watch, loginToTargetMs: shown === null ? null : shown - clickAt };
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
    env: (port) => ({ PUBLIC_URL: `http://${BENCH_HOST}:${port}` }),
  });
  let browser: PlaywrightBrowser | undefined;
  try {
    const email = await makeVolunteer(server);
    browser = await launchChromium([`--host-resolver-rules=MAP ${BENCH_HOST} 127.0.0.1`]);
    const logins: LoginRun[] = [];
    let session: Awaited<ReturnType<typeof loginOnce>> | undefined;
    for (let run = 1; run <= options.runs; run++) {
      await session?.context.close();
      session = await loginOnce(browser, server, email, options.throttle);
      const course = new URL(session.page.url()).hash.match(/course=(\w+)/)?.[1] ?? 'training';
      const quest = await currentQuest(session.page, course);
      if (quest.no_more_available_objects) throw new Error(`no galaxy left in the ${course} course`);
      const field = quest.questions[await currentIndex(session.page)];
      const aladinFirstViewMs = await aladinOnce(browser, server, field, options.throttle);
      const ms = (value: number | null) => (value === null ? '—' : `${value.toFixed(0)} ms`);
      log(
        `bench cruise: run ${run}/${options.runs}: login → first target ${ms(session.loginToTargetMs)}, ` +
          `${GLOBE_CONTENDERS.aladin} first view ${ms(aladinFirstViewMs)}`,
      );
      logins.push({ loginToTargetMs: session.loginToTargetMs, aladinFirstViewMs });
    }
    // The answers, in the last run's page.
    const { page, cdp, watch } = session!;
    const course = new URL(page.url()).hash.match(/course=(\w+)/)?.[1] ?? 'training';
    const quest = await currentQuest(page, course);
    if (quest.no_more_available_objects) throw new Error(`no galaxy left in the ${course} course`);
    const answered = new Set(quest.answers.map((answer) => answer.object_id));
    const submitToNext: number[] = [];
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
      let submitAt = await pageNow(page);
      await page.keyboard.press('2');
      if (question.captain_note) {
        const note = page.getByRole('dialog', { name: "Captain's note" });
        await note.waitFor({ timeout: BROWSER_TIMEOUT_MS });
        submitAt = await pageNow(page);
        await page.keyboard.press('Enter');
      }
      await formOnAnotherGalaxy(page, index);
      const shown = await watch.quiet();
      if (shown !== null) submitToNext.push(shown - submitAt);
      answered.add(question.object_id);
      given++;
      if (given === Math.min(HEAP_BASELINE_ANSWERS, options.answers)) heapBaselineBytes = await heapAfterGc(cdp);
      if (given % 10 === 0) log(`bench cruise: ${given}/${options.answers} answers`);
    }
    const minutes = (Date.now() - started) / 60_000;
    const heapEndBytes = await heapAfterGc(cdp);
    await session!.context.close();
    submitToNext.sort((a, b) => a - b);
    const medianOf = (values: (number | null)[]) => {
      const known = values.filter((value): value is number => value !== null);
      return known.length === 0 ? null : median(known);
    };
    return [
      {
        suite: 'cruise',
        runs: options.runs,
        throttle: options.throttle,
        loginToTargetMs: medianOf(logins.map((login) => login.loginToTargetMs)),
        aladinFirstViewMs: medianOf(logins.map((login) => login.aladinFirstViewMs)),
        answers: options.answers,
        submitToNextMs: medianOf(submitToNext),
        submitToNextP95Ms:
          submitToNext.length === 0
            ? null
            : submitToNext[Math.min(submitToNext.length - 1, Math.floor(submitToNext.length * 0.95))],
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
  const header = ['suite', 'runs', 'CPU', 'login → target', 'Aladin first view', 'answers', 'submit → next'];
  header.push('p95', 'answers/min', `heap @${HEAP_BASELINE_ANSWERS}`, 'heap @end', 'growth');
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
    row.answersPerMinute.toFixed(1),
    mB(row.heapBaselineBytes),
    mB(row.heapEndBytes),
    `${(growth(row) * 100).toFixed(1)} %`,
  ]);
  const verdict = (holds: boolean) => (holds ? 'holds' : 'does not hold');
  const targets = rows.flatMap((row) => {
    const ratio =
      row.loginToTargetMs === null || row.aladinFirstViewMs === null
        ? null
        : row.loginToTargetMs / row.aladinFirstViewMs;
    return [
      `target: login → first target ≤ ${CRUISE_TARGETS.loginRatio.toFixed(1)}× Aladin Lite's first view ` +
        `(${ratio === null ? '—' : `${ratio.toFixed(2)}×`}): ${verdict(ratio !== null && ratio <= CRUISE_TARGETS.loginRatio)}`,
      `target: heap growth after the first ${HEAP_BASELINE_ANSWERS} answers ≤ ${CRUISE_TARGETS.heapGrowth * 100} % ` +
        `(${(growth(row) * 100).toFixed(1)} %): ${verdict(growth(row) <= CRUISE_TARGETS.heapGrowth)}`,
    ];
  });
  return [formatColumns(header, lines), '', ...targets].join('\n');
}
