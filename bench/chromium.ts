// Debian's Chromium for Playwright (it cannot download its own browsers here): headless, no
// sandbox (CI runs as root), no background network (the machine has none), and WebGL through
// SwiftShader, since the machines have no GPU. The one place of these flags: the browser benches
// (bench/browser.ts) and the end-to-end tests (playwright.config.ts, tests/e2e) import it, so
// both measure and test the same browser; it imports nothing.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];
