// The routes an application has registered, read from Fastify's printed route tree
// (app.printRoutes, its public view of the router), so that tests that must cover every route
// derive the list from the application rather than keep one by hand that could drift. The tree
// is read as the router holds it, each node a piece of the path below its parent's: the
// shortened print (commonPrefix: false) leaves out a wildcard below a static prefix
// (`/stellar-globe/*`).
import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  /** Fastify's route pattern: `/api/levels/:level_id`, `/stellar-globe/*`. */
  route: string;
}

/** Method and full path of every route (HEAD, Fastify's copy of each GET, left out). */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    parents.length = depth;
    const route = (parents[depth - 1] ?? '') + match[2];
    parents.push(route);
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push({ method, route });
  }
  return routes;
}
