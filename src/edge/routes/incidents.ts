/**
 * Community incidents (spec part 3 §4.7 `POST /incidents`; the overlay, single read and votes are
 * designed in docs/incidents-feedback.md). Scope `traffic`; a signed-in user or a key reports.
 */
import { z } from 'zod';
import { latitude, longitude } from '../../domain/geo.js';
import { INCIDENT_TYPES, INCIDENT_VOTES } from '../../domain/incident.js';
import type { IncidentService } from '../../services/incidents/incident-service.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { queryBbox, queryLimit } from '../schemas/geo-query.js';
import { ApiError } from '../../shared/errors.js';

const route = { tags: ['incidents'] };
const idParams = z.object({ id: z.uuid() });
/** The largest overlay box: about 1° by 1° (a metropolitan area). */
const MAX_BBOX_DEGREES = 1;

export function incidentRoutes(incidents: IncidentService): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/incidents',
      summary: 'Report an incident (accident, hazard, police, camera, closure, jam); a live one of the same type within 100 m is confirmed instead',
      description:
        'Body `{ incidentType, lat, lng, description? }`. Answers the incident with `merged` (true when the report joined a live one), `confidence`, ' +
        '`blocking` (closures and accidents: routing avoids them), `status` and `expiresAt` (jam 1 h, police 2 h, accident 3 h, hazard 6 h, camera 30 days ' +
        'after the last report or confirmation; a closure lives until cleared).',
      body: z.object({
        incidentType: z.enum(INCIDENT_TYPES, { error: `must be one of ${INCIDENT_TYPES.join(', ')}` }),
        lat: latitude,
        lng: longitude,
        description: z.string().trim().max(500).optional(),
      }),
      handler: ({ principal, body }) => incidents.report(principal, body),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/incidents',
      summary: 'Live incidents inside a box for a map overlay (bbox=west,south,east,north, at most 1° a side), newest first',
      query: z.object({
        bbox: z.string({ error: 'is required (west,south,east,north)' }).pipe(queryBbox.unwrap()),
        types: z
          .string()
          .max(200)
          .optional()
          .transform((value, context) => {
            if (!value) return undefined;
            const types = value.split(',').map((part) => part.trim());
            const unknown = types.filter((type) => !(INCIDENT_TYPES as readonly string[]).includes(type));
            if (unknown.length) {
              context.addIssue({ code: 'custom', message: `must be among ${INCIDENT_TYPES.join(', ')}` });
              return z.NEVER;
            }
            return types as (typeof INCIDENT_TYPES)[number][];
          }),
        limit: queryLimit(200, 500),
      }),
      handler: async ({ query }) => {
        const [west, south, east, north] = query.bbox;
        if (east - west > MAX_BBOX_DEGREES || north - south > MAX_BBOX_DEGREES) {
          throw new ApiError('VALIDATION_ERROR', { message: [`query.bbox: must be at most ${MAX_BBOX_DEGREES}° a side`] });
        }
        const items = await incidents.live({ west, south, east, north }, query.types, query.limit);
        return { provider: 'svc-incidents', count: items.length, incidents: items };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/incidents/{id}',
      summary: 'One incident, live or ended (status active, cleared or expired)',
      errors: ['NOT_FOUND'],
      params: idParams,
      handler: ({ params }) => incidents.view(params.id),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/incidents/{id}/votes',
      summary: 'Confirm (still there: extends its life) or clear (gone) a live incident; one vote per user or key, the latest counts',
      description: 'Body `{ vote: "confirm" | "clear" }`. The incident is cleared when its clear votes are at least its reports and confirmations. A vote on a cleared or expired incident is 409 `STATE_CONFLICT`.',
      errors: ['NOT_FOUND', 'STATE_CONFLICT'],
      params: idParams,
      body: z.object({ vote: z.enum(INCIDENT_VOTES, { error: `must be one of ${INCIDENT_VOTES.join(', ')}` }) }),
      handler: ({ principal, params, body }) => incidents.vote(principal, params.id, body.vote),
    }),
  ];
}
