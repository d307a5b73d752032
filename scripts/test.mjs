#!/usr/bin/env node
// `npm test`: every suite, then one line 'N passed, N failed' summed over all of them.
//   1. Debian requirements (scripts/system.mjs), installed when missing and root.
//   2. Static checks, each counted as one test: TypeScript (strict), ESLint, Prettier.
//   3. Vitest: unit, conformance and server tests (the server tests run against PGlite and a
//      real PostgreSQL started by tests/helpers/postgres-global.ts).
//   4. Playwright: Debian's Chromium against the server started by `npm start`.
// Pass a suite name (static, vitest, e2e) to run only that one; extra arguments go to the runner.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSystem } from './system.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = path.join(root, 'test-results');
const [only, ...extra] = process.argv.slice(2);
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

ensureSystem();
fs.mkdirSync(results, { recursive: true });

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
  return result.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let exitCode = 0;

if (!only || only === 'static') {
  for (const [label, command, args] of [
    ['typecheck (tsc --noEmit)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']],
    ['eslint', bin('eslint'), ['.']],
    ['prettier --check', bin('prettier'), ['--check', '.', '--log-level', 'warn']],
  ]) {
    const status = run(command, args);
    console.log(`${status === 0 ? '✓' : '✗'} ${label}`);
    if (status === 0) totals.passed += 1;
    else {
      totals.failed += 1;
      exitCode = 1;
    }
  }
}

if (!only || only === 'vitest') {
  const report = path.join(results, 'vitest.json');
  fs.rmSync(report, { force: true });
  run(process.execPath, ['scripts/build.mjs', 'wasm', '--if-stale']);
  const status = run(bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...extra,
  ]);
  const json = readJson(report);
  if (json) {
    totals.passed += json.numPassedTests;
    totals.failed += json.numFailedTests;
    totals.skipped += json.numPendingTests + (json.numTodoTests ?? 0);
    // A suite that failed to load has no failed test but must still fail the run.
    if (json.numFailedTestSuites && !json.numFailedTests) totals.failed += json.numFailedTestSuites;
  } else if (status !== 0) totals.failed += 1;
  if (status !== 0) exitCode = 1;
}

if (!only || only === 'e2e') {
  const report = path.join(results, 'e2e.json');
  fs.rmSync(report, { force: true });
  const status = run(bin('playwright'), ['test', ...extra]);
  const json = readJson(report);
  if (json?.stats) {
    totals.passed += json.stats.expected + json.stats.flaky;
    totals.failed += json.stats.unexpected;
    totals.skipped += json.stats.skipped;
    if (status !== 0 && json.stats.unexpected === 0) totals.failed += 1;
  } else if (status !== 0) totals.failed += 1;
  if (status !== 0) exitCode = 1;
}

if (totals.passed + totals.failed === 0) exitCode = 1;
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(exitCode);
