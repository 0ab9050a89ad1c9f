/**
 * The request fields the navigation family shares (spec part 3 §4.2): positions,
 * destinations with an optional place slug, and the route options (costing,
 * preference, avoid, language) that sessions and the stateless re-planning
 * read the same way. One definition, so the two cannot drift apart.
 */
import { z } from 'zod';
import { heading, latitude, longitude } from '../../domain/geo.js';
import { PLACE_SLUG_PATTERN } from './place-slug.js';
import { AVOIDABLE, NAVIGATION_COSTINGS, PREFERENCES } from '../../domain/costing.js';

/** A WGS84 position `{ lat, lng }`. */
export const navigationPosition = z.object({ lat: latitude, lng: longitude });

/** Travel heading of a moving traveller, degrees clockwise from north. */
export const navigationHeading = heading;

/** A place of the map data named by its OSM element: `way-123456`, `node-123`, `relation-42` (`way/123456` too). */
export const placeSlug = z
  .string()
  .max(40)
  .regex(PLACE_SLUG_PATTERN, 'must name a mapped place as `node-<id>`, `way-<id>` or `relation-<id>`');

/** Where the traveller is going: a position, optionally its name and the mapped place it belongs to. */
export const navigationDestination = navigationPosition.extend({
  name: z.string().max(200).optional(),
  placeSlug: placeSlug.optional(),
});

/** BCP 47 language of the guidance texts: `ar…` narrates in Arabic, anything else in English. */
export const navigationLanguage = z
  .string()
  .max(20)
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a language tag such as en-US or ar-EG');

export const navigationCosting = z.enum(NAVIGATION_COSTINGS, { error: `must be one of ${NAVIGATION_COSTINGS.join(', ')}` });
export const navigationPreference = z.enum(PREFERENCES, { error: `must be one of ${PREFERENCES.join(', ')}` });
/** Road kinds to avoid: an array, or one value / comma-separated values; repeats are dropped. */
export const navigationAvoid = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').map((item) => item.trim()) : value),
  z
    .array(z.enum(AVOIDABLE, { error: `must be one of ${AVOIDABLE.join(', ')}` }))
    .max(AVOIDABLE.length)
    .transform((items) => [...new Set(items)]),
);

/** The route options of a navigation request with their defaults, to spread into a body schema. */
export const navigationRouteOptions = {
  costing: navigationCosting.default('auto'),
  preference: navigationPreference.default('balanced'),
  avoid: navigationAvoid.default([]),
  language: navigationLanguage.default('en-US'),
};

/**
 * The same options without defaults, where an absent field means "keep what is there"
 * (re-planning a session keeps the session's costing unless the caller names another).
 */
export const navigationRouteOverrides = {
  costing: navigationCosting.optional(),
  preference: navigationPreference.optional(),
  avoid: navigationAvoid.optional(),
  language: navigationLanguage.optional(),
};

/** Arrival radius around the arrival point, metres (5–200). */
export const arrivalRadiusMeters = z.number().min(5).max(200);
