// Every key counted as pressed (application-spec §2, §4 Answer steps; issue 40 item 1): a new
// volunteer answers 40 galaxies of season 2 with the keys alone, as fast as the answer form takes
// them. Each key goes the moment the controls it answers appear (the form shown, its buttons
// enabled, no dialog over it), and the second key of a galaxy (its interaction; the second
// feature on step 3) 150 ms after the first, whatever the form shows by then. The small sky's
// season 2 has 16 galaxies in 4 areas, so 'Next galaxy' (N) takes the volunteer back to an
// answered one 6 times an area to answer it again (the server replaces the answer).
//
// What must hold: every answer the server takes is exactly the one keyed for that galaxy (type,
// interaction, features), in the order keyed; a submit takes the form to a galaxy not answered yet
// (§4: the nearest unanswered) or completes the area; no step is left waiting for a key already
// sent while the form looked ready; and the course ends complete. A key sent while the form did
// not look ready (a dialog came over it, a jump under way) is sent again once it does: the log
// says how often. Debian's Chromium against the real server, in English and Japanese.
import { expect, test, type Page } from '@playwright/test';
import type { Answer, CurrentQuestResponse } from '../../src/shared/api';
import { readyVolunteer } from '../helpers/volunteers';

type Quest = Extract<CurrentQuestResponse, { no_more_available_objects: false }>;

/** What the page shows, as a volunteer at the keyboard reads it. */
type Screen =
  | { kind: 'dialog'; title: string }
  | { kind: 'ready'; step: string; index: number; object: number | null }
  | { kind: 'complete' }
  | { kind: 'busy' };

interface Logged {
  at: number;
  screen: Screen;
  /** Set for a key: the key; the screen is what it met. */
  key?: string;
}

const GALAXIES = 40;
const SECOND_KEY_MS = 150;
const AREAS = 4;
/** Answers given again per area, so that the four areas of 4 galaxies make 40 answers. */
const AGAIN_PER_AREA = GALAXIES / AREAS - 4;

/**
 * Records, from before the page's own scripts, every change of what the page shows (on each DOM
 * mutation) and every key with the screen it met (a capture listener on window, ahead of the
 * page's). The answer form is ready when it is shown with every choice button enabled and no
 * dialog overlay (closing or not) is in the page.
 */
