#!/usr/bin/env node
// `npm run dev`: the API server on :8080 (sky data built if stale) and Vite's dev server on
// :5173 with hot reload, proxying /api and /stellar-globe to it. Ctrl-C stops both.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const data = spawnSync(process.execPath, ['scripts/build.mjs', 'data', '--if-stale'], { cwd: root, stdio: 'inherit' });
if (data.status !== 0) process.exit(data.status ?? 1);

// The page comes from Vite's origin and its API calls reach the server through Vite's proxy with
// that Origin: the server's Origin check must let it through.
const viteOrigins = ['http://localhost:5173', 'http://127.0.0.1:5173'];
const allowedOrigins = [process.env.ALLOWED_ORIGINS, ...viteOrigins].filter(Boolean).join(',');

const children = [
  spawn(process.execPath, ['bin/galaxy-cruise.mjs', 'serve'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ALLOWED_ORIGINS: allowedOrigins },
  }),
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
