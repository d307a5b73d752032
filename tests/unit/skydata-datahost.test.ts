// DATA_HOST: a deployment serves the sky data repository from a CDN or object store; the
// server then names that host in index.html (<meta name="galaxy-cruise-data-host">), which the
// globe reads to build {dataRepository}, and stops serving /stellar-globe itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Database } from '../../server/db/schema';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'datahost-'));
const dist = path.join(directory, 'dist');
fs.mkdirSync(dist);
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head><title>t</title></head><body></body></html>',
);
const sky = path.join(directory, 'var', 'sky', 'stellar-globe', 'static');
fs.mkdirSync(sky, { recursive: true });
fs.writeFileSync(path.join(sky, 'credits.json'), '[]');
afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

const noDatabase = {} as Kysely<Database>;
const host = (value?: string) => {
  const env: NodeJS.ProcessEnv = { VAR_DIR: path.join(directory, 'var'), DIST_DIR: dist };
  if (value !== undefined) env.DATA_HOST = value;
  return buildApp({ config: loadConfig(env), db: noDatabase });
};
const META = /<meta name="galaxy-cruise-data-host" content="([^"]*)" \/>/;

describe('DATA_HOST', () => {
  it('is written into index.html at / and /index.html, escaped', async () => {
    const app = await host('cdn.example.org/"x"');
    for (const url of ['/', '/index.html']) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.body.match(META)?.[1]).toBe('cdn.example.org/&quot;x&quot;');
      expect(response.body).toContain('<title>t</title>');
    }
    // The sky data is the data host's to serve.
    expect((await app.inject({ url: '/stellar-globe/static/credits.json' })).statusCode).toBe(404);
  });

  it('leaves index.html alone and serves the sky data itself when unset', async () => {
    const app = await host();
    expect((await app.inject({ url: '/' })).body).not.toMatch(META);
    expect((await app.inject({ url: '/stellar-globe/static/credits.json' })).statusCode).toBe(200);
  });
});