async function recordScreens(page: Page) {
  await page.addInitScript(() => {
    const log: Logged[] = [];
    const screen = (): Screen => {
      const front = document.querySelector('.dialog-overlay:not([data-behind]):not([data-closing]) [role="dialog"]');
      if (front) return { kind: 'dialog', title: front.querySelector('h1, h2, h3')?.textContent?.trim() ?? '' };
      if (document.querySelector('.dialog-overlay')) return { kind: 'busy' };
      if (document.querySelector('[data-testid="course-complete"]')) return { kind: 'complete' };
      const form = document.querySelector<HTMLElement>('[data-testid="answer-form"]');
      const buttons = form ? [...form.querySelectorAll<HTMLButtonElement>('.answer-choices button')] : [];
      if (!form || buttons.length === 0 || buttons.some((button) => button.matches(':disabled')))
        return { kind: 'busy' };
      const label = document.querySelector('[data-testid="cruise-target"]')?.textContent ?? '';
      const index = Number(/(\d+)\D+\d+/.exec(label)?.[1] ?? 0);
      const object = form.dataset.objectId ? Number(form.dataset.objectId) : null;
      return { kind: 'ready', step: form.dataset.step ?? '', index, object };
    };
    let last = '';
    const waiters = new Set<() => void>();
    const note = () => {
      const now = screen();
      const signature = JSON.stringify(now);
      if (signature === last) return;
      last = signature;
      log.push({ at: performance.now(), screen: now });
      for (const waiter of [...waiters]) waiter();
    };
    // The next screen after `start` that is not busy, as soon as the DOM shows it (a promise
    // resolved from the mutation observer, not a poll that a slow frame would hold back).
    const next = (start: number) =>
      new Promise<{ screen: Screen; next: number }>((resolve, reject) => {
        const check = () => {
          for (let index = start; index < log.length; index++)
            if (!log[index].key && log[index].screen.kind !== 'busy') {
              waiters.delete(check);
              clearTimeout(timer);
              resolve({ screen: log[index].screen, next: index + 1 });
              return;
            }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no screen but a busy one for 90 s: ${JSON.stringify(log.slice(-8))}`));
        }, 90_000);
        waiters.add(check);
        check();
      });
    (window as unknown as { screens: unknown }).screens = { log, now: screen, next };
    window.addEventListener(
      'keydown',
      (event) => log.push({ at: performance.now(), screen: screen(), key: event.key }),
      {
        capture: true,
      },
    );
    new MutationObserver(note).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
}

const logLength = (page: Page) =>
  page.evaluate(() => (window as unknown as { screens: { log: Logged[] } }).screens.log.length);
const logFrom = (page: Page, from: number) =>
  page.evaluate((start) => (window as unknown as { screens: { log: Logged[] } }).screens.log.slice(start), from);
const screenNow = (page: Page) =>
  page.evaluate(() => (window as unknown as { screens: { now: () => Screen } }).screens.now());

/** Waits for the next screen after log entry `from` that is not busy; returns it and where the log is. */
async function nextScreen(page: Page, from: number): Promise<{ screen: Screen; next: number }> {
  return page.evaluate(
    (start) =>
      (
        window as unknown as { screens: { next: (start: number) => Promise<{ screen: Screen; next: number }> } }
      ).screens.next(start),
    from,
  );
}

/** The answer keyed for the k-th galaxy: every path of the form, in turn. */
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

for (const locale of ['en', 'ja'] as const) {
  test(`40 galaxies keyed as fast as the form takes keys: each answer recorded is the one keyed (${locale})`, async ({
    page,
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
    await page.goto('/#/?course=season2');

    const fetchQuest = async () => {
      const quest = (await (
        await page.request.get('/api/courses/season2/quests/current')
      ).json()) as CurrentQuestResponse;
      expect(quest.no_more_available_objects).toBe(false);
      return quest as Quest;
    };
    let quest = await fetchQuest();
    let questStale = false;
    const keyed: Answer[] = [];
    let answeredHere = new Set<number>();
    let againLeft = AGAIN_PER_AREA;
    let cameByNext = false;
    let resent = 0;
    let cursor = 0;
    const events: string[] = [];
    const fail = (message: string) => {
      throw new Error(`${message} (after ${keyed.length} answers: ${events.slice(-12).join(' · ')})`);
    };

    const okFrontDialog = () =>
      page
        .locator('.dialog-overlay:not([data-behind]):not([data-closing])')
        .getByRole('button', { name: 'OK' })
        .click();
    const press = async (key: string) => {
      await page.keyboard.press(key);
      events.push(key);
    };
    /** Whether `key`, the last of its kind sent, met a form that did not look ready. */
    const lastKeyMetBusyForm = async (from: number) =>
      (await logFrom(page, from)).filter((entry) => entry.key).at(-1)?.screen.kind !== 'ready';

    /**
     * Sends a pair of keys as the volunteer keys fast: the first now, the second 150 ms later,
     * whatever shows then. Returns where the log stood before the second.
     */
    const pair = async ([first, second]: readonly [string, string]) => {
      await press(first);
      await page.waitForTimeout(SECOND_KEY_MS);
      const before = await logLength(page);
      await press(second);
      return before;
    };

    for (let turn = 0; keyed.length < GALAXIES || (await screenNow(page)).kind !== 'complete'; turn++) {
      expect(turn, 'turns').toBeLessThan(400);
      const { screen, next } = await nextScreen(page, cursor);
      cursor = next;
      if (screen.kind === 'complete') break;
      if (screen.kind === 'dialog') {
        events.push(`dialog “${screen.title}”`);
        questStale = true;
        await okFrontDialog();
        continue;
      }
      if (screen.kind !== 'ready') continue;
      if (questStale) {
        quest = await fetchQuest();
        questStale = false;
      }
      if (!quest.questions.some((question) => answeredHere.has(question.object_id))) {
        // A new area.
        if (answeredHere.size > 0) againLeft = AGAIN_PER_AREA;
        answeredHere = new Set(quest.answers.map((answer) => answer.object_id));
      }
      const question = quest.questions[screen.index - 1];
      expect(question, `galaxy ${screen.index} of the quest`).toBeDefined();
      events.push(`ready ${screen.index}/${screen.step}`);
      if (screen.step !== '1') fail(`step ${screen.step} of galaxy ${screen.index} waits for a key already sent`);
      if (answeredHere.has(question.object_id) && !cameByNext)
        fail(`a submit took the form to galaxy ${screen.index}, answered already, not to the nearest unanswered`);
      cameByNext = false;

      const unanswered = quest.questions.filter((candidate) => !answeredHere.has(candidate.object_id));
      if (againLeft > 0 && unanswered.length === 1 && unanswered[0] === question && keyed.length < GALAXIES - 1) {
        // The area's last galaxy waits: N to an answered one, to answer it again.
        againLeft -= 1;
        cameByNext = true;
        await press('n');
        continue;
      }

      // The galaxy shown, keyed: its type now, its interaction 150 ms later.
      const { keys, features, answer } = plan(keyed.length);
      let mark = await pair(keys);
      // What the keys left: the form gone on (a jump, the area's messages), or step 3 for the
      // features. A dialog that came between the keys took the second one, visibly (the form
      // was not ready): it is sent again once the form shows.
      for (const until = Date.now() + 60_000; ; await page.waitForTimeout(20)) {
        if (Date.now() > until) fail(`galaxy ${screen.index} did not go on after its keys`);
        const now = await screenNow(page);
        if (now.kind === 'dialog') {
          events.push(`dialog “${now.title}”`);
          questStale = true;
          await okFrontDialog();
          continue;
        }
        const here = now.kind === 'ready' && now.index === screen.index;
        if (!here) {
          if (features && now.kind !== 'complete') continue;
          break;
        }
        if (now.step === '3' && features) break;
        if (now.step !== '2') fail(`galaxy ${screen.index} shows step ${now.step} again after its keys`);
        if (!(await lastKeyMetBusyForm(mark))) fail(`step 2 of galaxy ${screen.index} shows, ready, after its keys`);
        resent += 1;
        mark = await logLength(page);
        await press(keys[1]);
      }
      if (features) {
        // Step 3: a feature the moment it shows, the second 150 ms later, Enter 150 ms after.
        mark = await pair(features);
        await page.waitForTimeout(SECOND_KEY_MS);
        await press('Enter');
        const now = await screenNow(page);
        if (now.kind === 'ready' && now.index === screen.index && now.step === '3')
          if (!(await lastKeyMetBusyForm(mark))) fail(`step 3 of galaxy ${screen.index} shows, ready, after Enter`);
      }
      keyed.push({ object_id: question.object_id, ...answer });
      answeredHere.add(question.object_id);
      cursor = await logLength(page);
    }

    console.log(`${locale}: ${keyed.length} galaxies keyed, ${resent} keys sent again after a dialog`);
    expect(keyed).toHaveLength(GALAXIES);
    // The queue sends them one at a time, in the order keyed.
    await expect.poll(() => posted.length, { timeout: 60_000 }).toBe(GALAXIES);
    expect(posted).toEqual(keyed);
    const after = (await (
      await page.request.get('/api/courses/season2/quests/current')
    ).json()) as CurrentQuestResponse;
    expect(after.no_more_available_objects, 'season 2 complete').toBe(true);
  });
}
