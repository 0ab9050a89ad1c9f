/**
 * Logistics zones in the planner (issue #29; docs/map-data.md, "Logistics zones in /routing/plan"). The
 * engine excludes polygons (edges meeting them, in its exact search) and returns alternatives; it has no
 * per-area cost factor. So:
 * - `avoid`: a route crossing such a zone is planned again with the zone's polygons excluded (rounds until
 *   nothing new is crossed); a zone holding a location, or one no route gets around, is `unavoidable`.
 * - `penalize` (and an avoid zone crossed anyway): the time inside the zone is multiplied by its
 *   `costMultiplier`; the engine's `trip.summary.time` stays what driving takes, the answer adds each leg's
 *   `adjustedTime` and, with alternatives, puts first the one with the least adjusted time (crossing the
 *   fewest avoid zones first).
 * - `restricted` zones crossed, and unavoidable avoid zones, are warnings. `allow`: reported, no effect.
 */
import polyline from '@mapbox/polyline';
import type { LogisticsZone } from '../../domain/logistics-zone.js';
import type { AreaAvoidance } from '../../solvers/routing/avoid-areas.js';
import type { Trip } from '../../solvers/routing/guidance/index.js';
import { boxesMeet, insideZone, metersInside, zonePolygons, type LngLat } from '../map-data/zone-crossing.js';

export interface PlanZoneSource {
  activeZones(): Promise<LogisticsZone[]>;
}

/** Re-plans around avoid zones after the first plan, at most. */
export const MAX_ZONE_ROUNDS = 3;

export interface ZoneView {
  id: string;
  name: string;
  zoneType: LogisticsZone['zoneType'];
  routingPolicy: LogisticsZone['routingPolicy'];
  riskScore: number;
  costMultiplier: number;
}

export interface ZoneCrossing extends ZoneView {
  /** Metres and engine seconds of the trip inside the zone, and the seconds its multiplier adds. */
  meters: number;
  seconds: number;
  penaltySeconds: number;
}

export interface PlanZoneReport {
  applied: boolean;
  avoided: ZoneView[];
  unavoidable: (ZoneView & { reason: string })[];
  crossed: ZoneCrossing[];
  /** The trip's time with the zones' multipliers applied, in total and per leg (seconds). */
  adjustedTime: number;
  penaltySeconds: number;
  legs: { index: number; time: number; adjustedTime: number; penaltySeconds: number }[];
  /** Whether an alternative with less adjusted time (or fewer avoid zones) was put first. */
  reorderedAlternates: boolean;
  warnings: string[];
}

const view = (zone: LogisticsZone): ZoneView => ({ id: zone.id, name: zone.name, zoneType: zone.zoneType, routingPolicy: zone.routingPolicy, riskScore: zone.riskScore, costMultiplier: zone.costMultiplier });

export function zoneAreas(zones: readonly LogisticsZone[]): AreaAvoidance {
  return zones.length ? { polygons: zones.flatMap(zonePolygons) } : {};
}

/** Two avoidances as one (the planner's live constraints and the avoided zones). */
export function mergeAreas(a: AreaAvoidance, b: AreaAvoidance | undefined): AreaAvoidance {
  const points = [...(a.points ?? []), ...(b?.points ?? [])];
  const polygons = [...(a.polygons ?? []), ...(b?.polygons ?? [])];
  return { ...(points.length ? { points } : {}), ...(polygons.length ? { polygons } : {}) };
}

function tripLine(trip: Trip): LngLat[] {
  return trip.legs.flatMap((leg) => polyline.decode(leg.shape, 6).map(([lat, lng]) => [lng, lat] as LngLat));
}

/**
 * Plans around the avoid zones the route crosses. `plan(areas)` throws the engine's error when no route
 * avoids them (`isUnroutable` tells it apart); then the zones stay crossed, as `unavoidable`.
 */
export async function planAroundZones<T extends { trip: Trip }>(
  zones: readonly LogisticsZone[],
  locations: readonly { lat: number; lon: number }[],
  first: T,
  plan: (areas: AreaAvoidance) => Promise<T>,
  isUnroutable: (error: unknown) => boolean,
): Promise<{ outcome: T; avoided: LogisticsZone[]; unavoidable: { zone: LogisticsZone; reason: string }[] }> {
  const avoidZones = zones.filter((zone) => zone.routingPolicy === 'avoid');
  const unavoidable = avoidZones
    .filter((zone) => locations.some((location) => insideZone(zone, location.lon, location.lat)))
    .map((zone) => ({ zone, reason: 'a location of the plan lies inside it' }));
  const candidates = avoidZones.filter((zone) => !unavoidable.some((entry) => entry.zone === zone));
  const avoided: LogisticsZone[] = [];
  let outcome = first;
  for (let round = 0; round < MAX_ZONE_ROUNDS; round++) {
    const line = tripLine(outcome.trip);
    const crossing = candidates.filter((zone) => !avoided.includes(zone) && !unavoidable.some((entry) => entry.zone === zone) && metersInside(zone, line) > 0);
    if (!crossing.length) break;
    try {
      outcome = await plan(zoneAreas([...avoided, ...crossing]));
      avoided.push(...crossing);
    } catch (error) {
      if (!isUnroutable(error)) throw error;
      unavoidable.push(...crossing.map((zone) => ({ zone, reason: 'no route between the locations goes around it' })));
      break;
    }
  }
  return { outcome, avoided, unavoidable };
}

