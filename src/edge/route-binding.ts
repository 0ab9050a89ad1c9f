import type { EndpointTable } from '../services/access/endpoint-table.js';
import { mountedPath, type BoundRoute, type RouteDefinition } from './route.js';

/** Where a missing row goes, named in the refusal so the fix is one step away. */
const TABLE_FILE = 'src/services/access/endpoint-access.ts';

/**
 * Joins a route to its row of the endpoint table, once, when the edge registers it. A route
 * without a row, or whose row is still marked planned, is refused: served with a guessed (and
 * possibly open) access class, or with a stale mark, it would ship unreviewed.
 */
export function bindRoute<P, Q, B, R>(route: RouteDefinition<P, Q, B, R>, endpoints: EndpointTable): BoundRoute<P, Q, B, R> {
  const endpoint = endpoints.find(route.method, route.mount, route.path);
  const name = `${route.method} ${mountedPath(route)}`;
  if (!endpoint) {
    throw new Error(`Route ${name} has no row in the endpoint table (${TABLE_FILE}): add one with its access, scopes and billing`);
  }
  if (endpoint.planned) {
    throw new Error(`Route ${name} is served, but its row in the endpoint table (${TABLE_FILE}) is marked planned: drop the mark`);
  }
  return { ...route, endpoint };
}
