/**
 * The engine request (Valhalla's request shape) as the built-in engine reads
 * it: locations, costing, costing options, directions options, alternates,
 * and areas to exclude. Unknown fields are ignored, as Valhalla does; the
 * fields it reads are validated with clear messages.
 */
import { z } from 'zod';
import { truckDimensions, type MetricSpec } from '../../solvers/routing/costing/profiles.js';
import { MAX_SEARCH_CUTOFF_METERS, type RouteLocation } from '../../solvers/routing/routing-engine.js';
import type { AreaAvoidance } from '../../solvers/routing/avoid-areas.js';
import { heading, latitude, longitude } from '../../domain/geo.js';
import { COSTINGS, type Costing } from '../../domain/costing.js';
import { AVOIDABLE, PREFERENCES, type Avoidable, type Preference } from '../../domain/costing.js';

/** Most locations of one route request (Valhalla's default service limit is 20). */
export const MAX_ROUTE_LOCATIONS = 25;
export const MAX_MATRIX_LOCATIONS = 200;
export const MAX_MATRIX_CELLS = 10_000;
const MAX_EXCLUDE_LOCATIONS = 50;
export const MAX_EXCLUDE_POLYGONS = 20;
const MAX_POLYGON_POINTS = 1_000;
/** Radius of an excluded location when the request gives none (m). */
const DEFAULT_EXCLUDE_RADIUS_METERS = 30;

const unitInterval = z.number().min(0).max(1);
const booleanish = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((value) => value === true || value === 1);

export const engineLocationSchema = z.object({
  lat: latitude,
  lon: longitude,
  type: z.enum(['break', 'through', 'via', 'break_through']).optional(),
  heading: heading.optional(),
  heading_tolerance: z.number().min(0).max(180).optional(),
  name: z.string().max(200).optional(),
  search_cutoff: z.number().positive().max(MAX_SEARCH_CUTOFF_METERS).optional(),
});
export type EngineLocation = z.infer<typeof engineLocationSchema>;

const costingOptionsSchema = z.object({
  use_tolls: unitInterval.optional(),
  use_highways: unitInterval.optional(),
  use_ferries: unitInterval.optional(),
  exclude_tolls: booleanish.optional(),
  exclude_highways: booleanish.optional(),
  exclude_ferries: booleanish.optional(),
  exclude_unpaved: booleanish.optional(),
  shortest: z.boolean().optional(),
  /** Ours: the planner's preference, for engine callers who want it. */
  preference: z.enum(PREFERENCES).optional(),
  height: z.number().positive().max(10).optional(),
  width: z.number().positive().max(10).optional(),
  weight: z.number().positive().max(200).optional(),
  length: z.number().positive().max(60).optional(),
});

export const unitsSchema = z
  .enum(['kilometers', 'miles', 'km', 'mi'])
  .transform((value): 'kilometers' | 'miles' => (value === 'mi' || value === 'miles' ? 'miles' : 'kilometers'));

/** `YYYY-MM-DDTHH:MM[:SS]`, local time of the first location's country, or with `Z` / an offset: an instant. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;
const dateTimeValue = z
  .string()
  .max(40)
  .refine((value) => {
    const match = DATE_TIME.exec(value);
    if (!match) return false;
    const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
    const date = new Date(Date.UTC(year!, month! - 1, day!));
    return date.getUTCMonth() === month! - 1 && date.getUTCDate() === day && hour! < 24 && minute! < 60 && second! < 60;
  }, 'must be a date-time such as 2026-03-01T08:30 (local time of the first location) or 2026-03-01T08:30:00Z');

/**
 * Valhalla's `date_time`: `{ type: 0 now | 1 depart at | 2 arrive by | 3 invariant, value }`; an ISO string
 * alone is read as depart at. Chooses the traffic metric of that moment (docs/traffic.md).
 */
export const dateTimeSchema = z
  .union([
    z.object({
      type: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: 'type must be 0 (now), 1 (depart at), 2 (arrive by) or 3 (invariant)' }),
      value: dateTimeValue.optional(),
    }),
    dateTimeValue.transform((value) => ({ type: 1 as const, value })),
  ])
  .refine((dateTime) => dateTime.type === 0 || dateTime.type === 3 || dateTime.value !== undefined, { message: 'value required with type 1 (depart at) or 2 (arrive by)' });

/** A polygon ring of `[lon, lat]` points (closed or not). */
export const polygonRing = z.array(z.tuple([longitude, latitude])).min(3).max(MAX_POLYGON_POINTS);

