// The load bench's HTTP client (bench/load-client.ts) against node:http's server: bodies by
// Content-Length and by chunked transfer coding, repeated headers, a server that closes the
// connection, and the socket limit.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../bench/load-client';

let server: http.Server;
let port: number;
const connections = new Set<string>();

beforeAll(async () => {
  server = http.createServer((request, response) => {
    connections.add(`${request.socket.remotePort}`);
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.url === '/chunked') {
        // No Content-Length: node:http sends the body in chunks.
        response.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
        response.write('星空'.repeat(1000));
        setTimeout(() => response.end('!'), 5);
      } else if (request.url === '/close') {
        response.setHeader('connection', 'close');
        response.end('bye');
      } else if (request.url === '/slow') {
        setTimeout(() => response.end('slow'), 30);
      } else {
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({ method: request.method, cookie: request.headers.cookie ?? null, body: body || null }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs `use` with a client of at most `maxSockets` connections, closed afterwards. */
async function withClient(maxSockets: number, use: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client(port, maxSockets);
  try {
    await use(client);
  } finally {
    client.close();
  }
}

describe('the load bench client', () => {
  it('sends method, cookie and JSON body, and reads a Content-Length reply', async () => {
    await withClient(2, async (client) => {
      const reply = await client.request('POST', '/echo', { body: { 銀河: 1 }, cookie: 'session=x' });
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toEqual(['application/json']);
      expect(JSON.parse(reply.body)).toEqual({ method: 'POST', cookie: 'session=x', body: '{"銀河":1}' });
    });
  });

  it('reads a chunked reply across packets, keeps repeated headers, and reuses the connection', async () => {
    await withClient(1, async (client) => {
      connections.clear();
      const reply = await client.request('GET', '/chunked');
      expect(reply.body).toBe(`${'星空'.repeat(1000)}!`);
      expect(reply.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
      expect(JSON.parse((await client.request('GET', '/echo')).body).method).toBe('GET');
      expect(connections.size).toBe(1);
    });
  });

  it('opens a new connection after the server closed one', async () => {
    await withClient(1, async (client) => {
      expect((await client.request('GET', '/close')).body).toBe('bye');
      expect((await client.request('GET', '/echo')).status).toBe(200);
    });
  });

  it('queues requests beyond its socket limit instead of opening more', async () => {
    await withClient(2, async (client) => {
      connections.clear();
      const replies = await Promise.all(Array.from({ length: 6 }, () => client.request('GET', '/slow')));
      expect(replies.map((reply) => reply.body)).toEqual(Array(6).fill('slow'));
      expect(connections.size).toBe(2);
    });
  });

  it('rejects when nothing listens', async () => {
    const client = new Client(1, 1);
    await expect(client.request('GET', '/')).rejects.toThrow();
    client.close();
  });
});
