/**
 * The costing profiles: which access bit a profile travels on, how fast it
 * goes on each road, and how its turns cost. Speeds are km/h; penalties are
 * seconds. The values follow Valhalla's defaults where it has one
 * (pedestrian 5.1 km/h, bicycle 18 km/h on cycleways, motor scooter top
 * speed 45 km/h) and are documented in docs/routing.md.
 */
import { TravelMode } from '../../../datapack/pack-layout.js';
import type { Avoidable, Costing, Preference } from '../../../domain/costing.js';

export type TravelType = 'drive' | 'pedestrian' | 'bicycle';

export interface Profile {
  costing: Costing;
  /** The access bit of `graph.edgeAccess` this profile needs. */
  mode: number;
  travelMode: TravelType;
  /** Top speed (km/h); road speeds are capped by it. */
  topSpeedKph: number;
  /** Speed on roads for profiles that do not follow the road's speed (walking, cycling); 0 = follow the road. */
  ownSpeedKph: number;
  /** Whether the profile drives (turn costs, signals and U-turn rules of vehicles). */
  motorized: boolean;
  /** Speed used to turn distance into time in the `balanced` and `shortest` preferences (m/s). */
  referenceSpeedMps: number;
}

const profile = (p: Profile): Profile => p;

export const PROFILES: Record<Costing, Profile> = {
  auto: profile({ costing: 'auto', mode: TravelMode.car, travelMode: 'drive', topSpeedKph: 140, ownSpeedKph: 0, motorized: true, referenceSpeedMps: 13.9 }),
  taxi: profile({ costing: 'taxi', mode: TravelMode.taxi, travelMode: 'drive', topSpeedKph: 140, ownSpeedKph: 0, motorized: true, referenceSpeedMps: 13.9 }),
  bus: profile({ costing: 'bus', mode: TravelMode.bus, travelMode: 'drive', topSpeedKph: 90, ownSpeedKph: 0, motorized: true, referenceSpeedMps: 12 }),
  truck: profile({ costing: 'truck', mode: TravelMode.truck, travelMode: 'drive', topSpeedKph: 90, ownSpeedKph: 0, motorized: true, referenceSpeedMps: 12 }),
  motor_scooter: profile({ costing: 'motor_scooter', mode: TravelMode.motorScooter, travelMode: 'drive', topSpeedKph: 45, ownSpeedKph: 0, motorized: true, referenceSpeedMps: 10 }),
  bicycle: profile({ costing: 'bicycle', mode: TravelMode.bicycle, travelMode: 'bicycle', topSpeedKph: 25, ownSpeedKph: 16, motorized: false, referenceSpeedMps: 4.4 }),
  pedestrian: profile({ costing: 'pedestrian', mode: TravelMode.foot, travelMode: 'pedestrian', topSpeedKph: 5.1, ownSpeedKph: 5.1, motorized: false, referenceSpeedMps: 1.4 }),
  wheelchair: profile({ costing: 'wheelchair', mode: TravelMode.wheelchair, travelMode: 'pedestrian', topSpeedKph: 4, ownSpeedKph: 4, motorized: false, referenceSpeedMps: 1.1 }),
};


/** Truck dimensions checked against `maxweight`/`maxheight`/`maxwidth`/`maxlength` (tonnes, metres). */
export interface TruckDimensions {
  weightTonnes: number;
  heightMeters: number;
  widthMeters: number;
  lengthMeters: number;
}

/** Valhalla's truck defaults (21.77 t, 4.11 m high, 2.6 m wide, 21.64 m long). */
export const DEFAULT_TRUCK: TruckDimensions = { weightTonnes: 21.77, heightMeters: 4.11, widthMeters: 2.6, lengthMeters: 21.64 };

/** A truck's dimensions from the ones given, Valhalla's defaults for the rest. */
export function truckDimensions(given: Partial<TruckDimensions> = {}): TruckDimensions {
  return {
    weightTonnes: given.weightTonnes ?? DEFAULT_TRUCK.weightTonnes,
    heightMeters: given.heightMeters ?? DEFAULT_TRUCK.heightMeters,
    widthMeters: given.widthMeters ?? DEFAULT_TRUCK.widthMeters,
    lengthMeters: given.lengthMeters ?? DEFAULT_TRUCK.lengthMeters,
  };
}

/**
 * A traffic metric's edge speed ratios (observed / free-flow speed, from the learned profiles of one
 * moment): each listed edge's travel time is divided by its ratio; edges not listed keep free flow.
 * Sparse, so a task carries only the edges that have a trustworthy profile (docs/traffic.md).
 */
export interface TrafficWeights {
  /** Identifies the content (a hash of edges and ratios): the same ratios give the same metric and hierarchy. */
  id: string;
  edges: ArrayLike<number>;
  speedRatio: ArrayLike<number>;
}

/** Everything that decides the cost of an edge or turn: one metric, one cache key. */
export interface MetricSpec {
  costing: Costing;
  preference: Preference;
  avoid: readonly Avoidable[];
  truck?: TruckDimensions;
  /** Left turns (and left U-turns) at junctions weigh LEFT_TURN_WEIGHT more: "no left turns" for vehicles. */
  avoidLeftTurns?: boolean;
  /** Learned traffic of one moment (undefined: free flow). */
  traffic?: TrafficWeights;
}

/** A canonical string for a metric (cache key of its edge costs and hierarchy). */
export function metricKey(spec: MetricSpec): string {
  const avoid = [...new Set(spec.avoid)].sort().join('+') || '-';
  const truck = spec.costing === 'truck' ? `:${Object.values(spec.truck ?? DEFAULT_TRUCK).join('x')}` : '';
  const leftTurns = spec.avoidLeftTurns ? ':no-left' : '';
  const traffic = spec.traffic ? `:traffic=${spec.traffic.id}` : '';
  return `${spec.costing}:${spec.preference}:${avoid}${truck}${leftTurns}${traffic}`;
}

/** The same metric at free flow: its hierarchy's node order is reused to customise the traffic metric's. */
export function freeFlowMetric(spec: MetricSpec): MetricSpec {
  const { traffic: _traffic, ...rest } = spec;
  return rest;
}

/** The same metric without avoidances: its hierarchy answers avoid-requests whose best path avoids by itself. */
export function baseMetric(spec: MetricSpec): MetricSpec {
  return { ...spec, avoid: [] };
}
