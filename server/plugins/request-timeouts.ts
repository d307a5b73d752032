// How long a client may take to send its request. Without a limit, a client that sends the
// headers and part of a body, then nothing, holds its connection (and a file descriptor) for as
// long as it likes, and enough of them exhaust the process's descriptors.
//
// - The whole request, headers and body: REQUEST_TIMEOUT_MS (config.requestTimeoutMs), Node's
//   own requestTimeout and headersTimeout. Node checks them only every connectionsCheckingInterval
//   (30 s by default, and 60 s headersTimeout beside it), so the interval is set to a tenth of the
//   limit, at most a second: a stalled request is closed within the limit and one interval.
//   Node answers 408 and closes the connection.
// - Pauses within a body: BODY_IDLE_TIMEOUT_MS (config.bodyIdleTimeoutMs), kept here. The body
//   is read through a stream that fails with a 408 when no part of it has come for that long;
//   the error handler (./security.ts) closes the connection with its answer.
//
// Neither limit runs while a handler works: a slow database is not the client's fault.
import type { ServerOptions } from 'node:http';
import { finished, PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import { HttpError } from '../http-error';

/** Node's connectionsCheckingInterval: how much after its limit a stalled request may be closed. */
export function connectionsCheckingInterval(requestTimeoutMs: number): number {
  return Math.min(1000, Math.max(1, Math.floor(requestTimeoutMs / 10)));
}

/** Fastify's options for the whole request's limit (Fastify sets requestTimeout on the server itself). */
export function requestTimeoutOptions(config: Pick<ServerConfig, 'requestTimeoutMs'>): {
  requestTimeout: number;
  http: ServerOptions;
} {
  return {
    requestTimeout: config.requestTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: connectionsCheckingInterval(config.requestTimeoutMs),
    },
  };
}

/**
 * The body as a stream that fails with a 408 after `idleMs` without a chunk. It is piped from the
 * request rather than joined to it with pipeline(), which would destroy the request, and with it
 * the socket, before the 408 could be written.
 */
function idleLimitedBody(body: Readable, idleMs: number): Readable {
  const limited = new PassThrough();
  const timer = setTimeout(() => {
    limited.destroy(new HttpError(408, `Request Timeout: no part of the request body arrived for ${idleMs / 1000} s.`));
  }, idleMs);
  body.on('data', () => timer.refresh());
  finished(limited, () => clearTimeout(timer));
  // An aborted request ends nothing by itself: the body reader would wait for ever.
  finished(body, (error) => {
    if (error) limited.destroy(error);
  });
  body.pipe(limited);
  return limited;
}

export function registerBodyIdleTimeout(app: FastifyInstance, config: Pick<ServerConfig, 'bodyIdleTimeoutMs'>): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    // A body that arrived with its headers (every answer post, nearly every call) is complete
    // already: nothing to watch. app.inject's requests say nothing (undefined) and are complete.
    if (request.raw.complete !== false) {
      done(null, payload);
      return;
    }
    done(null, idleLimitedBody(payload, config.bodyIdleTimeoutMs));
  });
}
