// A page at a volunteer's pace. Developer mode goes by the page's host name (a loopback address
// is a developer's own machine, src/app/developerMode.ts): a page of the e2e server opened at
// 127.0.0.1 runs developer mode's constants (jumps 10 times as fast, 200 ms flashes, a puzzle
// piece every 3 answers). Opened as VOLUNTEER_HOST, a name that Chromium maps to 127.0.0.1
// (--host-resolver-rules; nothing leaves the machine) and that the e2e servers accept as an
// origin (ALLOWED_ORIGINS, playwright.config.ts), the same page runs a volunteer's: 2 s jumps,
// 1 s flashes, a piece every 30 answers.
import type { BrowserContext } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../bench/chromium';

export const VOLUNTEER_HOST = 'galaxy-cruise.test';

/** The launch options of a spec whose pages may open at VOLUNTEER_HOST (`test.use`). */
export const VOLUNTEER_PACE_LAUNCH = {
  executablePath: CHROMIUM_PATH,
  args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${VOLUNTEER_HOST} 127.0.0.1`],
};

/** The origin of `origin`'s server under the volunteer's host name. */
export function volunteerOrigin(origin: string): string {
  const url = new URL(origin);
  url.hostname = VOLUNTEER_HOST;
  return url.origin;
}

/**
 * Gives the context's cookies of `origin` (a session logged in through the request context,
 * which talks to 127.0.0.1 from Node and cannot resolve VOLUNTEER_HOST) to VOLUNTEER_HOST too.
 */
export async function shareCookiesWithVolunteerHost(context: BrowserContext, origin: string): Promise<void> {
  const cookies = await context.cookies(origin);
  await context.addCookies(cookies.map((cookie) => ({ ...cookie, domain: VOLUNTEER_HOST })));
}
