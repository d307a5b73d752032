// The load bench's HTTP client: keep-alive HTTP/1.1 over plain sockets to 127.0.0.1. The bench
// shares the machine with the server and its database, so whatever the client spends is taken
// from what it measures: node:http's client spends most of its CPU per call in objects and
// events this bench never looks at. This one writes each request as one string and reads only
// what the bench needs: the status, the headers (set-cookie at login) and the body, by
// Content-Length or chunked transfer coding (RFC 9112 §6, §7.1).
import net from 'node:net';

export interface Reply {
  status: number;
  body: string;
  /** Lower-case names; a repeated header (set-cookie) keeps every value. */
  headers: Record<string, string[]>;
}

interface Pending {
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** One socket, one request at a time; the reply is parsed as its bytes arrive. */
class Connection {
  private buffered: Buffer = Buffer.alloc(0);
  private pending: Pending | null = null;
  closed = false;

  constructor(readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.parse();
    });
    const fail = (error: Error) => {
      this.closed = true;
      const pending = this.pending;
      this.pending = null;
      pending?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed before the reply')));
  }

  send(request: string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(request);
    });
  }

  private parse(): void {
    if (!this.pending) return;
    const headerEnd = this.buffered.indexOf(HEADER_END);
    if (headerEnd < 0) return;
    const lines = this.buffered.toString('latin1', 0, headerEnd).split('\r\n');
    const status = Number(lines[0].split(' ')[1]);
    const headers: Record<string, string[]> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      (headers[name] ??= []).push(line.slice(colon + 1).trim());
    }
    const start = headerEnd + HEADER_END.length;
    let body: Buffer | null;
    let end: number;
    if (headers['transfer-encoding']?.some((value) => /chunked/i.test(value))) {
      ({ body, end } = dechunk(this.buffered, start));
    } else {
      const length = Number(headers['content-length']?.[0] ?? 0);
      end = start + length;
      body = this.buffered.length >= end ? this.buffered.subarray(start, end) : null;
    }
    if (body === null) return;
    const pending = this.pending;
    this.pending = null;
    const rest = this.buffered.subarray(end);
    this.buffered = rest.length === 0 ? Buffer.alloc(0) : Buffer.from(rest);
    if (headers.connection?.some((value) => /close/i.test(value))) {
      this.closed = true;
      this.socket.end();
    }
    pending.resolve({ status, headers, body: body.toString('utf8') });
  }
}

/** A chunked body from `start`, or null while it is incomplete (trailers are not used here). */
function dechunk(buffer: Buffer, start: number): { body: Buffer | null; end: number } {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return { body: null, end: 0 };
    const size = parseInt(buffer.toString('latin1', at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error('malformed chunked reply');
    const dataStart = lineEnd + 2;
    if (size === 0) {
      if (buffer.length < dataStart + 2) return { body: null, end: 0 };
      return { body: Buffer.concat(parts), end: dataStart + 2 };
    }
    if (buffer.length < dataStart + size + 2) return { body: null, end: 0 };
    parts.push(buffer.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}

/** At most `maxSockets` connections to 127.0.0.1:`port`; a request waits for a free one. */
export class Client {
  private readonly idle: Connection[] = [];
  private readonly waiting: { resolve(connection: Connection): void; reject(error: unknown): void }[] = [];
  private readonly all = new Set<Connection>();

  constructor(
    private readonly port: number,
    private readonly maxSockets: number,
  ) {}

  async request(method: string, url: string, options: { body?: unknown; cookie?: string } = {}): Promise<Reply> {
    const payload = options.body === undefined ? '' : JSON.stringify(options.body);
    let request = `${method} ${url} HTTP/1.1\r\nhost: 127.0.0.1:${this.port}\r\naccept: application/json\r\n`;
    if (options.cookie) request += `cookie: ${options.cookie}\r\n`;
    if (options.body !== undefined)
      request += `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n`;
    request += `\r\n${payload}`;
    const connection = await this.acquire();
    try {
      return await connection.send(request);
    } finally {
      this.release(connection);
    }
  }

  /**
   * Opens connections until `count` are open and idle: a volunteer's browser keeps its keep-alive
   * connections open between calls, so a window that opened them all in its first second would
   * time TCP set-up that a running game does not pay.
   */
  async open(count: number): Promise<void> {
    const opened: Connection[] = [];
    while (this.all.size < Math.min(count, this.maxSockets)) opened.push(await this.connect());
    for (const connection of opened) this.release(connection);
  }

  close(): void {
    for (const connection of this.all) connection.socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }

  private async acquire(): Promise<Connection> {
    for (;;) {
      const connection = this.idle.pop();
      if (!connection) break;
      if (!connection.closed) return connection;
      this.all.delete(connection);
    }
    if (this.all.size < this.maxSockets) return this.connect();
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private async connect(): Promise<Connection> {
    const socket = net.connect({ host: '127.0.0.1', port: this.port });
    const connection = new Connection(socket);
    this.all.add(connection);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    }).catch((error: Error) => {
      this.all.delete(connection);
      throw error;
    });
    return connection;
  }

  private release(connection: Connection): void {
    if (connection.closed) {
      this.all.delete(connection);
      connection.socket.destroy();
      // A waiter may now open a connection of its own.
      const next = this.waiting.shift();
      if (next) this.acquire().then(next.resolve, next.reject);
      return;
    }
    const next = this.waiting.shift();
    if (next) next.resolve(connection);
    else this.idle.push(connection);
  }
}
