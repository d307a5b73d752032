// Builds the Fastify application: API route plugins, the built client from dist/ and the sky
// data from var/sky. Listening is left to the caller so that tests can inject requests.
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import fastifyCookie from '@fastify/cookie';
import type { Kysely } from 'kysely';
import pino from 'pino';
import type { ServerConfig } from './config';
import type { Database } from './db/schema';
import { registerSessionUser } from './auth/session-user';
import { sessionRoutes } from './routes/session';
import { CampaignBoardCache } from './game/model-reads';
import { levelRoutes } from './routes/levels';
import { questRoutes } from './routes/quests';
import { campaignRoutes } from './routes/campaigns';
import { courseRoutes } from './routes/courses';
import { registerSecurity, securityHeaderWriter } from './plugins/security';
import { answerRouterRefusal, registerPathParameterCheck } from './plugins/path-parameters';
import { registerStaticFiles } from './plugins/static-files';
import { requestValidatorCompiler } from './plugins/request-validation';
import { BODY_LIMIT } from './plugins/json-body';
import { registerClosing } from './plugins/closing';
import { requestTimeoutOptions } from './plugins/request-timeouts';
import { rewriteRequestTarget } from './plugins/request-target';
import { accountRoutes } from './routes/accounts';
import { notificationRoutes } from './routes/notifications';
import { presentRoutes } from './routes/present';
import { scienceRoutes } from './routes/science';
import { serverSecret } from './science/pseudonyms';

export interface AppOptions {
  config: ServerConfig;
  db: Kysely<Database>;
  /** Fastify's logger option: false (tests), or the request log's level and stream (server/main.ts). */
  logger?: FastifyServerOptions['logger'];
}

/**
 * One log line per request, written when it is answered and naming the request (Fastify's default
 * is two: one on arrival, one without the URL when answered): writing the log is a noticeable
 * share of a busy server's time.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * The request log on stdout, in blocks of 4 KiB rather than one write(2) per line, a system call
 * per request that would cost as much as a cached GET's own work. `flush` is called each
 * second, so that a quiet server's lines appear within a second (a SIGKILL loses at most the last
 * second of log, never data). A stopping server awaits `flushed` after its last line and before
 * it exits (server/main.ts): process.exit() does not wait for a write under way.
 */
export function bufferedStdoutLog(): {
  logger: FastifyServerOptions['logger'];
  flush(): void;
  flushed(): Promise<void>;
} {
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => stream.flush(), 1000).unref();
  return {
    logger: { level: 'info', stream },
    flush: () => stream.flush(),
    flushed: () => new Promise((resolve, reject) => stream.flush((error) => (error ? reject(error) : resolve()))),
  };
}

export async function buildApp({ config, db, logger = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    logController: new RequestLog(),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    // How long a request may take to arrive: ./plugins/request-timeouts.ts.
    ...requestTimeoutOptions(config),
    // One spelling of each path for every check and the router: ./plugins/request-target.ts.
    rewriteUrl: rewriteRequestTarget,
    // Refused by ./plugins/closing.ts instead, with a message that says why.
    return503OnClosing: false,
    // A path that is not text, or a path parameter too long for the router, answered in the
    // API's shape with the usual headers: ./plugins/path-parameters.ts.
    frameworkErrors: answerRouterRefusal(securityHeaderWriter(config)),
  });
  // Every route's path parameters through the shared schemas, checked as each route is added.
  registerPathParameterCheck(app);
  // First, so that a closing server does no work for a request: the 503 of ./plugins/closing.ts.
  registerClosing(app);
  // Then headers, JSON-only bodies (BODY_LIMIT, nesting bounded, the body's pauses limited), the
  // Origin check, no-store on the API, rate limits and the error handler.
  await registerSecurity(app, { config, db });
  await app.register(fastifyCookie);
  registerSessionUser(app, db, { adminEmails: config.adminEmails });
  // Bodies strict, paths and query strings read from text: ./plugins/request-validation.ts.
  app.setValidatorCompiler(requestValidatorCompiler);
  // API route plugins, one per group of application-spec §7.
  await app.register(sessionRoutes, { db });
  // The game: levels and server_info, quests and answers, campaigns and rankings.
  const campaigns = new CampaignBoardCache(db);
  await app.register(levelRoutes, { db });
  await app.register(questRoutes, { db, campaigns });
  await app.register(campaignRoutes, { db, campaigns, timeZone: config.timeZone });
  // The courses, imported ones with their names and imagery (docs/import.md).
  await app.register(courseRoutes, { db });
  await app.register(accountRoutes, { db, config });
  await app.register(notificationRoutes, { db });
  await app.register(presentRoutes, { db, config });
  // The research dashboard and the catalogue export (docs/science.md).
  // The server's secret is read (or made) on the first pseudonymous export, not at start.
  let secret: Buffer | undefined;
  await app.register(scienceRoutes, { db, secret: () => (secret ??= serverSecret(config.varDirectory)) });

  // The built client and the sky data: ./plugins/static-files.ts.
  await registerStaticFiles(app, config);
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send({ statusCode: 404, error: 'Not Found', message: `${request.method} ${request.url} not found` });
  });
  return app;
}
