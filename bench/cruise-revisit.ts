// The cruise suite's second-visit mode (`bench cruise --second-visit`): a volunteer on a poor
// connection comes back. In one browser context (its caches and its service worker kept, as a
// volunteer's browser keeps them), the first visit logs in and sails to the first target, stays
// there until the page's service worker, if it has one, controls it (at most FIRST_VISIT_STAY_MS),
// logs out through the header's button and closes the tab; the second visit opens the site
// again, logs in and sails to the same target. Both under the CPU slowed down (--throttle,
// default 4×) and a slow line on every page and service worker (network-conditions.ts:
// 1.6 Mbit/s down, 750 kbit/s up, 150 ms), the page opened as galaxy-cruise.bench, which
// Chromium is told to treat as a secure origin (an https site, as a deployment is: service
// workers need one).
//   login → target   as the cruise suite times it (cruise-login.ts loginOnPage): from the click
//                    on 'Log in' to the first frame at rest on the first target
//   received, sent   the bytes the line carried from the navigation to that frame, counted by a
//                    relay in front of the server (byte-counter.ts): the page's, its workers' and
//                    its service worker's requests, headers and bodies as sent (compressed)
// The figures are medians over --runs (default 3), each run a fresh context. --client-dist DIR
// serves a client built elsewhere (another revision's `npm run build`) instead of this
// checkout's. --peer-dist DIR times another build beside it in the same run, run for run (each
// from its own server over the same database kind and sky): the first visit's "no slower than
// today" is this client's first visit against the peer's.
import path from 'node:path';
import { freeLoopbackPort } from '../server/db/temporary-postgres';
import {
  BROWSER_TIMEOUT_MS,
  buildClient,
  launchChromium,
  openAnotherPage,
  openPage,
  startServer,
  type BenchPage,
  type PlaywrightBrowser,
} from './browser';
import { startByteCounter, type ByteCounter } from './byte-counter';
import { loginOnPage } from './cruise-login';
import { BENCH_HOST, VIEWPORT } from './cruise-page';
import { makeVolunteer } from './cruise-volunteer';
import { PROBE } from './globe-probe';
import { formatColumns, median } from './harness';
import { SLOW_NETWORK, emulateNetwork, type NetworkConditions } from './network-conditions';

export interface SecondVisitOptions {
  runs: number;
  throttle: number;
  /** A built client to serve as it is; this checkout's, brought up to date, when absent. */
  clientDist?: string;
  /** Another built client timed beside it in the same run (today's, for a before-and-after). */
  peerDist?: string;
  log: (line: string) => void;
}

export interface VisitFigures {
  loginToTargetMs: number;
  /** Bytes from the server, and to it, from the navigation to the first target at rest. */
  receivedBytes: number;
  sentBytes: number;
}

export interface SecondVisitRow {
  suite: 'cruise-second-visit';
  client: string;
  runs: number;
  throttle: number;
  network: NetworkConditions;
  /** Medians over the runs. */
  first: VisitFigures;
  second: VisitFigures;
}

export const SECOND_VISIT_TARGETS = {
  /** The second visit's login → target at most this times the first's. */
  timeRatio: 0.5,
  /** The second visit's bytes at most this share of the first's. */
  bytesRatio: 0.1,
  /** The first visit's login → target at most this times the peer's (--peer-dist): no slower. */
  firstVisitRatio: 1,
};

/** How long the first visit stays on its first target at most, waiting for its service worker. */
const FIRST_VISIT_STAY_MS = 90_000;

type Throttling = Awaited<ReturnType<typeof emulateNetwork>>;

