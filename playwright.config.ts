// End-to-end tests: Debian's Chromium against the real server started by `npm start` on a
// loopback port with its own var/ directory, stopped by Playwright when the run ends.
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/helpers/chromium';

const port = Number(process.env.E2E_PORT ?? 18080);
const varDirectory = process.env.E2E_VAR_DIR ?? path.join(os.tmpdir(), `galaxy-cruise-e2e-${port}`);

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'npm start',
    url: `http://127.0.0.1:${port}/api/session`,
    timeout: 300_000,
    reuseExistingServer: false,
    // GALAXY_CRUISE_SKY=small: the small test sky, built in seconds (galaxy-cruise data --small).
    env: { PORT: String(port), HOST: '127.0.0.1', VAR_DIR: varDirectory, DATABASE_URL: '', GALAXY_CRUISE_SKY: 'small' },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
