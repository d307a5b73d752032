// Request safety for the whole application, registered on the root instance before anything
// else: security headers (helmet, with a CSP the built client runs under), Cache-Control: no-store
// on the API, JSON-only bodies of bounded size and nesting, an Origin check on state-changing
// methods against the configured origins (the session cookie is sent on cross-site form posts to
// a Lax site only for top-level GETs, but a check costs nothing), the rate-limit store, and one
// error handler that answers {statusCode, error, message} and never leaks a stack. A request
// whose body was not read to its end (too large, or too slow: ./request-timeouts.ts) has its
// connection closed with the answer, rather than the rest of the body awaited.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Kysely } from 'kysely';
import type { ServerConfig } from '../config';
import type { Database } from '../db/schema';
import { HttpError } from '../http-error';
import { registerJsonBodyParser } from './json-body';
import { kyselyRateLimitStore } from './rate-limit-store';
import { registerBodyIdleTimeout } from './request-timeouts';

/** A 422 with the §5 messages per field (ErrorResponse.errors in shared/api.ts). */
export class ValidationFailed extends HttpError {
  constructor(
    message: string,
    readonly errors: Record<string, string[]>,
  ) {
    super(422, message);
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** DATA_HOST as a CSP host source: its host[:port], any scheme the page uses. */
function dataHostSource(dataHost: string | undefined): string[] {
  if (!dataHost) return [];
  const host = dataHost.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  return host ? [host] : [];
}

/** An origin in URL's serialisation (default ports dropped, as browsers send Origin), or null. */
function normalizeOrigin(origin: string): string | null {
  try {
    return new URL(origin).origin;
  } catch {
    return null;
  }
}

function errorBody(statusCode: number, message: string, errors?: Record<string, string[]>) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...(errors ? { errors } : {}) };
}

/** A body limit in the unit it was written in (BODY_LIMIT, NOTIFICATION_BODY_LIMIT: ./json-body.ts). */
function sizeInWords(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** Statuses answered before the body was read to its end: the connection cannot be reused. */
const BODY_LEFT_UNREAD = new Set([408, 413]);

/** The status and message a client gets for an error thrown anywhere in a request. */
function describeError(error: FastifyError, request: FastifyRequest): { statusCode: number; message: string } | null {
  if (error instanceof HttpError) return { statusCode: error.statusCode, message: error.message };
  if (error.validation) return { statusCode: 400, message: `Invalid request: ${error.message}` };
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        statusCode: 413,
        message: `Payload Too Large: this request's body may be at most ${sizeInWords(request.routeOptions.bodyLimit)}.`,
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { statusCode: 400, message: `Request body is not valid JSON: ${error.message}` };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { statusCode: 415, message: 'Unsupported Media Type: request bodies must be application/json.' };
  }
  if (error instanceof SyntaxError)
    return { statusCode: 400, message: `Request body is not valid JSON: ${error.message}` };
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) return { statusCode: status, message: error.message };
  return null;
}

/**
 * helmet's headers for these options, computed once by running helmet's own middleware against a
 * recording response. Without nonces or function directives they depend on nothing in the request,
 * whereas @fastify/helmet calls helmet(options) anew for every request (its CSP parsed each time),
 * a large share of a cached GET's time.
 */
export function helmetHeaders(options: HelmetOptions): { set: [string, string][]; remove: string[] } {
  const set = new Map<string, string>();
  const remove: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      remove.push(name);
      set.delete(name.toLowerCase());
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return { set: [...set], remove };
}

/**
 * The headers of every answer: helmet's (with a CSP the built client runs under), HSTS over https,
 * and `Cache-Control: no-store` on the API, whose answers depend on the session (a user's
 * profile, postal address, quests): no cache, shared or the browser's, keeps them. A route's own
 * Cache-Control (reply.header) wins, as it is written later.
 */
export function securityHeaderWriter(config: ServerConfig): (request: FastifyRequest, reply: FastifyReply) => void {
  const dataHost = dataHostSource(config.dataHost);
  const securityHeaders = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        // The wasm core is compiled in the page and in the decoder workers.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        scriptSrcAttr: ["'none'"],
        workerSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", 'data:'],
        // Sky data may come from DATA_HOST; avatars come from Gravatar.
        imgSrc: ["'self'", 'data:', 'blob:', 'https://www.gravatar.com', ...dataHost],
        connectSrc: ["'self'", 'data:', 'blob:', ...dataHost],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
      },
    },
    // Sent below, over https only: a site served over plain http on a LAN must stay reachable.
    strictTransportSecurity: false,
  });
  return (request, reply) => {
    const response = reply.raw;
    for (const name of securityHeaders.remove) response.removeHeader(name);
    for (const [name, value] of securityHeaders.set) response.setHeader(name, value);
    if (request.protocol === 'https') response.setHeader('strict-transport-security', 'max-age=15552000');
    if (request.url.startsWith('/api/')) response.setHeader('cache-control', 'no-store');
  };
}

export async function registerSecurity(
  app: FastifyInstance,
  { config, db }: { config: ServerConfig; db: Kysely<Database> },
): Promise<void> {
  // One synchronous hook for every response, 404s included (onRequest runs before routing ends).
  const writeSecurityHeaders = securityHeaderWriter(config);
  app.addHook('onRequest', (request, reply, done) => {
    writeSecurityHeaders(request, reply);
    done();
  });

  // JSON bodies only: without the text/plain parser a cross-site "simple" request cannot carry
  // a body, and anything but application/json is a 415. Nesting is bounded before parsing.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  registerBodyIdleTimeout(app, config);

  // The origins are the configured ones (config.allowedOrigins), never one derived from the
  // request: a DNS-rebinding page sends its own name both as Origin and as Host.
  const allowedOrigins = new Set(config.allowedOrigins);
  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method)) return;
    if (request.headers['sec-fetch-site'] === 'cross-site')
      throw new HttpError(403, 'Cross-site requests are not allowed.');
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const normalized = normalizeOrigin(origin);
    if (normalized === null || !allowedOrigins.has(normalized))
      throw new HttpError(403, `Requests from origin ${origin} are not allowed.`);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const described = describeError(error, request);
    if (!described) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send(errorBody(500, 'Internal Server Error'));
    }
    if (described.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    const errors = error instanceof ValidationFailed ? error.errors : undefined;
    if (BODY_LEFT_UNREAD.has(described.statusCode)) void reply.header('connection', 'close');
    return reply.code(described.statusCode).send(errorBody(described.statusCode, described.message, errors));
  });

  await app.register(fastifyRateLimit, { global: false, store: kyselyRateLimitStore(db) });
}
