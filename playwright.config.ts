// End-to-end tests: Debian's Chromium against the real server started by `npm start` on a
// loopback port with its own var/ directory, stopped by Playwright when the run ends.
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './cli/bench/chromium';
import { E2E_ORIGIN, E2E_PORT, E2E_VAR_DIR } from './tests/helpers/e2e-server';

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: E2E_ORIGIN,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  webServer: {
    // A fresh database every run (accounts and rate-limit counts from an earlier run would leak
    // into this one); the built sky under the same VAR_DIR is kept, so the start stays quick.
    command: `node -e "fs.rmSync(process.argv[1], { recursive: true, force: true })" ${path.join(E2E_VAR_DIR, 'db')} && npm start`,
    url: `${E2E_ORIGIN}/api/session`,
    timeout: 300_000,
    reuseExistingServer: false,
    // GALAXY_CRUISE_SKY=small: the small test sky, built in seconds (galaxy-cruise data --small).
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      // Mail links point here, so that following one keeps the browser on the tested origin.
      PUBLIC_URL: E2E_ORIGIN,
      VAR_DIR: E2E_VAR_DIR,
      DATABASE_URL: '',
      GALAXY_CRUISE_SKY: 'small',
      // Every journey signs its volunteers up from one address; the limits themselves are tested
      // at the HTTP level (tests/server/security.test.ts), so here they would only ration the specs.
      RATE_LIMITS: 'off',
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
