// The globe suite: our globe beside Aladin Lite, a standard HiPS client, flying the
// same scripted cruise over the same sky in the same run. Debian's Chromium at 1280 × 720 (WebGL
// through SwiftShader: no GPU here), our real server on 127.0.0.1 with the small sky, every
// request to another host aborted. Runs alternate the contenders, each run in a fresh context:
//   ours    the application's globe on its terms page (a visitor's page over the globe, which no
//           cruise moves), every layer drawn, the HiPS at every zoom (its application limit lifted,
//           so that both draw the HiPS along the whole path); only the canvas is visible
//   aladin  Aladin Lite (npm aladin-lite, served from this machine) showing the sky repository's
//           HiPS in its stereographic projection, its controls off
// Each run: the first complete view (the last frame drawn before the page's network and drawing
// have both been quiet for QUIET_MS), then the cruise (globe-probe.ts: pan, zoom from 60° to
// 0.01° onto a survey target, a long jump, the HiPS at 10°), the quiet again, then IDLE_MS of an
// untouched view. Measured by the same code in both pages (globe-probe.ts); from the first view
// to the cruise's end a Chrome trace tells each main-thread task's own work from the time it
// waited for the software GPU (main-thread.ts).
import fs from 'node:fs';
import path from 'node:path';
import { smallSky } from '../skydata/small-sky';
import {
  BROWSER_TIMEOUT_MS,
  buildClient,
  heapAfterGc,
  launchChromium,
  openPage,
  startServer,
  type BenchServer,
  type PlaywrightBrowser,
  type PlaywrightContext,
  type PlaywrightPage,
} from './browser';
import { ALADIN_DIRECTORY, routeAladin } from './aladin';
import { PROBE, type CruisePath, type View } from './globe-probe';
import { formatColumns, median } from './harness';
import { MAIN_THREAD_TRACE_CATEGORIES, mainThreadTasks } from './main-thread';

