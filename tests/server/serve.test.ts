// The real server process: `galaxy-cruise serve` on embedded PGlite (files under VAR_DIR/db)
// and, with DATABASE_URL, on the real PostgreSQL — the same migrations run at start on both; and
// the built client as the application sends it: compressed at build time, cached by what its
// names promise.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Database } from '../../server/db/schema';
import { clientConfig, precompressDirectory } from '../../vite.config';
import { createPostgresDatabase } from '../helpers/databases';
import { startServer, type RunningServer } from '../helpers/serve';

const running: RunningServer[] = [];
const directories: string[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop('SIGKILL');
  for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});

function temporaryVar(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-var-'));
  directories.push(directory);
  return directory;
}

// Each test starts the process: it migrates a fresh database, which on a busy machine takes a
// good part of a minute (startServer waits up to two).
describe('galaxy-cruise serve', { timeout: 420_000 }, () => {
  it('runs on embedded PGlite under VAR_DIR/db and answers /api/session; SIGTERM stops it cleanly', async () => {
    const varDirectory = temporaryVar();
    const server = await startServer({ VAR_DIR: varDirectory });
    running.push(server);
    const response = await fetch(`${server.url}/api/session`);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ current_user: null, recommended_course: null });
    expect(server.output()).toContain('"database":"pglite"');
    expect(fs.existsSync(path.join(varDirectory, 'db', 'PG_VERSION'))).toBe(true);
    // The request log is buffered (server/app.ts, bufferedStdoutLog), yet a quiet server's line
    // shows within its one-second flush, with the URL and the status.
    const logged = /"url":"\/api\/session"[^\n]*"statusCode":200[^\n]*"request completed"/;
    const deadline = Date.now() + 5000;
    while (!logged.test(server.output()) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.output()).toMatch(logged);
    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('with DATABASE_URL runs the same migrations on a real PostgreSQL', async () => {
    const url = await createPostgresDatabase();
    const server = await startServer({ VAR_DIR: temporaryVar(), DATABASE_URL: url });
    running.push(server);
    expect(await (await fetch(`${server.url}/api/session`)).json()).toEqual({
      current_user: null,
      recommended_course: null,
    });
    expect(server.output()).toContain('"database":"postgres"');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>('select name from kysely_migration order by name');
      expect(rows.map((row) => row.name)).toContain('0001_accounts');
      const tables = await client.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = 'public'",
      );
      expect(tables.rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(['users', 'sessions']));
    } finally {
      await client.end();
    }
    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('answers 404 as JSON for an unknown API path', async () => {
    const server = await startServer({ VAR_DIR: temporaryVar() });
    running.push(server);
    const response = await fetch(`${server.url}/api/no-such-thing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'Not Found' });
  });
});

/**
 * A client folder laid out as `vite build` writes it: index.html naming hashed files under assets/
 * (the bundle, its worker, the wasm core) and an unhashed favicon, compressed by the build's own
 * step. Text that compresses as a bundle does: repeated, not random.
 */
function fakeClient(directory: string) {
  const bundle = Buffer.from(
    Array.from({ length: 2000 }, (_, index) => `export const value${index} = 'galaxy ${index % 97}';\n`).join(''),
  );
  const worker = Buffer.from(`self.onmessage = (event) => self.postMessage(event.data);\n`.repeat(200));
  // A wasm module's magic and version, then a body of zeroes and counters.
  const wasm = Buffer.concat([
    Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
    Buffer.from(Array.from({ length: 8192 }, (_, index) => (index % 64 === 0 ? index & 0xff : 0))),
  ]);
  const page = Buffer.from(
    '<!doctype html><html><head><title>Galaxy Cruise</title>' +
      '<script type="module" src="/assets/index-Bf2BH0ku.js"></script></head><body></body></html>',
  );
  const files: Record<string, Buffer> = {
    'index.html': page,
    'favicon.svg': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    'sw.js': Buffer.from('self.addEventListener("fetch", () => {});\n'),
    'manifest.en.webmanifest': Buffer.from('{"name":"Galaxy Cruise"}\n'),
    'icons/icon-192.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    'assets/index-Bf2BH0ku.js': bundle,
    'assets/decoder.worker-DeZ8U0AM.js': worker,
    'assets/core-CFcNFhEk.wasm': wasm,
  };
  for (const [name, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(directory, name)), { recursive: true });
    fs.writeFileSync(path.join(directory, name), data);
  }
  return files;
}

describe('the built client', () => {
  let directory: string;
  let dist: string;
  let files: Record<string, Buffer>;
  let compressed: string[];
  let app: FastifyInstance;
  /** A GET through the whole application; rawPayload is the body as sent, not decoded. */
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ url, headers });
    return { status: response.statusCode, headers: response.headers, body: response.rawPayload };
  };

  beforeAll(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-client-'));
    dist = path.join(directory, 'dist');
    files = fakeClient(dist);
    compressed = await precompressDirectory(dist);
    // The static files need no database: the application is built over none.
    app = await buildApp({
      config: loadConfig({ VAR_DIR: path.join(directory, 'var'), DIST_DIR: dist }),
      db: {} as Kysely<Database>,
    });
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('is compressed at build time, brotli and gzip beside each file worth it, workers and wasm included', () => {
    expect(compressed).toEqual([
      path.join('assets', 'core-CFcNFhEk.wasm'),
      path.join('assets', 'decoder.worker-DeZ8U0AM.js'),
      path.join('assets', 'index-Bf2BH0ku.js'),
    ]);
    for (const name of compressed) {
      const file = path.join(dist, name);
      expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)).equals(fs.readFileSync(file))).toBe(true);
      expect(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).equals(fs.readFileSync(file))).toBe(true);
    }
    // Under 1 KiB a compressed copy saves less than its headers cost.
    expect(fs.existsSync(path.join(dist, 'index.html.br'))).toBe(false);
    expect(fs.existsSync(path.join(dist, 'favicon.svg.gz'))).toBe(false);
  });

  it('writes source maps only when SOURCEMAP=1 asks for them', () => {
    expect(clientConfig({}).build?.sourcemap).toBe(false);
    expect(clientConfig({ SOURCEMAP: '0' }).build?.sourcemap).toBe(false);
    expect(clientConfig({ SOURCEMAP: '1' }).build?.sourcemap).toBe(true);
    expect(clientConfig({ DIST_DIR: dist }).build?.outDir).toBe(dist);
  });

  it('sends a hashed asset as brotli to a browser that accepts it, immutable for a year', async () => {
    for (const name of ['assets/index-Bf2BH0ku.js', 'assets/decoder.worker-DeZ8U0AM.js', 'assets/core-CFcNFhEk.wasm']) {
      const response = await get(`/${name}`, { 'accept-encoding': 'gzip, deflate, br' });
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(
        name.endsWith('.wasm') ? /^application\/wasm/ : /^application\/javascript/,
      );
      expect(response.headers['vary']).toMatch(/\baccept-encoding\b/i);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.body.length).toBeLessThan(files[name].length);
      expect(zlib.brotliDecompressSync(response.body).equals(files[name])).toBe(true);
    }
  });

  it('sends gzip to a browser without brotli, and the file itself to one that accepts neither', async () => {
    const name = 'assets/index-Bf2BH0ku.js';
    const gzipped = await get(`/${name}`, { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['vary']).toMatch(/\baccept-encoding\b/i);
    expect(gzipped.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(gzipped.body).equals(files[name])).toBe(true);

    const plain = await get(`/${name}`, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/\baccept-encoding\b/i);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body.equals(files[name])).toBe(true);
  });

  it('has index.html revalidated on every visit (no-cache), at / and by its name', async () => {
    for (const url of ['/', '/index.html']) {
      const response = await get(url, { 'accept-encoding': 'br' });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body.equals(files['index.html'])).toBe(true);
    }
    // Unhashed files other than the page: an hour.
    for (const url of ['/favicon.svg', '/icons/icon-192.png'])
      expect((await get(url)).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('has the service worker and the web app manifests revalidated on every visit, a manifest as application/manifest+json', async () => {
    const worker = await get('/sw.js');
    expect(worker.status).toBe(200);
    expect(worker.headers['content-type']).toMatch(/^application\/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
    const manifest = await get('/manifest.en.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
  });

  it('serves no source map of a client built without SOURCEMAP', async () => {
    expect(fs.readdirSync(path.join(dist, 'assets')).filter((name) => name.endsWith('.map'))).toEqual([]);
    expect((await get('/assets/index-Bf2BH0ku.js.map')).status).toBe(404);
  });

  it('has the page that names DATA_HOST revalidated on every visit too', async () => {
    const config = loadConfig({ VAR_DIR: path.join(directory, 'var'), DIST_DIR: dist, DATA_HOST: 'cdn.example.org' });
    const withDataHost = await buildApp({ config, db: {} as Kysely<Database> });
    try {
      for (const url of ['/', '/index.html']) {
        const response = await withDataHost.inject({ url });
        expect(response.body).toContain('<meta name="galaxy-cruise-data-host" content="cdn.example.org" />');
        expect(response.headers['cache-control']).toBe('no-cache');
      }
    } finally {
      await withDataHost.close();
    }
  });
});
