// Every key counted as pressed (application-spec §2, §4 Answer steps): a new volunteer answers
// 40 galaxies of season 2 with the keys alone, as fast as the answer form takes them. Each key
// goes the moment the controls it answers appear (the form shown, its buttons enabled, no dialog
// open over it; one fading out is done with), and the second key of a pair (the interaction after
// the type; the second feature on step 3) 150 ms after the first, whatever the form shows by then.
// The small sky's season 2 has 16 galaxies in 4 areas, so 'Next galaxy' (N) takes the volunteer
// from an area's last unanswered galaxy to an answered one, 6 times an area, to answer it again
// (the server replaces the answer).
//
// What must hold: every answer the server takes is exactly the one keyed for its galaxy (type,
// interaction, features), in the order keyed; a submit takes the form to a galaxy not answered yet
// (§4: the nearest unanswered) or completes the area; no key sent while the form looked ready is
// lost (no step left waiting for it, no N without a move); the course ends complete. A key sent
// while the form did not look ready (a dialog came over it between the two keys of a pair) is sent
// again once it does; the log says how often. English at a volunteer's pace (2 s jumps, a puzzle
// piece every 30 answers), Japanese at developer mode's (0.2 s jumps, a piece every 3 answers, so
// a dialog every few galaxies). Debian's Chromium against the real server.
import { expect, test, type Page } from '@playwright/test';
import type { Answer, CurrentQuestResponse } from '../../shared/api';
import { readyVolunteer } from '../helpers/volunteers';
import { shareCookiesWithVolunteerHost, VOLUNTEER_PACE_LAUNCH, volunteerOrigin } from './volunteer-pace';

type Quest = Extract<CurrentQuestResponse, { no_more_available_objects: false }>;

/** What the page shows, as a volunteer at the keyboard reads it. */
type Screen =
  | { kind: 'dialog'; title: string }
  | { kind: 'ready'; step: string; index: number }
  | { kind: 'complete' }
  | { kind: 'busy' };

interface Logged {
  screen: Screen;
  /** Set for a key: the key; `screen` is what it met. */
  key?: string;
}

interface Screens {
  log: Logged[];
  now(): Screen;
  /** The first screen that is not busy after the `keys`-th key (or after the log's `from`-th entry). */
  next(
    after: { keys?: number; from?: number },
    timeoutMs: number,
  ): Promise<{ screen: Screen; now: Screen; length: number }>;
}

const GALAXIES = 40;
const SECOND_KEY_MS = 150;
const AREAS = 4;
/** Answers given again per area, so that the four areas of 4 galaxies make 40 answers. */
const AGAIN_PER_AREA = GALAXIES / AREAS - 4;
const FRONT_DIALOG = '.dialog-overlay:not([data-behind]):not([data-closing])';

/**
 * Records, from before the page's own scripts, every change of what the page shows (on each DOM
 * mutation) and every key with the screen it met (a capture listener on window, ahead of the
 * page's own listeners).
 */
