/**
 * Test support: the properties every built trip must have (issue #6's guidance
 * correctness tests), as one checker used by example and property tests.
 * Returns the list of violations (empty = fine) so fast-check can shrink on it.
 */
import polyline from '@mapbox/polyline';
import { haversineMeters } from '../../../src/solvers/graph/geodesy.js';
import type { LegPath } from '../../../src/solvers/routing/leg-path.js';
import { METERS_PER_MILE } from '../../../src/solvers/routing/guidance/narrative/distance-phrases.js';
import type { Trip } from '../../../src/solvers/routing/guidance/trip-types.js';

/** Polyline6 rounding (≤ 0.08 m) plus float slack. */
export const SHAPE_END_TOLERANCE_METERS = 0.5;
const ARABIC = /[\u0600-\u06FF]/;

export function tripViolations(trip: Trip, legs: LegPath[]): string[] {
  const problems: string[] = [];
  const perUnit = trip.units === 'miles' ? METERS_PER_MILE : 1000;
  trip.legs.forEach((leg, legIndex) => {
    const path = legs[legIndex]!;
    const points = polyline.decode(leg.shape, 6);
    const last = points.length - 1;
    const where = `leg ${legIndex}`;
    if (points.length < 2) problems.push(`${where}: shape has ${points.length} points`);
    const maneuvers = leg.maneuvers;
    if (maneuvers[0]?.begin_shape_index !== 0) problems.push(`${where}: first maneuver begins at ${maneuvers[0]?.begin_shape_index}`);
    if (maneuvers[maneuvers.length - 1]?.end_shape_index !== last) problems.push(`${where}: last maneuver ends at ${maneuvers[maneuvers.length - 1]?.end_shape_index}, shape ends at ${last}`);
    maneuvers.forEach((maneuver, index) => {
      if (maneuver.begin_shape_index > maneuver.end_shape_index) problems.push(`${where} maneuver ${index}: begin ${maneuver.begin_shape_index} > end ${maneuver.end_shape_index}`);
      if (index > 0 && maneuver.begin_shape_index !== maneuvers[index - 1]!.end_shape_index) problems.push(`${where} maneuver ${index}: begins at ${maneuver.begin_shape_index}, previous ends at ${maneuvers[index - 1]!.end_shape_index}`);
      if (!maneuver.instruction || !maneuver.verbal_pre_transition_instruction || !maneuver.verbal_transition_alert_instruction) problems.push(`${where} maneuver ${index}: missing narrative`);
      if (/^ar/i.test(trip.language) && !ARABIC.test(maneuver.instruction)) problems.push(`${where} maneuver ${index}: instruction not Arabic: ${maneuver.instruction}`);
      if (!/^ar/i.test(trip.language) && ARABIC.test(maneuver.instruction)) problems.push(`${where} maneuver ${index}: Arabic in an English instruction: ${maneuver.instruction}`);
      if (maneuver.type < 0 || maneuver.type > 38) problems.push(`${where} maneuver ${index}: type ${maneuver.type}`);
    });
    if (maneuvers[0] && ![1, 2, 3].includes(maneuvers[0].type)) problems.push(`${where}: first maneuver type ${maneuvers[0].type}`);
    if (maneuvers[maneuvers.length - 1] && ![4, 5, 6].includes(maneuvers[maneuvers.length - 1]!.type)) problems.push(`${where}: last maneuver type ${maneuvers[maneuvers.length - 1]!.type}`);
    const legMeters = path.edgeMeters.reduce((a, b) => a + b, 0);
    const sumMeters = maneuvers.reduce((total, maneuver) => total + maneuver.length, 0) * perUnit;
    // 1 % of the leg, or the 3-decimal rounding of the summary for very short legs.
    if (Math.abs(sumMeters - legMeters) > Math.max(0.01 * legMeters, perUnit * 0.0005)) problems.push(`${where}: maneuver lengths sum to ${sumMeters.toFixed(1)} m, leg is ${legMeters.toFixed(1)} m`);
    if (Math.abs(leg.summary.length * perUnit - legMeters) > Math.max(0.01 * legMeters, perUnit * 0.0005)) problems.push(`${where}: summary length ${leg.summary.length} vs ${legMeters.toFixed(1)} m`);
    const legSeconds = path.edgeSeconds.reduce((a, b) => a + b, 0) + path.turnSeconds.reduce((a, b) => a + b, 0);
    if (Math.abs(leg.summary.time - legSeconds) > 0.01) problems.push(`${where}: summary time ${leg.summary.time} vs ${legSeconds}`);
    const [startLat, startLon] = points[0]!;
    const [endLat, endLon] = points[last]!;
    const startOff = haversineMeters(startLat, startLon, path.origin.snappedLat, path.origin.snappedLon);
    const endOff = haversineMeters(endLat, endLon, path.destination.snappedLat, path.destination.snappedLon);
    if (startOff > SHAPE_END_TOLERANCE_METERS) problems.push(`${where}: shape starts ${startOff.toFixed(2)} m from the snapped origin`);
    if (endOff > SHAPE_END_TOLERANCE_METERS) problems.push(`${where}: shape ends ${endOff.toFixed(2)} m from the snapped destination`);
    // Within snapping distance of the inputs themselves.
    const fromInput = haversineMeters(startLat, startLon, path.origin.lat, path.origin.lon);
    const toInput = haversineMeters(endLat, endLon, path.destination.lat, path.destination.lon);
    if (fromInput > path.origin.snapDistanceMeters + SHAPE_END_TOLERANCE_METERS) problems.push(`${where}: shape starts ${fromInput.toFixed(2)} m from the origin (snapped ${path.origin.snapDistanceMeters.toFixed(2)} m)`);
    if (toInput > path.destination.snapDistanceMeters + SHAPE_END_TOLERANCE_METERS) problems.push(`${where}: shape ends ${toInput.toFixed(2)} m from the destination (snapped ${path.destination.snapDistanceMeters.toFixed(2)} m)`);
    for (let index = 1; index < points.length; index++) {
      const [a, b] = [points[index - 1]!, points[index]!];
      if (a[0] === b[0] && a[1] === b[1] && points.length > 2) problems.push(`${where}: repeated point at ${index}`);
    }
    for (const [lat, lon] of points) {
      if (lat < leg.summary.min_lat || lat > leg.summary.max_lat || lon < leg.summary.min_lon || lon > leg.summary.max_lon) {
        problems.push(`${where}: point ${lat},${lon} outside the summary bounding box`);
        break;
      }
    }
  });
  return problems;
}
