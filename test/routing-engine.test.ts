/**
 * The routing engine on the shipped extracts: the hierarchy answers exactly
 * what plain Dijkstra answers, real one-ways and turn restrictions hold,
 * matrices agree with single routes, and snapping, avoidances and
 * alternatives behave as documented.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../src/datapack/map-pack.js';
import { NO_INDEX, TravelMode } from '../src/datapack/pack-layout.js';
import type { MetricSpec } from '../src/solvers/routing/costing/profiles.js';
import { buildHierarchy } from '../src/solvers/routing/hierarchy/contract.js';
import type { Hierarchy } from '../src/solvers/routing/hierarchy/hierarchy.js';
import { HierarchyQuery } from '../src/solvers/routing/hierarchy/hierarchy-query.js';
import { findArc } from '../src/solvers/routing/edge-graph.js';
import { legMeters, legSeconds } from '../src/solvers/routing/leg-builder.js';
import { RoutingEngine } from '../src/solvers/routing/routing-engine.js';
import { expectHierarchyMatchesDijkstra } from './support/hierarchy-property.js';
import { routingPack } from './support/routing-packs.js';

const AUTO: MetricSpec = { costing: 'auto', preference: 'balanced', avoid: [] };
let packs: Record<'monaco' | 'nasrCityPbf', MapPack>;
const hierarchies = new Map<string, Hierarchy>();

beforeAll(async () => {
  packs = { monaco: await routingPack('monaco'), nasrCityPbf: await routingPack('nasrCityPbf') };
}, 60_000);

function hierarchyFor(engine: RoutingEngine, name: string, spec: MetricSpec): Hierarchy {
  const key = `${name}:${spec.costing}`;
  let hierarchy = hierarchies.get(key);
  if (!hierarchy) {
    hierarchy = buildHierarchy(engine.metric(spec).graph, engine.pack.sections['graph.edgeLength']);
    hierarchies.set(key, hierarchy);
  }
  return hierarchy;
}

describe.each([
  ['monaco', AUTO],
  ['nasrCityPbf', { costing: 'pedestrian', preference: 'balanced', avoid: [] } as MetricSpec],
] as const)('contraction hierarchy on %s (%o)', (name, spec) => {
  it('finds exactly the cost plain bidirectional Dijkstra finds, on 1 000 random pairs with random positions along the edges', () => {
    const engine = new RoutingEngine(packs[name]);
    const metric = engine.metric(spec);
    const query = new HierarchyQuery(hierarchyFor(engine, name, spec));
    const routed = expectHierarchyMatchesDijkstra({ metric, query, edgeCount: engine.pack.edgeCount, numRuns: 1000, seed: 20261123 });
    expect(routed).toBeGreaterThan(500);
  }, 120_000);

  it('reaches a point behind the start on the same edge by leaving and coming back, as cheaply as plain Dijkstra, along real turns', () => {
    const engine = new RoutingEngine(packs[name]);
    const metric = engine.metric(spec);
    const graph = metric.graph;
    const query = new HierarchyQuery(hierarchyFor(engine, name, spec));
    const weight = graph.costs.weight;
    let looped = 0;
    for (let edge = 0; edge < engine.pack.edgeCount; edge += 7) {
      if (!metric.inMainComponent[edge]) continue;
      // start at 80 % of the edge, finish at 20 %
      const sources = [{ node: edge, distance: 0.2 * weight[edge]! }];
      const targets = [{ node: edge, distance: -0.8 * weight[edge]! }];
      const fast = query.route(sources, targets);
      const exact = metric.exactSearch().route(sources, targets);
      expect(fast?.weight).toBeCloseTo(exact!.weight, 6);
      const path = fast!.edges;
      expect([path[0], path[path.length - 1]]).toEqual([edge, edge]);
      let pathWeight = sources[0]!.distance + targets[0]!.distance;
      for (let index = 1; index < path.length; index++) {
        const arc = findArc(graph, path[index - 1]!, path[index]!);
        expect(arc).toBeGreaterThanOrEqual(0);
        pathWeight += graph.arcWeight[arc]!;
      }
      expect(pathWeight).toBeCloseTo(fast!.weight, 6);
      looped++;
    }
    expect(looped).toBeGreaterThan(100);
  }, 120_000);
});

describe('real one-ways and turn restrictions', () => {
  it('never drives against a one-way, and walks it both ways (the longest one-way street inside the network)', () => {
    const engine = new RoutingEngine(packs.nasrCityPbf);
    const s = engine.pack.sections;
    const main = engine.metric(AUTO).inMainComponent;
    // one-way for cars (the twin is closed to cars but open on foot), inside the main component:
    // streets like Al Tayaran (way 24958252) leave the extract one-way, so their edges are dead ends here
    let longest = -1;
    for (let edge = 0; edge < engine.pack.edgeCount; edge++) {
      const twin = s['graph.edgeTwin'][edge]!;
      if (!main[edge] || twin === NO_INDEX || s['graph.edgeAccess'][twin]! & TravelMode.car || !(s['graph.edgeAccess'][twin]! & TravelMode.foot)) continue;
      if (longest < 0 || s['graph.edgeLength'][edge]! > s['graph.edgeLength'][longest]!) longest = edge;
    }
    expect(s['graph.edgeLength'][longest]).toBeGreaterThan(150);
    const shape = engine.pack.edgeShape(longest);
    const at = (fraction: number) => {
      const [lon, lat] = shape[Math.floor(fraction * (shape.length - 1))]!;
      return { lat, lon };
    };
    // against the one-way: from 80 % back to 20 % of the edge's shape points
    const locations = [at(0.8), at(0.2)];
    const car = engine.route({ metric: AUTO, locations });
    const walk = engine.route({ metric: { ...AUTO, costing: 'pedestrian' }, locations });
    expect(car.ok && walk.ok).toBe(true);
    if (!car.ok || !walk.ok) return;
    const direct = walk.legs[0]!.edgeMeters.reduce((sum, meters) => sum + meters, 0);
    expect(walk.legs[0]!.edges).toEqual([s['graph.edgeTwin'][longest]]);
    expect(legMeters(car.legs[0]!)).toBeGreaterThan(direct * 1.5);
    for (const edge of car.legs[0]!.edges) expect(s['graph.edgeAccess'][edge]! & TravelMode.car).toBeTruthy();
  });

  it('obeys every via-node car restriction of Monaco: a route from the from-edge to a forbidden exit never takes that turn', () => {
    const engine = new RoutingEngine(packs.monaco);
    const s = engine.pack.sections;
    const mid = (edge: number) => {
      const shape = engine.pack.edgeShape(edge);
      const [lon, lat] = shape[Math.floor(shape.length / 2)]!;
      return { lat, lon, heading: undefined };
    };
    let checked = 0;
    for (let r = 0; r < s['restrictions.kind'].length; r++) {
      if (s['restrictions.viaNode'][r] === NO_INDEX || !(s['restrictions.modes'][r]! & TravelMode.car)) continue;
      const from = s['restrictions.fromEdge'][r]!;
      const via = s['restrictions.viaNode'][r]!;
      const exits: number[] = [];
      for (let edge = s['graph.firstEdge'][via]!; edge < s['graph.firstEdge'][via + 1]!; edge++) {
        const forbidden = s['restrictions.kind'][r] === 0 ? edge === s['restrictions.toEdge'][r] : edge !== s['restrictions.toEdge'][r];
        if (forbidden && s['graph.edgeAccess'][edge]! & TravelMode.car && edge !== s['graph.edgeTwin'][from]) exits.push(edge);
      }
      for (const exit of exits) {
        const result = engine.route({ metric: AUTO, locations: [mid(from), mid(exit)] });
        if (!result.ok) continue;
        const path = result.legs[0]!.edges;
        if (path[0] !== from) continue;
        for (let index = 1; index < path.length; index++) expect([path[index - 1], path[index]]).not.toEqual([from, exit]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});

describe('routes, matrices and snapping', () => {
  const points = [
    { lat: 30.0626, lon: 31.3219 },
    { lat: 30.07, lon: 31.34 },
    { lat: 30.055, lon: 31.33 },
    { lat: 30.0655, lon: 31.3105 },
  ];

  it('answers one leg per pair of consecutive locations, each starting where the previous ended', () => {
    const engine = new RoutingEngine(packs.nasrCityPbf);
    const result = engine.route({ metric: AUTO, locations: points });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.legs).toHaveLength(points.length - 1);
    for (let index = 1; index < result.legs.length; index++) {
      expect(result.legs[index]!.origin.snappedLat).toBeCloseTo(result.legs[index - 1]!.destination.snappedLat, 6);
    }
  });

  it('splits legs at break locations only: a through location stays inside its leg, without turning around', () => {
    const engine = new RoutingEngine(packs.nasrCityPbf);
    const withBreak = engine.route({ metric: AUTO, locations: points.slice(0, 3) });
    const withThrough = engine.route({ metric: AUTO, locations: [points[0]!, { ...points[1]!, type: 'through' }, points[2]!] });
    expect(withBreak.ok && withThrough.ok).toBe(true);
    if (!withBreak.ok || !withThrough.ok) return;
    expect(withBreak.legs).toHaveLength(2);
    expect(withThrough.legs).toHaveLength(1);
    const leg = withThrough.legs[0]!;
    expect([leg.edgeSeconds.length, leg.edgeMeters.length, leg.turnSeconds.length]).toEqual([leg.edges.length, leg.edges.length, leg.edges.length]);
    // consecutive edges join at nodes: the leg is one continuous path
    const s = engine.pack.sections;
    for (let index = 1; index < leg.edges.length; index++) expect(s['graph.edgeSource'][leg.edges[index]!]).toBe(s['graph.edgeTarget'][leg.edges[index - 1]!]);
    // no U-turn at the through point: never the twin of the edge just travelled
    for (let index = 1; index < leg.edges.length; index++) expect(leg.edges[index]).not.toBe(s['graph.edgeTwin'][leg.edges[index - 1]!]);
    expect(legMeters(leg)).toBeGreaterThanOrEqual(legMeters(withBreak.legs[0]!) + legMeters(withBreak.legs[1]!) - 1);
  });

  it('gives matrix entries equal to the single routes between the same points', () => {
    const engine = new RoutingEngine(packs.nasrCityPbf);
    const hierarchy = hierarchyFor(engine, 'nasrCityPbf', AUTO);
    const matrix = engine.matrix(AUTO, hierarchy, points, points);
    for (let from = 0; from < points.length; from++) {
      for (let to = 0; to < points.length; to++) {
        if (from === to) continue;
        const single = engine.route({ metric: AUTO, hierarchy, locations: [points[from]!, points[to]!] });
        expect(single.ok).toBe(true);
        if (!single.ok) continue;
        expect(matrix.seconds[from * points.length + to]).toBeCloseTo(legSeconds(single.legs[0]!), 3);
        expect(matrix.meters[from * points.length + to]).toBeCloseTo(legMeters(single.legs[0]!), 1);
      }
    }
  });

  it('refuses a location with no usable road within the cutoff, naming it', () => {
    const engine = new RoutingEngine(packs.nasrCityPbf);
    const result = engine.route({ metric: AUTO, locations: [points[0]!, { lat: 30.2, lon: 31.6, searchCutoffMeters: 500 }] });
    expect(result).toEqual({ ok: false, code: 'no_road_nearby', locationIndex: 1, cutoffMeters: 500 });
  });

  it('routes around an excluded area and is no shorter for it', () => {
    const engine = new RoutingEngine(packs.nasrCityPbf);
    const plain = engine.route({ metric: AUTO, locations: [points[0]!, points[1]!] });
    expect(plain.ok).toBe(true);
    if (!plain.ok) return;
    const leg = plain.legs[0]!;
    const middle = leg.edges[Math.floor(leg.edges.length / 2)]!;
    const [lon, lat] = engine.pack.edgeShape(middle)[0]!;
    const avoided = engine.route({ metric: AUTO, locations: [points[0]!, points[1]!], avoidAreas: { points: [{ lat, lon, radiusMeters: 30 }] } });
    expect(avoided.ok).toBe(true);
    if (!avoided.ok) return;
    expect(avoided.legs[0]!.edges).not.toContain(middle);
    expect(legSeconds(avoided.legs[0]!)).toBeGreaterThanOrEqual(legSeconds(leg) - 1e-6);
  });

  it('offers alternatives that differ from the best route within the documented caps', () => {
    const engine = new RoutingEngine(packs.nasrCityPbf);
    const options = { count: 2, maxSharedShare: 0.75, maxStretch: 1.4 };
    const result = engine.route({ metric: AUTO, locations: [points[0]!, points[1]!], alternates: options });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.alternates.length).toBeGreaterThan(0);
    const best = new Set(result.legs[0]!.edges);
    const length = engine.pack.sections['graph.edgeLength'];
    for (const [alternate] of result.alternates) {
      const total = alternate!.edges.reduce((sum, edge) => sum + length[edge]!, 0);
      const shared = alternate!.edges.reduce((sum, edge) => sum + (best.has(edge) ? length[edge]! : 0), 0);
      expect(shared / total).toBeLessThanOrEqual(options.maxSharedShare);
    }
  });
});
