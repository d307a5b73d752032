// Path parameters are the one part of a request every client can write into the URL, so each
// goes through a schema shared by the routes (PATH_PARAMETER_SCHEMAS, server/routes/schemas.ts):
// a course id of its pattern, an id of its column's range, a nickname of bounded text without
// NUL. A route whose path parameter has a schema of its own, or none, could pass a NUL to
// PostgreSQL (a 500: "invalid byte sequence for encoding UTF8: 0x00"); such a route is refused
// when it is registered, so the server does not start rather than answer it.
//
// What never reaches a route is answered here too (Fastify's frameworkErrors): a path whose
// percent-escapes are not UTF-8 (a lone surrogate, %ED%A0%80, among them) is a 400, and a path
// parameter longer than PATH_PARAMETER_MAX_LENGTH a 414, both in the API's error shape.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { PATH_PARAMETER_MAX_LENGTH, PATH_PARAMETER_SCHEMAS } from '../routes/schemas';

/** The names of a route's path parameters (`:name`); a wildcard (`*`) is the static files' own. */
export function pathParameterNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!);
}

/** Why a route's path parameters are not all of the shared schemas, or undefined when they are. */
export function pathParameterFault(route: Pick<RouteOptions, 'url' | 'schema'>): string | undefined {
  const names = pathParameterNames(route.url);
  if (names.length === 0) return undefined;
  const params = route.schema?.params as
    { additionalProperties?: unknown; required?: unknown; properties?: Record<string, unknown> } | undefined;
  if (!params || params.additionalProperties !== false || !Array.isArray(params.required))
    return 'has no params schema of pathParameters() (server/routes/schemas.ts)';
  for (const name of names) {
    if (!params.required.includes(name)) return `does not require its path parameter '${name}'`;
    const schema = params.properties?.[name];
    if (typeof schema !== 'object' || schema === null || !PATH_PARAMETER_SCHEMAS.has(schema))
      return `gives its path parameter '${name}' a schema that is not one of PATH_PARAMETER_SCHEMAS`;
  }
  return undefined;
}

/** Refuses, as it is registered, a route whose path parameters do not all have a shared schema. */
export function registerPathParameterCheck(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const fault = pathParameterFault(route);
    if (fault !== undefined) {
      const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
      throw new Error(`Route ${methods} ${route.url} ${fault}`);
    }
  });
}

/** The router's own refusals, as Fastify names them. */
const ROUTER_REFUSALS: Record<string, { statusCode: number; message: string }> = {
  FST_ERR_BAD_URL: {
    statusCode: 400,
    message: 'Bad Request: the path is not text (a percent-escape that is not UTF-8, or a lone surrogate).',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    statusCode: 414,
    message: `URI Too Long: a part of the path may be at most ${PATH_PARAMETER_MAX_LENGTH} characters.`,
  },
};

/**
 * Fastify's frameworkErrors: the answer to a request the router refused before any route or hook
 * ran, in the API's shape ({statusCode, error, message}) rather than Fastify's. `headers` writes
 * the headers every answer carries (./security.ts), which no hook has written here.
 */
export function answerRouterRefusal(
  headers: (request: FastifyRequest, reply: FastifyReply) => void,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    const statusCode = error.statusCode ?? 500;
    const refusal = ROUTER_REFUSALS[error.code] ?? { statusCode, message: STATUS_CODES[statusCode] ?? 'Error' };
    headers(request, reply);
    void reply
      .code(refusal.statusCode)
      .type('application/json; charset=utf-8')
      .send({ statusCode: refusal.statusCode, error: STATUS_CODES[refusal.statusCode], message: refusal.message });
  };
}
