// HTTP/1.1 spoken by hand over node:net to a server on 127.0.0.1: for what fetch will not send
// (a target in absolute form, an escape it would normalise, a body that stops half-way) and for
// watching when the server closes the connection.
import net from 'node:net';

export interface RawExchange {
  socket: net.Socket;
  /** Everything the server sent, so far. */
  received(): string;
  /** Resolves when the server closed the connection: what it sent, and when (performance.now()). */
  closed: Promise<{ response: string; at: number }>;
  /** Writes more of the request. */
  send(text: string): void;
}

/** Connects and writes `text` (the request, or its beginning). */
export async function rawRequest(port: number, text: string): Promise<RawExchange> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let response = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (response += chunk));
  const closed = new Promise<{ response: string; at: number }>((resolve) => {
    // A reset by the server also closes: 'close' comes after 'error'.
    socket.on('error', () => undefined);
    socket.once('close', () => resolve({ response, at: performance.now() }));
  });
  socket.write(text);
  return { socket, received: () => response, closed, send: (more) => socket.write(more) };
}

/** The whole answer to a request sent with `Connection: close`. */
export async function rawExchange(port: number, text: string): Promise<string> {
  const exchange = await rawRequest(port, text);
  return (await exchange.closed).response;
}

/** Status code, headers (lower-case names) and body of a raw response. */
export function parseRawResponse(response: string): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  const end = response.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = response.slice(0, end < 0 ? undefined : end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: end < 0 ? '' : response.slice(end + 4) };
}

/** Resolves with `promise`, or rejects once `ms` have passed without it. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
