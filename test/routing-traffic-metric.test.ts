/**
 * The routing engine's traffic metric (docs/traffic.md "Traffic in routing"):
 * edge times divided by learned speed ratios, and the hierarchy customised for
 * them by recontracting in the free-flow hierarchy's node order. The
 * customised hierarchy must answer exactly what plain Dijkstra answers on the
 * traffic weights, for random pairs and random positions along the edges.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../src/datapack/map-pack.js';
import { EdgeFlag } from '../src/datapack/pack-layout.js';
import { metricKey, freeFlowMetric, type MetricSpec, type TrafficWeights } from '../src/solvers/routing/costing/profiles.js';
import { buildHierarchy } from '../src/solvers/routing/hierarchy/contract.js';
import { HierarchyQuery } from '../src/solvers/routing/hierarchy/hierarchy-query.js';
import { RoutingEngine } from '../src/solvers/routing/routing-engine.js';
import { seededRandom } from '../src/cli/traffic-simulator.js';
import { expectHierarchyMatchesDijkstra } from './support/hierarchy-property.js';
import { routingPack } from './support/routing-packs.js';
import { segmentKeyOf } from '../src/solvers/routing/traffic/trip-traversals.js';
import { TRAFFIC_METRIC, TrafficMetrics } from '../src/services/traffic/traffic-metric.js';
import type { CalendarService } from '../src/services/calendars/calendar-service.js';
import type { ProfileRow } from '../src/domain/traffic.js';

const FASTEST: MetricSpec = { costing: 'auto', preference: 'fastest', avoid: [] };
const BALANCED: MetricSpec = { costing: 'auto', preference: 'balanced', avoid: [] };
let pack: MapPack;

beforeAll(async () => {
  pack = await routingPack('nasrCityPbf');
}, 60_000);

/** Ratios in [0.25, 1.5] on a random share of the usable edges (a rush hour far harsher than any learned one). */
function randomTraffic(engine: RoutingEngine, spec: MetricSpec, share: number, seed: number): TrafficWeights {
  const random = seededRandom(seed);
  const metric = engine.metric(spec);
  const edges: number[] = [];
  const speedRatio: number[] = [];
  for (let edge = 0; edge < pack.edgeCount; edge++) {
    if (!metric.usable(edge) || random() >= share) continue;
    edges.push(edge);
    speedRatio.push(0.25 + random() * 1.25);
  }
  return { id: `test-${seed}`, edges, speedRatio };
}

describe('traffic metric weights', () => {
  it('divide the listed edges’ times by their ratio and leave every other edge bit for bit as at free flow', () => {
    const engine = new RoutingEngine(pack);
    const traffic = randomTraffic(engine, FASTEST, 0.3, 7);
    const free = engine.metric(FASTEST).graph.costs;
    const slowed = engine.metric({ ...FASTEST, traffic }).graph.costs;
    const ratioOf = new Map<number, number>();
    for (let index = 0; index < traffic.edges.length; index++) ratioOf.set(traffic.edges[index]!, traffic.speedRatio[index]!);
    let changed = 0;
    for (let edge = 0; edge < pack.edgeCount; edge++) {
      const ratio = ratioOf.get(edge);
      if (ratio === undefined || pack.sections['graph.edgeFlags'][edge]! & EdgeFlag.ferry) {
        expect(slowed.seconds[edge]).toBe(free.seconds[edge]);
        expect(slowed.weight[edge]).toBe(free.weight[edge]);
        continue;
      }
      // fastest: weight is seconds (times the destination-only factor where it applies)
      expect(slowed.seconds[edge]).toBeCloseTo(free.seconds[edge]! / Math.fround(ratio), 9);
      expect(slowed.weight[edge]).toBeCloseTo(free.weight[edge]! / Math.fround(ratio), 9);
      changed++;
    }
    expect(changed).toBeGreaterThan(pack.edgeCount * 0.2);
  });

  it('are a metric of their own (cache key) and the free-flow metric is the same spec without them', () => {
    const traffic: TrafficWeights = { id: 'abc', edges: [1], speedRatio: [0.5] };
    expect(metricKey({ ...BALANCED, traffic })).toBe(`${metricKey(BALANCED)}:traffic=abc`);
    expect(freeFlowMetric({ ...BALANCED, traffic })).toEqual(BALANCED);
  });
});

