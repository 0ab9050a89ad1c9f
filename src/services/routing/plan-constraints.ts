/**
 * The planner's live constraints (spec part 3 §4.1): active road-blocking incidents and acknowledged
 * blocking feedback within about 30 m of the route, and road edits within about 70 m, are routed
 * around. The route is planned first on the hierarchy; what lies near it becomes dynamic avoidances
 * and the route is planned again with the engine's exact search (which takes excluded edges), until
 * nothing new lies near it (at most MAX_ROUNDS). What could not be avoided (no route without it) is
 * reported as `unavoidable`.
 */
import polyline from '@mapbox/polyline';
import type { Principal } from '../../domain/principal.js';
import type { AreaAvoidance } from '../../solvers/routing/avoid-areas.js';
import type { Trip } from '../../solvers/routing/guidance/index.js';
import { corridorOf, densify, insideRing, nearCorridor, type Corridor, type LatLng } from './corridor.js';

/** Incidents and reports this close to the route are avoided, within this radius of their point. */
export const POINT_CORRIDOR_METERS = 30;
/** Road edits this close to the route are avoided. */
export const EDIT_CORRIDOR_METERS = 70;
/** A closed line becomes avoided points this far apart, each excluding the edges within LINE_POINT_RADIUS. */
export const LINE_POINT_SPACING_METERS = 15;
export const LINE_POINT_RADIUS_METERS = 5;
/** Rounds of "what lies near the route now" after the first plan, at most. */
export const MAX_ROUNDS = 4;
/** Plans per request, at most (the first included): bounds the exact searches a request may cost. */
export const MAX_PLANS = 12;
/** Candidates are looked up in the locations' box grown by this much (a detour stays near). */
export const SEARCH_MARGIN_METERS = 5_000;

export interface IncidentCandidate { id: string; incidentType: string; lat: number; lng: number; confidence: number }
export interface ReportedCandidate { id: string; category: string; lat: number; lng: number; source: string; since: string }
export interface RoadEditCandidate {
  id: string;
  kind: string;
  reason: string;
  featureKey: string | null;
  geometry: { type: 'line'; coordinates: [number, number][] } | { type: 'area'; rings: [number, number][][] };
}

export interface PlanConstraintSource {
  /** What may be avoided in a box: incidents and reports only when asked for, road edits always. */
  candidates(box: { west: number; south: number; east: number; north: number }, want: { incidents: boolean; reported: boolean }): Promise<{
    incidents: IncidentCandidate[];
    reported: ReportedCandidate[];
    roadEdits: RoadEditCandidate[];
  }>;
  /** The caller's effective sign disregards (a user's are kept and added to). */
  disregards(principal: Principal | undefined, featureKeys: readonly string[]): Promise<string[]>;
}

type Item =
  | { family: 'incident'; candidate: IncidentCandidate }
  | { family: 'reported'; candidate: ReportedCandidate }
  | { family: 'roadEdit'; candidate: RoadEditCandidate };

export interface PlanConstraintReport {
  incidentConstraints: { applied: boolean; avoided: IncidentCandidate[]; unavoidable: IncidentCandidate[] };
  reportedConstraints: { applied: boolean; ttlDays: number; avoided: ReportedCandidate[]; unavoidable: ReportedCandidate[] };
  roadEditConstraints: { applied: true; avoided: RoadEditView[]; unavoidable: RoadEditView[]; disregarded: RoadEditView[] };
  disregarded: string[];
  /** Whether the route was re-planned with the exact search and how many plans it took. */
  exactFallback: { used: boolean; plans: number };
}
type RoadEditView = Omit<RoadEditCandidate, 'geometry'> & { geometryType: 'line' | 'area' };

export function tripCorridor(trip: Trip): Corridor {
  const points: LatLng[] = [];
  for (const leg of trip.legs) for (const point of polyline.decode(leg.shape, 6)) points.push(point as LatLng);
  return corridorOf(points);
}

function isNear(item: Item, corridor: Corridor): boolean {
  if (item.family !== 'roadEdit') return nearCorridor(corridor, item.candidate.lat, item.candidate.lng, POINT_CORRIDOR_METERS);
  const geometry = item.candidate.geometry;
  const lines = geometry.type === 'line' ? [geometry.coordinates] : geometry.rings;
  for (const line of lines) {
    for (const [lat, lng] of densify(line.map(([lon, lat]) => [lat, lon] as LatLng), 20)) if (nearCorridor(corridor, lat, lng, EDIT_CORRIDOR_METERS)) return true;
  }
  if (geometry.type === 'area' && geometry.rings[0]) {
    const outer = geometry.rings[0];
    return corridor.points.some(([lat, lng]) => insideRing(outer, lat, lng) && !geometry.rings.slice(1).some((hole) => insideRing(hole, lat, lng)));
  }
  return false;
}

