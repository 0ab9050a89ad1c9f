/**
 * The planner's routing constraints (docs/routing.md, "Routing constraints"), the part of `/ai/constraints`'
 * block a router can enforce: a truck's limits through the truck costing's dimension checks, "no left turns"
 * as a turn weight in the metric (costing/turn-costs.ts), and avoided areas (the city centre, caller's
 * polygons) as the engine's excluded polygons. Time windows are not here: they belong to an optimizer
 * (`POST /optimize/routes`), which times each stop.
 */
import polyline from '@mapbox/polyline';
import { truckDimensions, type MetricSpec } from '../../solvers/routing/costing/profiles.js';
import type { AreaAvoidance } from '../../solvers/routing/avoid-areas.js';
import { ManeuverType, type Trip } from '../../solvers/routing/guidance/index.js';
import { centreRing, cityCentreOf } from './city-centres.js';
import { insideRing } from './corridor.js';
import { closeRing } from './engine-request.js';
import type { PlanRequest } from './plan-request.js';

const LEFT_TURN_TYPES: ReadonlySet<number> = new Set([ManeuverType.left, ManeuverType.sharpLeft, ManeuverType.uturnLeft]);

export interface PlanArea {
  /** `city_centre` or `polygon` (the caller's, by index). */
  kind: 'city_centre' | 'polygon';
  name: string;
  nameAr?: string;
  index?: number;
  ring: [number, number][];
  /** Why it is not avoided (a location lies inside it, no route goes round it, no known centre). */
  unavoidable?: string;
}

export interface RoutingConstraintReport {
  vehicle: { weightT: number; heightM: number; widthM: number; lengthM: number; hazmat: 'not_enforced' | false } | null;
  noLeftTurns: boolean;
  /** Left, sharp-left and left U-turn maneuvers of the chosen trip. */
  leftTurns: number;
  avoidAreas: { kind: PlanArea['kind']; name: string; nameAr?: string; index?: number; avoided: boolean; crossed: boolean; reason?: string; polygon: [number, number][] }[];
}

/** The metric with the body's truck limits and left-turn weight. */
export function constrainMetric(metric: MetricSpec, body: Pick<PlanRequest, 'vehicle' | 'noLeftTurns'>): MetricSpec {
  const spec: MetricSpec = { ...metric };
  if (body.noLeftTurns) spec.avoidLeftTurns = true;
  if (spec.costing === 'truck') {
    const limits = body.vehicle;
    spec.truck = truckDimensions({ weightTonnes: limits?.weightT, heightMeters: limits?.heightM, widthMeters: limits?.widthM, lengthMeters: limits?.lengthM });
  }
  return spec;
}

/** The areas the body asks to avoid; one holding a location of the plan cannot be avoided and is marked so. */
export function planAreas(body: Pick<PlanRequest, 'avoidAreas' | 'avoidPolygons'>, locations: readonly { lat: number; lon: number }[]): PlanArea[] {
  const areas: PlanArea[] = [];
  if (body.avoidAreas.includes('city_centre')) {
    const centre = cityCentreOf(locations);
    if (centre) areas.push({ kind: 'city_centre', name: `${centre.city.en} centre`, nameAr: `وسط ${centre.city.ar}`, ring: centreRing(centre) });
    else areas.push({ kind: 'city_centre', name: 'city centre', ring: [], unavoidable: 'no known city centre within 30 km of the locations' });
  }
  body.avoidPolygons.forEach((ring, index) => areas.push({ kind: 'polygon', name: `polygon ${index}`, index, ring: closeRing(ring) }));
  for (const area of areas) {
    if (!area.unavoidable && locations.some((location) => insideRing(area.ring, location.lat, location.lon))) area.unavoidable = 'a location of the plan lies inside it';
  }
  return areas;
}

/** The engine avoidance of the areas that can be avoided. */
export function avoidableAreas(areas: readonly PlanArea[]): AreaAvoidance | undefined {
  const polygons = areas.filter((area) => !area.unavoidable).map((area) => [area.ring]);
  return polygons.length ? { polygons } : undefined;
}

function crosses(trip: Trip, ring: [number, number][]): boolean {
  if (!ring.length) return false;
  return trip.legs.some((leg) => polyline.decode(leg.shape, 6).some(([lat, lon]) => insideRing(ring, lat, lon)));
}

export function countLeftTurns(trip: Trip): number {
  let count = 0;
  for (const leg of trip.legs) for (const maneuver of leg.maneuvers) if (LEFT_TURN_TYPES.has(maneuver.type)) count++;
  return count;
}

export function routingConstraintReport(trip: Trip, metric: MetricSpec, body: Pick<PlanRequest, 'vehicle' | 'noLeftTurns'>, areas: readonly PlanArea[]): RoutingConstraintReport {
  return {
    vehicle:
      metric.costing === 'truck' && metric.truck
        ? { weightT: metric.truck.weightTonnes, heightM: metric.truck.heightMeters, widthM: metric.truck.widthMeters, lengthM: metric.truck.lengthMeters, hazmat: body.vehicle?.hazmat ? 'not_enforced' : false }
        : null,
    noLeftTurns: body.noLeftTurns,
    leftTurns: countLeftTurns(trip),
    avoidAreas: areas.map((area) => ({
      kind: area.kind,
      name: area.name,
      ...(area.nameAr ? { nameAr: area.nameAr } : {}),
      ...(area.index !== undefined ? { index: area.index } : {}),
      avoided: !area.unavoidable,
      crossed: crosses(trip, area.ring),
      ...(area.unavoidable ? { reason: area.unavoidable } : {}),
      polygon: area.ring,
    })),
  };
}
