#!/usr/bin/env node
// Builds what the product needs, in order: the wasm core (asc), the command line and the server
// as JavaScript (esbuild, scripts/node-build.mjs), the client bundle (vite) and the sky data
// (galaxy-cruise data). With --if-stale each step runs only when its outputs are missing or
// older than its inputs, so `npm start` is the one command a newcomer needs.
//   node scripts/build.mjs wasm|node|client|data|all... [--if-stale]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNode, nodeBuildIsFresh } from './node-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const ifStale = args.includes('--if-stale');
const targets = args.filter((arg) => !arg.startsWith('--'));

function newest(paths) {
  let latest = 0;
  const visit = (file) => {
    if (!fs.existsSync(file)) return;
    const stat = fs.statSync(file);
    if (stat.isDirectory()) for (const entry of fs.readdirSync(file)) visit(path.join(file, entry));
    else latest = Math.max(latest, stat.mtimeMs);
  };
  for (const file of paths) visit(path.join(root, file));
  return latest;
}

function stale(outputs, inputs) {
  if (!ifStale) return true;
  const outputTimes = outputs
    .map((file) => path.resolve(root, file))
    .map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0));
  return Math.min(...outputTimes) < newest(inputs);
}

function run(label, command, commandArgs) {
  const started = Date.now();
  process.stderr.write(`build: ${label}...\n`);
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build: ${label} failed\n`);
    process.exit(result.status ?? 1);
  }
  process.stderr.write(`build: ${label} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const steps = {
  wasm() {
    if (stale(['build/wasm/core.wasm'], ['assembly', 'asconfig.json']))
      run('wasm core (asc)', bin('asc'), ['--config', 'asconfig.json', '--target', 'release']);
  },
  async node() {
    // The same freshness rule as bin/galaxy-cruise.mjs uses to choose the build over the sources.
    if (ifStale && nodeBuildIsFresh(root)) return;
    const started = Date.now();
    process.stderr.write('build: command line and server (esbuild)...\n');
    // esbuild has printed the errors already; the stack of its exception says nothing more.
    const inputs = await buildNode(root).catch(() => {
      process.stderr.write('build: command line and server failed\n');
      process.exit(1);
    });
    process.stderr.write(
      `build: command line and server done in ${((Date.now() - started) / 1000).toFixed(1)} s (${inputs} sources)\n`,
    );
  },
  client() {
    const inputs = [
      'index.html',
      'vite.config.ts',
      'src',
      'core',
      'shared',
      'build/wasm/core.wasm',
      'package-lock.json',
    ];
    const distDirectory = process.env.DIST_DIR ?? 'dist';
    if (stale([path.join(distDirectory, 'index.html')], inputs))
      run('client bundle (vite)', bin('vite'), ['build', '--logLevel', 'warn', '--emptyOutDir']);
  },
  data() {
    // The data builder keeps its own stamp of its inputs; it is always asked.
    run('sky data', process.execPath, [
      path.join(root, 'bin', 'galaxy-cruise.mjs'),
      'data',
      ...(ifStale ? ['--if-stale'] : []),
    ]);
  },
};

const all = ['wasm', 'node', 'client', 'data'];
const order = targets.length === 0 ? all : targets.flatMap((target) => (target === 'all' ? all : [target]));
for (const step of order) {
  if (!steps[step]) {
    process.stderr.write(`build: unknown target '${step}' (${all.join(', ')}, all)\n`);
    process.exit(2);
  }
}
for (const step of order) await steps[step]();