const ALADIN_VERSION = (
  JSON.parse(fs.readFileSync(path.join(ALADIN_DIRECTORY, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

export const GLOBE_CONTENDERS = { ours: 'galaxy-cruise globe', aladin: `Aladin Lite ${ALADIN_VERSION}` } as const;
type Contender = keyof typeof GLOBE_CONTENDERS;

/** The suite's targets (frame times against Aladin Lite, heap, long tasks, idle frames). */
export const GLOBE_TARGETS = {
  /** Our median frame time at most this times Aladin Lite's, our p95 at most this times its p95. */
  medianRatio: 0.8,
  p95Ratio: 1,
  heapBytes: 300_000_000,
  longTaskMs: 50,
  idleFrames: 0,
};

const VIEWPORT = { width: 1280, height: 720 };
/** The network and the drawing both quiet this long: the view is complete. */
const QUIET_MS = 500;
/**
 * A page still drawing this long after its network went quiet keeps drawing at rest (Aladin Lite
 * redraws all the time at a zoom beyond its HiPS's deepest order): its view is complete at its
 * first frame a tile's fade-in after the network went quiet.
 */
const KEEPS_DRAWING_MS = 2000;
/** A tile's fade-in, viewer-spec §4. */
const TILE_FADE_MS = 200;
/** How long an untouched view is watched for frames drawn. */
const IDLE_MS = 5000;
/** The HiPS tiles and survey tiles of the sky repository, as both contenders ask for them. */
const TILE_URL =
  /\/(hips\/sky\/Norder\d+\/Dir\d+\/Npix\d+|hips\/sky\/Norder\d+\/Allsky|(wide|dud|simulation)\/HSC-[GRI]\/.+)\.png$/;

export interface GlobeOptions {
  runs: number;
  /** The cruise's length. */
  seconds: number;
  /** CPU slow-down factor given to Emulation.setCPUThrottlingRate (1: none). */
  throttle: number;
  log: (line: string) => void;
}

export interface GlobeRun {
  /** Page load to the first complete view, ms; null when the view never became quiet. */
  firstViewMs: number | null;
  medianFrameMs: number;
  p95FrameMs: number;
  frames: number;
  tilesPerSecond: number;
  /** Main-thread long tasks over 50 ms after the first complete view, and the longest of them. */
  longTasks: number;
  longestTaskMs: number;
  /**
   * Main-thread tasks whose own work (CPU time outside the compositor's commit, main-thread.ts)
   * is over 50 ms, from the first complete view to the cruise's end, and the most own work in one task.
   */
  ownLongTasks: number;
  longestOwnMs: number;
  heapBytes: number;
  textureBytes: number;
  /** Frames drawn by the untouched view over IDLE_MS; null when it never became quiet. */
  idleFrames: number | null;
  blocked: number;
}

export interface GlobeRow extends Omit<GlobeRun, 'blocked'> {
  suite: 'globe';
  contender: string;
  runs: number;
  seconds: number;
  throttle: number;
}

/** The cruise over the small sky: from a wide-survey target of season 2 to the HiPS across the sky. */
async function cruisePath(): Promise<CruisePath> {
  const { catalogue } = await smallSky();
  const target = catalogue.courses
    .filter((course) => course.id === 'season2')
    .flatMap((course) => course.levels)
    .filter((level) => level.survey === 'wide')
    .flatMap((level) => level.areas.flatMap((area) => area.targets))[0];
  if (!target) throw new Error('the small sky has no wide-survey target in season 2');
  const ra = (degrees: number) => (degrees + 360) % 360;
  const dec = (degrees: number) => Math.max(-80, Math.min(80, degrees));
  const hips = { ra: ra(target.ra + 140), dec: -30, fov: 10 };
  return {
    start: { ra: ra(target.ra - 45), dec: dec(target.dec - 15), fov: 60 },
    panned: { ra: ra(target.ra - 15), dec: dec(target.dec - 5), fov: 60 },
    target: { ra: target.ra, dec: target.dec, fov: 0.01 },
    hips,
    end: { ra: ra(hips.ra + 8), dec: hips.dec, fov: 10 },
  };
}

/** Opens Aladin Lite (served from node_modules under our server's origin) on `view`, its HiPS the sky repository's. */
export async function openAladin(page: PlaywrightPage, origin: string, view: View): Promise<void> {
  await routeAladin(page, '/__bench__', {
    ra: view.ra,
    dec: view.dec,
    // Aladin Lite's fov spans the wider side; ours is vertical (stereographic on both).
    fov: (4 * Math.atan(Math.tan((view.fov * Math.PI) / 180 / 4) * (VIEWPORT.width / VIEWPORT.height)) * 180) / Math.PI,
    projection: 'STG',
    width: '100vw',
    height: '100vh',
  });
  await page.goto(`${origin}/__bench__/aladin.html`, { timeout: BROWSER_TIMEOUT_MS });
  await page.waitForFunction(() => (window as { aladinReady?: boolean }).aladinReady === true, undefined, {
    timeout: BROWSER_TIMEOUT_MS,
  });
}

/**
 * Follows a page that runs PROBE: every request of the page and of its workers (how many are in
 * flight, when the last ended, when each tile arrived) and the frames it drew. `quiet` waits for
 * the network and the drawing to have been quiet for QUIET_MS after a tile arrived and a frame was
 * drawn, and answers the time (page clock, ms since navigation) of the last frame drawn; for a
 * page that keeps drawing (KEEPS_DRAWING_MS), its first frame TILE_FADE_MS after the network
 * went quiet; null when the network never went quiet.
 */
export function watchPage(context: PlaywrightContext, page: PlaywrightPage) {
  let inFlight = 0;
  let lastNetwork = Date.now();
  let origin = 0;
  const tiles: number[] = [];
  context.on('request', () => {
    inFlight++;
    lastNetwork = Date.now();
  });
  const ended = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastNetwork = Date.now();
  };
  context.on('requestfailed', ended);
  context.on('requestfinished', (request) => {
    ended();
    if (TILE_URL.test(new URL(request.url()).pathname))
      void request.response().then((response) => response?.ok() && tiles.push(Date.now()));
  });
  const status = () =>
    page.evaluate(() => {
      const bench = (window as unknown as { __bench: { drewAt: number[] } }).__bench;
      return { now: performance.now(), drawn: bench.drewAt.length, lastDrew: bench.drewAt.at(-1) ?? -Infinity };
    });
  return {
    /** Tiles arrived, ms since the epoch. */
    tiles,
    timeOrigin: () => origin,
    async ready() {
      origin = await page.evaluate(() => performance.timeOrigin);
    },
    drawn: async () => (await status()).drawn,
    async quiet(timeoutMs = BROWSER_TIMEOUT_MS / 2): Promise<number | null> {
      const started = Date.now();
      while (Date.now() - started < timeoutMs) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const { now, drawn, lastDrew } = await status();
        const networkQuiet = inFlight === 0 ? now - (lastNetwork - origin) : 0;
        if (drawn === 0 || tiles.length === 0 || networkQuiet < QUIET_MS) continue;
        if (now - lastDrew >= QUIET_MS) return lastDrew;
        if (networkQuiet >= KEEPS_DRAWING_MS) {
          const faded = now - networkQuiet + TILE_FADE_MS;
          const first = await page.evaluate(
            (after) =>
              (window as unknown as { __bench: { drewAt: number[] } }).__bench.drewAt.find((time) => time >= after),
            faded,
          );
          if (first !== undefined) return first;
        }
      }
      return null;
    },
  };
}

async function runOnce(
  browser: PlaywrightBrowser,
  contender: Contender,
  server: BenchServer,
  cruise: CruisePath,
  options: GlobeOptions,
): Promise<GlobeRun> {
  const { context, page, cdp, blocked } = await openPage(browser, {
    throttle: options.throttle,
    viewport: VIEWPORT,
    initScripts: [PROBE],
  });
  try {
    const watch = watchPage(context, page);
    if (contender === 'ours') {
      const { start } = cruise;
      await page.goto(`${server.origin}/#/terms?ra=${start.ra}&dec=${start.dec}&fov=${start.fov}`, {
        timeout: BROWSER_TIMEOUT_MS,
      });
      await page.waitForFunction(() => 'galaxyCruiseGlobe' in window, undefined, { timeout: BROWSER_TIMEOUT_MS });
      await page.evaluate(() => {
        const { globe, layers } = (
          window as unknown as {
            galaxyCruiseGlobe: {
              globe: { layerNames(): string[]; setLayerVisible(name: string, visible: boolean): void };
              layers: { hips: { update(options: { maxTexelPixels: number }): void } };
            };
          }
        ).galaxyCruiseGlobe;
        for (const name of globe.layerNames()) globe.setLayerVisible(name, true);
        layers.hips.update({ maxTexelPixels: Infinity });
      });
      await page.addStyleTag({
        content: '* { visibility: hidden !important } .globe-canvas { visibility: visible !important }',
      });
    } else await openAladin(page, server.origin, cruise.start);
    const { timeOrigin, tiles, quiet, drawn } = watch;
    await watch.ready();
    const firstView = await quiet();

    await browser.startTracing(page, { categories: MAIN_THREAD_TRACE_CATEGORIES });
    await page.evaluate(() => performance.mark('warm'));
    await page.evaluate(
      ([cruise, seconds, contender]) =>
        (window as unknown as { __bench: { startCruise(...args: unknown[]): void } }).__bench.startCruise(
          cruise,
          seconds,
          contender,
        ),
      [cruise, options.seconds, contender] as const,
    );
    await page.waitForFunction(
      () => (window as unknown as { __bench: { cruise: { end: number | null } | null } }).__bench.cruise?.end,
      undefined,
      { timeout: BROWSER_TIMEOUT_MS, polling: 200 },
    );
    const { start, end, ticks, longTasks } = await page.evaluate(() => {
      const bench = (
        window as unknown as {
          __bench: { cruise: { start: number; end: number }; ticks: number[]; longTasks: [number, number][] };
        }
      ).__bench;
      return { ...bench.cruise, ticks: bench.ticks, longTasks: bench.longTasks };
    });
    const ownWork = mainThreadTasks(await browser.stopTracing(), 'warm').map((task) => task.own);
    const ownLong = ownWork.filter((own) => own > GLOBE_TARGETS.longTaskMs);
    const frameTimes: number[] = [];
    for (let k = 1; k < ticks.length; k++)
      if (ticks[k - 1] >= start && ticks[k] <= end) frameTimes.push(ticks[k] - ticks[k - 1]);
    frameTimes.sort((a, b) => a - b);
    const tilesInCruise = tiles.filter((time) => time - timeOrigin() >= start && time - timeOrigin() <= end).length;

    const settled = await quiet();
    let idleFrames: number | null = null;
    if (settled !== null) {
      const before = await drawn();
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      idleFrames = (await drawn()) - before;
    }
    const warmedUp = firstView ?? start;
    const late = longTasks.filter(
      ([startTime, duration]) => startTime >= warmedUp && duration > GLOBE_TARGETS.longTaskMs,
    );
    const textureBytes = await page.evaluate(() =>
      (window as unknown as { __bench: { textureBytes(): number } }).__bench.textureBytes(),
    );
    return {
      firstViewMs: firstView,
      medianFrameMs: median(frameTimes),
      p95FrameMs: frameTimes[Math.min(frameTimes.length - 1, Math.floor(frameTimes.length * 0.95))],
      frames: frameTimes.length,
      tilesPerSecond: tilesInCruise / ((end - start) / 1000),
      longTasks: late.length,
      longestTaskMs: Math.max(0, ...late.map(([, duration]) => duration)),
      ownLongTasks: ownLong.length,
      longestOwnMs: Math.max(0, ...ownWork),
      heapBytes: await heapAfterGc(cdp),
      textureBytes,
      idleFrames,
      blocked: blocked.length,
    };
  } finally {
    await context.close();
  }
}

const medianOf = (values: (number | null)[]) => {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : median(known);
};

export async function runGlobe(options: GlobeOptions): Promise<GlobeRow[]> {
  const { log } = options;
  buildClient(log, 'globe');
  log('bench globe: starting the server with the small sky on 127.0.0.1');
  const server = await startServer({ sky: true });
  let browser: PlaywrightBrowser | undefined;
  try {
    const cruise = await cruisePath();
    browser = await launchChromium();
    const contenders: Contender[] = ['ours', 'aladin'];
    const results = new Map<Contender, GlobeRun[]>(contenders.map((contender) => [contender, []]));
    for (let run = 1; run <= options.runs; run++) {
      for (const contender of contenders) {
        const result = await runOnce(browser, contender, server, cruise, options);
        const ms = (value: number | null) => (value === null ? '—' : `${value.toFixed(0)} ms`);
        log(
          `bench globe: run ${run}/${options.runs} ${GLOBE_CONTENDERS[contender]}: first view ${ms(result.firstViewMs)}, ` +
            `frames median ${ms(result.medianFrameMs)} p95 ${ms(result.p95FrameMs)} (${result.frames}), ` +
            `${result.tilesPerSecond.toFixed(1)} tiles/s, ${result.longTasks} long tasks (longest ${ms(result.longestTaskMs)}), ` +
            `${result.ownLongTasks} over 50 ms of own work (most ${ms(result.longestOwnMs)}), ` +
            `heap ${mB(result.heapBytes)}, textures ${mB(result.textureBytes)}, idle frames ${result.idleFrames ?? '—'}, ` +
            `${result.blocked} requests to other hosts aborted`,
        );
        results.get(contender)!.push(result);
      }
    }
    return contenders.map((contender) => {
      const runs = results.get(contender)!;
      const of = (key: keyof GlobeRun) => medianOf(runs.map((result) => result[key]));
      return {
        suite: 'globe' as const,
        contender: GLOBE_CONTENDERS[contender],
        runs: runs.length,
        seconds: options.seconds,
        throttle: options.throttle,
        firstViewMs: of('firstViewMs'),
        medianFrameMs: of('medianFrameMs')!,
        p95FrameMs: of('p95FrameMs')!,
        frames: of('frames')!,
        tilesPerSecond: of('tilesPerSecond')!,
        longTasks: Math.max(...runs.map((result) => result.longTasks)),
        longestTaskMs: Math.max(...runs.map((result) => result.longestTaskMs)),
        ownLongTasks: Math.max(...runs.map((result) => result.ownLongTasks)),
        longestOwnMs: Math.max(...runs.map((result) => result.longestOwnMs)),
        heapBytes: of('heapBytes')!,
        textureBytes: of('textureBytes')!,
        idleFrames: runs.some((result) => result.idleFrames === null)
          ? null
          : Math.max(...runs.map((result) => result.idleFrames!)),
      };
    });
  } finally {
    await browser?.close();
    await server.stop();
  }
}

const mB = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export function formatGlobeTable(rows: GlobeRow[]): string {
  const ms = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} ms`);
  const header = ['suite', 'contender', 'runs', 'CPU', 'first view', 'frame median', 'frame p95', 'frames'];
  header.push('tiles/s', 'long tasks > 50 ms', 'longest', 'own work > 50 ms', 'most own work');
  header.push('heap', 'textures', 'idle frames / 5 s');
  const lines = rows.map((row) => [
    row.suite,
    row.contender,
    String(row.runs),
    `${row.throttle}×`,
    ms(row.firstViewMs),
    ms(row.medianFrameMs),
    ms(row.p95FrameMs),
    row.frames.toFixed(0),
    row.tilesPerSecond.toFixed(1),
    String(row.longTasks),
    ms(row.longestTaskMs),
    String(row.ownLongTasks),
    ms(row.longestOwnMs),
    mB(row.heapBytes),
    mB(row.textureBytes),
    row.idleFrames === null ? '—' : String(row.idleFrames),
  ]);
  const ours = rows.find((row) => row.contender === GLOBE_CONTENDERS.ours);
  const aladin = rows.find((row) => row.contender === GLOBE_CONTENDERS.aladin);
  const verdict = (holds: boolean) => (holds ? 'holds' : 'does not hold');
  const targets: string[] = [];
  if (ours && aladin) {
    const medianRatio = ours.medianFrameMs / aladin.medianFrameMs;
    const p95Ratio = ours.p95FrameMs / aladin.p95FrameMs;
    targets.push(
      `target: median frame time ≤ ${GLOBE_TARGETS.medianRatio}× Aladin Lite's (${medianRatio.toFixed(2)}×): ${verdict(medianRatio <= GLOBE_TARGETS.medianRatio)}`,
      `target: p95 frame time ≤ ${GLOBE_TARGETS.p95Ratio.toFixed(1)}× Aladin Lite's (${p95Ratio.toFixed(2)}×): ${verdict(p95Ratio <= GLOBE_TARGETS.p95Ratio)}`,
    );
  }
  if (ours)
    targets.push(
      `target: heap ≤ ${mB(GLOBE_TARGETS.heapBytes)} (${mB(ours.heapBytes)}): ${verdict(ours.heapBytes <= GLOBE_TARGETS.heapBytes)}`,
      `target: no long task over ${GLOBE_TARGETS.longTaskMs} ms after the first view (${ours.longTasks}): ${verdict(ours.longTasks === 0)}`,
      `  of those, with over ${GLOBE_TARGETS.longTaskMs} ms of the page's own work, CPU time outside the compositor's commit (${ours.ownLongTasks}): ${verdict(ours.ownLongTasks === 0)}`,
      `target: ${GLOBE_TARGETS.idleFrames} frames drawn by the idle globe over 5 s (${ours.idleFrames ?? 'never quiet'}): ${verdict(ours.idleFrames === GLOBE_TARGETS.idleFrames)}`,
    );
  return [formatColumns(header, lines), '', ...targets].join('\n');
}
