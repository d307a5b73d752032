// Client build: React, wasm as ES modules (vite-plugin-wasm) in the page and in module
// workers. In `npm run dev` the API and the sky data are proxied to the server on :8080.
// Every text-like output (the worker bundles and the wasm core included) is written beside itself
// compressed, as name.br and name.gz, for the server to send as they are (server/plugins/
// static-files.ts): a volunteer on a slow line then downloads the bundle at brotli's best ratio,
// which costs the server nothing per request. Source maps only with SOURCEMAP=1.
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import wasm from 'vite-plugin-wasm';

/** Outputs worth compressing: text and wasm; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|wasm|json|svg|txt)$/;

/** Below this size a compressed copy saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes name.br (brotli at its highest quality) and name.gz (gzip level 9) beside every
 * compressible file of `directory` and its folders of at least MIN_COMPRESS_BYTES, where the
 * compressed copy is smaller. Returns the files compressed, relative to `directory`.
 */
export async function precompressDirectory(directory: string): Promise<string[]> {
  const entries = await fs.readdir(directory, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  const compressed: string[] = [];
  await Promise.all(
    files.map(async (file) => {
      const data = await fs.readFile(file);
      if (data.length < MIN_COMPRESS_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            [zlib.constants.BROTLI_PARAM_MODE]: file.endsWith('.wasm')
              ? zlib.constants.BROTLI_MODE_GENERIC
              : zlib.constants.BROTLI_MODE_TEXT,
          },
        }),
        gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      if (br.length < data.length) await fs.writeFile(`${file}.br`, br);
      if (gz.length < data.length) await fs.writeFile(`${file}.gz`, gz);
      compressed.push(path.relative(directory, file));
    }),
  );
  return compressed.sort();
}

/** Compresses the written client once the whole build (workers included) is on disk. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'galaxy-cruise:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDirectory(outDir);
    },
  };
}

/** The configuration for an environment: DIST_DIR and SOURCEMAP are read from `env`. */
export function clientConfig(env: Record<string, string | undefined>): UserConfig {
  const server = env.GALAXY_CRUISE_SERVER ?? 'http://127.0.0.1:8080';
  return {
    plugins: [react(), wasm(), precompress()],
    worker: {
      format: 'es',
      plugins: () => [wasm()],
    },
    build: {
      // DIST_DIR: the server reads the client from the same place (server/config.ts).
      outDir: env.DIST_DIR ?? 'dist',
      target: 'es2022',
      // Maps would publish the sources and double what a deploy copies: only when asked for.
      sourcemap: env.SOURCEMAP === '1',
    },
    server: {
      port: 5173,
      proxy: {
        '/api': server,
        '/stellar-globe': server,
      },
    },
  };
}

export default defineConfig(clientConfig(process.env));
