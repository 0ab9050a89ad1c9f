import type { WebSocketBehavior } from 'uWebSockets.js';
import type { RouteDefinition } from '../route.js';
import type { ChannelState } from './stream-channel.js';

/**
 * A WebSocket served by the edge: its route entry (path, access, scopes — for
 * the guards and the OpenAPI document; never served as plain HTTP) and the
 * uWS behaviour that runs it. Every socket is a stream channel's, so its user data is the channel's state.
 */
export interface WebSocketEndpoint {
  route: RouteDefinition;
  behavior: WebSocketBehavior<ChannelState>;
}
