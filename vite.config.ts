// Client build: React, wasm as ES modules (vite-plugin-wasm) in the page and in module
// workers. In `npm run dev` the API and the sky data are proxied to the server on :8080.
// Every text-like output (the worker bundles and the wasm core included) is written beside itself
// compressed, as name.br and name.gz, for the server to send as they are (server/plugins/
// static-files.ts): a volunteer on a slow line then downloads the bundle at brotli's best ratio,
// which costs the server nothing per request. Source maps only with SOURCEMAP=1.
//
// The installable app (docs/offline.md): the web app manifests in English and Japanese and their
// icons are written by the build (appManifests below), and the service worker of
// src/service-worker/sw.ts is built by vite-plugin-pwa (injectManifest: our worker, with the list
// of the build's files to precache written into it). GALAXY_CRUISE_VERSION names the build
// (default: package.json's version); the page shows it on <html data-version>.
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import wasm from 'vite-plugin-wasm';
import packageJson from './package.json' with { type: 'json' };
import { appIconPixels } from './src/app/features/offline/appIcon.ts';
import { APP_ICONS, MANIFEST_LOCALES, manifestFile, webAppManifest } from './src/app/features/offline/manifest.ts';

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
    // After every other plugin's end of build: the service worker (vite-plugin-pwa's) included.
    closeBundle: {
      sequential: true,
      order: 'post',
      async handler() {
        await precompressDirectory(outDir);
      },
    },
  };
}

/** A PNG (ISO/IEC 15948) of RGBA pixels, 8 bits a channel, rows unfiltered, zlib at its best. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  // Bit depth 8, colour type 6 (RGBA), deflate, adaptive filtering, no interlace.
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let row = 0; row < height; row++) {
    // Each row starts with its filter type, 0: none.
    rows.set(rgba.subarray(row * width * 4, (row + 1) * width * 4), row * (width * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Writes the web app manifests (one per language) and the icons they name into the build. */
function appManifests(): Plugin {
  return {
    name: 'galaxy-cruise:app-manifests',
    apply: 'build',
    generateBundle() {
      for (const locale of MANIFEST_LOCALES)
        this.emitFile({
          type: 'asset',
          fileName: manifestFile(locale),
          source: `${JSON.stringify(webAppManifest(locale), null, 2)}\n`,
        });
      for (const icon of APP_ICONS)
        this.emitFile({
          type: 'asset',
          fileName: icon.src.slice(1),
          source: encodePng(icon.size, icon.size, appIconPixels(icon.size, icon.purpose === 'maskable')),
        });
    },
  };
}

/**
 * The researchers' and administrators' pages (and developer mode's): left out of the precache,
 * which every volunteer's first visit downloads; they need the server anyway.
 */
const NOT_PRECACHED = [
  'assets/ScienceDashboardPage-*',
  'assets/CourseAdminPage-*',
  'assets/AdminNotificationsPage-*',
  'assets/DevelPages-*',
];

/** The configuration for an environment: DIST_DIR and SOURCEMAP are read from `env`. */
export function clientConfig(env: Record<string, string | undefined>): UserConfig {
  const server = env.GALAXY_CRUISE_SERVER ?? 'http://127.0.0.1:8080';
  return {
    plugins: [
      react(),
      wasm(),
      appManifests(),
      VitePWA({
        strategies: 'injectManifest',
        srcDir: 'src/service-worker',
        filename: 'sw.ts',
        // Registered by the app (src/app/features/offline/serviceWorker.ts), which shows the notices.
        injectRegister: false,
        // The manifests are appManifests' (one per language); index.html links them.
        manifest: false,
        injectManifest: {
          // A classic script: every browser with service workers runs it.
          rollupFormat: 'iife',
          globPatterns: ['**/*.{js,css,html,wasm,svg,png,webmanifest}'],
          globIgnores: NOT_PRECACHED,
        },
        // The worker's own Vite build logs as quietly as the client's.
        integration: { configureCustomSWViteBuild: (options) => void (options.logLevel = 'warn') },
      }),
      precompress(),
    ],
    define: {
      __GALAXY_CRUISE_VERSION__: JSON.stringify(env.GALAXY_CRUISE_VERSION ?? packageJson.version),
    },
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
