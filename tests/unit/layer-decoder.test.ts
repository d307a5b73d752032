// The layers decode through the decoder pool the globe hands them (LayerContext.decoder), not a
// pool of their own. A pool that records its jobs stands in for the workers here (their decoding is
// tested in pool.test.ts and by the e2e specs); the files come from a real HTTP server on 127.0.0.1.
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MILKY_WAY_FACES, MilkyWayLayer } from '../../src/globe/layers/milky-way';
import { fetchDecodedImages } from '../../src/globe/tiles/decoded-files';
import type { DecoderPool } from '../../src/workers/pool';

interface Job {
  method: string;
  files: string[];
  transfer: Transferable[];
  signal?: AbortSignal;
}

/** A decoder pool that records each job (its files read as text) and never settles one. */
function recordingPool(): { decoder: DecoderPool; jobs: Job[] } {
  const jobs: Job[] = [];
  const decoder: DecoderPool = {
    run: (method, args, options = {}) => {
      const [files] = args as unknown as [Uint8Array[]];
      jobs.push({
        method,
        files: files.map((bytes) => new TextDecoder().decode(bytes)),
        transfer: options.transfer ?? [],
        signal: options.signal,
      });
      return new Promise(() => {});
    },
  };
  return { decoder, jobs };
}

/** A WebGL2 stand-in: every call succeeds and returns an empty object. */
const gl = new Proxy({} as WebGL2RenderingContext, {
  get: (_target, property) => (typeof property === 'string' && /^[A-Z_0-9]+$/.test(property) ? 0 : () => ({})),
});

let server: FastifyInstance;
const serverUrl = () => `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;

beforeAll(async () => {
  server = Fastify();
  // Each file's bytes are its own path, so that a job's files say which they are.
  server.get('/*', async (request) => request.url);
  await server.listen({ host: '127.0.0.1', port: 0 });
  // The Milky Way picks its image size by the browser (milkyWayToken); Node 20 has no navigator.
  vi.stubGlobal('navigator', { userAgent: 'Chromium' });
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await server.close();
});

describe('the decoder pool handed to the layers', () => {
  it('decodes a tile’s files (the survey’s filters, a HiPS tile) in one job of the pool given, transferring them', async () => {
    const { decoder, jobs } = recordingPool();
    const urls = ['g', 'r', 'i'].map((filter) => `${serverUrl()}/survey/${filter}/1-2.png`);
    void fetchDecodedImages(decoder, urls, new AbortController().signal);
    await vi.waitFor(() => expect(jobs).toHaveLength(1));
    expect(jobs[0].method).toBe('decodeImages');
    expect(jobs[0].files).toEqual(['/survey/g/1-2.png', '/survey/r/1-2.png', '/survey/i/1-2.png']);
    expect(jobs[0].transfer).toHaveLength(3);
  });

  it('the Milky Way decodes its six faces in one job of the pool its context holds, aborted by its release', async () => {
    const { decoder, jobs } = recordingPool();
    const layer = new MilkyWayLayer({ dataRepository: serverUrl() });
    layer.create({ gl, requestFrame: () => {}, decoder });
    await vi.waitFor(() => expect(jobs).toHaveLength(1));
    expect(jobs[0].method).toBe('decodeImages');
    expect(jobs[0].files).toEqual(MILKY_WAY_FACES.map((face) => `/milkyway/${face}.png`));
    expect(jobs[0].signal?.aborted).toBe(false);
    layer.release(gl);
    expect(jobs[0].signal?.aborted).toBe(true);
  });
});