export const engineRequestSchema = z.object({
  locations: z.array(engineLocationSchema).min(2, 'at least 2 locations').max(MAX_ROUTE_LOCATIONS, `at most ${MAX_ROUTE_LOCATIONS} locations`),
  costing: z.enum(COSTINGS, { error: `must be one of ${COSTINGS.join(', ')}` }).default('auto'),
  costing_options: z.record(z.string(), costingOptionsSchema).optional(),
  directions_options: z.object({ units: unitsSchema.optional(), language: z.string().max(20).optional() }).optional(),
  units: unitsSchema.optional(),
  language: z.string().max(20).optional(),
  alternates: z.number().int().min(0).max(3).optional(),
  date_time: dateTimeSchema.optional(),
  exclude_locations: z.array(z.object({ lat: latitude, lon: longitude, radius: z.number().positive().max(1000).optional() })).max(MAX_EXCLUDE_LOCATIONS).optional(),
  exclude_polygons: z.array(polygonRing).max(MAX_EXCLUDE_POLYGONS).optional(),
  id: z.string().max(200).optional(),
});
export type EngineRequest = z.infer<typeof engineRequestSchema>;

/** The metric a request asks for: costing, preference and avoidances from its costing options. */
export function metricOf(costing: Costing, options: z.infer<typeof costingOptionsSchema> | undefined, preference: Preference = 'balanced', avoid: Avoidable[] = []): MetricSpec {
  const avoided = new Set<Avoidable>(avoid);
  if (options) {
    if (options.exclude_tolls || (options.use_tolls !== undefined && options.use_tolls <= 0.1)) avoided.add('tolls');
    if (options.exclude_highways || (options.use_highways !== undefined && options.use_highways <= 0.1)) avoided.add('highways');
    if (options.exclude_ferries || (options.use_ferries !== undefined && options.use_ferries <= 0.1)) avoided.add('ferries');
    if (options.exclude_unpaved) avoided.add('unpaved');
    if (options.shortest) preference = 'shortest';
    else if (options.preference) preference = options.preference;
  }
  const spec: MetricSpec = { costing, preference, avoid: AVOIDABLE.filter((item) => avoided.has(item)) };
  if (costing === 'truck') {
    spec.truck = truckDimensions({ weightTonnes: options?.weight, heightMeters: options?.height, widthMeters: options?.width, lengthMeters: options?.length });
  }
  return spec;
}

/** Narration settings of a request: `directions_options` first, then the top-level fields, as Valhalla reads them. */
export function narrationOf(request: Pick<EngineRequest, 'directions_options' | 'language' | 'units'>): { language: string; units: 'kilometers' | 'miles' } {
  return {
    language: request.directions_options?.language ?? request.language ?? 'en-US',
    units: request.directions_options?.units ?? request.units ?? 'kilometers',
  };
}

export function toRouteLocation(location: EngineLocation): RouteLocation {
  return {
    lat: location.lat,
    lon: location.lon,
    ...(location.type ? { type: location.type } : {}),
    ...(location.heading !== undefined ? { heading: location.heading } : {}),
    ...(location.heading_tolerance !== undefined ? { headingTolerance: location.heading_tolerance } : {}),
    ...(location.name ? { name: location.name } : {}),
    ...(location.search_cutoff ? { searchCutoffMeters: location.search_cutoff } : {}),
  };
}

export function areasOf(request: Pick<EngineRequest, 'exclude_locations' | 'exclude_polygons'>): AreaAvoidance | undefined {
  const points = (request.exclude_locations ?? []).map((point) => ({ lat: point.lat, lon: point.lon, radiusMeters: point.radius ?? DEFAULT_EXCLUDE_RADIUS_METERS }));
  const polygons = (request.exclude_polygons ?? []).map((outer) => [closeRing(outer)]);
  return points.length || polygons.length ? { points, polygons } : undefined;
}

/** The ring closed (its first point repeated at the end), as the engine's polygons are. */
export function closeRing(ring: [number, number][]): [number, number][] {
  const [first, last] = [ring[0]!, ring[ring.length - 1]!];
  return first[0] === last[0] && first[1] === last[1] ? ring : [...ring, first];
}

const matrixLocations = z.array(engineLocationSchema).min(1).max(MAX_MATRIX_LOCATIONS);

export const matrixRequestSchema = z
  .object({
    sources: matrixLocations.optional(),
    targets: matrixLocations.optional(),
    locations: matrixLocations.optional(),
    costing: z.enum(COSTINGS, { error: `must be one of ${COSTINGS.join(', ')}` }).default('auto'),
    costing_options: z.record(z.string(), costingOptionsSchema).optional(),
    units: unitsSchema.optional(),
    id: z.string().max(200).optional(),
  })
  .refine((value) => (value.sources && value.targets) || value.locations, { message: 'give sources and targets, or locations', path: ['sources'] })
  .refine((value) => (value.sources?.length ?? value.locations?.length ?? 0) * (value.targets?.length ?? value.locations?.length ?? 0) <= MAX_MATRIX_CELLS, {
    message: `at most ${MAX_MATRIX_CELLS} source × target cells`,
    path: ['targets'],
  });
export type MatrixRequest = z.infer<typeof matrixRequestSchema>;
