import { defineRoute, type RouteDefinition } from '../route.js';
import type { ItineraryPlanner } from '../../services/itineraries/itinerary-planner.js';
import type { SavedItineraries } from '../../services/itineraries/saved-itineraries.js';
import {
  itineraryAutoBody,
  itineraryIdParams,
  itineraryPlanBody,
  saveItineraryBody,
  shareSlugParams,
  updateItineraryBody,
} from '../../services/itineraries/itinerary-requests.js';

// access and scopes as the itinerary rows of services/access/endpoint-access.ts say
const route = { tags: ['itineraries'] };
/** A saved itinerary: 40 stops and a cached plan fit many times over. */
const SAVED_BODY_LIMIT = 256 * 1024;

/** Itineraries (spec part 3 §2.4, §4.3); docs/itineraries.md. */
export function itineraryRoutes(planner: ItineraryPlanner, saved: SavedItineraries): RouteDefinition[] {
  const update = (method: 'POST' | 'PATCH') =>
    defineRoute({
      ...route,
      method,
      path: '/me/itineraries/{id}',
      summary: 'Change a saved itinerary: only the fields sent; `notes` and `plan` accept null to clear; `isPublic:false` withdraws the share slug',
      errors: ['NOT_FOUND', 'UNAUTHENTICATED'],
      params: itineraryIdParams,
      body: updateItineraryBody,
      bodyLimitBytes: SAVED_BODY_LIMIT,
      // an update creates nothing: 200 for both methods
      successStatus: 200,
      handler: ({ principal, params, body }) => saved.update(principal, params.id, body),
    });
  return [
    defineRoute({
      ...route,
      readOnly: true,
      method: 'POST',
      path: '/itinerary/plan',
      summary:
        'Order 2–40 stops for the least travel (first and last fixed, the middle reordered over the routing engine’s matrix) with N−1 legs and totals incl. dwell; available:false when unroutable',
      body: itineraryPlanBody,
      errors: ['COMPUTATION_TIMEOUT', 'SERVER_BUSY'],
      handler: ({ body, signal }) => planner.plan(body, signal),
    }),
    defineRoute({
      ...route,
      readOnly: true,
      method: 'POST',
      path: '/itinerary/auto',
      summary:
        'Choose and order catalogue places within `radiusKm` that match `interests` for the most rating-weighted value within `timeBudgetMin` (orienteering); never over budget; skipped candidates with reasons',
      body: itineraryAutoBody,
      errors: ['COMPUTATION_TIMEOUT', 'SERVER_BUSY'],
      handler: ({ body, signal }) => planner.auto(body, signal),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/itineraries',
      summary: 'Your saved itineraries, newest first (at most 200 are kept)',
      errors: ['UNAUTHENTICATED'],
      handler: ({ principal }) => saved.list(principal),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/me/itineraries',
      summary: 'Save an itinerary: `name`, 1–40 `stops`, `notes` (≤ 500 characters), a cached `plan`, `isPublic` (a share slug while public)',
      errors: ['UNAUTHENTICATED'],
      body: saveItineraryBody,
      bodyLimitBytes: SAVED_BODY_LIMIT,
      handler: ({ principal, body }) => saved.save(principal, body),
    }),
    update('POST'),
    update('PATCH'),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/itineraries/{id}',
      summary: 'Delete a saved itinerary (its share slug stops answering)',
      errors: ['NOT_FOUND', 'UNAUTHENTICATED'],
      params: itineraryIdParams,
      handler: ({ principal, params }) => saved.remove(principal, params.id),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/itineraries/{shareSlug}',
      summary: 'A public itinerary by its share slug (no sign-in needed)',
      errors: ['NOT_FOUND'],
      params: shareSlugParams,
      handler: ({ params }) => saved.shared(params.shareSlug),
    }),
  ];
}
