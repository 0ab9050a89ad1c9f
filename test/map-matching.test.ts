import polyline from '@mapbox/polyline';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../src/datapack/map-pack.js';
import { simulateTrace } from './support/gps-traces.js';
import { routingPack } from './support/routing-packs.js';
import { findArc } from '../src/solvers/routing/edge-graph.js';
import { RoutingEngine } from '../src/solvers/routing/routing-engine.js';
import type { LegPath } from '../src/solvers/routing/leg-path.js';
import { matchTrace, type MapMatchResult } from '../src/solvers/routing/map-matching/map-matcher.js';

const AUTO = { costing: 'auto' as const, preference: 'fastest' as const, avoid: [] };

let monaco: RoutingEngine;
let nasrCity: RoutingEngine;

beforeAll(async () => {
  monaco = new RoutingEngine(await routingPack('monaco'));
  nasrCity = new RoutingEngine(await routingPack('nasrCityPbf'));
});

function routeLeg(engine: RoutingEngine, from: { lat: number; lon: number }, to: { lat: number; lon: number }): LegPath {
  const outcome = engine.route({ metric: AUTO, locations: [from, to] });
  if (!outcome.ok) throw new Error(`no route: ${outcome.code}`);
  return outcome.legs[0]!;
}

function match(engine: RoutingEngine, points: { lat: number; lon: number; time?: number }[], gpsAccuracyMeters = 10): MapMatchResult {
  const outcome = matchTrace(engine, { metric: AUTO, points, options: { gpsAccuracyMeters } });
  if (!outcome.ok) throw new Error(`no match: ${outcome.code}`);
  return outcome.result;
}

/** Share of the leg's edges that the match travels too. */
function recovered(leg: LegPath, result: MapMatchResult): number {
  const matched = new Set(result.edges.map((edge) => edge.edge));
  return leg.edges.filter((edge) => matched.has(edge)).length / leg.edges.length;
}

/** Consecutive matched edges of one sub-match are joined by an allowed turn (oneways and restrictions hold). */
function expectDrivable(engine: RoutingEngine, result: MapMatchResult): void {
  const graph = engine.metric(AUTO).graph;
  for (let index = 1; index < result.edges.length; index++) {
    const previous = result.edges[index - 1]!;
    const edge = result.edges[index]!;
    if (previous.subMatch !== edge.subMatch || previous.edge === edge.edge) continue;
    expect(findArc(graph, previous.edge, edge.edge), `turn ${previous.edge} → ${edge.edge}`).toBeGreaterThanOrEqual(0);
  }
}

const TRIPS: { name: string; engine: () => RoutingEngine; pack: () => MapPack; from: { lat: number; lon: number }; to: { lat: number; lon: number } }[] = [
  { name: 'Monaco, Fontvieille to Monte-Carlo', engine: () => monaco, pack: () => monaco.pack, from: { lat: 43.7313, lon: 7.4197 }, to: { lat: 43.748, lon: 7.435 } },
  { name: 'Monaco, across the port', engine: () => monaco, pack: () => monaco.pack, from: { lat: 43.7384, lon: 7.4246 }, to: { lat: 43.7275, lon: 7.4155 } },
  { name: 'Nasr City', engine: () => nasrCity, pack: () => nasrCity.pack, from: { lat: 30.0626, lon: 31.3219 }, to: { lat: 30.0511, lon: 31.3447 } },
];

