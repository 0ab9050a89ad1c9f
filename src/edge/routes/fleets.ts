/**
 * Live fleets (issue #8, scope `optimize`; designed: spec part 3 shows no
 * fleet records — docs/optimization.md, "Live fleets"). REST creates a fleet,
 * reads it and its plan, and takes dispatcher events; the stream
 * (edge/ws/fleet-stream.ts) pushes every new plan with its diff.
 */
import { z } from 'zod';
import type { LiveFleets } from '../../services/optimization/live-fleets.js';
import { ApiError } from '../../shared/errors.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { fleetCreateSchema, fleetEventsBody, fleetIdParams } from '../../services/optimization/fleet-requests.js';
import { FLEET_STREAM_SUMMARY } from '../ws/fleet-stream-protocol.js';

const route = { tags: ['optimization'] };
const fleetErrors = ['NOT_FOUND', 'FORBIDDEN', 'SERVICE_UNAVAILABLE'] as const;

export function fleetRoutes(fleets: LiveFleets): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/optimize/fleets',
      summary: 'Create a live fleet (vehicles, stops) and plan it; answers the fleet with its first plan',
      description:
        'Up to 50 vehicles and 300 pending stops. The answer carries `planVersion` 1 once the first plan is ready (about 2 s; 0 if it took longer — it then arrives on the stream). Stream it at `wss://…/api/v1/optimize/fleets/{fleetId}/stream`.',
      body: fleetCreateSchema,
      errors: ['COSTING_UNAVAILABLE'],
      handler: ({ body, principal }) => fleets.create(principal, body),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/optimize/fleets/{fleetId}',
      summary: 'The fleet: vehicles (last positions), every stop with its status, and the current plan',
      params: fleetIdParams,
      errors: [...fleetErrors],
      handler: ({ params, principal }) => fleets.get(principal, params.fleetId),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/optimize/fleets/{fleetId}/plan',
      summary: "The fleet's current plan: routes by vehicle (completed stops locked first), unassigned stops, planVersion",
      params: fleetIdParams,
      errors: [...fleetErrors],
      handler: ({ params, principal }) => fleets.plan(principal, params.fleetId),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/optimize/fleets/{fleetId}/events',
      summary: 'Apply dispatcher events (positions, new stops, cancellations, completions); the re-plan follows, debounced',
      description:
        'All events of a call apply or none does. Answers 202 with `changeSeq` (a plan whose `changeSeq` is at least this includes the events) and the current `planVersion`; the new plan comes on the stream and from GET …/plan.',
      params: fleetIdParams,
      body: fleetEventsBody,
      errors: [...fleetErrors, 'STOP_CLOSED', 'RATE_LIMITED'],
      successStatus: 202,
      handler: ({ params, principal, body }) => fleets.apply(principal, params.fleetId, body.events),
    }),
  ];
}

/** The stream's entry: its path (naming its endpoint row) and documentation. Served as a WebSocket (edge/ws/fleet-stream.ts). */
export function fleetStreamRoute(): RouteDefinition {
  return defineRoute({
    ...route,
    method: 'GET',
    path: '/optimize/fleets/{fleetId}/stream',
    summary: 'WebSocket: dispatcher events in, every new plan with its diff out',
    description: FLEET_STREAM_SUMMARY,
    params: fleetIdParams,
    query: z.object({ since: z.coerce.number().int().min(0).optional() }),
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    handler: () => {
      throw new ApiError('VALIDATION_ERROR', { message: ['This endpoint is a WebSocket: connect with an Upgrade: websocket request'] });
    },
  });
}
