// The client suite: what a volunteer's browser downloads and does before the login form is usable.
// Two contenders, loaded in interleaved runs, each in a fresh browser context (an empty cache, as
// on a first visit) of Debian's Chromium driven by Playwright, with the CPU slowed down by Chrome
// DevTools Protocol's Emulation.setCPUThrottlingRate (4× by default, a mid-range phone):
//   ours    the product's client (built as `npm start` builds it), served by our real server on
//           127.0.0.1, opened at / as a visitor opens it: the access gate sends them to /login
//   floor   a bare Vite React page with one e-mail field, built by Vite at bench time in a
//           temporary folder and served as static files on 127.0.0.1
// For each run: the time from navigation (the document's time origin) to the frame after the
// e-mail field appeared, enabled and focusable, found by a MutationObserver in the page; then
// typing into it is checked (the run fails otherwise). The JavaScript fetched before that moment
// (the network log's script responses) is counted raw, gzipped (level 9) and brotli-compressed
// (quality 11), as the server sends it precompressed. Every request to another host is aborted.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { projectRoot } from '../server/config';
import { freeLoopbackPort } from '../server/db/temporary-postgres';
import {
  BROWSER_TIMEOUT_MS,
  buildClient,
  launchChromium,
  openPage,
  startServer,
  type PlaywrightBrowser,
} from './browser';
import { formatColumns, median } from './harness';

export const CLIENT_CONTENDERS = { ours: 'galaxy-cruise login screen', floor: 'bare Vite React page' } as const;

/** The target of the login screen's JavaScript, compressed, at most this many bytes (1 KB = 1000 bytes). */
export const LOGIN_JS_TARGET_BYTES = 250_000;

export interface ClientOptions {
  runs: number;
  /** CPU slow-down factor given to Emulation.setCPUThrottlingRate. */
  throttle: number;
  log: (line: string) => void;
}

