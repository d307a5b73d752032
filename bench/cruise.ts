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
// Its parts: ./cruise-volunteer.ts (the volunteer and the captain, made over HTTP),
// ./cruise-login.ts (the login timed), ./cruise-page.ts (the main screen as the bench reads it),
// ./cruise-aladin.ts (Aladin Lite beside it) and ./cruise-table.ts (the row and its table).
import {
  BROWSER_TIMEOUT_MS,
  buildClient,
  heapAfterGc,
  launchChromium,
  startServer,
  type PlaywrightBrowser,
} from './browser';
import { aladinFlights, aladinOnce, type CruiseJump } from './cruise-aladin';
import { loginOnce } from './cruise-login';
import {
  BENCH_HOST,
  currentIndex,
  currentQuest,
  followCamera,
  formOnAnotherGalaxy,
  frameTimes,
  lastKey,
  nextSharp,
} from './cruise-page';
import { HEAP_BASELINE_ANSWERS, type CruiseRow } from './cruise-table';
import { CAPTAIN_EMAIL, leaveCaptainMessage, makeVolunteer } from './cruise-volunteer';
import { GLOBE_CONTENDERS } from './globe';
import { median } from './harness';

/** How many of the cruise's jumps Aladin Lite flies for its frame times (each waits for its view complete). */
const ALADIN_JUMPS = 20;

export interface CruiseOptions {
  runs: number;
  answers: number;
  throttle: number;
  log: (line: string) => void;
}

interface LoginRun {
  loginToTargetMs: number | null;
  aladinFirstViewMs: number | null;
  breakdown: CruiseRow['loginBreakdown'];
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
