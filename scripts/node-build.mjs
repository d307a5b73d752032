// The command line and the server as JavaScript, so that `galaxy-cruise` starts without
// compiling TypeScript: cli/main.ts and everything it reaches (cli/, bench/, server/, skydata/,
// core/, shared/, src/workers/) bundled by esbuild into build/node/, with the packages under
// node_modules left as imports. Every sub-command is a dynamic import, so each lands in a chunk
// of its own and `galaxy-cruise --help` loads main.js alone.
//
// The layout is flat: every file lies directly in build/node/, one folder deeper than
// core/wasm.ts, so its `new URL('../build/wasm/core.wasm', import.meta.url)` is rewritten to
// `../wasm/core.wasm` as the module is bundled (coreWasmPath below): the same file from the
// build as from the sources. Modules that run on worker threads are
// entry points of their own, named after their sources: from the build, a module that starts
// `./tract-worker.ts` from its sources starts `./tract-worker.js` beside itself instead.
//
// inputs.json lists the sources the build was made from and when it started; the build is
// fresh while none of them is missing or newer. bin/galaxy-cruise.mjs asks at every start, so
// this check must stay cheap: it reads one small file and stats the inputs, nothing more.
import fs from 'node:fs';
import path from 'node:path';

export const NODE_BUILD_DIRECTORY = path.join('build', 'node');

/** Output name (without .js) → source, relative to the project root. */
const ENTRY_POINTS = {
  main: 'cli/main.ts',
  'tract-worker': 'skydata/tract-worker.ts',
  'disk-flush-probe-worker': 'bench/disk-flush-probe-worker.ts',
  'dawid-skene-worker': 'server/science/dawid-skene-worker.ts',
  'hips-image-worker': 'skydata/import/hips-image-worker.ts',
};

/** The wasm core's URL in core/wasm.ts, one folder deeper from build/node/ than from core/. */
const coreWasmPath = {
  name: 'core-wasm-path',
  setup(build) {
    build.onLoad({ filter: /[\\/]core[\\/]wasm\.ts$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      const from = "'../build/wasm/core.wasm'";
      if (!source.includes(from)) throw new Error(`${args.path} no longer names ${from}`);
      return { contents: source.replace(from, "'../wasm/core.wasm'"), loader: 'ts' };
    });
  },
};

/** Builds build/node/ afresh from the sources under `root`. */
export async function buildNode(root) {
  // Loaded here, not at the top: the command line imports this module for nodeBuildIsFresh alone.
  const esbuild = await import('esbuild');
  const outdir = path.join(root, NODE_BUILD_DIRECTORY);
  const startedAt = Date.now();
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ENTRY_POINTS,
    outdir,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
    plugins: [coreWasmPath],
  });
  const inputs = Object.keys(result.metafile.inputs).sort();
  fs.writeFileSync(path.join(outdir, 'inputs.json'), `${JSON.stringify({ startedAt, inputs }, null, 1)}\n`);
  return inputs.length;
}

/** True when build/node/ holds a build made from the sources as they are now. */
export function nodeBuildIsFresh(root) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(root, NODE_BUILD_DIRECTORY, 'inputs.json'), 'utf8'));
  } catch {
    return false;
  }
  for (const input of manifest.inputs) {
    // A missing input (deleted, renamed) throws no error here: statSync answers undefined.
    const stat = fs.statSync(path.join(root, input), { throwIfNoEntry: false });
    if (!stat || stat.mtimeMs > manifest.startedAt) return false;
  }
  return true;
}