export interface ClientRow {
  suite: 'client';
  contender: string;
  runs: number;
  throttle: number;
  /** Time from navigation to a usable login form, ms. */
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** The JavaScript fetched before that moment (the median run's), bytes. */
  scripts: number;
  rawBytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

interface RunResult {
  ms: number;
  scripts: number;
  rawBytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

/**
 * Injected before the page's own scripts: records in window.__loginUsable the time (ms since
 * navigation) of the first frame after an enabled e-mail field is in the page and takes the focus.
 */
const USABLE_PROBE = `(() => {
  const usable = () => {
    const field = document.querySelector('input[type=email]');
    if (!field || field.disabled || field.getClientRects().length === 0) return null;
    field.focus();
    return document.activeElement === field ? field : null;
  };
  const watch = () => {
    const observer = new MutationObserver(() => {
      if (!usable()) return;
      observer.disconnect();
      requestAnimationFrame(() => { window.__loginUsable = performance.now(); });
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch);
  else watch();
})();`;

/** The floor's sources: Vite's React template cut down to one e-mail field. */
const FLOOR_FILES: Record<string, string> = {
  'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>floor</title></head>
  <body><div id="root"></div><script type="module" src="/main.jsx"></script></body>
</html>
`,
  'main.jsx': `import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function Login() {
  const [email, setEmail] = useState('');
  return (
    <form onSubmit={(event) => event.preventDefault()}>
      <label>E-mail <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} /></label>
      <button type="submit">Log in</button>
    </form>
  );
}

createRoot(document.getElementById('root')).render(<StrictMode><Login /></StrictMode>);
`,
};

/** Builds the floor with Vite into `directory`/dist; the folder sits in the project so that React resolves. */
async function buildFloor(directory: string): Promise<string> {
  for (const [name, text] of Object.entries(FLOOR_FILES)) fs.writeFileSync(path.join(directory, name), text);
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  const outDir = path.join(directory, 'dist');
  await build({
    root: directory,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  return outDir;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** A static file server on 127.0.0.1 for the floor; resolves with its port and its closer. */
async function serveStatic(root: string): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const file = path.join(root, pathname === '/' ? 'index.html' : path.normalize(pathname));
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' });
    response.end(fs.readFileSync(file));
  });
  const port = await freeLoopbackPort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** One cold load of `url` under CPU throttling: the time to a usable e-mail field and the JavaScript before it. */
async function loadOnce(browser: PlaywrightBrowser, url: string, throttle: number): Promise<RunResult> {
  const { context, page } = await openPage(browser, { throttle, initScripts: [USABLE_PROBE] });
  try {
    const scripts: { body: Promise<Buffer>; end: number }[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      const { startTime, responseEnd } = request.timing();
      const body = request.response().then((response) => (response ? response.body() : Buffer.alloc(0)));
      // The bodies of scripts that arrive after the form was usable are never read, and fail once
      // the context closes: handled here, so that their failure is not the process's.
      body.catch(() => undefined);
      // When the last byte arrived, in ms since the epoch (responseEnd counts from startTime).
      scripts.push({ body, end: startTime + responseEnd });
    });
    await page.goto(url, { waitUntil: 'commit', timeout: BROWSER_TIMEOUT_MS });
    const handle = await page.waitForFunction(() => (window as { __loginUsable?: number }).__loginUsable, undefined, {
      timeout: BROWSER_TIMEOUT_MS,
      polling: 50,
    });
    const ms = (await handle.jsonValue()) as number;
    const timeOrigin = await page.evaluate(() => performance.timeOrigin);
    // "Typing works": the focused field takes what is typed.
    await page.keyboard.type('volunteer@example.org');
    const typed = await page.locator('input[type=email]').inputValue();
    if (typed !== 'volunteer@example.org') throw new Error(`${url}: the e-mail field took '${typed}'`);
    let raw = 0;
    let gzip = 0;
    let brotli = 0;
    let count = 0;
    for (const script of scripts) {
      // Only what had arrived when the form became usable: code fetched later did not hold it up.
      if (script.end - timeOrigin > ms) continue;
      const body = await script.body;
      count++;
      raw += body.length;
      gzip += zlib.gzipSync(body, { level: 9 }).length;
      brotli += zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        },
      }).length;
    }
    return { ms, scripts: count, rawBytes: raw, gzipBytes: gzip, brotliBytes: brotli };
  } finally {
    await context.close();
  }
}

export async function runClient(options: ClientOptions): Promise<ClientRow[]> {
  const { log } = options;
  buildClient(log, 'client');
  // In the project, so that the floor's imports of react resolve to its node_modules.
  fs.mkdirSync(path.join(projectRoot, 'var'), { recursive: true });
  const directory = fs.mkdtempSync(path.join(projectRoot, 'var', 'bench-client-'));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let floor: Awaited<ReturnType<typeof serveStatic>> | undefined;
  let browser: PlaywrightBrowser | undefined;
  try {
    log('bench client: building the floor (a bare Vite React page)');
    const floorRoot = await buildFloor(directory);
    log('bench client: starting the server and the floor on 127.0.0.1');
    server = await startServer();
    floor = await serveStatic(floorRoot);
    browser = await launchChromium();
    const contenders = [
      { name: CLIENT_CONTENDERS.ours, url: `http://127.0.0.1:${server.port}/` },
      { name: CLIENT_CONTENDERS.floor, url: `http://127.0.0.1:${floor.port}/` },
    ];
    const results = new Map<string, RunResult[]>(contenders.map((contender) => [contender.name, []]));
    for (let run = 1; run <= options.runs; run++) {
      for (const contender of contenders) {
        const result = await loadOnce(browser, contender.url, options.throttle);
        log(
          `bench client: run ${run}/${options.runs} ${contender.name}: ${result.ms.toFixed(0)} ms, ` +
            `${result.scripts} scripts, ${result.rawBytes} B raw, ${result.brotliBytes} B brotli`,
        );
        results.get(contender.name)!.push(result);
      }
    }
    return contenders.map(({ name }) => {
      const runs = results.get(name)!;
      const times = runs.map((result) => result.ms);
      const middle = runs.find((result) => result.ms === median(times))!;
      return {
        suite: 'client' as const,
        contender: name,
        runs: runs.length,
        throttle: options.throttle,
        medianMs: median(times),
        minMs: Math.min(...times),
        maxMs: Math.max(...times),
        scripts: middle.scripts,
        rawBytes: middle.rawBytes,
        gzipBytes: middle.gzipBytes,
        brotliBytes: middle.brotliBytes,
      };
    });
  } finally {
    await browser?.close();
    await floor?.close();
    await server?.stop();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export function formatClientTable(rows: ClientRow[]): string {
  const floor = rows.find((row) => row.contender === CLIENT_CONTENDERS.floor);
  const times = (value: number, floorValue: number | undefined) =>
    floorValue === undefined ? '—' : `${(value / floorValue).toFixed(2)}×`;
  const header = ['suite', 'contender', 'runs', 'CPU', 'median', 'min', 'max', 'scripts', 'raw', 'gzip', 'brotli'];
  header.push('time ÷ floor', 'brotli ÷ floor');
  const lines = rows.map((row) => [
    row.suite,
    row.contender,
    String(row.runs),
    `${row.throttle}×`,
    `${row.medianMs.toFixed(0)} ms`,
    `${row.minMs.toFixed(0)} ms`,
    `${row.maxMs.toFixed(0)} ms`,
    String(row.scripts),
    kB(row.rawBytes),
    kB(row.gzipBytes),
    kB(row.brotliBytes),
    row === floor ? '—' : times(row.medianMs, floor?.medianMs),
    row === floor ? '—' : times(row.brotliBytes, floor?.brotliBytes),
  ]);
  const lines2: string[] = [];
  const ours = rows.find((row) => row.contender === CLIENT_CONTENDERS.ours);
  if (ours) {
    const holds = ours.brotliBytes <= LOGIN_JS_TARGET_BYTES && ours.gzipBytes <= LOGIN_JS_TARGET_BYTES;
    lines2.push(
      `target: the login screen's JavaScript ≤ ${kB(LOGIN_JS_TARGET_BYTES)} compressed ` +
        `(brotli ${kB(ours.brotliBytes)}, gzip ${kB(ours.gzipBytes)}): ${holds ? 'holds' : 'does not hold'}`,
    );
  }
  return [formatColumns(header, lines), '', ...lines2].join('\n');
}
