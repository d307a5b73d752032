// A TCP relay on 127.0.0.1 in front of the bench's server that counts the bytes it carries, each
// chunk with its time: the bytes a visit transferred, whoever asked for them (the page, its
// workers, its service worker), counted once, as the line would carry them (headers and bodies,
// compressed as sent). The cruise suite's second-visit mode reads a visit's bytes from it.
import net from 'node:net';
import { freeLoopbackPort } from '../server/db/temporary-postgres';

export interface ByteCounter {
  /** The port the browser connects to, on 127.0.0.1. */
  port: number;
  /** Bytes from the server to the browser whose chunks passed in [fromMs, toMs] (ms since the epoch). */
  receivedBetween(fromMs: number, toMs: number): number;
  /** Bytes from the browser to the server in [fromMs, toMs]. */
  sentBetween(fromMs: number, toMs: number): number;
  stop(): Promise<void>;
}

/** Relays 127.0.0.1:`port` (a free one by default) to 127.0.0.1:`targetPort`, counting. */
export async function startByteCounter(targetPort: number, port?: number): Promise<ByteCounter> {
  const received: [at: number, bytes: number][] = [];
  const sent: [at: number, bytes: number][] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => sent.push([Date.now(), chunk.length]));
    upstream.on('data', (chunk: Buffer) => received.push([Date.now(), chunk.length]));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listening = port ?? (await freeLoopbackPort());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listening, '127.0.0.1', () => resolve());
  });
  const between = (log: [number, number][], fromMs: number, toMs: number) =>
    log.reduce((sum, [at, bytes]) => (at >= fromMs && at <= toMs ? sum + bytes : sum), 0);
  return {
    port: listening,
    receivedBetween: (fromMs, toMs) => between(received, fromMs, toMs),
    sentBetween: (fromMs, toMs) => between(sent, fromMs, toMs),
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
