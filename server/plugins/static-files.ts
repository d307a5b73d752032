// The files this server sends as they are: the built client (DIST_DIR) and, unless DATA_HOST
// serves it, the sky data repository (viewer-spec §7: {host}/stellar-globe/static/...).
//
// The client's build writes name.br and name.gz beside every compressible file (vite.config.ts);
// they are sent to a browser that accepts them (brotli first, then gzip), with Vary:
// Accept-Encoding so that a shared cache keeps one copy per encoding. Caching follows the build's
// names: files under assets/ carry a hash of their content in their name, so a name never
// changes meaning and they are kept for a year without asking again (immutable); index.html
// names the current hashes, so a browser revalidates it each time (no-cache, answered 304 by its
// ETag while unchanged); other unhashed files (the favicon) for an hour.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';

/** Cache-Control of the client's files named by their content's hash (vite's assets/ folder). */
export const HASHED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Cache-Control of the page that names the hashed files: stored, but revalidated before each use. */
export const PAGE_CACHE_CONTROL = 'no-cache';
/** Cache-Control of the client's other unhashed files (public/: the favicon). */
export const UNHASHED_CACHE_CONTROL = 'public, max-age=3600';

/** Vite's build.assetsDir: every file in it has a content hash in its name. */
const HASHED_FOLDER = 'assets';

/** Cache-Control for a file of the built client, from its path relative to the client's folder. */
export function clientCacheControl(relativePath: string): string {
  // The compressed copies are cached as the file they encode.
  const name = relativePath
    .split(path.sep)
    .join('/')
    .replace(/\.(?:br|gz)$/, '');
  if (name.startsWith(`${HASHED_FOLDER}/`)) return HASHED_CACHE_CONTROL;
  if (name.endsWith('.html')) return PAGE_CACHE_CONTROL;
  return UNHASHED_CACHE_CONTROL;
}

export async function registerStaticFiles(app: FastifyInstance, config: ServerConfig): Promise<void> {
  const sky = path.join(config.varDirectory, 'sky', 'stellar-globe');
  if (!config.dataHost && fs.existsSync(sky)) {
    await app.register(fastifyStatic, { root: sky, prefix: '/stellar-globe/', decorateReply: false });
  }
  const client = config.distDirectory;
  const indexFile = path.join(client, 'index.html');
  if (!fs.existsSync(indexFile)) return;
  // With DATA_HOST, the page names the data host in <meta name="galaxy-cruise-data-host">,
  // which the globe reads (src/app/components/GlobeView.tsx) to build {dataRepository}.
  const dataHost = config.dataHost;
  await app.register(fastifyStatic, {
    root: client,
    prefix: '/',
    wildcard: true,
    index: dataHost ? false : undefined,
    preCompressed: true,
    // Set here rather than by @fastify/send, whose maxAge is one policy for every file.
    cacheControl: false,
    setHeaders(response, file) {
      response.setHeader('cache-control', clientCacheControl(path.relative(client, file)));
      response.setHeader('vary', 'Accept-Encoding');
    },
  });
  if (dataHost) {
    const escaped = dataHost.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    const page = fs
      .readFileSync(indexFile, 'utf8')
      .replace('</head>', `  <meta name="galaxy-cruise-data-host" content="${escaped}" />\n  </head>`);
    for (const url of ['/', '/index.html'])
      app.get(url, (_request, reply) =>
        reply.type('text/html; charset=utf-8').header('cache-control', PAGE_CACHE_CONTROL).send(page),
      );
  }
}
