import type { WebSocketBehavior } from 'uWebSockets.js';
import type { RouteDefinition } from '../route.js';

/**
 * A WebSocket served by the edge: its route entry (path, access, scopes — for
 * the guards and the OpenAPI document; never served as plain HTTP) and the
 * uWS behaviour that runs it.
 */
export interface WebSocketEndpoint {
  route: RouteDefinition;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  behavior: WebSocketBehavior<any>;
}