describe.each([
  ['fastest', FASTEST, 11],
  ['balanced', BALANCED, 12],
] as const)('hierarchy customised for traffic (auto, %s)', (_, spec, seed) => {
  it('keeps the free-flow node order and finds exactly what plain Dijkstra finds on the traffic weights (800 random pairs)', () => {
    const engine = new RoutingEngine(pack);
    const freeFlow = buildHierarchy(engine.metric(spec).graph, pack.sections['graph.edgeLength']);
    const trafficSpec = { ...spec, traffic: randomTraffic(engine, spec, 0.4, seed) };
    const metric = engine.metric(trafficSpec);
    const customised = buildHierarchy(metric.graph, pack.sections['graph.edgeLength'], { order: freeFlow.rank });
    expect(Array.from(customised.rank)).toEqual(Array.from(freeFlow.rank));
    const freeQuery = new HierarchyQuery(freeFlow);
    const freeWeight = engine.metric(spec).graph.costs.weight;
    let differsFromFreeFlow = 0;
    const routed = expectHierarchyMatchesDijkstra({
      metric,
      query: new HierarchyQuery(customised),
      edgeCount: pack.edgeCount,
      numRuns: 800,
      seed: 20261127,
      onRouted: ({ source, target, sourceFraction, targetFraction, sources, targets, path }) => {
        // the unpacked path costs, turn by turn on the traffic graph, what the query says
        let total = sources[0]!.distance + targets[0]!.distance;
        for (let index = 1; index < path.edges.length; index++) {
          const from = path.edges[index - 1]!;
          const to = path.edges[index]!;
          let arcWeight = Infinity;
          for (let arc = metric.graph.firstArc[from]!; arc < metric.graph.firstArc[from + 1]!; arc++) if (metric.graph.arcTarget[arc] === to) arcWeight = Math.min(arcWeight, metric.graph.arcWeight[arc]!);
          total += arcWeight;
        }
        if (path.edges.length > 1 || sourceFraction <= targetFraction) expect(total).toBeCloseTo(path.weight, 6);
        // the free-flow hierarchy would have chosen another path for some pairs: the customisation matters
        const free = freeQuery.route(
          [{ node: source, distance: (1 - sourceFraction) * freeWeight[source]! }],
          [{ node: target, distance: -(1 - targetFraction) * freeWeight[target]! }],
        );
        if (free && free.edges.join() !== path.edges.join()) differsFromFreeFlow++;
      },
    });
    expect(routed).toBeGreaterThan(400);
    expect(differsFromFreeFlow).toBeGreaterThan(0);
  }, 180_000);

  it('refuses an order that is not a permutation of the nodes', () => {
    const engine = new RoutingEngine(pack);
    const graph = engine.metric(spec).graph;
    expect(() => buildHierarchy(graph, pack.sections['graph.edgeLength'], { order: new Uint32Array(pack.edgeCount) })).toThrow(/permutation/);
    expect(() => buildHierarchy(graph, pack.sections['graph.edgeLength'], { order: new Uint32Array(3) })).toThrow(/node order has 3 nodes/);
  });
});

describe('TrafficMetrics: the ratios of a moment', () => {
  const row = (segmentKey: string, hour: number, sampleCount: number, ratio: number): ProfileRow => ({
    segmentKey, profileType: 'typical', dow: 2, hour, country: 'EG', lat: 30.06, lng: 31.32, freeFlowKph: 50,
    sampleCount, simulatedCount: sampleCount, speedSum: 50 * ratio * sampleCount, speedSqSum: 0, ratioSum: ratio * sampleCount,
  });
  const calendars = { flags: () => ({ isHoliday: false, isWeekend: false, isRamadan: false }) } as unknown as Pick<CalendarService, 'flags'>;
  const origin = { lat: 30.0626, lon: 31.3219 };

  it('maps trustworthy profiles of the local hour to edges (ratio kept in bounds), never reads without profiles, and re-reads changed profiles at most once a minute', async () => {
    // Tuesday 2026-11-24 06:20 UTC is 08:20 in Cairo (UTC+2 in November)
    let now = Date.parse('2026-11-24T06:20:00Z');
    let version: string | null = null;
    let reads = 0;
    const rows = [row(segmentKeyOf(pack, 100), 8, 6, 0.5), row(segmentKeyOf(pack, 7), 8, 9, 0.1), row(segmentKeyOf(pack, 300), 8, 4, 0.3), row(segmentKeyOf(pack, 400), 9, 50, 0.3), row('w1:2-3', 8, 50, 0.3)];
    const repository = {
      profilesVersion: async () => version,
      profilesAtHours: async (hours: readonly number[]) => {
        reads++;
        return rows.filter((candidate) => hours.includes(candidate.hour));
      },
    };
    const metrics = new TrafficMetrics(repository, calendars, pack, () => now);
    const none = await metrics.choose({ type: 0 }, origin);
    expect(none.weights).toBeUndefined();
    expect(none.model).toMatchObject({ used: false, metric: 'free-flow', country: 'EG', todBucket: 8, dow: 2, segmentsWithProfiles: 0 });
    expect(reads).toBe(0);

    version = 'v1';
    const first = await metrics.choose({ type: 1, value: '2026-11-24T08:25' }, origin);
    // edge 7 clamped to the lower bound; edge 300 has too few samples; edge 400 is another hour; w1:2-3 is no edge of this pack
    expect(Array.from(first.weights!.edges)).toEqual([7, 100]);
    expect(Array.from(first.weights!.speedRatio)).toEqual([TRAFFIC_METRIC.minRatio, 0.5]);
    expect(first.model).toMatchObject({ used: true, metric: 'traffic', segmentsWithProfiles: 2, profileTypes: { typical: 2 }, simulated: true, at: '2026-11-24T06:25:00.000Z' });
    expect(reads).toBe(1);

    version = 'v2';
    now += TRAFFIC_METRIC.refreshMs / 2;
    expect((await metrics.choose({ type: 0 }, origin)).weights!.id).toBe(first.weights!.id);
    expect(reads).toBe(1);
    now += TRAFFIC_METRIC.refreshMs;
    const again = await metrics.choose({ type: 0 }, origin);
    expect(reads).toBe(2);
    // the same content is the same metric (and hierarchy)
    expect(again.weights!.id).toBe(first.weights!.id);
  });
});
