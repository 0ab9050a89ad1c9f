/**
 * Navigation (spec part 3 §4.2, scope `routing`). The stateless helpers for
 * now; sessions, their events and the WebSocket stream join this family.
 */
import { z } from 'zod';
import { offRoute, progress } from '../../services/navigation/stateless-navigation.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { heading, latitude, longitude } from '../schemas/geo.js';

const route = { tags: ['navigation'], scopes: ['routing'], access: 'key-or-bearer' as const, readOnly: true };
const position = z.object({ lat: latitude, lng: longitude });
/** A polyline6 route shape; 2 MB of text is about 400 000 points, far beyond any route. */
const routeShape = z.string().min(1).max(2_000_000);

export function navigationRoutes(): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/navigation/off-route',
      summary: 'Stateless: is a position outside the corridor of a route shape?',
      bodyLimitBytes: 4 * 1024 * 1024,
      body: z.object({
        routeShape,
        position,
        heading: heading.optional(),
        thresholdMeters: z.number().min(5).max(500).default(40),
      }),
      handler: ({ body }) => offRoute(body),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/navigation/progress',
      summary: 'Stateless: where a position lies along a route shape, what is left and the next maneuver',
      bodyLimitBytes: 4 * 1024 * 1024,
      body: z.object({
        routeShape,
        position,
        heading: heading.optional(),
        speed: z.number().min(0).max(150).optional(),
        maneuvers: z.array(z.object({ cumulativeMeters: z.number().min(0) })).max(10_000).optional(),
        totalDistanceMeters: z.number().positive().optional(),
        baseSeconds: z.number().min(0).optional(),
        arrivalRadiusMeters: z.number().min(5).max(200).default(30),
      }),
      handler: ({ body }) => progress(body),
    }),
  ];
}
