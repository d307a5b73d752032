// Aladin Lite beside the cruise, in the same run: its first complete view of the volunteer's
// first target, and its flights of the cruise's jumps for their frame times (each along our Jump's
// great circle and zoom dip, from a complete view).
import type { Question } from '../shared/api';
import { BROWSER_TIMEOUT_MS, openPage, type BenchServer, type PlaywrightBrowser } from './browser';
import { TARGET_FOV, VIEWPORT, frameTimes, type BenchWindow, type Span } from './cruise-page';
import { PROBE } from './globe-probe';
import { GLOBE_CONTENDERS, openAladin, watchPage } from './globe';
import { median } from './harness';

/** A jump of the cruise: from one target to the next, its duration as drawn. */
export interface CruiseJump {
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
export async function aladinFlights(
  browser: PlaywrightBrowser,
  server: BenchServer,
  jumps: CruiseJump[],
  options: { throttle: number; log: (line: string) => void },
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

/** Aladin Lite's first complete view of `field` (fov 0.02°) from its page's load, ms. */
export async function aladinOnce(browser: PlaywrightBrowser, server: BenchServer, field: Question, throttle: number) {
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
