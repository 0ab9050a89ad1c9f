/**
 * The navigation view of a trip (spec §2.1 "Navigation maneuver"), for
 * navigation sessions and the stateless navigation helpers: camel-case
 * maneuvers with text-to-speech-ready verbal texts, metres and seconds, the
 * maneuver's position, and the distance from the route start, over one
 * polyline6 shape for the whole route (legs joined).
 *
 * Keep it stable: sessions store `NavigationRoute` and progress tracking
 * matches positions against `shape` and `cumulativeMeters`.
 */
import polyline from '@mapbox/polyline';
import type { LaneInfo } from './lanes.js';
import { unitMeters } from './leg-assembly.js';
import type { Trip, TripManeuver } from './trip-types.js';
import { roundTo } from '../../../shared/rounding.js';

export interface NavigationManeuver {
  /** Position in the route's maneuver list (0-based, across legs). */
  index: number;
  type: number;
  instruction: string;
  verbalAlert: string;
  verbalPre: string;
  /** Empty for the arrival and for a roundabout entry (the exit maneuver follows at once). */
  verbalPost: string;
  streetNames: string[];
  /** Exit to take at a roundabout entry (1 = first), else null. */
  roundaboutExit: number | null;
  /** Signposted text of a ramp, exit, fork or merge ("toward …"), else null. */
  exitSign: string | null;
  /** Length of the maneuver (to the next one), metres. */
  distanceMeters: number;
  timeSeconds: number;
  /** Where the maneuver begins (the point of the shape at `beginShapeIndex`). */
  lat: number;
  lng: number;
  /** Metres from the route start to where the maneuver begins. */
  cumulativeMeters: number;
  /** Indexes into the route `shape` (legs joined). */
  beginShapeIndex: number;
  endShapeIndex: number;
  legIndex: number;
  /** With includeAttributes: the speed limit where the maneuver begins, null when unknown. */
  speedLimitKph?: number | null;
  /** With includeLanes: the lanes approaching the maneuver. */
  lanes?: LaneInfo;
}

export interface NavigationRoute {
  /** polyline6 of the whole route. */
  shape: string;
  maneuvers: NavigationManeuver[];
  distanceMeters: number;
  /** Travel time without live traffic, seconds. */
  etaSeconds: number;
}

function exitSign(maneuver: TripManeuver): string | null {
  const sign = maneuver.sign;
  if (!sign) return null;
  const parts: string[] = [];
  if (sign.exit_number_elements?.length) parts.push(sign.exit_number_elements.map((element) => element.text).join('/'));
  if (sign.exit_branch_elements?.length) parts.push(sign.exit_branch_elements.map((element) => element.text).join('/'));
  if (sign.exit_toward_elements?.length) parts.push(sign.exit_toward_elements.map((element) => element.text).join('/'));
  return parts.length ? parts.join(' — ') : null;
}

/** The trip as one navigable route: joined shape and the navigation maneuvers of every leg. */
export function navigationRoute(trip: Trip): NavigationRoute {
  const perUnit = unitMeters(trip.units);
  const points: [number, number][] = [];
  const maneuvers: NavigationManeuver[] = [];
  let cumulative = 0;
  let seconds = 0;
  trip.legs.forEach((leg, legIndex) => {
    const legPoints = polyline.decode(leg.shape, 6);
    // Leg i+1 starts where leg i ends: share that point.
    const offset = points.length === 0 ? 0 : points.length - 1;
    points.push(...(points.length === 0 ? legPoints : legPoints.slice(1)));
    for (const maneuver of leg.maneuvers) {
      const begin = offset + maneuver.begin_shape_index;
      const [lat, lng] = points[begin] ?? points[points.length - 1]!;
      const meters = maneuver.length * perUnit;
      maneuvers.push({
        index: maneuvers.length,
        type: maneuver.type,
        instruction: maneuver.instruction,
        verbalAlert: maneuver.verbal_transition_alert_instruction,
        verbalPre: maneuver.verbal_pre_transition_instruction,
        verbalPost: maneuver.verbal_post_transition_instruction ?? '',
        streetNames: maneuver.street_names ?? [],
        roundaboutExit: maneuver.roundabout_exit_count ?? null,
        exitSign: exitSign(maneuver),
        distanceMeters: roundTo(meters, 1),
        timeSeconds: maneuver.time,
        lat,
        lng,
        cumulativeMeters: roundTo(cumulative, 1),
        beginShapeIndex: begin,
        endShapeIndex: offset + maneuver.end_shape_index,
        legIndex,
        ...(maneuver.speed_limit !== undefined ? { speedLimitKph: maneuver.speed_limit } : {}),
        ...(maneuver.lanes ? { lanes: maneuver.lanes } : {}),
      });
      cumulative += meters;
      seconds += maneuver.time;
    }
  });
  return { shape: polyline.encode(points, 6), maneuvers, distanceMeters: roundTo(cumulative, 1), etaSeconds: Math.round(seconds * 1000) / 1000 };
}

/** Just the navigation maneuvers of a trip. */
export function navigationManeuvers(trip: Trip): NavigationManeuver[] {
  return navigationRoute(trip).maneuvers;
}
