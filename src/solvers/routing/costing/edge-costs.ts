/**
 * Per-edge costs of one metric over a pack: the search weight (what is
 * minimised), the travel time and whether the edge may be used at all.
 * Computed once per metric (a linear pass, ~1 ms per 10 k edges) and kept.
 */
import { EdgeFlag, ROAD_CLASSES } from '../../../datapack/pack-layout.js';
import type { MapPack } from '../../../datapack/map-pack.js';
import { DEFAULT_TRUCK, PROFILES, type MetricSpec, type Profile } from './profiles.js';

export interface EdgeCosts {
  /** What the search minimises; Infinity = not usable by this metric. */
  weight: Float64Array;
  /** Travel time (s) at the profile's speed. */
  seconds: Float64Array;
}

/** Fixed extra time of boarding a ferry (s). */
const FERRY_BOARDING_SECONDS = 300;
/** Avoided features stay usable (a route must exist when they are the only way) but cost this much more. */
const AVOID_FACTOR = 20;
const AVOID_SECONDS = 900;
/** Destination-only roads (private, delivery) are for the first and last metres of a trip. */
const DESTINATION_ONLY_FACTOR = 10;

export function computeEdgeCosts(pack: MapPack, spec: MetricSpec): EdgeCosts {
  const profile = PROFILES[spec.costing];
  const s = pack.sections;
  const count = pack.edgeCount;
  const weight = new Float64Array(count);
  const seconds = new Float64Array(count);
  const avoidMask = avoidedFlags(spec.avoid);
  const truck = spec.costing === 'truck' ? (spec.truck ?? DEFAULT_TRUCK) : undefined;
  const ratio = trafficRatios(count, spec);
  for (let edge = 0; edge < count; edge++) {
    if (!(s['graph.edgeAccess'][edge]! & profile.mode) || (truck && !truckFits(pack, s['graph.edgeWay'][edge]!, truck))) {
      weight[edge] = Infinity;
      seconds[edge] = Infinity;
      continue;
    }
    const flags = s['graph.edgeFlags'][edge]!;
    const meters = s['graph.edgeLength'][edge]!;
    // a traffic metric slows (or speeds) the road itself; a ferry keeps its timetable
    const trafficFactor = ratio && !(flags & EdgeFlag.ferry) ? ratio[edge]! : 1;
    const time = edgeSeconds(profile, meters, s['graph.edgeSpeed'][edge]!, flags, s['ways.class'][s['graph.edgeWay'][edge]!]!) / trafficFactor;
    seconds[edge] = time;
    let w = preferenceWeight(spec, profile, time, meters, flags);
    if (flags & avoidMask) w = w * AVOID_FACTOR + AVOID_SECONDS;
    if (profile.motorized && flags & EdgeFlag.destinationOnly) w *= DESTINATION_ONLY_FACTOR;
    weight[edge] = w;
  }
  return { weight, seconds };
}

/** Per-edge speed ratio of a traffic metric (1 where none is given); undefined at free flow. */
function trafficRatios(count: number, spec: MetricSpec): Float32Array | undefined {
  if (!spec.traffic) return undefined;
  const ratio = new Float32Array(count).fill(1);
  const { edges, speedRatio } = spec.traffic;
  for (let index = 0; index < edges.length; index++) {
    const edge = edges[index]!;
    const value = speedRatio[index]!;
    // a ratio that is not a positive finite number cannot time an edge: free flow
    if (edge < count && value > 0 && Number.isFinite(value)) ratio[edge] = value;
  }
  return ratio;
}

/** The edge flags an avoid list stands for. */
export function avoidedFlags(avoid: MetricSpec['avoid']): number {
  return (
    (avoid.includes('tolls') ? EdgeFlag.toll : 0) |
    (avoid.includes('highways') ? EdgeFlag.highway : 0) |
    (avoid.includes('ferries') ? EdgeFlag.ferry : 0) |
    (avoid.includes('unpaved') ? EdgeFlag.unpaved : 0)
  );
}

/** Travel time of one edge for a profile. Ferries run at their own speed for everyone. */
export function edgeSeconds(profile: Profile, meters: number, roadSpeedKph: number, flags: number, roadClass: number): number {
  if (flags & EdgeFlag.ferry) return (meters / Math.max(roadSpeedKph, 1)) * 3.6 + FERRY_BOARDING_SECONDS;
  let kph: number;
  if (profile.ownSpeedKph > 0) {
    kph = profile.ownSpeedKph;
    if (profile.costing === 'bicycle') {
      if (roadClass === CYCLEWAY_CLASS) kph = 18;
      if (flags & EdgeFlag.unpaved) kph = 10;
    } else if (roadClass === STEPS_CLASS) {
      kph *= 0.5;
    } else if (flags & EdgeFlag.unpaved && profile.costing === 'wheelchair') {
      kph *= 0.5;
    }
  } else {
    kph = Math.min(roadSpeedKph, profile.topSpeedKph);
    if (profile.costing === 'truck' || profile.costing === 'bus') kph *= 0.9;
  }
  return (meters / kph) * 3.6;
}

const CYCLEWAY_CLASS = ROAD_CLASSES.indexOf('cycleway');
const STEPS_CLASS = ROAD_CLASSES.indexOf('steps');

function preferenceWeight(spec: MetricSpec, profile: Profile, time: number, meters: number, flags: number): number {
  if (spec.preference === 'fastest') return time;
  const distanceTime = meters / profile.referenceSpeedMps;
  if (spec.preference === 'shortest') return distanceTime;
  // balanced: mostly time, some distance, so a slightly faster detour does not win
  let w = 0.75 * time + 0.25 * distanceTime;
  if (profile.costing === 'bicycle' && flags & EdgeFlag.highway) w *= 1.5;
  return w;
}

function truckFits(pack: MapPack, way: number, truck: NonNullable<MetricSpec['truck']>): boolean {
  const s = pack.sections;
  const limit = (value: number, own: number) => value === 0 || own <= value;
  return (
    limit(s['ways.maxWeight'][way]!, truck.weightTonnes) &&
    limit(s['ways.maxHeight'][way]!, truck.heightMeters) &&
    limit(s['ways.maxWidth'][way]!, truck.widthMeters) &&
    limit(s['ways.maxLength'][way]!, truck.lengthMeters)
  );
}
