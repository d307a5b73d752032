// A route's path parameters must have the shared schemas of server/routes/schemas.ts: a route
// whose parameter has a schema of its own, or none, is refused when it is registered
// (server/plugins/path-parameters.ts), so the server does not start with it. Every registered
// route's answers to hostile parameters: tests/server/hardening-path-parameters.test.ts.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  pathParameterFault,
  pathParameterNames,
  registerPathParameterCheck,
} from '../../server/plugins/path-parameters';
import { courseIdSchema, int8IdSchema, pathParameters } from '../../server/routes/schemas';

describe('a path parameter with a schema of its own', () => {
  it('is refused when its route is registered, naming the route and the parameter', async () => {
    const app = Fastify();
    registerPathParameterCheck(app);
    const register = (params: object | undefined) =>
      app.get('/api/things/:thing_id', { schema: params ? { params } : {} }, async () => ({}));
    expect(() => register(undefined)).toThrow(
      'Route GET /api/things/:thing_id has no params schema of pathParameters() (server/routes/schemas.ts)',
    );
    expect(() =>
      register({
        type: 'object',
        required: ['thing_id'],
        additionalProperties: false,
        properties: { thing_id: { type: 'string', maxLength: 64 } },
      }),
    ).toThrow(
      "Route GET /api/things/:thing_id gives its path parameter 'thing_id' a schema that is not one of PATH_PARAMETER_SCHEMAS",
    );
    expect(() => register(pathParameters({ thing_id: int8IdSchema }))).not.toThrow();
    await app.close();
  });

  it('is told apart from the shared ones by pathParameterFault', () => {
    expect(pathParameterNames('/api/courses/:course_id/rankings/:period')).toEqual(['course_id', 'period']);
    expect(pathParameterNames('/stellar-globe/*')).toEqual([]);
    const url = '/api/admin/courses/:course_id/export';
    expect(pathParameterFault({ url, schema: { params: pathParameters({ course_id: courseIdSchema }) } })).toBe(
      undefined,
    );
    expect(pathParameterFault({ url, schema: { params: pathParameters({ level_id: courseIdSchema }) } })).toBe(
      "does not require its path parameter 'course_id'",
    );
  });
});
