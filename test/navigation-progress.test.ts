/**
 * Driving real Nasr City routes fix by fix (one per second, 5 m noise): the
 * events come in the order a driver lives them, a detour is one off-route,
 * a single wild fix is none, and arrival happens once at the end.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../src/datapack/map-pack.js';
import { EARTH_RADIUS_M } from '../src/solvers/graph/geodesy.js';
import { buildTrip } from '../src/solvers/routing/guidance/trip.js';
import { navigationRoute } from '../src/solvers/routing/guidance/navigation-view.js';
import { RoutingEngine } from '../src/solvers/routing/routing-engine.js';
import { routingPack } from './support/routing-packs.js';
import { RouteLine } from '../src/solvers/navigation/route-line.js';
import { DEFAULT_ARRIVAL_RADIUS_METERS, DEFAULT_CORRIDOR_METERS, initialTrackerState, trackFix, type Fix, type TrackerEvent } from '../src/solvers/navigation/progress-tracker.js';

let pack: MapPack;
beforeAll(async () => {
  pack = await routingPack('nasrCityPbf');
}, 60_000);

const RAD = Math.PI / 180;

/** Seeded normal noise (mulberry32 + Box–Muller). */
function noise(seed: number): () => number {
  return () => {
    const uniform = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
    };
    return Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  };
}

function plannedRoute(from: { lat: number; lon: number }, to: { lat: number; lon: number }) {
  const engine = new RoutingEngine(pack);
  const result = engine.route({ metric: { costing: 'auto', preference: 'balanced', avoid: [] }, locations: [from, to] });
  if (!result.ok) throw new Error(`no route: ${result.code}`);
  const route = navigationRoute(buildTrip(pack, result.legs, { costing: 'auto' }));
  const line = RouteLine.fromShape(route.shape, { maneuvers: route.maneuvers, baseSeconds: route.etaSeconds })!;
  return { route, line };
}

/** Fixes every second at `speed` m/s along the line, with gaussian noise of `sigma` metres. */
function drive(line: RouteLine, speed: number, sigma: number, seed: number): Fix[] {
  const gauss = noise(seed);
  const fixes: Fix[] = [];
  for (let meters = 0; meters <= line.lengthMeters; meters += speed) {
    const segment = line.segmentAt(meters);
    const start = line.along[segment]!;
    const t = (meters - start) / Math.max(1e-9, line.along[segment + 1]! - start);
    const lat = line.lat[segment]! + t * (line.lat[segment + 1]! - line.lat[segment]!);
    const lng = line.lng[segment]! + t * (line.lng[segment + 1]! - line.lng[segment]!);
    const heading = line.project(segment, lat, lng).bearing;
    fixes.push(offset({ lat, lng, speed, heading }, gauss() * sigma, gauss() * sigma));
  }
  return fixes;
}

function offset(fix: Fix, northMeters: number, eastMeters: number): Fix {
  return { ...fix, lat: fix.lat + northMeters / (EARTH_RADIUS_M * RAD), lng: fix.lng + eastMeters / (EARTH_RADIUS_M * RAD * Math.cos(fix.lat * RAD)) };
}

function run(line: RouteLine, fixes: Fix[]) {
  let state = initialTrackerState();
  const events: TrackerEvent[] = [];
  const remaining: number[] = [];
  for (const fix of fixes) {
    const step = trackFix(line, state, fix, { corridorMeters: DEFAULT_CORRIDOR_METERS, arrivalRadiusMeters: DEFAULT_ARRIVAL_RADIUS_METERS });
    state = step.state;
    events.push(...step.events);
    remaining.push(step.progress.distanceRemainingMeters);
  }
  return { events, remaining, state };
}

const TRIPS = [
  [{ lat: 30.0626, lon: 31.3219 }, { lat: 30.07, lon: 31.34 }],
  [{ lat: 30.055, lon: 31.33 }, { lat: 30.0655, lon: 31.3105 }],
] as const;

describe('progress tracker on real routes', () => {
  it.each(TRIPS)('lives every maneuver in order: approaching, then completed, then arrival, with no off-route (%o → %o)', (from, to) => {
    const { route, line } = plannedRoute(from, to);
    const { events, remaining } = run(line, drive(line, 10, 5, 7));
    expect(events.filter((event) => event.type === 'off_route')).toEqual([]);
    const turns = route.maneuvers.slice(1, -1).map((maneuver) => maneuver.index);
    const completed = events.filter((event) => event.type === 'maneuver_completed').map((event) => event.data.maneuverIndex);
    expect(completed).toEqual(turns);
    for (const index of turns) {
      const approaching = events.findIndex((event) => event.type === 'maneuver_approaching' && event.data.maneuverIndex === index);
      const done = events.findIndex((event) => event.type === 'maneuver_completed' && event.data.maneuverIndex === index);
      // short maneuvers may be passed between two fixes without an announcement; announced ones come first
      if (approaching >= 0) expect(approaching).toBeLessThan(done);
    }
    expect(events.filter((event) => event.type === 'arrived')).toHaveLength(1);
    expect(events[events.length - 1]!.type).toBe('arrived');
    // the distance left falls as the drive goes on (noise moves it by a few metres at most)
    for (let index = 1; index < remaining.length; index++) expect(remaining[index]!).toBeLessThanOrEqual(remaining[index - 1]! + 15);
  });

  it('reports a detour as exactly one off_route, and one wild fix as none', () => {
    const { line } = plannedRoute(TRIPS[0][0], TRIPS[0][1]);
    const fixes = drive(line, 10, 5, 11);
    const middle = Math.floor(fixes.length / 2);
    const wild = fixes.map((fix, index) => (index === middle ? offset(fix, 90, 90) : fix));
    expect(run(line, wild).events.filter((event) => event.type === 'off_route')).toEqual([]);
    const detour = fixes.slice(0, middle).concat(Array.from({ length: 8 }, (_, step) => offset(fixes[middle]!, 60 + step * 20, 60 + step * 20)));
    const events = run(line, detour).events.filter((event) => event.type === 'off_route');
    expect(events).toHaveLength(1);
    expect(events[0]!.data.distanceToRouteMeters).toBeGreaterThan(DEFAULT_CORRIDOR_METERS);
  });

  it('does not count fixes whose own accuracy is too poor to judge', () => {
    const { line } = plannedRoute(TRIPS[0][0], TRIPS[0][1]);
    const fixes = drive(line, 10, 5, 3);
    const middle = Math.floor(fixes.length / 2);
    const vague = fixes.map((fix, index) => (index >= middle && index < middle + 4 ? { ...offset(fix, 70, 0), accuracy: 150 } : fix));
    expect(run(line, vague).events.filter((event) => event.type === 'off_route')).toEqual([]);
  });
});

describe('route line', () => {
  it('refuses shapes with fewer than two distinct points', () => {
    expect(RouteLine.fromPoints([[30, 31]])).toBeUndefined();
    expect(RouteLine.fromPoints([[30, 31], [30, 31]])).toBeUndefined();
    expect(RouteLine.fromShape('not a polyline ~~~')).toBeUndefined();
  });

  it('spreads the time left over the route by maneuver times', () => {
    const { route, line } = plannedRoute(TRIPS[0][0], TRIPS[0][1]);
    expect(line.secondsLeftAt(0)).toBeCloseTo(route.maneuvers.reduce((sum, maneuver) => sum + maneuver.timeSeconds, 0), 0);
    expect(line.secondsLeftAt(line.lengthMeters)).toBeCloseTo(0, 3);
    expect(line.lengthMeters).toBeCloseTo(route.distanceMeters, -1);
  });
});
