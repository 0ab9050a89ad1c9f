/**
 * The range-aware charging planner (spec part 3 §4.6; docs/ev.md), on a routed
 * corridor. Range is counted in kilometres of driving: `percent` of `rangeKm`.
 *
 * From `currentPercent` the car may drive until its charge would fall to
 * `reservePercent`: that point is the reach. When the reach is short of the
 * destination, a stop is inserted: among the operational stations within
 * `detourKm` of the corridor that the car reaches above its reserve, before the
 * reach, and that move the reach on (a stop that would not is no progress), the
 * strongest (highest maxKw; ties: the one that takes the car furthest). The car
 * leaves it at `chargeToPercent` less the drive back to the route, and the
 * search repeats from there. With no such station the plan is infeasible:
 * `no_chargers_in_corridor` with the gap at the reach (the first point the car
 * cannot get to above its reserve), after any stops already placed.
 *
 * The detour is measured on the road graph (the injected oracle): from the route
 * point ACCESS_KM before the station's nearest corridor point to the station,
 * and from the station to the route point ACCESS_KM after it. What those two
 * drives add to the route's own kilometres between the two points is the
 * detour; each way must stay within `detourKm`. Leaving and rejoining the route
 * a little before and after keeps a station on the near side of a divided road
 * from counting a U-turn that a driver would not make.
 */
import type { EvStation } from '../../domain/ev-station.js';
import { haversineMeters } from '../../solvers/graph/geodesy.js';

export interface LatLng {
  lat: number;
  lng: number;
}

/** The routed line: points and the route kilometre at each. */
export interface Corridor {
  points: LatLng[];
  km: number[];
  totalKm: number;
}

export interface PlanParams {
  rangeKm: number;
  currentPercent: number;
  reservePercent: number;
  chargeToPercent: number;
  detourKm: number;
}

/** Road km from `entry` to the station and from it to `exit`; NaN when the roads do not connect. */
export interface Detour {
  toKm: number;
  backKm: number;
}

export interface DetourRequest {
  station: EvStation;
  /** Where the car leaves the route for the station. */
  entry: LatLng;
  /** Where it rejoins the route. */
  exit: LatLng;
}

export type DetourOracle = (requests: DetourRequest[]) => Promise<Detour[]>;

export interface PlannedStop {
  station: EvStation;
  /** Route kilometre where the car leaves the route for the station. */
  atKm: number;
  /** Extra road kilometres of the stop: to the station and back to the route. */
  detourKm: number;
  arrivalPercent: number;
  departurePercent: number;
}

export interface ChargingPlan {
  feasible: boolean;
  chargingNeeded: boolean;
  totalKm: number;
  stopCount: number;
  stops: PlannedStop[];
  arrivalPercent?: number;
  reason?: 'no_chargers_in_corridor';
  gap?: { lat: number; lng: number; atKm: number };
}

const EPSILON_KM = 1e-6;
/** How far before and after a station's nearest corridor point the car leaves and rejoins the route. */
export const ACCESS_KM = 0.5;
/** Candidates whose road detours are asked for in one oracle call. */
const DETOUR_BATCH = 12;

/** The corridor of a route's points, its kilometres scaled so the last is the route's own length. */
export function corridorOf(points: LatLng[], totalKm: number): Corridor {
  const km = [0];
  for (let index = 1; index < points.length; index++) {
    const a = points[index - 1]!;
    const b = points[index]!;
    km.push(km[index - 1]! + haversineMeters(a.lat, a.lng, b.lat, b.lng) / 1000);
  }
  const measured = km[km.length - 1]!;
  const scale = measured > 0 ? totalKm / measured : 0;
  return { points, km: km.map((value) => value * scale), totalKm };
}

/** The point at route kilometre `atKm` (clamped to the route). */
export function pointAt(corridor: Corridor, atKm: number): LatLng {
  const { points, km } = corridor;
  if (atKm <= 0 || points.length === 1) return points[0]!;
  let low = 0;
  let high = km.length - 1;
  if (atKm >= km[high]!) return points[high]!;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (km[middle]! <= atKm) low = middle;
    else high = middle;
  }
  const span = km[high]! - km[low]!;
  const t = span > 0 ? (atKm - km[low]!) / span : 0;
  const a = points[low]!;
  const b = points[high]!;
  return { lat: a.lat + (b.lat - a.lat) * t, lng: a.lng + (b.lng - a.lng) * t };
}

/** Nearest point of the corridor to a position: its route kilometre and the straight distance to it. */
export function project(corridor: Corridor, position: LatLng): { atKm: number; offKm: number; anchor: LatLng } {
  const { points, km } = corridor;
  const cos = Math.cos((position.lat * Math.PI) / 180);
  let best = { atKm: 0, distance2: Number.POSITIVE_INFINITY, anchor: points[0]! };
  for (let index = 0; index < points.length; index++) {
    const a = points[index]!;
    const b = points[Math.min(index + 1, points.length - 1)]!;
    // local plane in degrees, longitude scaled by cos(latitude)
    const ax = a.lng * cos;
    const bx = b.lng * cos;
    const px = position.lng * cos;
    const dx = bx - ax;
    const dy = b.lat - a.lat;
    const length2 = dx * dx + dy * dy;
    const t = length2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (position.lat - a.lat) * dy) / length2)) : 0;
    const x = ax + dx * t;
    const y = a.lat + dy * t;
    const distance2 = (px - x) ** 2 + (position.lat - y) ** 2;
    if (distance2 < best.distance2) {
      const nextKm = km[Math.min(index + 1, points.length - 1)]!;
      best = { atKm: km[index]! + (nextKm - km[index]!) * t, distance2, anchor: { lat: y, lng: x / cos } };
    }
  }
  return { atKm: best.atKm, offKm: haversineMeters(position.lat, position.lng, best.anchor.lat, best.anchor.lng) / 1000, anchor: best.anchor };
}

