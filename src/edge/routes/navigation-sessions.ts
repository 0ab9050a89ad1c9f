/**
 * Navigation sessions (spec part 3 §4.2, scope `routing`): create, read,
 * feed fixes, read events and ETA, cancel. The live stream of a session is
 * the WebSocket in edge/ws/navigation-stream.ts.
 */
import { z } from 'zod';
import type { NavigationSessions } from '../../services/navigation/navigation-sessions.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { fixBatchSchema, fixSchema, sessionCreateSchema, sessionIdParams } from '../../services/navigation/session-requests.js';
import { serverFrameSchema, STREAM_PROTOCOL_SUMMARY } from '../ws/stream-protocol.js';
import { webhookDeliveriesQuery } from '../schemas/webhook-url.js';
import { ApiError } from '../../shared/errors.js';

const route = { tags: ['navigation'] };
const sessionErrors = ['NOT_FOUND', 'FORBIDDEN', 'SESSION_ENDED', 'SERVICE_UNAVAILABLE'] as const;

export function navigationSessionRoutes(sessions: NavigationSessions): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/navigation/sessions',
      summary: 'Start a navigation session: plan the route and track it from the fixes you send',
      description:
        'Answers the session (route, maneuvers, eventSeq 0, expiresAt about 6 h ahead). With `webhookUrl` (https), every event is POSTed there signed; the answer then carries `webhookSecret`, shown only here. Stream the session at `wss://…/api/v1/navigation/sessions/{id}/stream` (see docs/navigation.md).',
      body: sessionCreateSchema,
      errors: ['NO_ROUTE', 'NO_ROAD_NEARBY', 'COSTING_UNAVAILABLE', 'COMPUTATION_TIMEOUT', 'SERVER_BUSY'],
      handler: ({ body, principal, signal: _signal }) => sessions.create(principal, body),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/navigation/sessions/{id}',
      summary: 'The session now: status, route, progress, eventSeq',
      params: sessionIdParams,
      errors: [...sessionErrors],
      handler: ({ params, principal }) => sessions.get(principal, params.id),
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/navigation/sessions/{id}',
      summary: 'Send one position fix; answers progress, and the new route when it re-planned',
      params: sessionIdParams,
      body: fixSchema,
      errors: [...sessionErrors, 'RATE_LIMITED'],
      // spec part 3 §4.2: every navigation POST and PATCH answers 201
      successStatus: 201,
      handler: ({ params, principal, body }) => sessions.fix(principal, params.id, body),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/navigation/sessions/{id}/positions',
      summary: 'Send up to 50 fixes at once (oldest first); the latest drives progress',
      description: 'Fixes with `capturedAt` not newer than the last accepted fix are skipped (resent or late fixes), so `accepted` may be less than the fixes sent.',
      params: sessionIdParams,
      body: z.object({ positions: fixBatchSchema }),
      errors: [...sessionErrors, 'RATE_LIMITED'],
      handler: ({ params, principal, body }) => sessions.positions(principal, params.id, body.positions),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/navigation/sessions/{id}/events',
      summary: 'Events after `since` (the last ~50 are kept)',
      params: sessionIdParams,
      query: z.object({ since: z.coerce.number().int().min(0).max(2_147_483_647).default(0) }),
      errors: [...sessionErrors],
      handler: ({ params, principal, query }) => sessions.events(principal, params.id, query.since),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/navigation/sessions/{id}/eta',
      summary: 'Time to arrival: `source: "traffic"` (base time plus the learned delay, `delaySeconds`, `trafficLevel`) when the rest of a driving route has learned traffic profiles, else `available: false, source: "base"`',
      params: sessionIdParams,
      errors: [...sessionErrors],
      handler: ({ params, principal }) => sessions.eta(principal, params.id),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/navigation/sessions/{id}/webhook-deliveries',
      summary: "The session's webhook delivery log, newest attempt first",
      description: 'One entry per delivery attempt: webhookId (sessionId:seq), seq, attempt, outcome delivered|retrying|failed, httpStatus, error, durationMs, attemptedAt. See docs/webhooks.md.',
      params: sessionIdParams,
      query: webhookDeliveriesQuery,
      errors: [...sessionErrors],
      handler: ({ params, principal, query }) => sessions.webhookDeliveries(principal, params.id, query.limit),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/navigation/sessions/{id}',
      summary: 'Cancel the session',
      params: sessionIdParams,
      errors: [...sessionErrors],
      handler: ({ params, principal }) => sessions.cancel(principal, params.id),
    }),
  ];
}

/**
 * The stream's entry: its path (which names its row of the endpoint table) and its documentation. The edge serves it as a
 * WebSocket (edge/ws/navigation-stream.ts); a plain GET never reaches this handler.
 */
export function navigationStreamRoute(): RouteDefinition {
  return defineRoute({
    ...route,
    method: 'GET',
    path: '/navigation/sessions/{id}/stream',
    summary: 'WebSocket: stream fixes in, progress, events and re-routes out',
    description: STREAM_PROTOCOL_SUMMARY,
    params: sessionIdParams,
    query: z.object({ since: z.coerce.number().int().min(0).optional() }),
    // what "success" means for a WebSocket: the frames the server sends after the upgrade
    response: serverFrameSchema,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    handler: () => {
      throw new ApiError('VALIDATION_ERROR', { message: ['This endpoint is a WebSocket: connect with an Upgrade: websocket request'] });
    },
  });
}
