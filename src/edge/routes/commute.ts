/**
 * Commute advice (spec part 3 §4.4) and saved commutes with leave-now alerts (designed; docs/commute.md).
 * Access and scopes as the /commute and /me/commutes rows of services/access/endpoint-access.ts say.
 */
import { z } from 'zod';
import type { CommuteAdvisor } from '../../services/commute/commute-advice.js';
import { adviceRequest, commuteChangeRequest, newCommuteRequest } from '../../services/commute/commute-requests.js';
import type { SavedCommutes } from '../../services/commute/saved-commutes.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const idParams = z.object({ id: z.uuid() });

export function commuteRoutes(advisor: CommuteAdvisor, commutes: SavedCommutes): RouteDefinition[] {
  const route = { tags: ['commute'] };
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/commute/advice',
      summary: 'When to leave home to reach work by `arriveBy` (Jordan time): traffic ETA from learned profiles, status and best departure window',
      description:
        'Body `{ home: {lat,lng}, work: {lat,lng}, arriveBy?: "HH:MM" (Jordan time), bufferMin? (default 5), costing? (auto|truck) }`. The traffic ETA times the fastest route\'s segments with their learned profiles at the arrival moment, capped at 2.5 times free flow; without any profile on the route `basedOnHistory` is false and the ETA is free flow. `status` is `leave_now` (departure time reached), `leave_soon` (within 15 min) or `on_track`. Without `arriveBy` the advice is for leaving now. `available: false` when no route joins home and work.',
      body: adviceRequest,
      errors: ['COSTING_UNAVAILABLE'],
      handler: ({ body }) => advisor.advise(body),
    }),
    defineRoute({ ...route, method: 'GET', path: '/me/commutes', summary: 'Your saved commutes', handler: ({ principal }) => commutes.list(principal) }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/me/commutes',
      summary: 'Save a commute: home, work, arriveBy (Jordan time), days (default: the working days of `country`); a leave-now alert goes to your inbox',
      body: newCommuteRequest,
      handler: ({ principal, body }) => commutes.create(principal, body),
    }),
    defineRoute({ ...route, method: 'GET', path: '/me/commutes/{id}', summary: 'One saved commute', params: idParams, errors: ['NOT_FOUND'], handler: ({ principal, params }) => commutes.get(principal, params.id) }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/me/commutes/{id}',
      summary: 'Change a saved commute (only the fields sent; a new `country` without `weekdays` resets the days to its working days)',
      params: idParams,
      body: commuteChangeRequest,
      errors: ['NOT_FOUND'],
      handler: ({ principal, params, body }) => commutes.change(principal, params.id, body),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/commutes/{id}',
      summary: 'Delete a saved commute',
      params: idParams,
      errors: ['NOT_FOUND'],
      handler: async ({ principal, params }) => {
        await commutes.remove(principal, params.id);
        return { ok: true, deleted: true };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/commutes/{id}/advice',
      summary: "A saved commute's advice for its next arrival",
      params: idParams,
      errors: ['NOT_FOUND'],
      handler: ({ principal, params }) => commutes.advice(principal, params.id),
    }),
  ];
}
