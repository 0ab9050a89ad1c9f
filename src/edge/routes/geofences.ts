/**
 * Geofences (designed; spec part 3 §4.3 "not shown"; docs/geofences.md). Scope `geo`; access as the
 * /geofences rows of services/access/endpoint-access.ts say.
 */
import { z } from 'zod';
import { evaluateRequest, listQuery, newGeofenceRequest, projectQuery } from '../../services/geofences/geofence-requests.js';
import type { Geofences } from '../../services/geofences/geofence-service.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const idParams = z.object({ id: z.uuid() });

export function geofenceRoutes(geofences: Geofences): RouteDefinition[] {
  const route = { tags: ['geofences'] };
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/geofences',
      summary: 'Create a circular or polygon zone of your project, with an optional signed webhook for its enter, leave and dwell events',
      description:
        'Body `{ name, shape: { type: "circle", center: {lat,lng}, radiusM } | { type: "polygon", coordinates: [[lng,lat], …] }, hysteresisM? (default 10), dwellSec?, webhookUrl?, metadata? }`. An API key acts for its own project; a bearer token names one of the user\'s projects with `?projectId=`. `webhookSecret` is shown once.',
      query: projectQuery,
      body: newGeofenceRequest,
      errors: ['NOT_FOUND'],
      handler: ({ principal, query, body }) => geofences.create(principal, query.projectId, body),
    }),
    defineRoute({ ...route, method: 'GET', path: '/geofences', summary: "Your project's zones, oldest first (`limit` 1–200, `offset`)", query: listQuery, errors: ['NOT_FOUND'], handler: ({ principal, query }) => geofences.list(principal, query) }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/geofences/evaluate',
      summary: "A device's fix (or up to 500 in time order): answers the zones it is in and the enter, leave and dwell events caused (also sent to the zones' webhooks)",
      description:
        'Body `{ deviceId, lat, lng, at? }` or `{ deviceId, fixes: [{ lat, lng, at? }, …] }`. A zone is entered once the fix is `hysteresisM` inside its boundary and left once it is `hysteresisM` outside; between, the previous state holds. `dwell` fires once per visit after `dwellSec` inside (evaluated on fixes).',
      query: projectQuery,
      body: evaluateRequest,
      errors: ['NOT_FOUND'],
      handler: ({ principal, query, body }) => geofences.evaluate(principal, query.projectId, body),
    }),
    defineRoute({ ...route, method: 'GET', path: '/geofences/{id}', summary: 'One zone', params: idParams, query: projectQuery, errors: ['NOT_FOUND'], handler: ({ principal, query, params }) => geofences.get(principal, query.projectId, params.id) }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/geofences/{id}',
      summary: 'Delete a zone (its pending events are not delivered)',
      params: idParams,
      query: projectQuery,
      errors: ['NOT_FOUND'],
      handler: async ({ principal, query, params }) => {
        await geofences.remove(principal, query.projectId, params.id);
        return { ok: true, deleted: true };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/geofences/{id}/webhook-deliveries',
      summary: "The zone's recent webhook delivery attempts, newest first",
      params: idParams,
      query: projectQuery.extend({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
      errors: ['NOT_FOUND'],
      handler: ({ principal, query, params }) => geofences.deliveries(principal, query.projectId, params.id, query.limit),
    }),
  ];
}
