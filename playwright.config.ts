// End-to-end tests: Debian's Chromium against the real servers, each on a loopback port with its
// own var/ directory and stopped by Playwright when the run ends. Two projects, named by their
// server's database kind: 'pglite' runs every spec against `npm start` over embedded PGlite;
// 'postgres' runs the application's journeys again against the same server over a throw-away
// PostgreSQL (tests/helpers/e2e-postgres-server.ts).
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './bench/chromium';
import { E2E_SERVERS } from './tests/helpers/e2e-server';
import { volunteerOrigin } from './tests/e2e/volunteer-pace';

const { pglite, postgres } = E2E_SERVERS;

/** What both servers share: the small sky, mail links on the tested origin, no rate limits. */
function serverEnv(server: typeof pglite) {
  return {
    PORT: String(server.port),
    HOST: '127.0.0.1',
    // Mail links point here, so that following one keeps the browser on the tested origin.
    PUBLIC_URL: server.origin,
    // The same server as a volunteer's page reaches it, at a volunteer's pace (not developer
    // mode): tests/e2e/volunteer-pace.ts.
    ALLOWED_ORIGINS: volunteerOrigin(server.origin),
    VAR_DIR: server.varDir,
    // GALAXY_CRUISE_SKY=small: the small test sky, built in seconds (galaxy-cruise data --small).
    GALAXY_CRUISE_SKY: 'small',
    // Every journey signs its volunteers up from one address; the limits themselves are tested
    // at the HTTP level (tests/server/security.test.ts), so here they would only ration the specs.
    RATE_LIMITS: 'off',
  };
}

// The application's journeys (issue 21), also run on PostgreSQL: sign-up and the gate, login and
// password reset, profile and account deletion, the administrator's notifications, the gift form;
// and the check that this project's server keeps its volunteers in PostgreSQL. Also the completed
// souvenir, PostgreSQL's only (pglite ignores it): it writes the answers it starts from into the
// server's database, which only the cluster lets a spec reach.
const POSTGRES_SPECS = [
  'gate.spec.ts',
  'login.spec.ts',
  'profile.spec.ts',
  'admin-notifications.spec.ts',
  'present.spec.ts',
  'postgres.spec.ts',
  'souvenir-complete.spec.ts',
];

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 180_000,
  expect: { timeout: 60_000 },
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'pglite', use: { baseURL: pglite.origin }, testIgnore: ['postgres.spec.ts', 'souvenir-complete.spec.ts'] },
    {
      name: 'postgres',
      use: { baseURL: postgres.origin },
      testMatch: POSTGRES_SPECS,
      // The login screen's globe, tour and language switch touch no database.
      grepInvert: /login screen/,
    },
  ],
  // Started one after the other, in this order: the second finds the client already built.
  webServer: [
    {
      // A fresh database every run (accounts and rate-limit counts from an earlier run would leak
      // into this one); the built sky under the same VAR_DIR is kept, so the start stays quick.
      command: `node -e "fs.rmSync(process.argv[1], { recursive: true, force: true })" ${path.join(pglite.varDir, 'db')} && npm start`,
      url: `${pglite.origin}/api/session`,
      timeout: 300_000,
      reuseExistingServer: false,
      env: { ...serverEnv(pglite), DATABASE_URL: '' },
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // A fresh cluster and database every run, stopped with the server: SIGTERM, not SIGKILL,
      // so that the script can stop PostgreSQL (its own session, out of reach of a group kill).
      command: 'node --import tsx tests/helpers/e2e-postgres-server.ts',
      url: `${postgres.origin}/api/session`,
      timeout: 300_000,
      reuseExistingServer: false,
      env: serverEnv(postgres),
      gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
