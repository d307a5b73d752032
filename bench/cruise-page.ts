// The main screen as the cruise suite reads it: the name and size the page is opened at, the
// galaxy on screen and the volunteer's quest, and what the bench records on the page's clock (the
// camera's moves, the globe's jumps, the keys pressed) and reads back (the frames within a span,
// the next target sharp).
import type { CurrentQuestResponse } from '../shared/api';
import { BROWSER_TIMEOUT_MS, type PlaywrightPage } from './browser';

/** The name the page is opened under (Chromium resolves it to 127.0.0.1). */
export const BENCH_HOST = 'galaxy-cruise.bench';
export const VIEWPORT = { width: 1280, height: 720 };
/** The application's view of a target (CruiseScreen's TARGET_FOVY), degrees. */
export const TARGET_FOV = 0.02;

/** The time of the last key pressed on the page (its keydown event's, followCamera). */
export const lastKey = (page: PlaywrightPage) =>
  page.evaluate(() => (window as unknown as { benchKeys: number[] }).benchKeys.at(-1)!);

/** The galaxy on screen: "Galaxy i of n" names it by its place in the quest. */
export async function currentIndex(page: PlaywrightPage): Promise<number> {
  const text = await page.getByTestId('cruise-target').innerText();
  const match = /Galaxy (\d+) of/.exec(text);
  if (!match) throw new Error(`the target line reads '${text}'`);
  return Number(match[1]) - 1;
}

/** The volunteer's current quest of `course`, asked for by the page (its session, its host name). */
export function currentQuest(page: PlaywrightPage, course: string): Promise<CurrentQuestResponse> {
  return page.evaluate(
    async (url) => (await (await fetch(url)).json()) as CurrentQuestResponse,
    `/api/courses/${course}/quests/current`,
  );
}

/** Waits for the answer form at step 1 on another galaxy than `previous`. */
export async function formOnAnotherGalaxy(page: PlaywrightPage, previous: number): Promise<void> {
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
export type Span = [from: number, to: number];

export interface BenchWindow {
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
export function frameTimes(page: PlaywrightPage, spans: Span[]): Promise<number[]> {
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
export async function followCamera(page: PlaywrightPage): Promise<void> {
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
export async function nextSharp(page: PlaywrightPage, submitAt: number) {
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
