/**
 * The navigation view of a trip (spec §2.1 "Navigation maneuver"), for
 * navigation sessions and the stateless navigation helpers: camel-case
 * maneuvers with text-to-speech-ready verbal texts, metres and seconds, the
 * maneuver's position, and the distance from the route start, over one
 * polyline6 shape for the whole route (legs joined). The shape itself,
 * `NavigationRoute`, is domain vocabulary (src/domain/navigation-route.ts):
 * sessions store it.
 */
import polyline from '@mapbox/polyline';
import { unitMeters } from './leg-assembly.js';
import type { Trip, TripManeuver } from './trip-types.js';
import { roundTo } from '../../../shared/rounding.js';
import type { NavigationManeuver, NavigationRoute } from '../../../domain/navigation-route.js';


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
