// What requests meet while the application closes (app.close(), on SIGTERM or SIGINT from
// server/main.ts). The listening socket is closed first; a request that still arrives on a kept
// connection is refused with a 503 that says so, before any work or database read, so that the
// client knows it was not processed and may send it again (to this server restarted, or another).
// Every answer sent while closing, to requests in flight included, ends its connection: Node's
// server.close() closes only the connections idle at that moment, and one kept alive after would
// hold the close back for the whole keep-alive timeout (72 s).
//
// A request a client has sent but the server has not read yet (in the connection's buffer, or a
// connection still in the listening socket's backlog) counts as idle, and closing it would reset
// it: the client could not tell whether it was processed. So the server goes on listening and
// reading for CLOSING_SETTLE_MS first, refusing each such request with the 503, and only then
// closes the listening socket and the idle connections.
import type { FastifyInstance } from 'fastify';

/** How long a closing server still reads what was sent to it, to refuse it cleanly. */
export const CLOSING_SETTLE_MS = 250;

export const CLOSING_MESSAGE =
  'The server is shutting down: this request was not processed. Please send it again in a moment.';

/** Fastify's own refusal says only "Service Unavailable": server/app.ts turns it off (return503OnClosing). */
export function registerClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    if (app.server.listening) await new Promise((resolve) => setTimeout(resolve, CLOSING_SETTLE_MS));
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) {
      done();
      return;
    }
    void reply
      .code(503)
      .header('connection', 'close')
      .header('retry-after', '5')
      .send({ statusCode: 503, error: 'Service Unavailable', message: CLOSING_MESSAGE });
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
