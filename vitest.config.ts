import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/conformance/**/*.test.ts', 'tests/server/**/*.test.ts'],
    globalSetup: ['tests/helpers/postgres-global.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: files run two at a time, each server test with its own database.
    maxWorkers: 2,
  },
});
