import type { WebSocketBehavior } from 'uWebSockets.js';
import type { RouteDefinition } from '../route.js';
import type { ChannelState } from './stream-channel.js';

/**
 * A WebSocket served by the edge: its route entry (its path names its row of the
 * endpoint table; documented in OpenAPI, never served as plain HTTP) and the
 * uWS behaviour that runs it. Every socket is a stream channel's, so its user data is the channel's state.
 */
export interface WebSocketEndpoint {
  route: RouteDefinition;
  behavior: WebSocketBehavior<ChannelState>;
}
