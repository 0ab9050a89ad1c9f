/**
 * POST /map/route-risk's body (docs/map-data.md, Route risk): a route given as a polyline6 or GeoJSON
 * LineString, or an origin and destination (with waypoints and a costing) for the engine to route;
 * optional departure time and segment length.
 */
import { z } from 'zod';
import { COSTINGS } from '../../domain/costing.js';
import { latitude, longitude } from '../../domain/geo.js';
import { MAX_ROUTE_LOCATIONS } from '../routing/engine-request.js';
import { DEFAULT_SEGMENT_METERS, MAX_POLYLINE_CHARS, MAX_ROUTE_POINTS, MAX_SEGMENT_METERS, MIN_SEGMENT_METERS } from './route-line.js';

/** How far from now a departure may be (traffic profiles repeat weekly; weather reaches 72 h). */
export const MAX_DEPART_OFFSET_MS = 366 * 24 * 3_600_000;

const location = z.object({ lat: latitude, lon: longitude });

export const routeRiskRequestSchema = z
  .object({
    /** The route as an encoded polyline, precision 6 (as our trips' `shape`). */
    polyline: z.string().min(1).max(MAX_POLYLINE_CHARS).optional(),
    /** The route as a GeoJSON LineString ([lng, lat]). */
    geometry: z
      .object({
        type: z.literal('LineString'),
        coordinates: z.array(z.array(z.number().finite()).min(2).max(3)).min(2, 'at least 2 positions').max(MAX_ROUTE_POINTS, `at most ${MAX_ROUTE_POINTS} positions`),
      })
      .optional(),
    origin: location.optional(),
    destination: location.optional(),
    waypoints: z.array(location).max(MAX_ROUTE_LOCATIONS - 2, `at most ${MAX_ROUTE_LOCATIONS - 2} waypoints`).default([]),
    costing: z.enum(COSTINGS, { error: `must be one of ${COSTINGS.join(', ')}` }).default('auto'),
    /** ISO 8601 departure; default now. */
    departAt: z.iso.datetime({ offset: true }).optional(),
    segmentMeters: z.number().int().min(MIN_SEGMENT_METERS).max(MAX_SEGMENT_METERS).default(DEFAULT_SEGMENT_METERS),
  })
  .superRefine((body, context) => {
    const routed = body.origin !== undefined || body.destination !== undefined;
    const given = [body.polyline !== undefined, body.geometry !== undefined, routed].filter(Boolean).length;
    if (given !== 1) context.addIssue({ code: 'custom', path: [], message: 'give exactly one route: polyline, geometry, or origin and destination' });
    else if (routed && (!body.origin || !body.destination)) context.addIssue({ code: 'custom', path: [body.origin ? 'destination' : 'origin'], message: 'origin and destination go together' });
    if (!routed && body.waypoints.length) context.addIssue({ code: 'custom', path: ['waypoints'], message: 'waypoints go with origin and destination' });
  });
export type RouteRiskRequest = z.infer<typeof routeRiskRequestSchema>;