describe('map matching a noisy trace of a real route', () => {
  for (const trip of TRIPS) {
    it(`recovers at least 95 % of the route's edges: ${trip.name} (1 s fixes, 10 m noise)`, () => {
      const leg = routeLeg(trip.engine(), trip.from, trip.to);
      const trace = simulateTrace(trip.pack(), leg, { intervalSeconds: 1, noiseMeters: 10, seed: 7 });
      expect(trace.length).toBeGreaterThan(40);
      const result = match(trip.engine(), trace);
      expect(recovered(leg, result)).toBeGreaterThanOrEqual(0.95);
      expect(result.subMatches).toBe(1);
      expect(result.points).toHaveLength(trace.length);
      expect(result.points.every((point) => point.type !== 'unmatched')).toBe(true);
      expect(result.confidence).toBeGreaterThan(0.5);
      expect(result.confidence).toBeLessThanOrEqual(1);
      expectDrivable(trip.engine(), result);
      // the matched length is the route's, give or take the noise at both ends
      const routeMeters = leg.edgeMeters.reduce((sum, meters) => sum + meters, 0);
      expect(Math.abs(result.lengthMeters - routeMeters)).toBeLessThan(0.1 * routeMeters + 50);
    });
  }

  it('places every point on an edge of the match, near its fix', () => {
    const leg = routeLeg(monaco, TRIPS[0]!.from, TRIPS[0]!.to);
    const trace = simulateTrace(monaco.pack, leg, { intervalSeconds: 0.5, noiseMeters: 5, seed: 3 });
    const result = match(monaco, trace, 5);
    expect(result.points.some((point) => point.type === 'interpolated')).toBe(true);
    for (const point of result.points) {
      expect(point.edgeIndex).toBeGreaterThanOrEqual(0);
      expect(point.edgeIndex).toBeLessThan(result.edges.length);
      expect(point.distanceFromTraceMeters).toBeLessThanOrEqual(50);
    }
    // edge indexes never go backwards along the trace
    const indexes = result.points.map((point) => point.edgeIndex!);
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
  });

  it('is better with less noise: confidence falls as the noise grows', () => {
    const leg = routeLeg(monaco, TRIPS[1]!.from, TRIPS[1]!.to);
    const clean = match(monaco, simulateTrace(monaco.pack, leg, { intervalSeconds: 1, noiseMeters: 2, seed: 11 }), 5);
    const noisy = match(monaco, simulateTrace(monaco.pack, leg, { intervalSeconds: 1, noiseMeters: 25, seed: 11 }), 5);
    expect(clean.confidence).toBeGreaterThan(noisy.confidence);
  });
});

describe('breaks and points off the road', () => {
  it('starts a new sub-match after a jump beyond the breakage distance, instead of failing', () => {
    const first = routeLeg(monaco, TRIPS[0]!.from, TRIPS[0]!.to);
    const second = routeLeg(monaco, TRIPS[1]!.from, TRIPS[1]!.to);
    const a = simulateTrace(monaco.pack, first, { intervalSeconds: 2, noiseMeters: 5, seed: 1 });
    const b = simulateTrace(monaco.pack, second, { intervalSeconds: 2, noiseMeters: 5, seed: 2 });
    const joined = [...a, ...b];
    // the jump between the trips (about 1.4 km) is routable: one match by default, two with a shorter breakage distance
    expect(match(monaco, joined, 5).subMatches).toBe(1);
    const outcome = matchTrace(monaco, { metric: AUTO, points: joined, options: { gpsAccuracyMeters: 5, breakageDistanceMeters: 1_000 } });
    if (!outcome.ok) throw new Error(outcome.code);
    const result = outcome.result;
    expect(result.subMatches).toBe(2);
    expect(result.points[a.length - 1]!.endRouteDiscontinuity).toBe(true);
    expect(result.points[a.length]!.beginRouteDiscontinuity).toBe(true);
    expect(recovered(first, result)).toBeGreaterThanOrEqual(0.95);
    expect(recovered(second, result)).toBeGreaterThanOrEqual(0.95);
    expect(result.edges.filter((edge) => edge.subMatch === 1).length).toBeGreaterThan(0);
    expectDrivable(monaco, result);
  });

  it('leaves points far from any road unmatched and matches the rest', () => {
    const leg = routeLeg(monaco, TRIPS[0]!.from, TRIPS[0]!.to);
    const trace = simulateTrace(monaco.pack, leg, { intervalSeconds: 1, noiseMeters: 5, seed: 5 });
    // two fixes 2 km out at sea (south of Monaco)
    const offshore = [10, 11];
    for (const index of offshore) trace[index] = { ...trace[index]!, lat: 43.71, lon: 7.42 };
    const result = match(monaco, trace, 5);
    for (const index of offshore) expect(result.points[index]).toMatchObject({ type: 'unmatched', lat: 43.71, lon: 7.42 });
    expect(result.points.filter((point) => point.type === 'unmatched')).toHaveLength(2);
    expect(recovered(leg, result)).toBeGreaterThanOrEqual(0.95);
  });

  it('answers no_road_nearby when no point is near a road', () => {
    const outcome = matchTrace(monaco, { metric: AUTO, points: [{ lat: 43.7, lon: 7.42 }, { lat: 43.701, lon: 7.421 }] });
    expect(outcome).toEqual({ ok: false, code: 'no_road_nearby', searchRadiusMeters: 50 });
  });

  it('names the roads it matched, with their OSM way ids', () => {
    const leg = routeLeg(nasrCity, TRIPS[2]!.from, TRIPS[2]!.to);
    const result = match(nasrCity, simulateTrace(nasrCity.pack, leg, { intervalSeconds: 1, noiseMeters: 5, seed: 9 }), 5);
    const s = nasrCity.pack.sections;
    for (const edge of result.edges) expect(edge.wayId).toBe(s['ways.osmId'][s['graph.edgeWay'][edge.edge]!]);
    expect(result.edges.some((edge) => edge.names.some((name) => /[\u0600-\u06FF]/.test(name)))).toBe(true);
  });
});