async function recordScreens(page: Page) {
  await page.addInitScript((frontDialog) => {
    const log: Logged[] = [];
    const now = (): Screen => {
      const front = document.querySelector(`${frontDialog} [role="dialog"]`);
      if (front) return { kind: 'dialog', title: front.querySelector('h1, h2, h3')?.textContent?.trim() ?? '' };
      if (document.querySelector('[data-testid="course-complete"]')) return { kind: 'complete' };
      const form = document.querySelector<HTMLElement>('[data-testid="answer-form"]');
      const buttons = form ? [...form.querySelectorAll<HTMLButtonElement>('.answer-choices button')] : [];
      if (!form || buttons.length === 0 || buttons.some((button) => button.matches(':disabled')))
        return { kind: 'busy' };
      const label = document.querySelector('[data-testid="cruise-target"]')?.textContent ?? '';
      return { kind: 'ready', step: form.dataset.step ?? '', index: Number(/(\d+)\D+\d+/.exec(label)?.[1] ?? 0) };
    };
    const waiters = new Set<() => void>();
    let last = '';
    const note = () => {
      const screen = now();
      const signature = JSON.stringify(screen);
      if (signature === last) return;
      last = signature;
      log.push({ screen });
      for (const waiter of [...waiters]) waiter();
    };
    // Resolved from the mutation observer as soon as the DOM shows it, not by a poll that the
    // globe's slow frames would hold back.
    const next: Screens['next'] = ({ keys, from = 0 }, timeoutMs) =>
      new Promise((resolve, reject) => {
        let start = from;
        if (keys !== undefined) {
          let seen = 0;
          start = log.findIndex((entry) => entry.key !== undefined && ++seen === keys) + 1;
          if (keys === 0) start = 0;
          else if (start === 0) start = log.length;
        }
        const check = () => {
          const found = log.slice(start).find((entry) => !entry.key && entry.screen.kind !== 'busy');
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve({ screen: found.screen, now: now(), length: log.length });
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`nothing but a busy screen for ${timeoutMs} ms: ${JSON.stringify(log.slice(-6))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    const screens: Screens = { log, now, next };
    (window as unknown as { screens: Screens }).screens = screens;
    window.addEventListener('keydown', (event) => log.push({ screen: now(), key: event.key }), { capture: true });
    new MutationObserver(note).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  }, FRONT_DIALOG);
}

/** The answer keyed for the k-th galaxy: each path of the form in turn. */
function plan(k: number): {
  keys: [string, string];
  features: [string, string] | null;
  answer: Omit<Answer, 'object_id'>;
} {
  const none = { ring: false, fan: false, tail: false, distorted: false };
  switch (k % 4) {
    case 0:
      return { keys: ['1', '2'], features: null, answer: { galaxy_type: 'spiral', interaction: 'no', ...none } };
    case 1:
      return {
        keys: ['2', '3'],
        features: null,
        answer: { galaxy_type: 'elliptical', interaction: 'not_sure', ...none },
      };
    case 2:
      return { keys: ['3', '2'], features: null, answer: { galaxy_type: 'not_sure', interaction: 'no', ...none } };
    default:
      return {
        keys: ['2', '1'],
        features: ['1', '3'],
        answer: { galaxy_type: 'elliptical', interaction: 'yes', ring: true, fan: false, tail: true, distorted: false },
      };
  }
}

test.use({ launchOptions: VOLUNTEER_PACE_LAUNCH });

for (const [locale, pace] of [
  ['en', 'volunteer'],
  ['ja', 'developer'],
] as const) {
  test(`40 galaxies keyed as fast as the form takes keys, each answer recorded the one keyed (${locale}, ${pace}'s pace)`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(420_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await readyVolunteer(page.request, { locale });
    const posted: Answer[] = [];
    page.on('response', (response) => {
      const request = response.request();
      if (request.method() === 'POST' && /\/api\/quests\/\d+\/answers$/.test(new URL(response.url()).pathname))
        if (response.ok()) posted.push(request.postDataJSON() as Answer);
    });
    await recordScreens(page);
    if (pace === 'volunteer') {
      await shareCookiesWithVolunteerHost(page.context(), baseURL!);
      await page.goto(`${volunteerOrigin(baseURL!)}/#/?course=season2`);
    } else await page.goto('/#/?course=season2');

    const screens = {
      now: () => page.evaluate(() => (window as unknown as { screens: Screens }).screens.now()),
      next: (after: { keys?: number; from?: number }, timeoutMs = 90_000) =>
        page.evaluate(([where, timeout]) => (window as unknown as { screens: Screens }).screens.next(where, timeout), [
          after,
          timeoutMs,
        ] as const),
      /** What the `k`-th key met (1-based). */
      metByKey: (k: number) =>
        page.evaluate(
          (count) => (window as unknown as { screens: Screens }).screens.log.filter((entry) => entry.key)[count - 1],
          k,
        ),
    };
    const fetchQuest = async () => {
      const quest = (await (
        await page.request.get('/api/courses/season2/quests/current')
      ).json()) as CurrentQuestResponse;
      expect(quest.no_more_available_objects).toBe(false);
      return quest as Quest;
    };

    const keyed: Answer[] = [];
    const trail: string[] = [];
    let keysSent = 0;
    let resent = 0;
    const fail = (message: string): never => {
      throw new Error(`${message} (after ${keyed.length} answers: ${trail.slice(-14).join(' · ')})`);
    };
    const press = async (key: string) => {
      await page.keyboard.press(key);
      keysSent += 1;
      trail.push(key);
    };
    const okFrontDialog = async (title: string) => {
      trail.push(`dialog “${title}”`);
      await page.locator(FRONT_DIALOG).getByRole('button', { name: 'OK' }).click();
    };
    /** A pair of keys as a volunteer keys fast: the first now, the second 150 ms later. */
    const pair = async ([first, second]: readonly [string, string]) => {
      await press(first);
      await page.waitForTimeout(SECOND_KEY_MS);
      await press(second);
    };
    /** After the second key of a pair left step `step` showing: fails unless a dialog took that key. */
    const expectTakenByDialog = async (step: string, index: number) => {
      const met = await screens.metByKey(keysSent);
      if (met?.screen.kind === 'ready') fail(`step ${step} of galaxy ${index} still waits for a key it was sent`);
      resent += 1;
    };

    let quest = await fetchQuest();
    let questStale = false;
    let answeredHere = new Set<number>();
    let againLeft = AGAIN_PER_AREA;
    let cameByNext = false;
    // Where to read the log from: after the last key sent, or past what was read last.
    let after: { keys?: number; from?: number } = { from: 0 };
    while (keyed.length < GALAXIES) {
      const { now: screen, length } = await screens.next(after);
      after = { from: length };
      if (screen.kind === 'busy') continue;
      if (screen.kind === 'complete') fail('the course ended early');
      if (screen.kind === 'dialog') {
        questStale = true;
        await okFrontDialog(screen.title);
        continue;
      }
      if (screen.kind !== 'ready') continue;
      trail.push(`ready ${screen.index}/${screen.step}`);
      if (questStale) {
        quest = await fetchQuest();
        questStale = false;
        if (!quest.questions.some((question) => answeredHere.has(question.object_id))) {
          answeredHere = new Set(quest.answers.map((answer) => answer.object_id));
          againLeft = AGAIN_PER_AREA;
        }
      }
      const question = quest.questions[screen.index - 1];
      if (!question) fail(`galaxy ${screen.index} is not one of the quest's ${quest.questions.length}`);
      if (screen.step !== '1') fail(`step ${screen.step} of galaxy ${screen.index} waits for a key it was sent`);
      if (answeredHere.has(question.object_id) && !cameByNext)
        fail(`a submit took the form to galaxy ${screen.index}, answered already, not to the nearest unanswered`);
      cameByNext = false;

      const unanswered = quest.questions.filter((candidate) => !answeredHere.has(candidate.object_id));
      if (againLeft > 0 && unanswered.length === 1 && unanswered[0] === question) {
        // The area's last galaxy waits: N to an answered one, to answer it again.
        againLeft -= 1;
        cameByNext = true;
        await press('n');
        const met = await screens.metByKey(keysSent);
        if (met?.screen.kind === 'dialog') {
          // A message that an earlier answer earned opened as N went, and took it: OKed, and the
          // galaxy met again.
          againLeft += 1;
          cameByNext = false;
          questStale = true;
          await okFrontDialog(met.screen.title);
          after = { keys: keysSent };
          continue;
        }
        const moved = await screens.next({ keys: keysSent }, 30_000).catch((error: Error) => error);
        if (moved instanceof Error) fail(`N on galaxy ${screen.index} did not move the form: ${moved.message}`);
        else if (moved.screen.kind === 'ready' && moved.screen.index === screen.index)
          fail(`N on galaxy ${screen.index} left the form on it`);
        after = { keys: keysSent };
        continue;
      }

      // The galaxy shown: its type now, its interaction 150 ms later.
      const { keys, features, answer } = plan(keyed.length);
      let firstKey = keysSent + 1;
      await pair(keys);
      // What the keys left: step 3 for the features, or the form gone on (a jump, the area's
      // messages). A dialog that came between the two keys took the second: sent again; one that
      // opened as the first went (a message an earlier answer earned) took both: the pair again.
      for (const until = Date.now() + 60_000; ; await page.waitForTimeout(20)) {
        if (Date.now() > until) fail(`galaxy ${screen.index} did not go on after its keys`);
        const now = await screens.now();
        if (now.kind === 'dialog') {
          questStale = true;
          await okFrontDialog(now.title);
          continue;
        }
        if (now.kind !== 'ready' || now.index !== screen.index) {
          if (features && now.kind === 'busy') continue;
          if (features) fail(`galaxy ${screen.index} left without its features`);
          break;
        }
        if (now.step === '3' && features) break;
        if (now.step === '1' && (await screens.metByKey(firstKey))?.screen.kind === 'dialog') {
          resent += 2;
          firstKey = keysSent + 1;
          await pair(keys);
          continue;
        }
        if (now.step !== '2') fail(`galaxy ${screen.index} is on step ${now.step} again after its keys`);
        await expectTakenByDialog('2', screen.index);
        await press(keys[1]);
      }
      if (features) {
        // Step 3: a feature the moment it shows, the second 150 ms later, Enter 150 ms after.
        await pair(features);
        await page.waitForTimeout(SECOND_KEY_MS);
        await press('Enter');
        const now = await screens.now();
        if (now.kind === 'ready' && now.index === screen.index) {
          await expectTakenByDialog(now.step, screen.index);
          fail(`galaxy ${screen.index}'s step 3 was interrupted by a dialog`);
        }
      }
      keyed.push({ object_id: question.object_id, ...answer });
      answeredHere.add(question.object_id);
      // The area's last: the next galaxy is another quest's.
      if (quest.questions.every((candidate) => answeredHere.has(candidate.object_id))) questStale = true;
      // What the page shows after the last key is still to be read.
      after = { keys: keysSent };
    }

    console.log(`${locale}: ${keyed.length} galaxies keyed, ${resent} keys sent again after a dialog took them`);
    // The course's last messages, then the course complete.
    for (let turn = 0; ; turn++) {
      expect(turn, 'screens after the last galaxy').toBeLessThan(40);
      const { now, length } = await screens.next(after);
      after = { from: length };
      if (now.kind === 'complete') break;
      if (now.kind === 'dialog') await okFrontDialog(now.title);
    }
    // The queue sends them one at a time, in the order keyed.
    await expect.poll(() => posted.length, { timeout: 60_000 }).toBe(GALAXIES);
    expect(posted).toEqual(keyed);
    const last = (await (await page.request.get('/api/courses/season2/quests/current')).json()) as CurrentQuestResponse;
    expect(last.no_more_available_objects, 'season 2 complete').toBe(true);
  });
}
