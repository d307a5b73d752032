// What requests meet while the application closes (app.close(), on SIGTERM or SIGINT from
// server/main.ts). The listening socket is closed first; a request that still arrives on a kept
// connection is refused with a 503 that says so, before any work or database read, so that the
// client knows it was not processed and may send it again (to this server restarted, or another).
// Every answer sent while closing, to requests in flight included, ends its connection: Node's
// server.close() closes only the connections idle at that moment, and one kept alive after would
// hold the close back for the whole keep-alive timeout (72 s).
import type { FastifyInstance } from 'fastify';

export const CLOSING_MESSAGE =
  'The server is shutting down: this request was not processed. Please send it again in a moment.';

/** Fastify's own refusal says only "Service Unavailable": server/app.ts turns it off (return503OnClosing). */
export function registerClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
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
