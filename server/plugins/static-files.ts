// The files this server sends as they are: the built client (DIST_DIR) and, unless DATA_HOST
// serves it, the sky data repository (viewer-spec §7: {host}/stellar-globe/static/...).
//
// The client's build writes name.br and name.gz beside every compressible file (vite.config.ts);
// they are sent to a browser that accepts them (brotli first, then gzip), with Vary:
// Accept-Encoding so that a shared cache keeps one copy per encoding. Caching follows the build's
// names: files under assets/ carry a hash of their content in their name, so a name never
// changes meaning and they are kept for a year without asking again (immutable); index.html
// names the current hashes, so a browser revalidates it each time (no-cache, answered 304 by its
// ETag while unchanged), as are the service worker (sw.js, which lists the hashes to precache) and
// the web app manifests: a new build must be seen at the next start (docs/offline.md); other
// unhashed files (the favicon, the app's icons) for an hour.
//
// The sky's text files (its JSON: areas, metadata, presets, credits; the passport's SVG stamps)
// are not compressed when the sky is built, so they are compressed here, once per version of the
// file (its size and time), when first asked for, and kept in memory: a few dozen files of a few
// KiB. They too are sent as brotli or gzip to a client that accepts it, with Vary:
// Accept-Encoding. The tiles (PNG, gzipped FITS) are compressed already and go as they are.
//
// Dot-files (the sky's .build-stamp, anything a tool leaves beside the client) are not served:
// a 404, as for a file that is not there.
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config';

/** Cache-Control of the client's files named by their content's hash (vite's assets/ folder). */
export const HASHED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/**
 * Cache-Control of the files that name the hashed ones (the page, the service worker) or the app
 * (its manifests): stored, but revalidated before each use.
 */
export const PAGE_CACHE_CONTROL = 'no-cache';
/** Cache-Control of the client's other unhashed files (public/: the favicon). */
export const UNHASHED_CACHE_CONTROL = 'public, max-age=3600';

/** Vite's build.assetsDir: every file in it has a content hash in its name. */
const HASHED_FOLDER = 'assets';

/** The unhashed files revalidated like the page: the service worker and the web app manifests. */
const REVALIDATED_FILE = /^(?:sw\.js|[^/]+\.webmanifest)$/;

/** Cache-Control for a file of the built client, from its path relative to the client's folder. */
export function clientCacheControl(relativePath: string): string {
  // The compressed copies are cached as the file they encode.
  const name = relativePath
    .split(path.sep)
    .join('/')
    .replace(/\.(?:br|gz)$/, '');
  if (name.startsWith(`${HASHED_FOLDER}/`)) return HASHED_CACHE_CONTROL;
  if (name.endsWith('.html') || REVALIDATED_FILE.test(name)) return PAGE_CACHE_CONTROL;
  return UNHASHED_CACHE_CONTROL;
}

/** The sky's files worth compressing: text. */
const COMPRESSIBLE_SKY_FILE = /\.(?:json|svg)$/;

type Encoding = 'br' | 'gzip';

/** The encoding to send, brotli before gzip, from Accept-Encoding (a q of 0 refuses one). */
export function acceptedEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

const compressors: Record<Encoding, (data: Buffer) => Promise<Buffer>> = {
  br: promisify(zlib.brotliCompress),
  gzip: (data) => promisify(zlib.gzip)(data, { level: 9 }),
};

/** Compressed copies of the sky's text files, made when first asked for, one per file version. */
class CompressedCopies {
  private readonly copies = new Map<string, { version: string; encoded: Partial<Record<Encoding, Promise<Buffer>>> }>();

  get(file: string, stat: fs.Stats, encoding: Encoding): Promise<Buffer> {
    const version = `${stat.size}-${stat.mtimeMs}`;
    let entry = this.copies.get(file);
    if (entry?.version !== version) {
      entry = { version, encoded: {} };
      this.copies.set(file, entry);
    }
    const copy = (entry.encoded[encoding] ??= fs.promises.readFile(file).then(compressors[encoding]));
    // A failed read is not kept: the next request tries again.
    copy.catch(() => this.copies.delete(file));
    return copy;
  }
}

/** The sky's data repository, its text files compressed for the clients that accept it. */
async function registerSky(app: FastifyInstance, root: string): Promise<void> {
  const copies = new CompressedCopies();
  // The file @fastify/static is sending, by response, for the onSend hook below.
  const sending = new WeakMap<object, { file: string; stat: fs.Stats }>();
  await app.register(async (sky) => {
    sky.addHook('onSend', async (request: FastifyRequest, reply, payload) => {
      const sent = sending.get(reply.raw);
      // 200 only: a 304 has no body, and a 206 is a range of the file as it is.
      if (!sent || reply.statusCode !== 200) return payload;
      const encoding = acceptedEncoding(request.headers['accept-encoding']);
      if (!encoding) return payload;
      const copy = await copies.get(sent.file, sent.stat, encoding);
      (payload as Readable).destroy();
      reply.removeHeader('content-length');
      reply.header('content-encoding', encoding);
      return copy;
    });
    await sky.register(fastifyStatic, {
      root,
      prefix: '/stellar-globe/',
      decorateReply: false,
      dotfiles: 'ignore',
      setHeaders(response, file, stat) {
        if (!COMPRESSIBLE_SKY_FILE.test(file)) return;
        response.setHeader('vary', 'Accept-Encoding');
        sending.set(response, { file, stat });
      },
    });
  });
}

export async function registerStaticFiles(app: FastifyInstance, config: ServerConfig): Promise<void> {
  const sky = path.join(config.varDirectory, 'sky', 'stellar-globe');
  if (!config.dataHost && fs.existsSync(sky)) await registerSky(app, sky);
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
    dotfiles: 'ignore',
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
