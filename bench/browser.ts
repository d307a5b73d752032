// The plumbing of the browser suites (client, globe, cruise), one way to do each thing: the
// client built as `npm start` builds it, our real server started on a free loopback port with a
// fresh VAR_DIR (and the small test sky when a suite needs one) and stopped by its pid, Debian's
// Chromium launched with the e2e tests' flags, and pages whose CPU Chrome DevTools Protocol slows
// down and whose requests to any host but ours are aborted, so that nothing leaves the machine.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../server/config';
import { freeLoopbackPort } from '../server/db/temporary-postgres';
import { smallSky } from '../skydata/small-sky';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

/** How long the server (its database made afresh on a busy machine) or a page may take before a run fails. */
export const BROWSER_TIMEOUT_MS = 300_000;

export type PlaywrightBrowser = Awaited<ReturnType<(typeof import('playwright-core'))['chromium']['launch']>>;
export type PlaywrightContext = Awaited<ReturnType<PlaywrightBrowser['newContext']>>;
export type PlaywrightPage = Awaited<ReturnType<PlaywrightContext['newPage']>>;
export type CdpSession = Awaited<ReturnType<PlaywrightContext['newCDPSession']>>;

/** Builds the wasm core, the server and the client into DIST_DIR when their sources changed. */
export function buildClient(log: (line: string) => void, suite: string): void {
  log(`bench ${suite}: building the client (scripts/build.mjs wasm node client --if-stale)`);
  const built = spawnSync(process.execPath, ['scripts/build.mjs', 'wasm', 'node', 'client', '--if-stale'], {
    cwd: projectRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (built.status !== 0) throw new Error('the client build failed');
}

export interface BenchServer {
  port: number;
  origin: string;
  /** The server's VAR_DIR: its database, its outbox (the mails it would send) and its sky. */
  varDirectory: string;
  /** Stops the server by its pid and removes its VAR_DIR. */
  stop(): Promise<void>;
}

/**
 * Starts `galaxy-cruise serve` on a free loopback port with a fresh VAR_DIR under var/; with
 * `sky`, the small test sky (built once per machine, skydata/small-sky.ts) is linked in as its sky.
 * `env` adds to the server's environment (PUBLIC_URL for a page opened under another name).
 */
export async function startServer(
  options: { sky?: boolean; env?: (port: number) => Record<string, string> } = {},
): Promise<BenchServer> {
  fs.mkdirSync(path.join(projectRoot, 'var'), { recursive: true });
  const varDirectory = fs.mkdtempSync(path.join(projectRoot, 'var', 'bench-server-'));
  if (options.sky) fs.symlinkSync(path.join((await smallSky()).varDirectory, 'sky'), path.join(varDirectory, 'sky'));
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, [path.join(projectRoot, 'bin', 'galaxy-cruise.mjs'), 'serve'], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      VAR_DIR: varDirectory,
      DATABASE_URL: '',
      ...options.env?.(port),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
    const killer = setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
    fs.rmSync(varDirectory, { recursive: true, force: true });
  };
  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the server exited with ${child.exitCode}: ${stderr.trim()}`);
    }
    try {
      if ((await fetch(`${origin}/api/session`)).ok) return { port, origin, varDirectory, stop };
    } catch {
      // not listening yet
    }
    if (performance.now() - started > BROWSER_TIMEOUT_MS) {
      await stop();
      throw new Error(`the server did not answer within ${BROWSER_TIMEOUT_MS} ms: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Debian's Chromium, headless, with the flags of the e2e tests and `extraArgs`. */
export async function launchChromium(extraArgs: string[] = []): Promise<PlaywrightBrowser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
}

export interface BenchPage {
  context: PlaywrightContext;
  page: PlaywrightPage;
  cdp: CdpSession;
  /** The requests aborted because they were for another host. */
  blocked: string[];
}

/**
 * A page in a fresh context (an empty cache, as on a first visit), its CPU slowed down `throttle`
 * times by Emulation.setCPUThrottlingRate; every request to a host not in `hosts` (127.0.0.1 by
 * default) is aborted and listed.
 */
export async function openPage(
  browser: PlaywrightBrowser,
  options: {
    throttle: number;
    viewport?: { width: number; height: number };
    hosts?: string[];
    initScripts?: string[];
  },
): Promise<BenchPage> {
  const hosts = new Set(options.hosts ?? ['127.0.0.1']);
  const context = await browser.newContext(
    options.viewport ? { viewport: options.viewport, deviceScaleFactor: 1 } : undefined,
  );
  const blocked: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (hosts.has(new URL(url).hostname)) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  for (const script of options.initScripts ?? []) await context.addInitScript(script);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.throttle });
  return { context, page, cdp, blocked };
}

/**
 * Another page in the context of `opened` (its caches, its service worker, its cookies, routes
 * and scripts: a volunteer's next visit in the same browser), its CPU slowed down `throttle` times.
 */
export async function openAnotherPage(opened: BenchPage, throttle: number): Promise<BenchPage> {
  const page = await opened.context.newPage();
  const cdp = await opened.context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  return { context: opened.context, page, cdp, blocked: opened.blocked };
}

/** The page's JavaScript heap in use after a full garbage collection, bytes (CDP). */
export async function heapAfterGc(cdp: CdpSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}
