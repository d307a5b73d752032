// When `galaxy-cruise` runs its JavaScript build (scripts/node-build.mjs, bin/galaxy-cruise.mjs):
// only while build/node/inputs.json lists sources none of which is missing or changed since the
// build started; otherwise it runs the TypeScript sources.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NODE_BUILD_DIRECTORY, nodeBuildIsFresh } from '../../scripts/node-build.mjs';

let root: string;
const STARTED_AT = Date.parse('2026-01-01T00:00:00Z');

function source(file: string, modified: number) {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, 'export {};\n');
  fs.utimesSync(full, modified / 1000, modified / 1000);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-node-build-'));
  source('cli/main.ts', STARTED_AT - 60_000);
  source('server/config.ts', STARTED_AT - 60_000);
  fs.mkdirSync(path.join(root, NODE_BUILD_DIRECTORY), { recursive: true });
  fs.writeFileSync(
    path.join(root, NODE_BUILD_DIRECTORY, 'inputs.json'),
    JSON.stringify({ startedAt: STARTED_AT, inputs: ['cli/main.ts', 'server/config.ts'] }),
  );
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the JavaScript build is fresh', () => {
  it('while every source it lists is older than the build', () => {
    expect(nodeBuildIsFresh(root)).toBe(true);
  });

  it('not once a listed source changed after the build started', () => {
    source('server/config.ts', STARTED_AT + 1);
    expect(nodeBuildIsFresh(root)).toBe(false);
  });

  it('not once a listed source is gone', () => {
    fs.rmSync(path.join(root, 'cli', 'main.ts'));
    expect(nodeBuildIsFresh(root)).toBe(false);
  });

  it('not when there is no build, or its list is unreadable', () => {
    fs.writeFileSync(path.join(root, NODE_BUILD_DIRECTORY, 'inputs.json'), '{');
    expect(nodeBuildIsFresh(root)).toBe(false);
    fs.rmSync(path.join(root, NODE_BUILD_DIRECTORY), { recursive: true });
    expect(nodeBuildIsFresh(root)).toBe(false);
  });

  it('whatever changed among files it does not list', () => {
    source('tests/unit/anything.test.ts', STARTED_AT + 60_000);
    expect(nodeBuildIsFresh(root)).toBe(true);
  });
});
