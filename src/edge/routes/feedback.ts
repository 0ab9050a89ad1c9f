/**
 * Feedback (spec part 3 §4.8) and the editor side of its state table (§3), road edits and sign
 * disregards (§4.1 plan constraints). The editor moves, the report list and the road-edit endpoints
 * are designed in docs/incidents-feedback.md.
 */
import { z } from 'zod';
import { latitude, longitude } from '../../domain/geo.js';
import { FEEDBACK_STATUSES, ROAD_EDIT_KINDS } from '../../domain/feedback.js';
import type { FeedbackService } from '../../services/feedback/feedback-service.js';
import { FEEDBACK_CATEGORY_IDS } from '../../services/feedback/feedback-catalog.js';
import type { RoadEditService } from '../../services/incidents/road-edit-service.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { queryBbox, queryLimit } from '../schemas/geo-query.js';

const route = { tags: ['feedback'] };
const idParams = z.object({ id: z.uuid() });
/** A free-form context object: at most 32 fields, kept small. */
const context = z
  .record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]))
  .refine((value) => Object.keys(value).length <= 32, 'at most 32 fields')
  .default({});
const lngLat = z.tuple([longitude, latitude]);
const roadEditGeometry = z.discriminatedUnion('type', [
  z.object({ type: z.literal('line'), coordinates: z.array(lngLat).min(2, 'a line needs at least 2 points').max(500) }),
  z.object({ type: z.literal('area'), rings: z.array(z.array(lngLat).min(4, 'a ring needs at least 4 points (closed)').max(1000)).min(1).max(10) }),
]);
const boxOf = (bbox: [number, number, number, number] | undefined) => (bbox ? { west: bbox[0], south: bbox[1], east: bbox[2], north: bbox[3] } : undefined);

export function feedbackRoutes(feedback: FeedbackService, roadEdits: RoadEditService): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/feedback',
      summary: 'Report a map or routing problem at a place; it starts open, an editor acknowledges it',
      description:
        'Body `{ source (e.g. nav_chip), category (GET /feedback/categories), severity 1–5 (default 3), lat, lng, context? }`. Answers `{ ok: true, id, status: "open" }`. ' +
        'An open report never affects routing; once acknowledged, a blocking category is routed around for 60 days.',
      body: z.object({
        source: z.string().trim().regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be lowercase letters, digits or _ (at most 40)').default('api'),
        category: z.enum(FEEDBACK_CATEGORY_IDS, { error: `must be one of ${FEEDBACK_CATEGORY_IDS.join(', ')}` }),
        severity: z.number().min(1).max(5).default(3),
        lat: latitude,
        lng: longitude,
        context,
      }),
      handler: ({ principal, body }) => feedback.report(principal, body),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/feedback/categories',
      summary: 'Feedback categories (which block routing once acknowledged), sources, implicit signals and the severity scale',
      handler: () => feedback.categories(),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/feedback/implicit',
      summary: 'An implicit signal from navigation (reroute, u_turn, dead_end, hard_brake, long_stop, gps_lost, failed_arrival)',
      description: 'Answers `{ ok: true, signal }`; an unknown signal answers `{ ok: false, error: "unknown signal", signals: [...] }` (nothing stored).',
      body: z.object({ signal: z.string().trim().min(1).max(64), lat: latitude, lng: longitude, context }),
      handler: ({ principal, body }) => feedback.implicit(principal, body),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/admin/feedback/problem-spots',
      summary: 'Open feedback and implicit signals of the last 90 days clustered by ~110 m cell, scored by severity, source trust and recency',
      query: z.object({ bbox: queryBbox, limit: queryLimit(100, 500) }),
      handler: ({ query }) => feedback.problemSpots(boxOf(query.bbox), query.limit),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/admin/feedback/routing-avoidances',
      summary: 'Acknowledged blocking reports routing avoids now (each for 60 days after acknowledgement)',
      handler: () => feedback.routingAvoidances(),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/admin/feedback',
      summary: 'Feedback reports for editors, newest first (filter by status and bbox)',
      query: z.object({ status: z.enum(FEEDBACK_STATUSES).optional(), bbox: queryBbox, limit: queryLimit(100, 500) }),
      handler: ({ query }) => feedback.list({ ...(query.status ? { status: query.status } : {}), ...(query.bbox ? { box: boxOf(query.bbox)! } : {}), limit: query.limit }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/admin/feedback/{id}',
      summary: 'One feedback report with its state and whether it is a routing avoidance now',
      errors: ['NOT_FOUND'],
      params: idParams,
      handler: ({ params }) => feedback.find(params.id),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/admin/feedback/{id}/status',
      summary: 'Move a report: open → ack | fixed | unactionable, ack → fixed | unactionable (editor)',
      description: 'Body `{ status, note? }`. A move the state table does not allow is 409 `STATE_CONFLICT` with `details { status, allowed }`.',
      errors: ['NOT_FOUND', 'STATE_CONFLICT'],
      params: idParams,
      body: z.object({ status: z.enum(['ack', 'fixed', 'unactionable']), note: z.string().trim().max(1000).optional() }),
      handler: ({ params, body }) => feedback.move(params.id, body.status, body.note),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/admin/road-edits',
      summary: 'Road edits not removed (in force or scheduled), newest first',
      handler: () => roadEdits.list(),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/admin/road-edits',
      summary: 'Enter a road closure or access restriction (a line or an area) that routing avoids within about 70 m of a route',
      description:
        'Body `{ kind: closure | access_restriction, geometry: { type: "line", coordinates: [[lng, lat], ...] } | { type: "area", rings: [[[lng, lat], ...]] }, ' +
        'reason?, featureKey? (a sign a user may disregard), startsAt?, endsAt? }`.',
      errors: ['VALIDATION_ERROR'],
      body: z.object({
        kind: z.enum(ROAD_EDIT_KINDS),
        geometry: roadEditGeometry,
        reason: z.string().trim().max(500).optional(),
        featureKey: z.string().trim().min(1).max(200).optional(),
        startsAt: z.iso.datetime({ offset: true }).optional(),
        endsAt: z.iso.datetime({ offset: true }).optional(),
      }),
      handler: ({ principal, body }) => roadEdits.create(principal, body),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/admin/road-edits/{id}',
      summary: 'Remove a road edit (routing stops avoiding it at once)',
      errors: ['NOT_FOUND'],
      params: idParams,
      handler: ({ params }) => roadEdits.remove(params.id),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/sign-disregards',
      summary: 'The sign feature keys you disregard (sent as /routing/plan `disregard`, kept for your later plans)',
      handler: ({ principal }) => roadEdits.listDisregards(principal),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/sign-disregards/{featureKey}',
      summary: 'Stop disregarding a sign',
      errors: ['NOT_FOUND'],
      params: z.object({ featureKey: z.string().min(1).max(200) }),
      handler: ({ principal, params }) => roadEdits.removeDisregard(principal, params.featureKey),
    }),
  ];
}