describe('any trace (property)', () => {
  it('gives a drivable, ordered match whose indexes and shape agree, for noisy trips between random places', () => {
    const nodes = monaco.pack.nodeCount;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: nodes - 1 }), fc.integer({ min: 0, max: nodes - 1 }), fc.integer({ min: 1, max: 1e6 }), fc.double({ min: 0, max: 25, noNaN: true }), fc.double({ min: 0.5, max: 10, noNaN: true }), (from, to, seed, noiseMeters, intervalSeconds) => {
        const [fromLon, fromLat] = monaco.pack.nodePosition(from);
        const [toLon, toLat] = monaco.pack.nodePosition(to);
        const outcome = monaco.route({ metric: AUTO, locations: [{ lat: fromLat, lon: fromLon }, { lat: toLat, lon: toLon }] });
        fc.pre(outcome.ok);
        if (!outcome.ok) return;
        const trace = simulateTrace(monaco.pack, outcome.legs[0]!, { intervalSeconds, noiseMeters, seed }).slice(0, 300);
        fc.pre(trace.length >= 2);
        const matched = matchTrace(monaco, { metric: AUTO, points: trace, options: { gpsAccuracyMeters: Math.max(5, noiseMeters) } });
        if (!matched.ok) return;
        const result = matched.result;
        expect(result.points).toHaveLength(trace.length);
        expect(result.confidence).toBeGreaterThanOrEqual(0);
        expect(result.confidence).toBeLessThanOrEqual(1);
        expectDrivable(monaco, result);
        let previous = -1;
        for (const point of result.points) {
          if (point.type === 'unmatched') continue;
          expect(point.edgeIndex).toBeGreaterThanOrEqual(previous);
          expect(point.edgeIndex).toBeLessThan(result.edges.length);
          previous = point.edgeIndex!;
        }
        const shape = polyline.decode(result.encodedShape, 6);
        for (const edge of result.edges) expect(edge.beginShapeIndex).toBeLessThanOrEqual(edge.endShapeIndex);
        expect(result.edges[result.edges.length - 1]!.endShapeIndex).toBe(shape.length - 1);
      }),
      { numRuns: 15 },
    );
  });
});
