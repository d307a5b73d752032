// The files the server sends as they are (issue 32, item 9): dot-files are not served, from the
// sky or the client; the sky's JSON and SVG go compressed, brotli or gzip, to a client that
// accepts it, as the client's own files do (server/plugins/static-files.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Database } from '../../server/db/schema';
import { acceptedEncoding } from '../../server/plugins/static-files';

describe('the sky and the client as static files', () => {
  let directory: string;
  let app: FastifyInstance;
  let meta: Buffer;
  const sky = () => path.join(directory, 'var', 'sky', 'stellar-globe', 'static');
  /** A GET through the whole application; rawPayload is the body as sent, not decoded. */
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ url, headers });
    return { status: response.statusCode, headers: response.headers, body: response.rawPayload };
  };

  beforeAll(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-static-'));
    // Metadata as the sky builder writes it: a few KiB of repetitive JSON.
    meta = Buffer.from(
      JSON.stringify({
        tracts: Array.from({ length: 60 }, (_, index) => ({ id: index, ra: index * 6, dec: -5, width: 4096 })),
      }),
    );
    fs.mkdirSync(path.join(sky(), 'wide'), { recursive: true });
    fs.writeFileSync(path.join(sky(), '.build-stamp'), 'b3f0c1\n');
    fs.writeFileSync(path.join(sky(), 'wide', 'meta.json'), meta);
    fs.writeFileSync(path.join(sky(), 'wide', 'tile.png'), Buffer.alloc(4096, 7));
    const dist = path.join(directory, 'dist');
    fs.mkdirSync(dist);
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Galaxy Cruise</title>');
    fs.writeFileSync(path.join(dist, '.env'), 'SECRET=1\n');
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

  it('does not serve dot-files: the sky build stamp and a dot-file beside the client are 404', async () => {
    expect((await get('/stellar-globe/static/.build-stamp')).status).toBe(404);
    expect((await get('/stellar-globe/static/%2ebuild-stamp')).status).toBe(404);
    expect((await get('/.env')).status).toBe(404);
    // The files beside them are served.
    expect((await get('/stellar-globe/static/wide/tile.png')).status).toBe(200);
    expect((await get('/index.html')).status).toBe(200);
  });

  it("sends the sky's JSON as brotli or gzip to a client that accepts it, and as it is to one that does not", async () => {
    const url = '/stellar-globe/static/wide/meta.json';
    const brotli = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/^application\/json/);
    expect(brotli.headers.vary).toMatch(/\baccept-encoding\b/i);
    expect(Number(brotli.headers['content-length'])).toBe(brotli.body.length);
    expect(brotli.body.length).toBeLessThan(meta.length / 2);
    expect(zlib.brotliDecompressSync(brotli.body).equals(meta)).toBe(true);

    const gzipped = await get(url, { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzipped.body).equals(meta)).toBe(true);

    for (const refusing of ['identity', 'br;q=0, gzip;q=0', '']) {
      const plain = await get(url, refusing ? { 'accept-encoding': refusing } : {});
      expect(plain.headers['content-encoding'], refusing).toBeUndefined();
      expect(plain.headers.vary).toMatch(/\baccept-encoding\b/i);
      expect(plain.body.equals(meta), refusing).toBe(true);
    }
  });

  it('sends a new compressed copy when the file changes, and 304 while it has not', async () => {
    const url = '/stellar-globe/static/wide/meta.json';
    const first = await get(url, { 'accept-encoding': 'br' });
    const unchanged = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);

    const changed = Buffer.concat([meta.subarray(0, -1), Buffer.from(',"version":2}')]);
    const file = path.join(sky(), 'wide', 'meta.json');
    fs.writeFileSync(file, changed);
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const again = await get(url, { 'accept-encoding': 'br' });
    expect(zlib.brotliDecompressSync(again.body).equals(changed)).toBe(true);
    fs.writeFileSync(file, meta);
  });

  it('sends the tiles, compressed already, as they are', async () => {
    const tile = await get('/stellar-globe/static/wide/tile.png', { 'accept-encoding': 'br, gzip' });
    expect(tile.headers['content-encoding']).toBeUndefined();
    expect(tile.body.length).toBe(4096);
  });

  it('reads Accept-Encoding with its weights', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br');
    expect(acceptedEncoding('br;q=0, gzip')).toBe('gzip');
    expect(acceptedEncoding('gzip;q=0.5')).toBe('gzip');
    expect(acceptedEncoding('identity')).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
  });
});
