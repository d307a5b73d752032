#!/usr/bin/env node
// `npm run dev`: the API server on :8080 (sky data built if stale) and Vite's dev server on
// :5173 with hot reload, proxying /api and /stellar-globe to it. Ctrl-C stops both.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const data = spawnSync(process.execPath, ['scripts/build.mjs', 'data', '--if-stale'], { cwd: root, stdio: 'inherit' });
if (data.status !== 0) process.exit(data.status ?? 1);

const children = [
  spawn(process.execPath, ['bin/galaxy-cruise.mjs', 'serve'], { cwd: root, stdio: 'inherit' }),
  spawn(path.join(root, 'node_modules', '.bin', 'vite'), [], { cwd: root, stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.exitCode === null && child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((child) =>
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  }),
);