/** Waits until the line is slow for `count` pages (the page just opened is the last of them). */
async function pagesThrottled(throttling: Throttling, count: number): Promise<void> {
  const started = Date.now();
  while (throttling.throttled().filter((target) => target.startsWith('page ')).length < count) {
    if (Date.now() - started > 10_000) throw new Error('the page was not throttled within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One visit in `opened`'s page: its login → target and the bytes of its navigation to that frame. */
async function visit(opened: BenchPage, origin: string, email: string, counter: ByteCounter): Promise<VisitFigures> {
  const navigationAt = Date.now();
  const session = await loginOnPage(opened, origin, email, { captainMessage: false });
  const sharpEpoch = session.watch.timeOrigin() + session.sharpAt;
  return {
    loginToTargetMs: session.loginToTargetMs,
    receivedBytes: counter.receivedBetween(navigationAt, sharpEpoch),
    sentBytes: counter.sentBetween(navigationAt, sharpEpoch),
  };
}

async function runOnce(
  browser: PlaywrightBrowser,
  throttling: Throttling,
  origin: string,
  email: string,
  counter: ByteCounter,
  throttle: number,
) {
  const pages = throttling.throttled().filter((target) => target.startsWith('page ')).length;
  const first = await openPage(browser, {
    throttle,
    viewport: VIEWPORT,
    hosts: [BENCH_HOST, '127.0.0.1'],
    initScripts: [PROBE],
  });
  try {
    await pagesThrottled(throttling, pages + 1);
    const firstVisit = await visit(first, origin, email, counter);
    // The volunteer stays on the first target until the page's service worker, if it registered
    // one, has installed and taken control, as a volunteer stays to classify it. Then the
    // volunteer logs out and closes the tab; the browser keeps what it kept.
    const stayFrom = Date.now();
    const controlled = await first.page
      .waitForFunction(
        async () => navigator.serviceWorker.controller !== null || !(await navigator.serviceWorker.getRegistration()),
        undefined,
        { timeout: FIRST_VISIT_STAY_MS },
      )
      .then(() => first.page.evaluate(() => navigator.serviceWorker.controller !== null))
      .catch(() => false);
    const workerAfterMs = controlled ? Date.now() - stayFrom : null;
    await first.page.getByRole('button', { name: 'Log out' }).click({ timeout: BROWSER_TIMEOUT_MS });
    await first.page.waitForURL(/#\/login$/, { timeout: BROWSER_TIMEOUT_MS });
    await first.page.close();
    const second = await openAnotherPage(first, throttle);
    await pagesThrottled(throttling, pages + 2);
    const secondVisit = await visit(second, origin, email, counter);
    return { first: firstVisit, second: secondVisit, workerAfterMs };
  } finally {
    await first.context.close();
  }
}

/** One client served for the runs: its server, the relay that counts its bytes, and its runs. */
interface Served {
  client: string;
  origin: string;
  server: Awaited<ReturnType<typeof startServer>>;
  counter: ByteCounter;
  email: string;
  runs: { first: VisitFigures; second: VisitFigures; workerAfterMs: number | null }[];
}

async function serve(clientDist: string | undefined): Promise<Served> {
  // The browser talks to the relay, the relay to the server: the page's origin is the relay's.
  const relayPort = await freeLoopbackPort();
  const origin = `http://${BENCH_HOST}:${relayPort}`;
  const server = await startServer({
    sky: true,
    env: () => ({ PUBLIC_URL: origin, ...(clientDist ? { DIST_DIR: clientDist } : {}) }),
  });
  let counter: ByteCounter | undefined;
  try {
    counter = await startByteCounter(server.port, relayPort);
    const { email } = await makeVolunteer(server);
    return { client: clientDist ?? 'this checkout', origin, server, counter, email, runs: [] };
  } catch (error) {
    await counter?.stop();
    await server.stop();
    throw error;
  }
}

export async function runSecondVisit(options: SecondVisitOptions): Promise<SecondVisitRow[]> {
  const { log } = options;
  if (!options.clientDist) buildClient(log, 'cruise --second-visit');
  const clients = [options.clientDist, ...(options.peerDist ? [options.peerDist] : [])].map((dist) =>
    dist ? path.resolve(dist) : undefined,
  );
  const served: Served[] = [];
  let browser: PlaywrightBrowser | undefined;
  try {
    for (const clientDist of clients) {
      log(
        `bench cruise --second-visit: starting a server with the small sky${clientDist ? `, serving ${clientDist}` : ''}`,
      );
      served.push(await serve(clientDist));
    }
    browser = await launchChromium([
      `--host-resolver-rules=MAP ${BENCH_HOST} 127.0.0.1`,
      // One switch with every origin: Chromium reads only the last of a repeated switch.
      `--unsafely-treat-insecure-origin-as-secure=${served.map(({ origin }) => origin).join(',')}`,
    ]);
    const throttling = await emulateNetwork(browser, SLOW_NETWORK);
    for (let run = 1; run <= options.runs; run++)
      for (const client of served) {
        const figures = await runOnce(
          browser,
          throttling,
          client.origin,
          client.email,
          client.counter,
          options.throttle,
        );
        const kB = (bytes: number) => `${(bytes / 1000).toFixed(0)} kB`;
        log(
          `bench cruise --second-visit: ${client.client}, run ${run}/${options.runs}: first visit ${figures.first.loginToTargetMs.toFixed(0)} ms, ` +
            `${kB(figures.first.receivedBytes)} received; second visit ${figures.second.loginToTargetMs.toFixed(0)} ms, ` +
            `${kB(figures.second.receivedBytes)} received; the first visit's worker in control ` +
            (figures.workerAfterMs === null ? 'never' : `${figures.workerAfterMs.toFixed(0)} ms after its target`),
        );
        client.runs.push(figures);
      }
    await throttling.stop();
    return served.map(({ client, runs }) => {
      const medians = (
        pick: (figures: { first: VisitFigures; second: VisitFigures }) => VisitFigures,
      ): VisitFigures => ({
        loginToTargetMs: median(runs.map((figures) => pick(figures).loginToTargetMs)),
        receivedBytes: median(runs.map((figures) => pick(figures).receivedBytes)),
        sentBytes: median(runs.map((figures) => pick(figures).sentBytes)),
      });
      return {
        suite: 'cruise-second-visit' as const,
        client,
        runs: options.runs,
        throttle: options.throttle,
        network: SLOW_NETWORK,
        first: medians((figures) => figures.first),
        second: medians((figures) => figures.second),
      };
    });
  } finally {
    await browser?.close();
    for (const { counter, server } of served) {
      await counter.stop();
      await server.stop();
    }
  }
}

export function formatSecondVisitTable(rows: SecondVisitRow[]): string {
  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  const header = ['suite', 'client', 'runs', 'CPU', 'line', 'visit', 'login → target', 'received', 'sent'];
  const line = (network: NetworkConditions) =>
    `${network.downloadBitsPerSecond / 1e6} / ${network.uploadBitsPerSecond / 1e6} Mbit/s, ${network.latencyMs} ms`;
  const lines = rows.flatMap((row) =>
    (['first', 'second'] as const).map((which) => [
      row.suite,
      row.client,
      String(row.runs),
      `${row.throttle}×`,
      line(row.network),
      which,
      `${row[which].loginToTargetMs.toFixed(0)} ms`,
      kB(row[which].receivedBytes),
      kB(row[which].sentBytes),
    ]),
  );
  const verdict = (holds: boolean) => (holds ? 'holds' : 'does not hold');
  // The targets are this client's (the first row); a peer's row is there to be compared with.
  const targets = rows.slice(0, 1).flatMap((row) => {
    const time = row.second.loginToTargetMs / row.first.loginToTargetMs;
    const bytes = row.second.receivedBytes / row.first.receivedBytes;
    return [
      `target: second visit login → target ≤ ${SECOND_VISIT_TARGETS.timeRatio}× the first's (${time.toFixed(2)}×): ` +
        verdict(time <= SECOND_VISIT_TARGETS.timeRatio),
      `target: second visit bytes received ≤ ${SECOND_VISIT_TARGETS.bytesRatio * 100} % of the first's ` +
        `(${(bytes * 100).toFixed(1)} %): ${verdict(bytes <= SECOND_VISIT_TARGETS.bytesRatio)}`,
    ];
  });
  // The first row is this client; a second is the peer it is held against (--peer-dist).
  const [own, peer] = rows;
  if (own && peer) {
    const time = own.first.loginToTargetMs / peer.first.loginToTargetMs;
    const bytes = own.first.receivedBytes / peer.first.receivedBytes;
    targets.push(
      `target: first visit login → target ≤ ${SECOND_VISIT_TARGETS.firstVisitRatio}× the peer's (${time.toFixed(2)}×): ` +
        verdict(time <= SECOND_VISIT_TARGETS.firstVisitRatio),
      `first visit bytes received against the peer's: ${bytes.toFixed(2)}×`,
    );
  }
  return [formatColumns(header, lines), '', ...targets].join('\n');
}