interface Candidate {
  station: EvStation;
  atKm: number;
  offKm: number;
  entryKm: number;
  exitKm: number;
  detour?: Detour;
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

/** Kilometres the drives to and from the station add to the route between entry and exit (NaN: unreachable). */
function extraKm(candidate: Candidate, detour: Detour): { to: number; back: number } {
  return { to: Math.max(0, detour.toKm - (candidate.atKm - candidate.entryKm)), back: Math.max(0, detour.backKm - (candidate.exitKm - candidate.atKm)) };
}

/**
 * The charging plan along `corridor`. `stations` are the operational stations
 * near it (any order; those further than `detourKm` in a straight line from the
 * corridor are dropped before the road graph is asked).
 */
export async function planCharging(corridor: Corridor, stations: readonly EvStation[], params: PlanParams, detours: DetourOracle): Promise<ChargingPlan> {
  const { rangeKm, detourKm } = params;
  const reserveKm = (rangeKm * params.reservePercent) / 100;
  const fullKm = (rangeKm * params.chargeToPercent) / 100;
  const candidates: Candidate[] = [];
  for (const station of stations) {
    if (station.status !== 'operational') continue;
    const projected = project(corridor, station);
    // a straight line is never longer than the road: beyond detourKm in a line is beyond it on the road
    if (projected.offKm <= detourKm) {
      candidates.push({ station, atKm: projected.atKm, offKm: projected.offKm, entryKm: Math.max(0, projected.atKm - ACCESS_KM), exitKm: Math.min(corridor.totalKm, projected.atKm + ACCESS_KM) });
    }
  }
  const percent = (km: number): number => round1((km / rangeKm) * 100);
  const stops: PlannedStop[] = [];
  const used = new Set<string>();
  let positionKm = 0;
  let chargeKm = (rangeKm * params.currentPercent) / 100;
  for (;;) {
    const reachKm = positionKm + chargeKm - reserveKm;
    if (reachKm >= corridor.totalKm - EPSILON_KM) {
      return {
        feasible: true,
        chargingNeeded: stops.length > 0,
        totalKm: round1(corridor.totalKm),
        stopCount: stops.length,
        stops,
        arrivalPercent: percent(chargeKm - (corridor.totalKm - positionKm)),
      };
    }
    const window = candidates
      .filter((candidate) => !used.has(candidate.station.id) && candidate.entryKm >= positionKm - EPSILON_KM && candidate.atKm <= reachKm)
      .sort((a, b) => (b.station.maxKw ?? 0) - (a.station.maxKw ?? 0) || b.atKm - a.atKm);
    let best: { candidate: Candidate; nextReachKm: number } | undefined;
    for (let start = 0; start < window.length; start += DETOUR_BATCH) {
      // stations weaker than the best found so far cannot win
      if (best && (window[start]!.station.maxKw ?? 0) < (best.candidate.station.maxKw ?? 0)) break;
      const batch = window.slice(start, start + DETOUR_BATCH).filter((candidate) => !candidate.detour);
      if (batch.length) {
        const answers = await detours(batch.map(({ station, entryKm, exitKm }) => ({ station, entry: pointAt(corridor, entryKm), exit: pointAt(corridor, exitKm) })));
        batch.forEach((candidate, index) => (candidate.detour = answers[index]));
      }
      for (const candidate of window.slice(start, start + DETOUR_BATCH)) {
        const detour = candidate.detour!;
        const extra = extraKm(candidate, detour);
        if (!(extra.to <= detourKm && extra.back <= detourKm)) continue;
        const driveKm = candidate.entryKm - positionKm + detour.toKm;
        if (chargeKm - driveKm < reserveKm - EPSILON_KM) continue;
        const nextReachKm = candidate.exitKm + fullKm - detour.backKm - reserveKm;
        if (nextReachKm <= reachKm + EPSILON_KM) continue;
        const better =
          !best ||
          (candidate.station.maxKw ?? 0) > (best.candidate.station.maxKw ?? 0) ||
          ((candidate.station.maxKw ?? 0) === (best.candidate.station.maxKw ?? 0) && nextReachKm > best.nextReachKm);
        if (better) best = { candidate, nextReachKm };
      }
    }
    if (!best) {
      const gapKm = Math.max(0, reachKm);
      const gap = pointAt(corridor, gapKm);
      return {
        feasible: false,
        chargingNeeded: true,
        totalKm: round1(corridor.totalKm),
        stopCount: stops.length,
        stops,
        reason: 'no_chargers_in_corridor',
        gap: { lat: Math.round(gap.lat * 1e6) / 1e6, lng: Math.round(gap.lng * 1e6) / 1e6, atKm: round1(gapKm) },
      };
    }
    const { candidate } = best;
    const detour = candidate.detour!;
    const arrivalKm = chargeKm - (candidate.entryKm - positionKm + detour.toKm);
    const extra = extraKm(candidate, detour);
    used.add(candidate.station.id);
    stops.push({
      station: candidate.station,
      atKm: round1(candidate.atKm),
      detourKm: round1(extra.to + extra.back),
      arrivalPercent: percent(arrivalKm),
      departurePercent: percent(fullKm),
    });
    positionKm = candidate.exitKm;
    chargeKm = fullKm - detour.backKm;
  }
}
