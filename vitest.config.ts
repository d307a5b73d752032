import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/conformance/**/*.test.ts', 'tests/server/**/*.test.ts'],
    globalSetup: ['tests/helpers/postgres-global.ts'],
    // Time limits are for hung tests, not speed checks (those live in `npm run bench`): on a
    // two-core machine with other work beside it, a conformance file or an argon2-heavy
    // rate-limit test can take ten times its idle time.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    // Two cores: files run two at a time, each server test with its own database.
    maxWorkers: 2,
  },
});