/** What a trip's legs spend in the zones and the multipliers add (penalize zones, and avoid zones crossed anyway). */
export function zoneCosts(trip: Trip, zones: readonly LogisticsZone[]) {
  const crossed = new Map<string, ZoneCrossing>();
  const legs = trip.legs.map((leg, index) => {
    const shape = polyline.decode(leg.shape, 6).map(([lat, lng]) => [lng, lat] as LngLat);
    const near = zones.filter((zone) => boxesMeet(zone, shape));
    let penaltySeconds = 0;
    for (const maneuver of leg.maneuvers) {
      const piece = shape.slice(maneuver.begin_shape_index, maneuver.end_shape_index + 1);
      if (piece.length < 2 || maneuver.length <= 0) continue;
      const pieceMeters = maneuverMeters(piece);
      for (const zone of near) {
        const meters = metersInside(zone, piece);
        if (meters <= 0) continue;
        const seconds = pieceMeters > 0 ? (maneuver.time * meters) / pieceMeters : 0;
        const penalty = zone.routingPolicy === 'allow' ? 0 : seconds * (zone.costMultiplier - 1);
        penaltySeconds += penalty;
        const entry = crossed.get(zone.id) ?? { ...view(zone), meters: 0, seconds: 0, penaltySeconds: 0 };
        entry.meters += meters;
        entry.seconds += seconds;
        entry.penaltySeconds += penalty;
        crossed.set(zone.id, entry);
      }
    }
    return { index, time: Math.round(leg.summary.time), adjustedTime: Math.round(leg.summary.time + penaltySeconds), penaltySeconds: Math.round(penaltySeconds) };
  });
  const penaltySeconds = legs.reduce((sum, leg) => sum + leg.penaltySeconds, 0);
  return {
    crossed: [...crossed.values()].map((entry) => ({ ...entry, meters: Math.round(entry.meters), seconds: Math.round(entry.seconds), penaltySeconds: Math.round(entry.penaltySeconds) })),
    legs,
    penaltySeconds,
    adjustedTime: Math.round(trip.summary.time + penaltySeconds),
  };
}

function maneuverMeters(piece: readonly LngLat[]): number {
  let meters = 0;
  for (let index = 0; index + 1 < piece.length; index++) {
    const [aLng, aLat] = piece[index]!;
    const [bLng, bLat] = piece[index + 1]!;
    meters += Math.hypot((bLng - aLng) * 111_320 * Math.cos((aLat * Math.PI) / 180), (bLat - aLat) * 111_320);
  }
  return meters;
}

/**
 * The zone report of the final plan; with alternatives (and no per-trip attributes tied to the first), the
 * one crossing the fewest avoid zones, then with the least adjusted time, is put first.
 */
export function zoneReport<T extends { trip: Trip; alternates: { trip: Trip }[] }>(
  outcome: T,
  zones: readonly LogisticsZone[],
  planned: { avoided: LogisticsZone[]; unavoidable: { zone: LogisticsZone; reason: string }[] },
  mayReorder: boolean,
): { outcome: T; report: PlanZoneReport } {
  const rank = (trip: Trip) => {
    const costs = zoneCosts(trip, zones);
    return { trip, costs, avoidCrossed: costs.crossed.filter((zone) => zone.routingPolicy === 'avoid').length };
  };
  const ranked = [outcome.trip, ...outcome.alternates.map((alternate) => alternate.trip)].map(rank);
  const best = mayReorder ? ranked.reduce((a, b) => (b.avoidCrossed < a.avoidCrossed || (b.avoidCrossed === a.avoidCrossed && b.costs.adjustedTime < a.costs.adjustedTime) ? b : a)) : ranked[0]!;
  const reordered = best !== ranked[0];
  const chosen = reordered ? { ...outcome, trip: best.trip, alternates: ranked.filter((entry) => entry !== best).map((entry) => ({ trip: entry.trip })) } : outcome;
  const costs = best.costs;
  const stillCrossed = new Set(costs.crossed.map((zone) => zone.id));
  const unavoidable = planned.unavoidable.filter((entry) => stillCrossed.has(entry.zone.id));
  const warnings = [
    ...unavoidable.map(({ zone, reason }) => `The route crosses avoid zone "${zone.name}": ${reason}`),
    ...costs.crossed.filter((zone) => zone.zoneType === 'restricted').map((zone) => `The route enters restricted zone "${zone.name}" (${zone.meters} m): access may be limited`),
  ];
  return {
    outcome: chosen,
    report: {
      applied: true,
      avoided: planned.avoided.map(view),
      unavoidable: unavoidable.map(({ zone, reason }) => ({ ...view(zone), reason })),
      crossed: costs.crossed,
      adjustedTime: costs.adjustedTime,
      penaltySeconds: costs.penaltySeconds,
      legs: costs.legs,
      reorderedAlternates: reordered,
      warnings,
    },
  };
}

/** The report when zones are not applied (asked not to, or no zone source). */
export function zonesNotApplied(trip: Trip): PlanZoneReport {
  return {
    applied: false,
    avoided: [],
    unavoidable: [],
    crossed: [],
    adjustedTime: Math.round(trip.summary.time),
    penaltySeconds: 0,
    legs: trip.legs.map((leg, index) => ({ index, time: Math.round(leg.summary.time), adjustedTime: Math.round(leg.summary.time), penaltySeconds: 0 })),
    reorderedAlternates: false,
    warnings: [],
  };
}