export function areasOfItems(items: readonly Item[]): AreaAvoidance {
  const points: NonNullable<AreaAvoidance['points']> = [];
  const polygons: NonNullable<AreaAvoidance['polygons']> = [];
  for (const item of items) {
    if (item.family !== 'roadEdit') {
      points.push({ lat: item.candidate.lat, lon: item.candidate.lng, radiusMeters: POINT_CORRIDOR_METERS });
      continue;
    }
    const geometry = item.candidate.geometry;
    if (geometry.type === 'area') {
      polygons.push(geometry.rings);
      continue;
    }
    // points along the line, not at its ends: the crossing streets at its end junctions stay open
    const line = densify(geometry.coordinates.map(([lon, lat]) => [lat, lon] as LatLng), LINE_POINT_SPACING_METERS);
    const inner = line.length > 2 ? line.slice(1, -1) : [midpoint(line)];
    for (const [lat, lon] of inner) points.push({ lat, lon, radiusMeters: LINE_POINT_RADIUS_METERS });
  }
  return { ...(points.length ? { points } : {}), ...(polygons.length ? { polygons } : {}) };
}

function midpoint(line: LatLng[]): LatLng {
  const [a, b] = [line[0]!, line[line.length - 1]!];
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}

const roadEditView = ({ geometry, ...rest }: RoadEditCandidate): RoadEditView => ({ ...rest, geometryType: geometry.type });

/**
 * Plans, then re-plans around what lies near the route. `plan(areas)` plans with avoided areas
 * (none the first time) and throws the engine's 400 when no route avoids them.
 */
export async function steerAround<T extends { trip: Trip }>(
  source: PlanConstraintSource,
  request: { locations: { lat: number; lon: number }[]; avoidIncidents: boolean; avoidReported: boolean; disregard: readonly string[]; principal: Principal | undefined },
  first: T,
  plan: (areas: AreaAvoidance) => Promise<T>,
  isUnroutable: (error: unknown) => boolean,
): Promise<{ outcome: T; report: PlanConstraintReport }> {
  const box = boxOf(request.locations, SEARCH_MARGIN_METERS);
  const [found, disregarded] = await Promise.all([source.candidates(box, { incidents: request.avoidIncidents, reported: request.avoidReported }), source.disregards(request.principal, request.disregard)]);
  const lifted = new Set(disregarded);
  const disregardedEdits = found.roadEdits.filter((edit) => edit.featureKey !== null && lifted.has(edit.featureKey));
  const items: Item[] = [
    ...found.incidents.map((candidate) => ({ family: 'incident' as const, candidate })),
    ...found.reported.map((candidate) => ({ family: 'reported' as const, candidate })),
    ...found.roadEdits.filter((edit) => !disregardedEdits.includes(edit)).map((candidate) => ({ family: 'roadEdit' as const, candidate })),
  ];
  let outcome = first;
  let plans = 1;
  const avoided: Item[] = [];
  // an avoidance around a location itself cannot be avoided (the route starts or ends there)
  const unavoidable: Item[] = items.filter((item) => item.family !== 'roadEdit' && request.locations.some((location) => nearCorridor(corridorOf([[location.lat, location.lon]]), item.candidate.lat, item.candidate.lng, POINT_CORRIDOR_METERS)));
  // Avoids a group at once; when no route avoids it all, halves it (so one avoidance that cannot be
  // avoided, e.g. on the only road out of the origin, does not cancel the others), within MAX_PLANS.
  const admit = async (group: Item[]): Promise<void> => {
    if (plans >= MAX_PLANS) {
      unavoidable.push(...group);
      return;
    }
    try {
      plans++;
      outcome = await plan(areasOfItems([...avoided, ...group]));
      avoided.push(...group);
    } catch (error) {
      if (!isUnroutable(error)) throw error;
      if (group.length === 1) {
        unavoidable.push(group[0]!);
        return;
      }
      const half = Math.ceil(group.length / 2);
      await admit(group.slice(0, half));
      await admit(group.slice(half));
    }
  };
  for (let round = 0; round < MAX_ROUNDS && items.length; round++) {
    const corridor = tripCorridor(outcome.trip);
    const hits = items.filter((item) => !avoided.includes(item) && !unavoidable.includes(item) && isNear(item, corridor));
    if (!hits.length) break;
    await admit(hits);
  }
  // the last accepted plan avoids every avoided item; an unavoidable one may lie on it (what the route goes through)
  const of = <F extends Item['family']>(list: Item[], family: F) =>
    list.filter((item): item is Extract<Item, { family: F }> => item.family === family).map((item) => item.candidate as Extract<Item, { family: F }>['candidate']);
  return {
    outcome,
    report: {
      incidentConstraints: { applied: request.avoidIncidents, avoided: of(avoided, 'incident'), unavoidable: of(unavoidable, 'incident') },
      reportedConstraints: { applied: request.avoidReported, ttlDays: 60, avoided: of(avoided, 'reported'), unavoidable: of(unavoidable, 'reported') },
      roadEditConstraints: {
        applied: true,
        avoided: of(avoided, 'roadEdit').map(roadEditView),
        unavoidable: of(unavoidable, 'roadEdit').map(roadEditView),
        disregarded: disregardedEdits.map(roadEditView),
      },
      disregarded,
      exactFallback: { used: plans > 1, plans },
    },
  };
}

function boxOf(locations: { lat: number; lon: number }[], margin: number) {
  const lats = locations.map((location) => location.lat);
  const lons = locations.map((location) => location.lon);
  const dLat = margin / 111_320;
  const midLat = (Math.min(...lats) + Math.max(...lats)) / 2;
  const dLng = margin / (111_320 * Math.max(0.01, Math.cos((midLat * Math.PI) / 180)));
  return { west: Math.min(...lons) - dLng, south: Math.min(...lats) - dLat, east: Math.max(...lons) + dLng, north: Math.max(...lats) + dLat };
}
